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
import { ParameterFiles, readsParameterFiles } from './parameterFiles';
import { ArmLinks } from './armLinks';
import { TridentLinks } from './tridentLinks';
import type { ParsedFile } from './parsedFile';
import type { WorkloadSource, WorkspaceView } from './workspaceView';

const NO_FILES: readonly ParsedFile[] = [];

type WorkloadDefaults = Pick<ResolvedConfig, 'defaultWorkload'> & Partial<Pick<ResolvedConfig, 'parameterFiles'>>;

/**
 * The set of documents anf-lint knows, parsed once per version, with the cross-file indexes
 * rules need. The LSP keeps one for the open workspace; the CLI builds one per run.
 */
export class Workspace implements WorkspaceView {
  private readonly parsed = new Map<string, ParsedFile>();
  /** Terraform files read with the rest of their module (folder); see terraformModules.ts. */
  private readonly modules = new TerraformModules();
  /** ARM templates and Bicep files read with their parameters files; see parameterFiles.ts. */
  private readonly parameters = new ParameterFiles();
  /** ARM templates read with the templates their nested deployments link; see armLinks.ts. */
  private readonly armLinks = new ArmLinks();
  /** Trident claims read with the StorageClasses and backends of other files; see tridentLinks.ts. */
  private readonly trident = new TridentLinks();
  private fileList: readonly ParsedFile[] | undefined;
  /** `estateFiles()` and `folderFiles()` of this state (cleared with `fileList`). */
  private estateList: readonly ParsedFile[] | undefined;
  private byFolder: Map<string, ParsedFile[]> | undefined;
  private derived:
    | {
        volumes: readonly VolumeSummary[];
        mounts: MountEntry[];
        settings: KernelSetting[];
        index: VolumeIndex;
        mountsByVolume?: Map<VolumeSummary, MountEntry[]>;
      }
    | undefined;
  /**
   * The volumes and their index outlive changes of files without volumes (an fstab edit): answers
   * cached per volume list (a mount's target, workload and volume; rules/engine.ts's LintMemo) stay valid.
   */
  private volumeState: { volumes: readonly VolumeSummary[]; index: VolumeIndex } | undefined;

  /**
   * `config` gives the workload a mount takes when nothing else does: one configuration for every
   * file, or each file's own (a multi-root editor workspace has one `.anf-lint.yaml` per folder).
   */
  constructor(private readonly config: WorkloadDefaults | ((uri: string) => WorkloadDefaults) = {}) {}

  /**
   * Documents added with `setLater`, not parsed yet, in the order they came: any question about the
   * workspace (or a `set`/`delete`) parses them first, in that order, so every answer is the one
   * an eager `set` of each would give. A language server restarted on an unchanged repository takes
   * every file's findings from its scan cache and need not parse the files at all (issue 29).
   */
  private readonly pending = new Map<string, { text: string; version: number; kind: FileKind | undefined }>();

  /** Adds or replaces a document, parsed when the workspace is first asked anything (see `pending`). */
  setLater(uri: string, text: string, version = 0, kind?: FileKind): void {
    // A document already parsed is replaced in order: the earlier pending ones first.
    if (this.parsed.has(uri)) {
      this.set(uri, text, version, kind);
      return;
    }
    this.pending.set(uri, { text, version, kind });
  }

  /**
   * Parses the documents added with `setLater`, in order: all of them, or until `enough()` says so
   * after one (the language server parses in slices). True when none is left.
   */
  settle(enough?: () => boolean): boolean {
    for (const [uri, { text, version, kind }] of this.pending) {
      this.pending.delete(uri);
      this.apply(uri, text, version, kind);
      if (enough?.()) break;
    }
    return this.pending.size === 0;
  }

  /** How many documents are not parsed yet. */
  get unparsed(): number {
    return this.pending.size;
  }

  /** Whether a document was added with `setLater` and is not parsed yet. */
  isPending(uri: string): boolean {
    return this.pending.has(uri);
  }

  /** Whether the workspace holds a document (parsed or not yet). */
  has(uri: string): boolean {
    return this.parsed.has(uri) || this.pending.has(uri);
  }

