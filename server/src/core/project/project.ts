import { resolveConfig, type AnfLintConfig, type ResolvedConfig } from '../config';
import { parseConfigFile } from '../configFile';
import type { Diagnostic } from '../diagnostics';
import { lintFile, visibleDiagnostics, type LintOptions } from '../lint';
import type { ParsedFile, ParseProblem } from '../workspace/parsedFile';
import { Workspace } from '../workspace/workspace';
import { configCandidates, looseFence, nearestConfig } from './config';
import { kindOf, planContext, readMatchingManifests } from './contextSelection';
import { mayDescribeEstate } from '../iac/scripts';
import { discoverFiles, isProjectFile, type Discovered } from './discovery';
import { describeFailure, encodeText, readInside, type ReadFile, type SkippedFile } from './read';
import type { Environment } from './environment';
import { fixFiles, selectFixes, type AppliedFix, type DroppedFix, type FixLevel } from './fixes';
import { DEFAULT_DISCOVERY_LIMITS, NAMED_FILE_MAX_BYTES, type DiscoveryLimits } from './limits';
import { dirname, isInside } from './paths';

/**
 * The project model: which files exist, which are context, which configuration applies to each,
 * and one lint entry point, over an `Environment`. The CLI builds one per run; the language server
 * uses the same discovery, reading and configuration lookup for its index (lsp/workspaceIndex.ts).
 *
 * A file belongs to a root: the workspace folder that holds it (server), else the git work tree
 * that holds it, else a loose root (the folder named on the command line, or the file's folder).
 * Cross-file context comes from the file's own root, never from the process's current folder; the
 * configuration is the nearest `.anf-lint.yaml` above the file, looked up no higher than its root
 * (outside git also never above the user's home nor in a shared temporary folder).
 */
export interface Root {
  /** The folder (absolute, `/`-separated). */
  readonly path: string;
  /** Its real path: files whose real path leaves it are not read. */
  readonly real: string;
  /** The git work tree that answers for it (it or a folder above it), if any. */
  readonly gitRoot?: string;
  /** Its other files are context for cross-file rules (a repository or workspace folder; not a loose root). */
  readonly context: boolean;
  /**
   * The highest folder the `.anf-lint.yaml` lookup reaches: the root itself, whether a repository,
   * a workspace folder or a loose root (the folder named, or the current folder). A loose root's
   * lookup also stops below the user's home and before a shared temporary folder (`looseFence`).
   * Only regular files are read (a FIFO on the way is never opened).
   */
  readonly configTop: string;
}

export interface ProjectOptions {
  /** Workspace folders (the server): each is a root, inside git or not. */
  readonly folders?: readonly string[];
  /** The current folder (the CLI): the loose root of a named file outside git. */
  readonly cwd?: string;
  /** `--config`: one configuration file for every file. */
  readonly explicitConfig?: string;
  /** Settings layered on a file's configuration (--rule, the editor's settings). */
  readonly layer?: (file: AnfLintConfig) => ResolvedConfig;
  readonly limits?: DiscoveryLimits;
  readonly namedMaxBytes?: number;
  /**
   * Parse every context file, as before issue 17 (tests compare it with the lazy default): by
   * default a run parses only the estate and its targets' hosts (contextSelection.ts).
   */
  readonly fullContext?: boolean;
}

/** A configuration file in use, or the defaults. */
export interface ConfigChoice {
  readonly path?: string;
  readonly text?: string;
  readonly config: AnfLintConfig;
  readonly resolved: ResolvedConfig;
  readonly problems: readonly ParseProblem[];
}

/** Something the run wants the user to know about a path (a skipped link or special file, a refused fix). */
export interface ProjectNote {
  readonly path: string;
  readonly message: string;
}

export class ConfigUnreadable extends Error {
  override readonly name = 'ConfigUnreadable';
}

/** A file to lint: read from its path, or with the text given (standard input, the git index). */
export interface Target {
  readonly path: string;
  readonly text?: string;
  /** With `text`: whether its bytes were valid UTF-8 (default true); fixes never touch one that was not. */
  readonly decodable?: boolean;
  /** Named on the command line: read whatever its kind, up to the named-file limit. */
  readonly named?: boolean;
  /** The root discovery found it under (saves asking git again). */
  readonly root?: Root;
}

