import type { EstateInventory, InventoryTotals, InventoryVolume } from './inventory';

/**
 * What changes between two inventories of the same repository (a git ref and the work tree): per
 * volume and in total, throughput, capacity (quota) and monthly cost. A volume is the same volume
 * when it is written in the same file under the same account, pool and name (or address).
 */
export interface VolumeChange {
  readonly change: 'added' | 'removed' | 'changed';
  readonly before?: InventoryVolume;
  readonly after?: InventoryVolume;
}

export interface EstateDiff {
  /** Added, removed and changed volumes (unchanged ones are left out), in the order of the files. */
  readonly volumes: readonly VolumeChange[];
  readonly before: InventoryTotals;
  readonly after: InventoryTotals;
}

/** The values a pull-request comment compares; a change of any of them lists the volume. */
const COMPARED = ['serviceLevel', 'quotaGiB', 'throughputMiBps', 'iops', 'monthlyUsd'] as const;

export function volumeKey(volume: InventoryVolume): string {
  return [volume.uri, volume.source, volume.account ?? '', volume.pool ?? '', volume.name].join('\n');
}

/** Keys made unique: a second volume with the same key (a repeated block read twice) gets `#2`. */
function keyed(volumes: readonly InventoryVolume[]): Map<string, InventoryVolume> {
  const map = new Map<string, InventoryVolume>();
  for (const volume of volumes) {
    const key = volumeKey(volume);
    let unique = key;
    for (let n = 2; map.has(unique); n++) unique = `${key}#${n}`;
    map.set(unique, volume);
  }
  return map;
}

export function diffInventories(before: EstateInventory, after: EstateInventory): EstateDiff {
  const old = keyed(before.volumes);
  const now = keyed(after.volumes);
  const volumes: VolumeChange[] = [];
  for (const [key, volume] of now) {
    const was = old.get(key);
    if (!was) volumes.push({ change: 'added', after: volume });
    else if (COMPARED.some((field) => was[field] !== volume[field]))
      volumes.push({ change: 'changed', before: was, after: volume });
  }
  for (const [key, volume] of old) if (!now.has(key)) volumes.push({ change: 'removed', before: volume });
  volumes.sort((a, b) => orderOf(a).localeCompare(orderOf(b)));
  return { volumes, before: before.totals, after: after.totals };
}

function orderOf(change: VolumeChange): string {
  const v = (change.after ?? change.before)!;
  return `${v.uri}\n${String(v.line).padStart(9, '0')}\n${v.name}`;
}
