import type { Rule } from '../../rules/rule';
import { manifestSyntaxError } from './ANF100-manifest-syntax-error';
import { duplicateKey } from './ANF101-duplicate-key';
import { unknownKey } from './ANF102-unknown-key';
import { invalidValue } from './ANF103-invalid-value';
import { missingRequiredKey } from './ANF104-missing-required-key';

/** Every manifest rule, one file each, in code order. */
export const manifestRules: readonly Rule[] = [manifestSyntaxError, duplicateKey, unknownKey, invalidValue, missingRequiredKey];