export class Project {
  /** Notes, each path once. */
  readonly notes: ProjectNote[] = [];
  /** Paths that could not be read or written: the run fails (exit 2). */
  readonly errors: ProjectNote[] = [];
  private readonly noted = new Set<string>();
  private readonly gitRoots = new Map<string, string | undefined>();
  private readonly configs = new Map<string, ConfigChoice>();
  private readonly contexts = new Map<string, ReadFile[]>();
  private readonly contextCandidates = new Map<string, readonly string[]>();
  private readonly contextByPath = new Map<string, ReadFile>();
  private explicit: ConfigChoice | undefined;
  /** The tops of loose lookups already checked for a configuration file above them (noteConfigAbove). */
  private readonly aboveChecked = new Set<string>();
  /** `configFor`'s answer per folder and root: every file of a folder has the same candidates (3,000 files: 12,000 lstat calls). */
  private readonly configByFolder = new Map<string, ConfigChoice>();
  private readonly configStats = new Map<string, ReturnType<Environment['stat']>>();
  private readonly limits: DiscoveryLimits;

  constructor(
    readonly env: Environment,
    private readonly options: ProjectOptions = {},
  ) {
    this.limits = options.limits ?? DEFAULT_DISCOVERY_LIMITS;
  }

  get fullContext(): boolean {
    return this.options.fullContext === true;
  }

  // ---- roots --------------------------------------------------------------------------------

  private gitRootOf(folder: string): string | undefined {
    if (!this.gitRoots.has(folder)) {
      let root: string | undefined;
      try {
        root = this.env.git?.root(folder);
      } catch {
        root = undefined;
      }
      this.gitRoots.set(folder, root);
    }
    return this.gitRoots.get(folder);
  }

  private realOf(path: string): string {
    try {
      return this.env.stat(path)?.realPath ?? path;
    } catch {
      return path;
    }
  }

  /** The root of a folder: its workspace folder, else its git work tree, else the folder itself (loose; its configuration lookup reaches the current folder when it lies below it). */
  rootOfFolder(folder: string): Root {
    const workspaceFolder = (this.options.folders ?? [])
      .filter((f) => isInside(f, folder))
      .sort((a, b) => b.length - a.length)[0];
    if (workspaceFolder !== undefined) {
      const gitRoot = this.gitRootOf(workspaceFolder);
      return {
        path: workspaceFolder,
        real: this.realOf(workspaceFolder),
        ...(gitRoot !== undefined ? { gitRoot } : {}),
        context: true,
        configTop: workspaceFolder,
      };
    }
    const gitRoot = this.gitRootOf(folder);
    if (gitRoot !== undefined)
      return { path: gitRoot, real: this.realOf(gitRoot), gitRoot, context: true, configTop: gitRoot };
    // Outside git: the configuration is looked up no higher than the folder named, or the current
    // folder when the named folder lies below it (as for a named file, rootOf).
    const cwd = this.options.cwd;
    return {
      path: folder,
      real: this.realOf(folder),
      context: false,
      configTop: cwd !== undefined && isInside(cwd, folder) ? cwd : folder,
    };
  }

  /** The root of a file: as its folder's, except that a loose file named from the current folder has the current folder as root. */
  rootOf(path: string): Root {
    const root = this.rootOfFolder(dirname(path));
    const cwd = this.options.cwd;
    if (!root.context && cwd !== undefined && isInside(cwd, path))
      return { path: cwd, real: this.realOf(cwd), context: false, configTop: cwd };
    return root;
  }

  // ---- discovery and reading ---------------------------------------------------------------

  /** The candidate files under a folder (git-aware), with the root they belong to. */
  discover(folder: string): Discovered & { root: Root } {
    const root = this.rootOfFolder(folder);
    const found = discoverFiles(this.env, folder, root.gitRoot, this.limits);
    return { ...found, root };
  }

