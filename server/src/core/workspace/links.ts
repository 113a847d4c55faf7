import type { VolumeSummary } from '../manifest/volumeSummary';
import type { MountEntry } from '../mounts/model';
import { normalizeExportPath, normalizeServer } from '../mounts/endpoint';

export { normalizeExportPath, normalizeServer };

function endpointKey(server: string, exportPath: string): string {
  return `${normalizeServer(server)}|${normalizeExportPath(exportPath)}`;
}

/** Finds the volume a mount reaches, in O(1) per mount. Built once per workspace change. */
export class VolumeIndex {
  private readonly byEndpoint = new Map<string, VolumeSummary>();
  private readonly byExportPath = new Map<string, VolumeSummary | null>();
  private readonly byMountPath = new Map<string, VolumeSummary | null>();

  constructor(volumes: readonly VolumeSummary[]) {
    for (const volume of volumes) {
      if (volume.exportPath) {
        for (const target of volume.mountTargets) this.byEndpoint.set(endpointKey(target, volume.exportPath), volume);
        addUnique(this.byExportPath, normalizeExportPath(volume.exportPath), volume);
      }
      if (volume.mountPath) addUnique(this.byMountPath, normalizeExportPath(volume.mountPath), volume);
    }
  }

  /** The volume whose client `mountPath` this is, if exactly one volume has it. */
  byClientPath(mountPoint: string): VolumeSummary | undefined {
    return this.byMountPath.get(normalizeExportPath(mountPoint)) ?? undefined;
  }

  /**
   * Each mount's answer: about 30 rules ask for the same mount, and the paths' normalizing was a
   * tenth of a 1,000-file scan's checks. A mount's endpoint and path never change (an edit makes
   * new mounts; a kept line's mount only has its spans moved), and the index lives as long as the
   * estate it was built from.
   */
  private readonly found = new WeakMap<MountEntry, VolumeSummary | null>();

  find(mount: MountEntry): VolumeSummary | undefined {
    // No estate (a lone fstab): nothing to normalize and look up, for every mount and rule.
    if (this.byExportPath.size === 0 && this.byMountPath.size === 0) return undefined;
    let volume = this.found.get(mount);
    if (volume === undefined) {
      volume = this.search(mount) ?? null;
      this.found.set(mount, volume);
    }
    return volume ?? undefined;
  }

  private search(mount: MountEntry): VolumeSummary | undefined {
    if (mount.server && mount.exportPath) {
      const exact = this.byEndpoint.get(endpointKey(mount.server, mount.exportPath));
      if (exact) return exact;
    }
    if (mount.mountPoint) {
      const byPath = this.byMountPath.get(normalizeExportPath(mount.mountPoint));
      // The same mount path but another server or export: the mount reaches something else (ANF226 says so).
      if (byPath && !endpointDiffers(mount, byPath)) return byPath;
    }
    // A templated or unlisted server with a unique export path still identifies the volume.
    if (mount.exportPath) return this.byExportPath.get(normalizeExportPath(mount.exportPath)) ?? undefined;
    return undefined;
  }
}

/**
 * A manifest volume whose `mountPath` the mount uses while its server or export path say it
 * reaches something else; undefined when they agree or cannot be compared (templated, not written).
 */
export function mountPathMismatch(
  index: VolumeIndex,
  mount: MountEntry,
): { volume: VolumeSummary; server: boolean; exportPath: boolean } | undefined {
  if (!mount.mountPoint) return undefined;
  const volume = index.byClientPath(mount.mountPoint);
  if (!volume) return undefined;
  const server = serverDiffers(mount, volume);
  const exportPath = exportDiffers(mount, volume);
  return server || exportPath ? { volume, server, exportPath } : undefined;
}

const TEMPLATED = /[{}$%<>`]/;

/** An IPv4 or IPv6 literal, not a DNS name. */
function isAddress(server: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(server) || server.includes(':');
}

function serverDiffers(mount: MountEntry, volume: VolumeSummary): boolean {
  if (!mount.server || TEMPLATED.test(mount.server) || volume.mountTargets.length === 0) return false;
  const server = normalizeServer(mount.server);
  // A DNS name and an address cannot be compared without DNS: only like with like.
  const comparable = volume.mountTargets.map(normalizeServer).filter((t) => isAddress(t) === isAddress(server));
  return comparable.length > 0 && !comparable.includes(server);
}

function exportDiffers(mount: MountEntry, volume: VolumeSummary): boolean {
  if (!mount.exportPath || TEMPLATED.test(mount.exportPath) || !volume.exportPath) return false;
  const mine = normalizeExportPath(mount.exportPath);
  const theirs = normalizeExportPath(volume.exportPath);
  // A subdirectory of the volume's export is still the volume (`/sapQAS/sapmntQAS`).
  return mine !== theirs && !mine.startsWith(`${theirs}/`);
}

function endpointDiffers(mount: MountEntry, volume: VolumeSummary): boolean {
  return serverDiffers(mount, volume) || exportDiffers(mount, volume);
}

/** Ambiguous keys map to null so that they never link to the wrong volume. */
function addUnique(map: Map<string, VolumeSummary | null>, key: string, volume: VolumeSummary): void {
  map.set(key, map.has(key) ? null : volume);
}
