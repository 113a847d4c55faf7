import type { VolumeSummary } from '../manifest/volumeSummary';
import type { MountEntry } from '../mounts/model';
import { hasPlaceholderAddress } from '../mounts/placeholders';
import type { WorkspaceView } from '../workspace/workspaceView';
import type { MountVolume } from './mountLine';

/**
 * The volume as a host already mounts it: "Insert mount command" writes the address, export path
 * and mount point that the host of `targetUri` (the file the line goes into, workspace/hosts.ts)
 * already uses for the volume, so a new line agrees with the host's existing ones. Without such a
 * mount (another host's mount point is that host's choice), the estate's values as they are.
 * Snippets and placeholder addresses (`<mount-target-ip>`, `${ip}`) are not mounts to copy.
 */
export function volumeAsMounted(
  workspace: WorkspaceView,
  volume: VolumeSummary,
  targetUri?: string,
): { volume: MountVolume; from?: MountEntry } {
  const host = targetUri !== undefined ? workspace.hostOf(targetUri)?.id : undefined;
  if (host === undefined) return { volume };
  const from = workspace
    .mountsOfVolume(volume)
    .find(
      (m) => m.isNfs && m.server !== undefined && !hasPlaceholderAddress(m) && workspace.hostOf(m.uri)?.id === host,
    );
  if (!from) return { volume };
  const mountPoint = from.mountPointDecoded ?? from.mountPoint;
  return {
    volume: {
      ...volume,
      mountTargets: [from.server!],
      ...(from.exportPath ? { exportPath: from.exportPath } : {}),
      ...(mountPoint && !hasPlaceholderAddress({ source: mountPoint }) ? { mountPath: mountPoint } : {}),
    },
    from,
  };
}