  /** Reads a file inside its root (regular files only, within the size limit); records why not. */
  read(path: string, root: Root, named = false, context = false): ReadFile | SkippedFile {
    const outcome = readInside(
      this.env,
      path,
      root.real,
      named ? (this.options.namedMaxBytes ?? NAMED_FILE_MAX_BYTES) : this.limits.maxFileBytes,
    );
    if (outcome.ok) return outcome;
    if (outcome.reason === 'outside' || outcome.reason === 'special' || outcome.reason === 'too-large')
      this.note(path, outcome.message);
    // A file git lists that the work tree no longer has, or a submodule (git lists its folder), is
    // not an error; a context file that cannot be read fails the run only if it is linted too.
    else if (!context && (named || (outcome.reason !== 'missing' && outcome.reason !== 'folder')))
      this.errors.push({ path, message: outcome.message });
    return outcome;
  }

  note(path: string, message: string): void {
    const key = `${path}\n${message}`;
    if (this.noted.has(key)) return;
    this.noted.add(key);
    this.notes.push({ path, message });
  }

  /**
   * The files of a root other rules may look at: every file discovery finds there that anf-lint
   * reads. Read once per root and run; `ProjectRun` parses only what its targets' rules look at (contextSelection.ts).
   */
  context(root: Root): readonly ReadFile[] {
    if (!root.context) return [];
    let files = this.contexts.get(root.path);
    if (!files) {
      files = [];
      for (const path of this.contextPaths(root)) {
        const read = this.read(path, root, false, true);
        if (read.ok && isProjectFile(path, read.text)) {
          files.push(read);
          this.contextByPath.set(path, read);
        }
      }
      this.contexts.set(root.path, files);
    }
    return files;
  }

  /** The paths discovery finds in a root's context (not read yet), once per root and run. */
  contextPaths(root: Root): readonly string[] {
    if (!root.context) return [];
    let paths = this.contextCandidates.get(root.path);
    if (!paths) {
      paths = this.discover(root.path).paths;
      this.contextCandidates.set(root.path, paths);
    }
    return paths;
  }

  /** A file of the root's context, by path (undefined when the root has no context or the file is not in it). */
  contextFile(root: Root, path: string): ReadFile | undefined {
    this.context(root);
    return this.contextByPath.get(path);
  }

  // ---- configuration -----------------------------------------------------------------------

  private layer(config: AnfLintConfig): ResolvedConfig {
    return this.options.layer ? this.options.layer(config) : resolveConfig(config);
  }

  private loadConfigFile(path: string, root: Root | undefined): ConfigChoice {
    const cached = this.configs.get(path);
    if (cached) return cached;
    const read = readInside(this.env, path, root?.context ? root.real : undefined, this.limits.maxFileBytes);
    if (!read.ok) throw new ConfigUnreadable(`cannot read ${path}: ${read.message}`);
    const { config, problems } = parseConfigFile(read.text);
    const choice: ConfigChoice = { path, text: read.text, config, resolved: this.layer(config), problems };
    this.configs.set(path, choice);
    return choice;
  }

  /** The configuration of a file: `--config`, else the nearest `.anf-lint.yaml` above it within its root, else the defaults. */
  configFor(path: string, root: Root = this.rootOf(path)): ConfigChoice {
    if (this.options.explicitConfig !== undefined) {
      this.explicit ??= this.loadConfigFile(this.options.explicitConfig, undefined);
      return this.explicit;
    }
    const folderKey = `${dirname(path)}\u0000${root.configTop}\u0000${root.real}\u0000${root.context}`;
    const known = this.configByFolder.get(folderKey);
    if (known) return known;
    const choice = this.lookUpConfig(path, root);
    this.configByFolder.set(folderKey, choice);
    return choice;
  }

  private lookUpConfig(path: string, root: Root): ConfigChoice {
    const isConfigFile = (candidate: string) => {
      // Folders above are asked again for each folder below them: each candidate is looked at once.
      let info = this.configStats.get(candidate);
      if (info === undefined && !this.configStats.has(candidate)) {
        info = this.env.stat(candidate);
        this.configStats.set(candidate, info);
      }
      // Only a regular file (a FIFO named .anf-lint.yaml is never opened) that does not lead out of its root.
      return info !== undefined && info.kind === 'file' && (!root.context || isInside(root.real, info.realPath));
    };
    const fence = root.context ? undefined : looseFence(path, this.env.home, this.env.sharedFolders ?? []);
    const found = nearestConfig(path, root.configTop, isConfigFile, fence);
    if (found === undefined) {
      if (!root.context) this.noteConfigAbove(path, root);
      let defaults = this.configs.get('');
      if (!defaults) {
        defaults = { config: {}, resolved: this.layer({}), problems: [] };
        this.configs.set('', defaults);
      }
      return defaults;
    }
    return this.loadConfigFile(found, root);
  }

