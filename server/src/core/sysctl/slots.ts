import { SLOT_TABLE_BY_NCONNECT, SLOTS } from '../facts';
import type { MountEntry } from '../mounts/model';
import type { RuleContext } from '../rules/rule';
import { hostMounts, integerValue, liveSettings, nconnectOf } from './scope';
import type { KernelSetting } from './model';

export const MAX_SLOTS_KEY = 'sunrpc.tcp_max_slot_table_entries';
export const SLOT_KEYS: ReadonlySet<string> = new Set([MAX_SLOTS_KEY, 'sunrpc.tcp_slot_table_entries']);

/** Seed 001's recommended maximum for an nconnect value; null means "no change needed". */
export function tableEntryFor(nconnect: number): number | null {
  const row = SLOT_TABLE_BY_NCONNECT.value.find((r) => nconnect <= r.upToNconnect);
  return row ? row.maxSlotTableEntries : null;
}

/** Live, non-templated slot settings of this file with their integer values. */
export function slotSettings(context: RuleContext, keys: ReadonlySet<string> = SLOT_KEYS): { setting: KernelSetting; value: number }[] {
  return liveSettings(context.workspace, context.file)
    .filter((s) => keys.has(s.key))
    .map((setting) => ({ setting, value: integerValue(setting) }))
    .filter((s): s is { setting: KernelSetting; value: number } => s.value !== undefined && s.value >= SLOTS.slotTableEntriesMin.value && s.value <= SLOTS.slotTableEntriesMax.value);
}

/**
 * The host's NFS mounts with a known nconnect, smallest nconnect first. Cached per host mount list
 * (itself cached per workspace state): a script or runbook outside any host sees every mount of
 * the workspace, and sorting them again for each such file made large repositories quadratic.
 */
export function mountsByNconnect(context: RuleContext): readonly { mount: MountEntry; nconnect: number }[] {
  const mounts = hostMounts(context.workspace, context.file);
  let sorted = BY_NCONNECT.get(mounts);
  if (!sorted) {
    sorted = mounts
      .map((mount) => ({ mount, nconnect: nconnectOf(mount) }))
      .filter((m): m is { mount: MountEntry; nconnect: number } => m.nconnect !== undefined)
      .sort((a, b) => a.nconnect - b.nconnect);
    BY_NCONNECT.set(mounts, sorted);
  }
  return sorted;
}

const BY_NCONNECT = new WeakMap<readonly MountEntry[], readonly { mount: MountEntry; nconnect: number }[]>();

/** `fstab:3` for a mount. */
export function mountWhere(context: RuleContext, mount: MountEntry): string {
  const file = context.workspace.file(mount.uri);
  const line = (file?.source.positionAt(mount.span.start).line ?? 0) + 1;
  const name = mount.uri.slice(mount.uri.lastIndexOf('/') + 1);
  return `${name}:${line}`;
}

/** The span of a mount's nconnect option, or the mount. */
export function nconnectSpan(mount: MountEntry) {
  return [...mount.options].reverse().find((o) => o.name === 'nconnect')?.span ?? mount.span;
}