  /** Every document's URI, without parsing any. */
  uris(): string[] {
    return [...this.parsed.keys(), ...[...this.pending.keys()].filter((u) => !this.parsed.has(u))];
  }

  /** A document's text, without parsing it. */
  textOf(uri: string): string | undefined {
    return this.pending.get(uri)?.text ?? this.parsed.get(uri)?.source.text;
  }

  /** Adds or replaces a document and returns it parsed (alone: `file(uri)` gives it as its Terraform module reads it). */
  set(uri: string, text: string, version = 0, kind?: FileKind): ParsedFile {
    this.settle();
    return this.apply(uri, text, version, kind);
  }

  private apply(uri: string, text: string, version: number, kind: FileKind | undefined): ParsedFile {
    const before = this.parsed.get(uri);
    const file = parseFile(uri, text, version, kind, before);
    this.parsed.set(uri, file);
    const parametersChanged = this.parameters.changed(uri, file);
    // Both told (no short circuit): each keeps its own index of the files.
    const armChanged = this.armLinks.changed(uri, file);
    const linksChanged = this.trident.changed(uri, file) || armChanged;
    const moduleChanged = this.modules.changed(uri, file) || parametersChanged || linksChanged;
    this.derived = undefined;
    this.forgetLists();
    // The volume list is kept across edits of files without volumes (lineReuse.ts: mount rules'
    // answers outlive an fstab edit); a Terraform module's files change each other's volumes.
    if (moduleChanged || (before?.volumes.length ?? 0) > 0 || file.volumes.length > 0) this.volumeState = undefined;
    return file;
  }

  delete(uri: string): void {
    this.settle();
    const before = this.parsed.get(uri);
    if (before && this.parsed.delete(uri)) {
      const parametersChanged = this.parameters.changed(uri, undefined);
      const armChanged = this.armLinks.changed(uri, undefined);
      const linksChanged = this.trident.changed(uri, undefined) || armChanged;
      const moduleChanged = this.modules.changed(uri, undefined) || parametersChanged || linksChanged;
      this.derived = undefined;
      this.forgetLists();
      if (moduleChanged || before.volumes.length > 0) this.volumeState = undefined;
    }
  }

  file(uri: string): ParsedFile | undefined {
    this.settle();
    const file = this.parsed.get(uri);
    return file && this.resolved(file);
  }

  /** The same array until a document changes, so rules can cache answers per workspace state. */
  files(): readonly ParsedFile[] {
    this.settle();
    this.fileList ??= [...this.parsed.values()].map((f) => this.resolved(f));
    return this.fileList;
  }

  /**
   * The documents whose reading may hold a NetApp account, pool or volume, a subnet or an NSG
   * association, as `files()` gives them and in its order: for questions about resources anywhere in
   * the workspace (a pool's volumes, the volumes in a subnet). A `.tf` file that surely holds none as
   * its module reads it (`TerraformModules.holdsNoResources`) is left out, so its folder is not read
   * for the question. The same array until a document changes.
   */
  estateFiles(): readonly ParsedFile[] {
    this.settle();
    if (!this.estateList) {
      const get = (uri: string) => this.parsed.get(uri);
      const alone = [...this.parsed.values()];
      const kept = alone.map((f) => !this.modules.holdsNoResources(f, get));
      this.estateList = this.fileList
        ? this.fileList.filter((_, i) => kept[i])
        : alone.flatMap((f, i) => (kept[i] ? [this.resolved(f)] : []));
    }
    return this.estateList;
  }

  /**
   * The documents of one folder (a URI up to and with its last `/`) as read alone, without the
   * Terraform module step (ANF423 reads the `variable` blocks of a `.tfvars` file's folder). The
   * same array until a document changes.
   */
  folderFiles(folder: string): readonly ParsedFile[] {
    this.settle();
    if (!this.byFolder) {
      this.byFolder = new Map();
      for (const f of this.parsed.values()) {
        const at = f.uri.slice(0, f.uri.lastIndexOf('/') + 1);
        const list = this.byFolder.get(at);
        if (list) list.push(f);
        else this.byFolder.set(at, [f]);
      }
    }
    return this.byFolder.get(folder) ?? NO_FILES;
  }

