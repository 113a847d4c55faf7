import type { VolumeSummary } from '../../manifest/volumeSummary';
import type { MountEntry } from '../../mounts/model';
import type { WorkspaceView } from '../../workspace/workspaceView';
import type { JobTarget, PerfJob } from '../model';

/**
 * Which mount, and so which volume, a test job reads and writes: the NFS mount whose mount point
 * holds the job's directory or file (the longest one), among the mounts of the host the job file
 * belongs to (workspace/hosts.ts); a job file outside every host folder links only when every
 * mount of the workspace that holds its path reaches the same volume.
 */
export interface JobLink {
  readonly target: JobTarget;
  readonly mount: MountEntry;
  readonly volume?: VolumeSummary;
  /** Where the mount is written, when it is not the job file's own host: `hana-node1`. */
  readonly elsewhere?: string;
}

function mountPointOf(mount: MountEntry): string | undefined {
  if (mount.templated) return undefined;
  const point = mount.mountPointDecoded ?? mount.mountPoint;
  return point?.startsWith('/') ? point.replace(/\/+$/, '') || '/' : undefined;
}

/** The mount (of `mounts`) whose mount point holds `path`, the deepest. */
function holding(mounts: readonly MountEntry[], path: string): MountEntry | undefined {
  let best: MountEntry | undefined;
  let bestLength = -1;
  for (const mount of mounts) {
    if (!mount.isNfs) continue;
    const point = mountPointOf(mount);
    if (point === undefined) continue;
    if (path === point || path.startsWith(point === '/' ? '/' : `${point}/`)) {
      if (point.length > bestLength) {
        best = mount;
        bestLength = point.length;
      }
    }
  }
  return best;
}

export function linkJob(workspace: WorkspaceView, uri: string, job: PerfJob): JobLink | undefined {
  if (!job.targets.known) return undefined;
  const host = workspace.hostOf(uri);
  for (const target of job.targets.value) {
    if (!target.path.startsWith('/')) continue;
    const path = target.path.replace(/\/+$/, '');
    const own = host ? holding(host.nfsMounts, path) : undefined;
    if (own) return { target, mount: own, volume: workspace.volumeForMount(own) };
    // A job file of no machine (outside every host folder): only when all the workspace's mounts of this path agree.
    if (host && host.kind !== 'file') continue;
    const model = workspace.hosts();
    const found: { mount: MountEntry; volume?: VolumeSummary; host: string }[] = [];
    for (const scope of model.scopes) {
      if (scope === host || scope.kind === 'documentation') continue;
      const mount = holding(scope.nfsMounts, path);
      if (mount) found.push({ mount, volume: workspace.volumeForMount(mount), host: scope.name });
    }
    const first = found[0];
    if (first?.volume && found.every((f) => f.volume === first.volume))
      return { target, mount: first.mount, volume: first.volume, elsewhere: first.host };
  }
  return undefined;
}