  /**
   * Outside git, a `.anf-lint.yaml` above the lookup's top (the folder named, the current folder,
   * the home folder) is not used: say so once, so that nobody wonders why the defaults apply. Only
   * looked at (never opened), and only when the file got the defaults.
   */
  private noteConfigAbove(path: string, root: Root): void {
    const searched = configCandidates(
      path,
      root.configTop,
      looseFence(path, this.env.home, this.env.sharedFolders ?? []),
    );
    // The first folder the lookup did not reach.
    const highest = searched.length > 0 ? dirname(searched[searched.length - 1]!) : undefined;
    const start = highest === undefined ? dirname(path) : highest === '/' ? undefined : dirname(highest);
    if (start === undefined || this.aboveChecked.has(start)) return;
    this.aboveChecked.add(start);
    const above = configCandidates(`${start}/.`, '/').find((candidate) => this.env.stat(candidate)?.kind === 'file');
    if (above === undefined) return;
    this.note(
      above,
      `not used for the files under ${highest ?? dirname(path)}: outside a git repository the lookup stops at the folder named on the command line (or the current folder), below the home folder and before a shared temporary folder such as /tmp; pass --config ${above} to use it`,
    );
  }

  /** Every configuration file the run has used so far. */
  configFiles(): ConfigChoice[] {
    return [...this.configs.values()].filter((c) => c.path !== undefined);
  }

  // ---- the lint entry point ----------------------------------------------------------------

  /** Reads the targets and their roots' context into one workspace per root. */
  open(targets: readonly Target[]): ProjectRun {
    return new ProjectRun(this, targets);
  }

  /** Writes a fixed file: only a regular file inside its root, atomically. Returns the failure in words. */
  write(path: string, text: string, root: Root = this.rootOf(path)): string | undefined {
    const info = this.env.stat(path);
    if (!info || info.kind !== 'file') return 'not written: no longer a regular file';
    if (!isInside(root.real, info.realPath)) return 'not written: it leads outside the repository or workspace folder';
    try {
      this.env.writeFile(info.realPath, encodeText(text));
      return undefined;
    } catch (error) {
      return `cannot write the fixed file (${describeFailure(error)}); the file is unchanged`;
    }
  }
}

/** One linted file of a run. */
export interface LintedFile {
  readonly path: string;
  readonly uri: string;
  readonly root: Root;
  readonly file: ParsedFile;
  /** Every diagnostic, suppressed ones included. */
  readonly diagnostics: readonly Diagnostic[];
  readonly config: ConfigChoice;
}

/** A run over some targets: their workspaces (one per root, with the root's context), fixing, linting. */
export class ProjectRun {
  /** The targets that could be read, in the order given. */
  readonly targets: {
    readonly path: string;
    readonly uri: string;
    readonly root: Root;
    readonly text: string;
    readonly decodable: boolean;
  }[] = [];
  private readonly workspaces = new Map<string, Workspace>();
  private readonly rootByUri = new Map<string, Root>();
  private readonly pathByUri = new Map<string, string>();
  private readonly configByUri = new Map<string, ConfigChoice>();

