import type { Rule } from '../../rules/rule';
import { configSyntax } from './ANF900-config-syntax';
import { unknownConfigKey } from './ANF901-unknown-config-key';
import { invalidConfigValue } from './ANF902-invalid-config-value';
import { unknownRuleCode } from './ANF903-unknown-rule-code';
import { unknownRegion } from './ANF904-unknown-region';
import { deprecatedConfigKey } from './ANF905-deprecated-config-key';

export const configRules: readonly Rule[] = [
  configSyntax,
  unknownConfigKey,
  invalidConfigValue,
  unknownRuleCode,
  unknownRegion,
  deprecatedConfigKey,
];
