import {
  checkEstateOf,
  checkEachIacPool,
  checkEachIacVolume,
  checkEachJob,
  checkEachMount,
  checkEachPool,
  checkEachSetting,
  checkEachVolume,
} from './items';
import type {
  EstateRuleShape,
  FileRuleShape,
  IacPoolRuleShape,
  IacVolumeRuleShape,
  JobRuleShape,
  MountRuleShape,
  PoolRuleShape,
  Rule,
  SettingRuleShape,
  VolumeRuleShape,
} from './shapes';

export type * from './shapes';

/** A rule of any shape; the engine owns the loop over an item rule's items (rules/items.ts). */
export function defineRule<Read>(rule: MountRuleShape<Read>): Rule;
export function defineRule(rule: SettingRuleShape): Rule;
export function defineRule(rule: VolumeRuleShape): Rule;
export function defineRule(rule: PoolRuleShape): Rule;
export function defineRule(rule: IacVolumeRuleShape): Rule;
export function defineRule(rule: IacPoolRuleShape): Rule;
export function defineRule(rule: JobRuleShape): Rule;
export function defineRule(rule: EstateRuleShape): Rule;
export function defineRule(rule: FileRuleShape): Rule;
export function defineRule(
  rule:
    | MountRuleShape<unknown>
    | SettingRuleShape
    | VolumeRuleShape
    | PoolRuleShape
    | IacVolumeRuleShape
    | IacPoolRuleShape
    | JobRuleShape
    | EstateRuleShape
    | FileRuleShape,
): Rule {
  if ('checkMount' in rule) {
    const shaped = rule as MountRuleShape<unknown>;
    return { ...shaped, check: (context) => checkEachMount(shaped, context) };
  }
  if ('checkSetting' in rule) return { ...rule, check: (context) => checkEachSetting(rule, context) };
  if ('checkVolume' in rule) return { ...rule, check: (context) => checkEachVolume(rule, context) };
  if ('checkPool' in rule) return { ...rule, check: (context) => checkEachPool(rule, context) };
  if ('checkIacVolume' in rule) return { ...rule, check: (context) => checkEachIacVolume(rule, context) };
  if ('checkIacPool' in rule) return { ...rule, check: (context) => checkEachIacPool(rule, context) };
  if ('checkJob' in rule) return { ...rule, check: (context) => checkEachJob(rule, context) };
  if ('checkEstate' in rule) return { ...rule, check: (context) => checkEstateOf(rule, context) };
  if ('checkFile' in rule) return { ...rule, check: rule.checkFile };
  return rule;
}