  constructor(
    readonly project: Project,
    targets: readonly Target[],
  ) {
    const env = project.env;
    for (const target of targets) {
      const root = target.root ?? project.rootOf(target.path);
      let text = target.text;
      let decodable = target.decodable ?? true;
      if (text === undefined && !target.named) {
        // Already read as context (its root's files are read once).
        const known = project.contextFile(root, target.path);
        if (known) {
          text = known.text;
          decodable = known.decodable;
        }
      }
      if (text === undefined) {
        const read = project.read(target.path, root, target.named === true);
        if (!read.ok) continue;
        if (!target.named && !isProjectFile(target.path, read.text)) continue;
        text = read.text;
        decodable = read.decodable;
      }
      const uri = env.uriOf(target.path);
      if (this.pathByUri.has(uri)) continue;
      this.targets.push({ path: target.path, uri, root, text, decodable });
      this.rootByUri.set(uri, root);
      this.pathByUri.set(uri, target.path);
    }
    const targetPaths = new Set(this.targets.map((t) => t.path));
    const byRoot = new Map<string, (typeof this.targets)[number][]>();
    for (const target of this.targets) {
      const list = byRoot.get(target.root.path);
      if (list) list.push(target);
      else byRoot.set(target.root.path, [target]);
    }
    for (const [rootPath, targetsOfRoot] of byRoot) {
      const root = targetsOfRoot[0]!.root;
      const workspace = new Workspace((uri) => this.configForUri(uri).resolved);
      this.workspaces.set(rootPath, workspace);
      const context = project
        .context(root)
        .filter((file) => !targetPaths.has(file.path))
        .map((file) => {
          const uri = env.uriOf(file.path);
          const kind = kindOf(uri, file.text);
          return { file, uri, kind, ...(mayDescribeEstate(kind, file.text) ? { estate: true } : {}) };
        });
      // Each target's kind, decided once (the workspace is told it: detecting it again per file added up on 3,000 files).
      const kinds = new Map(targetsOfRoot.map((t) => [t.uri, kindOf(t.uri, t.text)]));
      const plan = project.fullContext
        ? undefined
        : planContext(
            targetsOfRoot.map((t) => ({
              uri: t.uri,
              kind: kinds.get(t.uri)!,
              ...(mayDescribeEstate(kinds.get(t.uri)!, t.text) ? { estate: true } : {}),
            })),
            context,
          );
      const deferred: typeof context = [];
      for (const { file, uri, kind } of context) {
        this.rootByUri.set(uri, root);
        this.pathByUri.set(uri, file.path);
        if (!plan || plan.whole.has(uri)) {
          workspace.set(uri, file.text, 0, kind);
          continue;
        }
        // Known by path and kind only: the host model and the file list are those of a full read.
        workspace.set(uri, '', 0, kind);
        if (plan.manifests.has(uri)) deferred.push({ file, uri, kind });
      }
      // Each folder listed once; the target paths gathered once (per target, both made 3,000 .tf files quadratic).
      const moduleFolders = new Set<string>();
      for (const target of targetsOfRoot)
        if (!target.root.context)
          this.addTerraformModule(target.path, target.root, workspace, targetPaths, moduleFolders);
      for (const target of targetsOfRoot) workspace.set(target.uri, target.text, 0, kinds.get(target.uri));
      if (!plan || deferred.length === 0) continue;
      // The manifests the answers about the mounts the targets' rules look at need (their own and their hosts').
      const mounts = [...plan.whole, ...targetsOfRoot.map((t) => t.uri)].flatMap(
        (uri) => workspace.file(uri)?.mounts ?? [],
      );
      const manifests = deferred.map(({ uri, file }) => ({ uri, text: file.text }));
      const texts = new Map(manifests.map((m) => [m.uri, m.text]));
      readMatchingManifests(manifests, mounts, (uri) => {
        // Deleted first: the whole text is a new document, not an edit of the empty one (manifest/incremental.ts).
        workspace.delete(uri);
        return workspace.set(uri, texts.get(uri)!).volumes;
      });
    }
  }

