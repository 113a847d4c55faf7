import type { Rule } from '../../rules/rule';

/** Every manifest rule, one file each, in code order. */
export const manifestRules: readonly Rule[] = [];
