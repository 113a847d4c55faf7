/**
 * The items an item rule judges one by one, and the engine's loop over them for a whole run of the
 * rule on a file (rules/shapes.ts: checkMount, checkSetting, checkVolume, checkPool, checkIacVolume,
 * checkIacPool, checkJob).
 */
import { effectiveOptions } from '../mounts/catalog';
import type { MountEntry } from '../mounts/model';
import { JudgedMount, judgedMountsOf } from '../mounts/judged';
import type { LineItem } from '../workspace/parsedFile';
import type { ManifestDocument } from '../manifest/model';
import { pools, volumes } from '../manifest/visits';
import type * as Shapes from './shapes';
import type { Rule, RuleContext } from './shapes';

/** Every mount of the file (NFS or not) with its effective options, once per mount list. */
function anyMounts(mounts: readonly MountEntry[]): readonly JudgedMount[] {
  let judged = ANY.get(mounts);
  if (!judged) {
    judged = mounts.map((mount) => new JudgedMount(mount, effectiveOptions(mount)));
    ANY.set(mounts, judged);
  }
  return judged;
}
const ANY = new WeakMap<readonly MountEntry[], readonly JudgedMount[]>();

/** The mounts a mount rule judges in this file, in the file's order. */
export function mountsJudgedBy(rule: { readonly judges?: 'nfs mount' | 'any mount' }, context: RuleContext) {
  return rule.judges === 'any mount' ? anyMounts(context.file.mounts) : judgedMountsOf(context.file.mounts);
}

/** A whole run of a checkMount rule: its context read once, then each mount in the file's order. */
export function checkEachMount(rule: Shapes.MountRuleShape<unknown>, context: RuleContext): void {
  const read = rule.reads ? rule.reads.of(context) : undefined;
  const mounts = mountsJudgedBy(rule, context);
  for (let index = 0; index < mounts.length; index++) rule.checkMount(mounts[index]!, context, read);
}

/** A whole run of a checkSetting rule: each setting in the file's order. */
export function checkEachSetting(rule: Shapes.SettingRuleShape, context: RuleContext): void {
  const settings = context.file.settings;
  for (let index = 0; index < settings.length; index++) rule.checkSetting(settings[index]!, context);
}

/** A whole run of a checkVolume rule: each volume of the file's estate in document order. */
export function checkEachVolume(rule: Shapes.VolumeRuleShape, context: RuleContext): void {
  const estate = context.file.manifest as ManifestDocument | undefined;
  if (!estate) return;
  const visits = volumes(estate);
  for (let index = 0; index < visits.length; index++) rule.checkVolume(visits[index]!, context, estate);
}

/** A whole run of a checkPool rule: each capacity pool of the file's estate in document order. */
export function checkEachPool(rule: Shapes.PoolRuleShape, context: RuleContext): void {
  const estate = context.file.manifest as ManifestDocument | undefined;
  if (!estate) return;
  const visits = pools(estate);
  for (let index = 0; index < visits.length; index++) rule.checkPool(visits[index]!, context, estate);
}

/** A whole run of a checkIacVolume rule: each volume resource of the file's infrastructure code in document order. */
export function checkEachIacVolume(rule: Shapes.IacVolumeRuleShape, context: RuleContext): void {
  const estate = context.file.iac;
  if (!estate) return;
  const list = estate.volumes;
  for (let index = 0; index < list.length; index++) rule.checkIacVolume(list[index]!, context, estate);
}

/** A whole run of a checkIacPool rule: each capacity pool resource of the file's infrastructure code in document order. */
export function checkEachIacPool(rule: Shapes.IacPoolRuleShape, context: RuleContext): void {
  const estate = context.file.iac;
  if (!estate) return;
  const list = estate.pools;
  for (let index = 0; index < list.length; index++) rule.checkIacPool(list[index]!, context, estate);
}

/** A whole run of a checkEstate rule: the file's estate, when it has one. */
export function checkEstateOf(rule: Shapes.EstateRuleShape, context: RuleContext): void {
  const estate = context.file.manifest as ManifestDocument | undefined;
  if (estate) rule.checkEstate(estate, context);
}

/** A whole run of a checkJob rule: each job of the file's performance test in file order. */
export function checkEachJob(rule: Shapes.JobRuleShape, context: RuleContext): void {
  const jobs = context.file.perftest?.jobs ?? [];
  for (let index = 0; index < jobs.length; index++) rule.checkJob(jobs[index]!, context);
}

/** One mount with its effective options, for the rules that judge it alone (an edited mount, rules/engine.ts). */
export function judgedMountOf(mount: MountEntry): JudgedMount {
  return new JudgedMount(mount, effectiveOptions(mount));
}

/**
 * Judges one item of a file alone with an item rule (rules/engine.ts, an edited item): reports what
 * the rule's whole run reports of that item. `mount` gives the item's JudgedMount (made once per
 * item and shared by the rules); `read` is the rule's `reads.of` for the file.
 */
export function checkItemAlone(
  rule: Rule,
  item: LineItem,
  mount: () => JudgedMount,
  context: RuleContext,
  read: unknown,
): void {
  if ('key' in item) {
    rule.checkSetting?.(item, context);
    return;
  }
  if (!rule.checkMount || (rule.judges !== 'any mount' && !item.isNfs)) return;
  rule.checkMount(mount(), context, read);
}
