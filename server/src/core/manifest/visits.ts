import type { ManifestAccount, ManifestDocument, ManifestPool, ManifestVolume } from './model';

export interface PoolVisit {
  readonly account: ManifestAccount;
  readonly pool: ManifestPool;
}

export interface VolumeVisit extends PoolVisit {
  readonly volume: ManifestVolume;
}

/**
 * Every pool, then every volume, in document order. Most manifest rules walk them on every lint
 * (a keystroke): a manifest read from YAML or JSON is complete once read and a new object per
 * version, so its lists are made once and shared by the rules. Infrastructure code's model is
 * assembled across files (iac/), so its lists are made on each call.
 */
export function pools(manifest: ManifestDocument): readonly PoolVisit[] {
  let list = POOL_VISITS.get(manifest);
  if (list) return list;
  list = [];
  for (const account of manifest.accounts) for (const pool of account.pools) list.push({ account, pool });
  if (manifest.format !== 'iac') POOL_VISITS.set(manifest, list);
  return list;
}

export function volumes(manifest: ManifestDocument): readonly VolumeVisit[] {
  let list = VOLUME_VISITS.get(manifest);
  if (list) return list;
  list = [];
  for (const account of manifest.accounts)
    for (const pool of account.pools) for (const volume of pool.volumes) list.push({ account, pool, volume });
  if (manifest.format !== 'iac') VOLUME_VISITS.set(manifest, list);
  return list;
}

const POOL_VISITS = new WeakMap<ManifestDocument, PoolVisit[]>();
const VOLUME_VISITS = new WeakMap<ManifestDocument, VolumeVisit[]>();
