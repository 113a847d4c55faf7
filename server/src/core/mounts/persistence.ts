import type { MountEntry } from './model';

/**
 * Whether a mount ends up as a line of /etc/fstab: an fstab entry itself, or a configuration
 * management resource that writes one (Salt `mount.mounted` with `persist` left at its default
 * True, `mount.fstab_present`; Puppet `mount` with `ensure => mounted|present|defined`). Rules about
 * fstab entries (ANF221: `_netdev`/`nofail`) judge these too; the carrier's own syntax is kept
 * by the fix (`optionsInsertion`).
 */
export function persistsToFstab(mount: MountEntry): boolean {
  return mount.origin === 'fstab' || mount.persistedIn === 'fstab';
}
