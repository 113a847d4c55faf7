import type { WorkloadKind } from '../facts';
import type { Host, HostModel } from './hosts';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { MountEntry } from '../mounts/model';
import type { KernelSetting } from '../sysctl/model';
import type { ParsedFile } from './parsedFile';

/** Where a mount's workload came from, strongest first. */
export type WorkloadSource = 'annotation' | 'manifest' | 'mount-path' | 'configuration';

/** What a rule may ask about the rest of the workspace. Read-only; answers are cached per change. */
export interface WorkspaceView {
  file(uri: string): ParsedFile | undefined;
  files(): readonly ParsedFile[];
  /** The files `files()` gives that may hold NetApp accounts, pools, volumes, subnets or NSG associations, in its order (workspace.ts). */
  estateFiles(): readonly ParsedFile[];
  /** The files of one folder (URI up to its last `/`) as read alone, without the Terraform module step. */
  folderFiles(folder: string): readonly ParsedFile[];
  volumes(): readonly VolumeSummary[];
  mounts(): readonly MountEntry[];
  settings(): readonly KernelSetting[];
  /** The manifest volume a mount reaches: by server and export path, else by client mount path. */
  volumeForMount(mount: MountEntry): VolumeSummary | undefined;
  /** The mounts that reach a manifest volume. */
  mountsOfVolume(volume: VolumeSummary): readonly MountEntry[];
  /** A mount's workload: its annotation, else its manifest volume's, else its mount point's convention (`/hana/log`), else the configured default. */
  workloadOf(mount: MountEntry): { readonly workload: WorkloadKind; readonly source: WorkloadSource } | undefined;
  /** Which files describe one machine (workspace/hosts.ts), computed once per workspace state. */
  hosts(): HostModel;
  /** The host (or own scope) a file belongs to. */
  hostOf(uri: string): Host | undefined;
}
