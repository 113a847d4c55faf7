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

  find(mount: MountEntry): VolumeSummary | undefined {
    if (mount.server && mount.exportPath) {
      const exact = this.byEndpoint.get(endpointKey(mount.server, mount.exportPath));
      if (exact) return exact;
    }
    if (mount.mountPoint) {
      const byPath = this.byMountPath.get(normalizeExportPath(mount.mountPoint));
      if (byPath) return byPath;
    }
    // A templated or unlisted server with a unique export path still identifies the volume.
    if (mount.exportPath) return this.byExportPath.get(normalizeExportPath(mount.exportPath)) ?? undefined;
    return undefined;
  }
}

/** Ambiguous keys map to null so that they never link to the wrong volume. */
function addUnique(map: Map<string, VolumeSummary | null>, key: string, volume: VolumeSummary): void {
  map.set(key, map.has(key) ? null : volume);
}
