import type { Rule } from '../../rules/rule';

/** Every kernel-tuning rule, one file each, in code order. */
export const kernelRules: readonly Rule[] = [];
