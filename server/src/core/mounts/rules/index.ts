import type { Rule } from '../../rules/rule';

/** Every mount rule, one file each, in code order. */
export const mountRules: readonly Rule[] = [];
