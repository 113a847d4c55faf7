import { effectiveOptions, type EffectiveOptions } from './catalog';
import type { MountEntry } from './model';

/**
 * An NFS mount of the file with its effective options, and a slot for its answers about the
 * workspace (target, workload, volume) while the workspace state is the one they were worked out
 * in (`answersOf` in rules/common.ts, which owns the slot's type): a rule asks them through the
 * record without a look-up by mount. Here, not in rules/, so the rule engine can make them
 * without importing a rule module.
 */
export class JudgedMount {
  /** The state `answers` belong to; another state finds (or makes) its own record. */
  answersState: object | undefined = undefined;
  answers: object | undefined = undefined;

  constructor(
    readonly mount: MountEntry,
    readonly effective: EffectiveOptions,
  ) {}
}

/**
 * A file's NFS mounts with their effective options. Built once per parsed file and shared by
 * every mount rule (read-only): per-rule rebuilding meant a WeakMap look-up per mount per rule,
 * which dominated linting a large fstab.
 */
export function judgedMountsOf(mounts: readonly MountEntry[]): readonly JudgedMount[] {
  let judged = JUDGED.get(mounts);
  if (!judged) {
    const made: JudgedMount[] = [];
    for (const mount of mounts) if (mount.isNfs) made.push(new JudgedMount(mount, effectiveOptions(mount)));
    judged = made;
    JUDGED.set(mounts, judged);
  }
  return judged;
}

const JUDGED = new WeakMap<readonly MountEntry[], readonly JudgedMount[]>();
