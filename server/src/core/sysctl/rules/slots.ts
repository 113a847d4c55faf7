import { SLOT_TABLE_BY_NCONNECT, SLOTS } from '../../facts';
import type { MountEntry } from '../../mounts/model';
import type { RuleContext } from '../../rules/rule';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { formatNumber } from '../../units/units';
import {
  hostMounts,
  hostMountsOfVolume,
  hostVolumes,
  integerValue,
  lastNconnect,
  maxNconnect,
  nconnectOf,
  overriddenBy,
  sameItems,
  scopeOf,
} from './scope';
import type { KernelSetting } from '../model';

export const MAX_SLOTS_KEY = 'sunrpc.tcp_max_slot_table_entries';
export const SLOT_KEYS: ReadonlySet<string> = new Set([MAX_SLOTS_KEY, 'sunrpc.tcp_slot_table_entries']);

/** Seed 001's recommended maximum for an nconnect value; null means "no change needed". */
export function tableEntryFor(nconnect: number): number | null {
  const row = SLOT_TABLE_BY_NCONNECT.value.find((r) => nconnect <= r.upToNconnect);
  return row ? row.maxSlotTableEntries : null;
}

/** Live, non-templated slot settings of this file with their integer values. */
export function slotSettings(
  context: RuleContext,
  keys: ReadonlySet<string> = SLOT_KEYS,
): { setting: KernelSetting; value: number }[] {
  // The key first: a script has hundreds of settings and a few slot ones (liveSettings' test on each, in the same order).
  const scope = scopeOf(context.workspace, context.file);
  const found: { setting: KernelSetting; value: number }[] = [];
  for (const setting of context.file.settings) {
    if (!keys.has(setting.key) || setting.templated || overriddenBy(scope, setting)) continue;
    const value = integerValue(setting);
    if (value !== undefined && value >= SLOTS.slotTableEntriesMin.value && value <= SLOTS.slotTableEntriesMax.value)
      found.push({ setting, value });
  }
  return found;
}

/** A mount and its nconnect. */
export interface MountNconnect {
  readonly mount: MountEntry;
  readonly nconnect: number;
}

/**
 * The host's NFS mounts with the smallest and the largest known nconnect: the first mount of the
 * host's list with the smallest, the last with the largest (the ends of the list sorted by nconnect,
 * as the slot rules read it). One pass, cached per host mount list (itself cached per workspace
 * state): a script or runbook outside any host sees every mount of the workspace. A list holding
 * the same mounts as the one before it (a script re-read after an edit that touched no mount keeps
 * them, moved in place) reuses its answer: a mount's nconnect is its own option's, which a kept
 * mount never changes. Before session 8 the slot rules sorted every mount on every version of a
 * 5,000-line script (about 0.6 ms an edit, bench/notes.md).
 */
export function nconnectExtremes(context: RuleContext): NconnectExtremes {
  const mounts = hostMounts(context.workspace, context.file);
  let found = BY_NCONNECT.get(mounts);
  if (!found) {
    const first = mounts[0];
    const last = first ? LAST_BY_NCONNECT.get(first) : undefined;
    found = last && sameItems(last.mounts, mounts) ? last.found : extremesOf(mounts);
    BY_NCONNECT.set(mounts, found);
    if (first) LAST_BY_NCONNECT.set(first, { mounts, found });
  }
  return found;
}

export interface NconnectExtremes {
  readonly smallest?: MountNconnect;
  readonly largest?: MountNconnect;
}

function extremesOf(mounts: readonly MountEntry[]): NconnectExtremes {
  let smallest: MountNconnect | undefined;
  let largest: MountNconnect | undefined;
  for (const mount of mounts) {
    const nconnect = nconnectOf(mount);
    if (nconnect === undefined) continue;
    // The first of the smallest, the last of the largest: a stable sort's ends.
    if (!smallest || nconnect < smallest.nconnect) smallest = { mount, nconnect };
    if (!largest || nconnect >= largest.nconnect) largest = { mount, nconnect };
  }
  return { ...(smallest ? { smallest } : {}), ...(largest ? { largest } : {}) };
}

const BY_NCONNECT = new WeakMap<readonly MountEntry[], NconnectExtremes>();
/** By a host mount list's first mount: the list last asked about and its answer. */
const LAST_BY_NCONNECT = new WeakMap<
  MountEntry,
  { readonly mounts: readonly MountEntry[]; readonly found: NconnectExtremes }
>();

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
    return {
      value: busiest.fits,
      why: ` (volume ${busiest.volume.name}: ${formatNumber(busiest.clients)} clients × nconnect=${busiest.nconnect} must stay within ${formatNumber(SLOTS.endpointTotalMax.value)} slots per storage endpoint, see ANF318)`,
    };
  }
  return { value: perConnection, why: '' };
}
