import type { Rule } from '../rule';
import { unusedSuppression } from './ANF001-unused-suppression';
import { ruleFailure } from './ANF002-rule-failure';
import { parserFailure } from './ANF003-parser-failure';

export const generalRules: readonly Rule[] = [unusedSuppression, ruleFailure, parserFailure];
