import { SLOT_TABLE_BY_NCONNECT, SLOTS } from '../../facts';
import type { MountEntry } from '../../mounts/model';
import type { RuleContext } from '../../rules/rule';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { formatNumber } from '../../units/units';
import { hostMounts, hostMountsOfVolume, hostVolumes, integerValue, liveSettings, lastNconnect, maxNconnect, nconnectOf } from './scope';
import type { KernelSetting } from '../model';

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
  return lastNconnect(mount)?.span ?? mount.span;
}

/** The volume of a host whose clients × nconnect is largest: it decides the endpoint-wide slot budget (ANF318). */
export interface BusiestVolume {
  readonly volume: VolumeSummary;
  readonly clients: number;
  readonly nconnect: number;
  /** The most slots per connection that keep clients × nconnect × slots within the endpoint's budget. */
  readonly fits: number;
}

/**
 * The host's busiest volume with a client count (its own mounts of it decide nconnect; the host's
 * mounts when it has none), or undefined. Volumes only another host mounts never count.
 */
export function busiestVolume(context: RuleContext): BusiestVolume | undefined {
  const { workspace, file } = context;
  const hostMountList = hostMounts(workspace, file);
  let busiest: BusiestVolume | undefined;
  for (const volume of hostVolumes(workspace, file)) {
    const clients = volume.clients ?? 0;
    if (clients <= 0) continue;
    const mounts = hostMountsOfVolume(workspace, file, volume);
    const nconnect = maxNconnect(mounts.length > 0 ? mounts : hostMountList);
    if (!busiest || clients * nconnect > busiest.clients * busiest.nconnect) {
      busiest = { volume, clients, nconnect, fits: Math.floor(SLOTS.endpointTotalMax.value / (clients * nconnect)) };
    }
  }
  return busiest;
}

/**
 * The one slot-table value the slot rules recommend for a host (ANF316, ANF317, ANF318, ANF319 say
 * the same number): 128, what ANF executes per connection, or less where a volume's clients would
 * overrun the endpoint's budget with it. `why` is empty for 128.
 */
export function recommendedSlots(context: RuleContext): { readonly value: number; readonly why: string } {
  const perConnection = SLOTS.anfInFlightPerConnection.value;
  const busiest = busiestVolume(context);
  if (busiest && busiest.fits < perConnection && busiest.fits >= SLOTS.slotTableEntriesMin.value) {
    return { value: busiest.fits, why: ` (volume ${busiest.volume.name}: ${formatNumber(busiest.clients)} clients × nconnect=${busiest.nconnect} must stay within ${formatNumber(SLOTS.endpointTotalMax.value)} slots per storage endpoint, see ANF318)` };
  }
  return { value: perConnection, why: '' };
}