  /** Folder readings the Terraform module step has made so far (a count for tests and measurements). */
  get moduleReadings(): number {
    return this.modules.readings;
  }

  private forgetLists(): void {
    this.fileList = undefined;
    this.estateList = undefined;
    this.byFolder = undefined;
  }

  /**
   * Every document as read alone, without the Terraform module step: for questions about kinds and
   * URIs (which files depend on a change) that must not evaluate a module on every keystroke.
   */
  parsedAlone(): readonly ParsedFile[] {
    this.settle();
    return [...this.parsed.values()];
  }

  private resolved(file: ParsedFile): ParsedFile {
    const get = (uri: string) => this.parsed.get(uri);
    const read = this.trident.resolve(this.armLinks.resolve(this.modules.resolve(file, get), get), get);
    // Only templates and parameters files are read with parameters files: asking every file for its
    // configuration cost a lookup per folder (an lstat per candidate name) of every file of the
    // context, 0.1 s of a `--staged` run in a 5,000-file repository.
    if (!readsParameterFiles(read.kind)) return read;
    const configured = (typeof this.config === 'function' ? this.config(file.uri) : this.config).parameterFiles;
    return this.parameters.resolve(read, get, configured, (f) => this.armLinks.linker(f, get));
  }

  volumes(): readonly VolumeSummary[] {
    return this.volumeIndex().volumes;
  }

  mounts(): readonly MountEntry[] {
    return this.derive().mounts;
  }

  settings(): readonly KernelSetting[] {
    return this.derive().settings;
  }

  volumeForMount(mount: MountEntry): VolumeSummary | undefined {
    return this.volumeIndex().index.find(mount);
  }

  mountsOfVolume(volume: VolumeSummary): readonly MountEntry[] {
    const derived = this.derive();
    // Built when first asked (manifest rules): a mount rule never needs it, and it reads every mount.
    if (!derived.mountsByVolume) {
      const mountsByVolume = new Map<VolumeSummary, MountEntry[]>();
      for (const mount of derived.mounts) {
        const found = derived.index.find(mount);
        if (!found) continue;
        const list = mountsByVolume.get(found) ?? [];
        list.push(mount);
        mountsByVolume.set(found, list);
      }
      derived.mountsByVolume = mountsByVolume;
    }
    return derived.mountsByVolume.get(volume) ?? [];
  }

  workloadOf(
    mount: MountEntry,
  ): { workload: NonNullable<MountEntry['annotatedWorkload']>; source: WorkloadSource } | undefined {
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
    // From the last state's model: an edit makes only the edited files' hosts again (hosts.ts).
    this.lastHosts = hostModelOf(this.files(), this.lastHosts);
    return this.lastHosts;
  }
  private lastHosts: HostModel | undefined;

  hostOf(uri: string): Host | undefined {
    return this.hosts().hostOf(uri);
  }

  /** Sorted by URI so that cross-file answers ("the first mount wins") do not depend on open order. */
  private sortedFiles(): ParsedFile[] {
    return [...this.files()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** The volumes and their index alone: a mount rule asks for them on every edit, which must not copy every mount of the workspace. */
  private volumeIndex(): { volumes: readonly VolumeSummary[]; index: VolumeIndex } {
    this.settle();
    if (!this.volumeState) {
      const volumes = this.sortedFiles().flatMap((f) => f.volumes);
      this.volumeState = { volumes, index: new VolumeIndex(volumes) };
    }
    return this.volumeState;
  }

  private derive() {
    this.settle();
    if (this.derived) return this.derived;
    const files = this.sortedFiles();
    const { volumes, index } = this.volumeIndex();
    const mounts = files.flatMap((f) => f.mounts);
    const settings = files.flatMap((f) => f.settings);
    this.derived = { volumes, mounts, settings, index };
    return this.derived;
  }
}
