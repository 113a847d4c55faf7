import type { ResolvedConfig } from '../config';
import { hostModelOf, type Host, type HostModel } from './hosts';
import { workloadFromMountPath } from '../facts/workloads';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { MountEntry } from '../mounts/model';
import type { KernelSetting } from '../sysctl/model';
import type { FileKind } from '../fileKind';
import { VolumeIndex } from './links';
import { parseFile } from './parseFile';
import { TerraformModules } from './terraformModules';
import type { ParsedFile } from './parsedFile';
import type { WorkloadSource, WorkspaceView } from './workspaceView';

type WorkloadDefaults = Pick<ResolvedConfig, 'defaultWorkload'>;

/**
 * The set of documents anf-lint knows, parsed once per version, with the cross-file indexes
 * rules need. The LSP keeps one for the open workspace; the CLI builds one per run.
 */
export class Workspace implements WorkspaceView {
  private readonly parsed = new Map<string, ParsedFile>();
  /** Terraform files read with the rest of their module (folder); see terraformModules.ts. */
  private readonly modules = new TerraformModules();
  private fileList: readonly ParsedFile[] | undefined;
  private derived: { volumes: VolumeSummary[]; mounts: MountEntry[]; settings: KernelSetting[]; index: VolumeIndex; mountsByVolume: Map<VolumeSummary, MountEntry[]> } | undefined;

  /**
   * `config` gives the workload a mount takes when nothing else does: one configuration for every
   * file, or each file's own (a multi-root editor workspace has one `.anf-lint.yaml` per folder).
   */
  constructor(private readonly config: WorkloadDefaults | ((uri: string) => WorkloadDefaults) = {}) {}

  /** Adds or replaces a document and returns it parsed (alone: `file(uri)` gives it as its Terraform module reads it). */
  set(uri: string, text: string, version = 0, kind?: FileKind): ParsedFile {
    const file = parseFile(uri, text, version, kind, this.parsed.get(uri));
    this.parsed.set(uri, file);
    this.modules.changed(uri, file);
    this.derived = undefined;
    this.fileList = undefined;
    return file;
  }

  delete(uri: string): void {
    if (this.parsed.delete(uri)) {
      this.modules.changed(uri, undefined);
      this.derived = undefined;
      this.fileList = undefined;
    }
  }

  file(uri: string): ParsedFile | undefined {
    const file = this.parsed.get(uri);
    return file && this.resolved(file);
  }

  /** The same array until a document changes, so rules can cache answers per workspace state. */
  files(): readonly ParsedFile[] {
    this.fileList ??= [...this.parsed.values()].map((f) => this.resolved(f));
    return this.fileList;
  }

  /**
   * Every document as read alone, without the Terraform module step: for questions about kinds and
   * URIs (which files depend on a change) that must not evaluate a module on every keystroke.
   */
  parsedAlone(): readonly ParsedFile[] {
    return [...this.parsed.values()];
  }

  private resolved(file: ParsedFile): ParsedFile {
    return this.modules.resolve(file, (uri) => this.parsed.get(uri));
  }

  volumes(): readonly VolumeSummary[] {
    return this.derive().volumes;
  }

  mounts(): readonly MountEntry[] {
    return this.derive().mounts;
  }

  settings(): readonly KernelSetting[] {
    return this.derive().settings;
  }

  volumeForMount(mount: MountEntry): VolumeSummary | undefined {
    return this.derive().index.find(mount);
  }

  mountsOfVolume(volume: VolumeSummary): readonly MountEntry[] {
    return this.derive().mountsByVolume.get(volume) ?? [];
  }

  workloadOf(mount: MountEntry): { workload: NonNullable<MountEntry['annotatedWorkload']>; source: WorkloadSource } | undefined {
    if (mount.annotatedWorkload) return { workload: mount.annotatedWorkload, source: 'annotation' };
    const volume = this.volumeForMount(mount);
    if (volume?.workload) return { workload: volume.workload, source: 'manifest' };
    // A strong naming convention (/hana/log, /sapmnt, /u01/oradata) says more than a repository-wide default.
    const byPath = workloadFromMountPath(mount.mountPointDecoded ?? mount.mountPoint);
    if (byPath) return { workload: byPath.workload, source: 'mount-path' };
    const fallback = (typeof this.config === 'function' ? this.config(mount.uri) : this.config).defaultWorkload;
    if (fallback) return { workload: fallback, source: 'configuration' };
    return undefined;
  }

  hosts(): HostModel {
    return hostModelOf(this.files());
  }

  hostOf(uri: string): Host | undefined {
    return this.hosts().hostOf(uri);
  }

  private derive() {
    if (this.derived) return this.derived;
    // Sorted by URI so that cross-file answers ("the first mount wins") do not depend on open order.
    const files = [...this.files()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
    const volumes = files.flatMap((f) => f.volumes);
    const mounts = files.flatMap((f) => f.mounts);
    const settings = files.flatMap((f) => f.settings);
    const index = new VolumeIndex(volumes);
    const mountsByVolume = new Map<VolumeSummary, MountEntry[]>();
    for (const mount of mounts) {
      const volume = index.find(mount);
      if (!volume) continue;
      const list = mountsByVolume.get(volume) ?? [];
      list.push(mount);
      mountsByVolume.set(volume, list);
    }
    this.derived = { volumes, mounts, settings, index, mountsByVolume };
    return this.derived;
  }
}
