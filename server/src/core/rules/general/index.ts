import type { Rule } from '../rule';
import { unusedSuppression } from './ANF001-unused-suppression';
import { ruleFailure } from './ANF002-rule-failure';
import { parserFailure } from './ANF003-parser-failure';
import { findingsNotShown } from './ANF010-findings-not-shown';
import { fileTooLarge } from './ANF011-file-too-large';

export const generalRules: readonly Rule[] = [
  unusedSuppression,
  ruleFailure,
  parserFailure,
  findingsNotShown,
  fileTooLarge,
];
