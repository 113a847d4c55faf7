import type { Rule } from '../../rules/rule';
import { perftestSyntax } from './ANF505-perftest-syntax';

/** Rules for performance-test job files: fio and vdbench (ANF500-ANF509, issue 30). */
export const perftestRules: readonly Rule[] = [perftestSyntax];