  /**
   * A named `.tf` file outside any repository still belongs to its Terraform module: the other `.tf`
   * and `.tfvars` files of its folder are read as context (inside a repository they already are).
   */
  private addTerraformModule(
    path: string,
    root: Root,
    workspace: Workspace,
    targetPaths: ReadonlySet<string>,
    listed: Set<string>,
  ): void {
    if (!/\.tf(?:vars(?:\.json)?)?$/i.test(path)) return;
    const folder = dirname(path);
    // A file named alone is its own root: its module is the folder around it.
    const within: Root = root.path === path ? { ...root, path: folder, real: dirname(root.real) } : root;
    const listing = `${within.path}\u0000${folder}`;
    if (listed.has(listing)) return;
    listed.add(listing);
    let entries: readonly { name: string; kind: string }[];
    try {
      entries = this.project.env.list(folder);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.kind !== 'file' || !/\.tf(?:vars(?:\.json)?)?$/i.test(entry.name)) continue;
      const sibling = `${folder.replace(/\/$/, '')}/${entry.name}`;
      if (targetPaths.has(sibling) || this.pathByUri.has(this.project.env.uriOf(sibling))) continue;
      const read = this.project.read(sibling, within, false, true);
      if (!read.ok) continue;
      const uri = this.project.env.uriOf(sibling);
      this.rootByUri.set(uri, root);
      this.pathByUri.set(uri, sibling);
      workspace.set(uri, read.text);
    }
  }

  workspaceOf(uri: string): Workspace {
    return this.workspaces.get(this.rootByUri.get(uri)!.path)!;
  }

  configForUri(uri: string): ConfigChoice {
    // Rules ask for every mount and setting (a workload per mount line): look the files up once per file.
    let choice = this.configByUri.get(uri);
    if (!choice) {
      choice = this.findConfigForUri(uri);
      this.configByUri.set(uri, choice);
    }
    return choice;
  }

  private findConfigForUri(uri: string): ConfigChoice {
    const path = this.pathByUri.get(uri);
    const root = this.rootByUri.get(uri);
    if (path === undefined || root === undefined) return this.project.configFor(this.project.env.pathOf(uri) ?? uri);
    return this.project.configFor(path, root);
  }

  /**
   * Applies fixes at `level` to the targets, whole or not at all, until nothing changes. A target
   * whose bytes are not valid UTF-8 is never fixed (a note says so when it had fixes to offer).
   */
  fix(
    level: FixLevel,
    options: LintOptions = {},
  ): {
    before: ReadonlyMap<string, string>;
    after: ReadonlyMap<string, string>;
    applied: readonly AppliedFix[];
    dropped: readonly DroppedFix[];
    unsafeLeft: number;
    unfinished: boolean;
  } {
    const before = new Map<string, string>();
    const after = new Map<string, string>();
    const applied: AppliedFix[] = [];
    const dropped: DroppedFix[] = [];
    let unsafeLeft = 0;
    let unfinished = false;
    for (const [rootPath, workspace] of this.workspaces) {
      const uris: string[] = [];
      for (const target of this.targets) {
        if (target.root.path !== rootPath) continue;
        if (!target.decodable) {
          const pending = selectFixes(
            visibleDiagnostics(lintFile(workspace, target.uri, this.configForUri(target.uri).resolved, options)),
            level,
          );
          if (pending.chosen.length > 0)
            this.project.note(
              target.path,
              `not fixed: the file is not valid UTF-8, and a fix would rewrite bytes it does not mean to edit (${pending.chosen.length} fix${pending.chosen.length === 1 ? '' : 'es'} not applied)`,
            );
          continue;
        }
        uris.push(target.uri);
        before.set(target.uri, target.text);
      }
      const run = fixFiles(workspace, uris, (uri) => this.configForUri(uri).resolved, level, options);
      for (const [uri, text] of run.texts) after.set(uri, text);
      applied.push(...run.applied);
      dropped.push(...run.dropped);
      unsafeLeft += run.unsafeLeft;
      unfinished ||= run.unfinished;
    }
    return { before, after, applied, dropped, unsafeLeft, unfinished };
  }

  /** Puts a target's text back (a dry run, a failed write). */
  restore(uri: string, text: string): void {
    this.workspaceOf(uri).set(uri, text);
  }

  /** The findings of one target (or any file of the run), with its configuration. */
  lint(uri: string, options: LintOptions = {}): LintedFile {
    const workspace = this.workspaceOf(uri);
    const config = this.configForUri(uri);
    const file = workspace.file(uri)!;
    return {
      path: this.pathByUri.get(uri)!,
      uri,
      root: this.rootByUri.get(uri)!,
      file,
      diagnostics: lintFile(workspace, uri, config.resolved, options),
      config,
    };
  }
}
