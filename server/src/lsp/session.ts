/**
 * The server's state: open documents, the indexed files from disk, one core Workspace per project
 * built from both (open documents win), the configuration, and the diagnostics pacing. Handlers
 * read it; only the text-sync, watcher and configuration handlers change it.
 *
 * A project is a workspace folder (the innermost one that holds the file), plus one for the files
 * outside every folder: cross-file context (hosts, manifests, estates, dependants) never crosses
 * folders, as the CLI never mixes two repositories (core/project keeps one Workspace per root).
 */
import {
  WorkspaceDiagnosticRequest,
  type Connection,
  type ProgressToken,
  type WorkspaceDiagnosticReportPartialResult,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  detectFileKind,
  fileTooLargeDiagnostic,
  LintMemo,
  lintFile,
  lintSteps,
  parseFile,
  visibleDiagnostics,
  Workspace,
  type AnfLintConfig,
  type Diagnostic,
  type LintOptions,
  type ParsedFile,
  type ResolvedConfig,
  type Rule,
} from '../core';
import { dependentsOf, type FileChange } from '../core/features/dependents';
import { checkConfigFile } from '../core/features/configDiagnostics';
import { isConfigFileUri } from './configFile';
import { toLspDiagnostic } from './convert';
import { DiagnosticsScheduler, LINT_SLICE_MS } from './diagnosticsScheduler';
import {
  configSignature,
  folderRoot,
  FolderConfigs,
  innermostFolder,
  readFolderConfigs,
  type FolderConfig,
} from './folderConfig';
import { NAMED_FILE_MAX_BYTES } from '../core/project';
import { DIAGNOSTICS_DEBOUNCE_MS, LARGE_IAC_CHARS, LARGE_IAC_SETTLE_MS, OPEN_DOCUMENT_MAX_CHARS } from './limits';
import { ScanCache, serverBuildHash, sha256 } from './scanCache';
import { ScanWorker, scanWorkerAvailable } from './scanWorker';
import { outputDrained } from './transport';
import { editorConfig, effectiveConfig } from './settings';
import {
  canonicalUri,
  DEFAULT_INDEX_LIMITS,
  indexedKind,
  indexFolders,
  readIndexedFile,
  uriToPath,
  type IndexedFile,
  type IndexLimits,
} from './workspaceIndex';

/** What the client said it can do, reduced to the answers the server needs. */
export interface ClientSupport {
  readonly pullDiagnostics: boolean;
  readonly diagnosticRefresh: boolean;
  readonly configuration: boolean;
  readonly configurationChangeRegistration: boolean;
  readonly watchedFilesRegistration: boolean;
  readonly workspaceFolders: boolean;
  readonly markdownHover: boolean;
  readonly snippets: boolean;
  readonly codeLensRefresh: boolean;
  readonly inlayHintRefresh: boolean;
  /** The client shows server-initiated progress (`window/workDoneProgress/create`, `$/progress`). */
  readonly workDoneProgress: boolean;
}

export const NO_CLIENT_SUPPORT: ClientSupport = {
  pullDiagnostics: false,
  diagnosticRefresh: false,
  configuration: false,
  configurationChangeRegistration: false,
  watchedFilesRegistration: false,
  workspaceFolders: false,
  markdownHover: false,
  snippets: false,
  codeLensRefresh: false,
  inlayHintRefresh: false,
  workDoneProgress: false,
};

/** The custom notification the VS Code client's status item follows during the first scan. */
export const SCAN_PROGRESS_NOTIFICATION = 'anf/scanProgress' as const;
export interface ScanProgressParams {
  readonly checked: number;
  readonly total: number;
  readonly done: boolean;
}

/** How often the background scan reports progress and lets a held `workspace/diagnostic` answer. */
const SCAN_REPORT_MS = 200; // not a fact: editor pacing

/**
 * How long after a scan the scan cache is written. Writing it takes 170 ms on 1,000 files (24,000
 * findings to JSON and disk) in one piece; right after the scan, that held the client's request for
 * the rest of the workspace's diagnostics, which arrives a few milliseconds later.
 */
const SCAN_CACHE_SAVE_DELAY_MS = 2000; // not a fact: after the client's last pulls of a scan

/**
 * A scan that has run this long answers `workspace/diagnostic` in pieces (the files checked so far):
 * a scan served by the cache ends sooner and answers once.
 */
const SCAN_LONG_MS = 1000; // not a fact: the scan cache's scan of 1,000 files took 0.3-0.7 s under load

/** Past this many watched-file changes in one batch, dependents are not traced file by file: every document is checked again once. */
const WATCHED_BATCH_TRACED = 64; // not a fact: tracing dependents costs a pass over the project per change

/**
 * A project the scan cache does not serve and with at least this many files is checked by the
 * main thread and a worker together (scanWorker.ts): below it, starting a worker (loading the
 * bundle again, about 0.3 s of CPU) costs more than it saves.
 */
const SCAN_WORKER_MIN_FILES = 200; // not a fact: measured on the bench's 1,000-file repository
/**
 * The share of the project's files the worker checks: it loads the bundle and parses the project
 * as the main thread does, then checks; the main thread also answers the editor meanwhile.
 */
const SCAN_WORKER_SHARE = 0.4; // not a fact: balances the two threads on the bench repository

const IAC_KINDS = new Set(['terraform', 'terraform-vars', 'bicep', 'bicep-params', 'arm-template', 'arm-parameters']);

function isIacKind(kind: string | undefined): boolean {
  return kind !== undefined && IAC_KINDS.has(kind);
}

/** Lets pending input (edits, requests) in before going on: setImmediate runs after I/O callbacks. */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class Session {
  support: ClientSupport = NO_CLIENT_SUPPORT;
  folders: string[] = [];
  /** Bumps when every diagnostic may change (configuration, rebuild); part of every result id. */
  generation = 0;
  /** Bumps when one file's diagnostics may change (its text, or a file it reads). */
  private readonly fileGenerations = new Map<string, number>();
  readonly open = new Map<string, TextDocument>();
  /** Open documents too large to check (OPEN_DOCUMENT_MAX_CHARS), with their length. */
  private readonly tooLarge = new Map<string, number>();
  /** Files read from disk, by canonical URI. */
  private readonly disk = new Map<string, IndexedFile>();
  private editorSettings: AnfLintConfig = {};
  /** Each workspace folder's `.anf-lint.yaml` under the editor's settings (folderConfig.ts). */
  private configs = new FolderConfigs([], [], effectiveConfig({}, {}).resolved);
  /** One Workspace per project, by its folder root (canonical, ending in `/`); `''` for files outside every folder. */
  private projects = new Map<string, Workspace>();
  private readonly lintCache = new Map<string, readonly Diagnostic[]>();
  /** Per open document: the findings of its last lint per mount, reused after an edit (core/lint.ts). */
  private readonly memos = new Map<string, LintMemo>();
  /** Passes dropped because a newer change made them stale before they finished (for tests). */
  superseded = 0;
  /** Bumps when a lint of the document starts: a pass in slices that another lint overtook must not go on with the shared memo. */
  private readonly lintStarts = new Map<string, number>();
  private readonly loggedFaults = new Set<string>();
  private changeWaiters: (() => void)[] = [];
  private refreshPending = false;
  readonly scheduler: DiagnosticsScheduler;

  /** Bounds of the workspace index (initializationOptions.index can lower them). */
  indexLimits: IndexLimits = DEFAULT_INDEX_LIMITS;
  /** The client's storage folder for this workspace (initializationOptions.storagePath): the scan cache lives there. */
  storagePath: string | undefined;
  private scanCache: ScanCache | undefined;
  /** Bumps when a new index or scan starts: an older one stops at its next slice. */
  private scanGeneration = 0;
  /**
   * Whether a scan checks part of a project in a worker thread (initializationOptions.scanWorker:
   * true). Off by default: on the bench's two cores it made the cold scan slower even on a quiet
   * machine (4.3-4.7 s against 3.2-3.9 s to the last workspace diagnostic; bench/notes.md).
   */
  scanWorkerMode: 'on' | 'off' = 'off';
  /**
   * The first scan's worker (scanWorker.ts) and what its results depend on: they are kept only
   * while no text, configuration or result id changed since it was given its inputs.
   */
  private scanWorker:
    | {
        readonly worker: ScanWorker;
        readonly scan: number;
        readonly project: string;
        readonly assigned: ReadonlySet<string>;
        readonly textsAt: number;
        readonly configs: FolderConfigs;
        readonly settings: AnfLintConfig;
        /** Results received and not applied yet (the scan applies them once it runs). */
        readonly received: { uri: string; diagnostics: readonly Diagnostic[] }[];
        /** Each assigned file's result id when the scan started (set by the scan). */
        resultIds?: Map<string, string>;
        apply?: () => void;
      }
    | undefined;
  /** Bumps when the text of any file of any project changes (a project's fingerprint is then computed again). */
  private textsChanged = 0;
  /** The background scan is running: `workspace/diagnostic` waits for it (handlers/diagnostics.ts). */
  scanning = false;
  /**
   * The workspace's files are not all read yet: from the start (`initialized` reads them) until the
   * scan that checks them begins, and again while a rescan reads them. A client that takes partial
   * results is answered as the scan goes, and its first pull, which comes before the read, waits
   * for it (handlers/diagnostics.ts).
   */
  reading = true;
  private readGeneration = 0;
  /** Watched-file changes not applied yet, by canonical URI (the last event of a file wins). */
  private readonly pendingDisk = new Map<string, { uri: string; deleted: boolean }>();
  private drainingDisk = false;
  /** Large infrastructure-code documents changed and not read again yet: the timer that will (LARGE_IAC_CHARS). */
  private readonly settling = new Map<string, ReturnType<typeof setTimeout>>();
  /** Index-bound notes already logged (once per drain). */
  private indexFullLogged = false;

  constructor(
    readonly connection: Connection,
    /** The rules to run (all of them, unless a test injects its own). */
    private readonly rules?: readonly Rule[],
  ) {
    this.scheduler = new DiagnosticsScheduler(DIAGNOSTICS_DEBOUNCE_MS, (uri) => void this.publish(uri));
  }

  /** The project a document belongs to: its innermost workspace folder's root, or `''` outside every folder. */
  projectOf(uri: string): string {
    if (this.folderRoots?.folders !== this.folders)
      this.folderRoots = { folders: this.folders, roots: this.folders.map(folderRoot) };
    return innermostFolder(this.folderRoots.roots, uri) ?? '';
  }
  private folderRoots: { folders: readonly string[]; roots: readonly string[] } | undefined;

  /** The Workspace of a document's project (created empty on first use). */
  workspaceOf(uri: string): Workspace {
    const key = this.projectOf(uri);
    let workspace = this.projects.get(key);
    if (!workspace) {
      workspace = new Workspace((u) => this.configs.configFor(u));
      this.projects.set(key, workspace);
    }
    return workspace;
  }

  /** Every project's Workspace, in folder order (the files outside every folder last). */
  workspaces(): Workspace[] {
    return [...this.projects.entries()]
      .sort(([a], [b]) => (a === '' ? 1 : b === '' ? -1 : a < b ? -1 : a > b ? 1 : 0))
      .map(([, w]) => w);
  }

  /** Every file of every project. */
  private allFiles(): ParsedFile[] {
    return this.workspaces().flatMap((w) => w.files());
  }

  /** The configuration a document lints with: that of the workspace folder it is in. */
  configFor(uri: string): ResolvedConfig {
    return this.configs.configFor(uri);
  }

  /** For requests about no document: the first folder's configuration file, else the defaults. */
  get config(): ResolvedConfig {
    return this.configs.fallback()?.resolved ?? this.configs.defaults;
  }

  /** Diagnostics are pushed only to clients that cannot pull them (never both). */
  get pushDiagnostics(): boolean {
    return !this.support.pullDiagnostics;
  }

  log(message: string): void {
    this.connection.console.log(message);
  }

  error(message: string): void {
    this.connection.console.error(message);
  }

  // ---- documents -------------------------------------------------------------------------

  file(uri: string): ParsedFile | undefined {
    return this.workspaceOf(uri).file(uri);
  }

  openDocument(document: TextDocument): void {
    this.open.set(document.uri, document);
    // The same file indexed from disk under another spelling of its URI steps aside while open.
    const twin = this.disk.get(canonicalUri(document.uri));
    if (twin && twin.uri !== document.uri) this.workspaceOf(twin.uri).delete(twin.uri);
    if (isConfigFileUri(document.uri)) {
      this.reloadConfig(document.uri);
      this.scheduler.schedule(document.uri, true);
      return;
    }
    this.applyText(document.uri, document.getText(), document.version, true);
  }

  changeDocument(document: TextDocument): void {
    this.open.set(document.uri, document);
    if (isConfigFileUri(document.uri)) {
      this.reloadConfig(document.uri);
      return;
    }
    this.applyText(document.uri, document.getText(), document.version, false);
  }

  closeDocument(uri: string): void {
    if (!this.open.delete(uri)) return;
    this.tooLarge.delete(uri);
    const settling = this.settling.get(uri);
    if (settling) clearTimeout(settling);
    this.settling.delete(uri);
    this.memos.delete(uri);
    this.scheduler.cancel(uri);
    if (this.pushDiagnostics) void this.connection.sendDiagnostics({ uri, diagnostics: [] });
    if (isConfigFileUri(uri)) {
      this.reloadConfig(uri);
      return;
    }
    const workspace = this.workspaceOf(uri);
    const before = workspace.file(uri);
    const fromDisk = this.disk.get(canonicalUri(uri));
    let after: ParsedFile | undefined;
    if (fromDisk) {
      if (fromDisk.uri !== uri) workspace.delete(uri);
      after = this.workspaceOf(fromDisk.uri).set(fromDisk.uri, fromDisk.text);
    } else {
      workspace.delete(uri);
    }
    this.changed({ uri, ...(before ? { before } : {}), ...(after ? { after } : {}) }, false);
  }

  /** Whether a large infrastructure-code document changed and is not read again yet (its requests get empty answers). */
  isSettling(uri: string): boolean {
    return this.settling.has(uri);
  }

  private applyText(uri: string, text: string, version: number, immediate: boolean): void {
    const workspace = this.workspaceOf(uri);
    if (this.deferEdit(workspace, uri, text, version, immediate)) return;
    const before = workspace.file(uri);
    // A large Terraform, Bicep or ARM document is read again only when typing pauses.
    if (
      !immediate &&
      text.length > LARGE_IAC_CHARS &&
      text.length <= OPEN_DOCUMENT_MAX_CHARS &&
      isIacKind(before?.kind)
    ) {
      const pending = this.settling.get(uri);
      if (pending) clearTimeout(pending);
      this.settling.set(
        uri,
        setTimeout(() => {
          this.settling.delete(uri);
          const document = this.open.get(uri);
          if (document) this.applyText(uri, document.getText(), document.version, true);
        }, LARGE_IAC_SETTLE_MS),
      );
      return;
    }
    const settling = this.settling.get(uri);
    if (settling) clearTimeout(settling);
    this.settling.delete(uri);
    if (text.length > OPEN_DOCUMENT_MAX_CHARS) {
      // Too large to check on every keystroke: not parsed, one ANF011 finding instead (allDiagnostics).
      this.tooLarge.set(uri, text.length);
      if (before) workspace.delete(uri);
      this.changed({ uri, ...(before ? { before } : {}) }, immediate);
      return;
    }
    this.tooLarge.delete(uri);
    const kind = detectFileKind(uri, text);
    const after = workspace.set(uri, text, version, kind);
    // The memo follows every version read (several may come between two lints while typing).
    let memo = this.memos.get(uri);
    if (!memo) this.memos.set(uri, (memo = new LintMemo()));
    memo.follow(after);
    this.changed({ uri, ...(before ? { before } : {}), after }, immediate);
  }

  /**
   * Open documents edited while their project was not parsed yet (a start served by the scan cache,
   * before the background parse ends), with their text before the first such edit: which files
   * read them is known once the project is parsed (`flushDeferredEdits`).
   */
  private readonly deferredEdits = new Map<string, string | undefined>();
  private applyingEdits: Promise<void> | undefined;

  /**
   * An edit of a document whose project is not parsed yet: the new text joins the unparsed files
   * in its place, instead of parsing the whole project at once in the edit (a second or two on
   * 1,000 files, with nothing answered meanwhile). The project is then parsed in slices, and
   * requests wait for that (`editsApplied`). Until the project is parsed no result of it is kept:
   * any file may read the edited one.
   */
  private deferEdit(workspace: Workspace, uri: string, text: string, version: number, immediate: boolean): boolean {
    if (workspace.unparsed === 0 || text.length > OPEN_DOCUMENT_MAX_CHARS) return false;
    if (!workspace.isPending(uri) && workspace.has(uri)) return false;
    if (!this.deferredEdits.has(uri)) this.deferredEdits.set(uri, workspace.textOf(uri));
    this.textsChanged++;
    this.tooLarge.delete(uri);
    this.memos.delete(uri);
    workspace.setLater(uri, text, version, detectFileKind(uri, text));
    for (const other of workspace.uris()) this.lintCache.delete(other);
    this.fileGenerations.set(uri, (this.fileGenerations.get(uri) ?? 0) + 1);
    if (this.open.has(uri)) this.scheduler.schedule(uri, immediate);
    this.wakeWaiters();
    void this.editsApplied();
    return true;
  }

  /** Whether an edit waits for its project's parse (requests wait for `editsApplied` first). */
  get editsPending(): boolean {
    return this.deferredEdits.size > 0;
  }

  /** Resolves when every deferred edit is applied: its project parsed in slices, its dependents traced. */
  async editsApplied(): Promise<void> {
    while (this.deferredEdits.size > 0) {
      this.applyingEdits ??= this.applyDeferredEdits().finally(() => {
        this.applyingEdits = undefined;
      });
      await this.applyingEdits;
    }
  }

  private async applyDeferredEdits(): Promise<void> {
    let sliceStart = performance.now();
    const sliceDone = () => performance.now() - sliceStart >= LINT_SLICE_MS;
    while (this.deferredEdits.size > 0) {
      for (const workspace of new Set([...this.deferredEdits.keys()].map((uri) => this.workspaceOf(uri))))
        while (!workspace.settle(sliceDone)) {
          await yieldToEvents();
          sliceStart = performance.now();
        }
      this.flushDeferredEdits();
    }
  }

  /** The deferred edits whose project is parsed now: their change as an edit of a parsed project makes it. */
  private flushDeferredEdits(): void {
    if (this.deferredEdits.size === 0) return;
    for (const [uri, beforeText] of [...this.deferredEdits]) {
      const workspace = this.workspaceOf(uri);
      if (workspace.unparsed > 0) continue;
      this.deferredEdits.delete(uri);
      const after = workspace.parsedAlone().find((f) => f.uri === uri);
      const before = beforeText === undefined ? undefined : parseFile(uri, beforeText);
      if (after && this.open.has(uri)) {
        const memo = new LintMemo();
        memo.follow(after);
        this.memos.set(uri, memo);
      }
      this.changed({ uri, ...(before ? { before } : {}), ...(after ? { after } : {}) }, false);
    }
  }

  /** After any change: drop cached answers, re-check the file and what depends on it (in its project). */
  private changed(change: FileChange, immediate: boolean): void {
    this.flushDeferredEdits();
    this.textsChanged++;
    // As read alone: evaluating Terraform modules here would cost every keystroke; the lint does it.
    const dependents = dependentsOf(change, this.workspaceOf(change.uri).parsedAlone());
    for (const uri of [change.uri, ...dependents.map((d) => d.uri)]) {
      this.fileGenerations.set(uri, (this.fileGenerations.get(uri) ?? 0) + 1);
      this.lintCache.delete(uri);
    }
    if (this.open.has(change.uri)) this.scheduler.schedule(change.uri, immediate);
    for (const dependent of dependents) if (this.open.has(dependent.uri)) this.scheduler.schedule(dependent.uri, false);
    this.wakeWaiters();
    if (dependents.length > 0) this.requestRefresh();
  }

  // ---- workspace index and file watching --------------------------------------------------

  /** The workspace folders changed: forget the files of removed folders, index the current ones. */
  async changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    const gone = removed.map((f) => canonicalUri(f).replace(/\/?$/, '/'));
    this.folders = [...this.folders.filter((f) => !removed.includes(f)), ...added];
    for (const key of [...this.disk.keys()]) if (gone.some((prefix) => key.startsWith(prefix))) this.disk.delete(key);
    await this.indexWorkspace();
  }

  /**
   * The first scan (and a rescan when the folders change). Open documents are checked first: they
   * are in their projects already and their diagnostics were scheduled when they opened, and this
   * reads and parses the folders' files in slices of LINT_SLICE_MS that let edits and requests in.
   * Then every indexed file is checked in the background, in slices too, with progress; results
   * come from the scan cache when nothing they depend on changed since the last scan.
   */
  async indexWorkspace(): Promise<void> {
    const scan = ++this.scanGeneration;
    const read = ++this.readGeneration;
    this.reading = true;
    try {
      await this.readWorkspace(scan);
    } finally {
      // The scan took over (`scanning`), or the read failed or went stale: a newer read clears its own.
      if (read === this.readGeneration) this.reading = false;
      this.wakeWaiters();
    }
  }

  private async readWorkspace(scan: number): Promise<void> {
    const started = performance.now();
    // Hashes of texts no file holds any more (deleted files) go; each scan hashes what it reads.
    this.textHashes.clear();
    const { files, summary } = await indexFolders(this.folders, (m) => this.log(m), this.indexLimits, yieldToEvents);
    if (scan !== this.scanGeneration) return;
    for (const file of files) this.disk.set(canonicalUri(file.uri), file);
    // The configuration files at the folder roots are among them.
    this.configs = this.readConfigs();
    const projects = await this.buildProjects(() => scan !== this.scanGeneration, scan);
    if (!projects) return;
    this.projects = projects;
    this.invalidateAll();
    // Said once the files are in the projects (tests and the benchmark wait for this line).
    this.log(summary);
    const unparsed = [...projects.values()].reduce((n, w) => n + w.unparsed, 0);
    this.log(
      `anf-lint: workspace read and parsed in ${Math.round(performance.now() - started)} ms${unparsed > 0 ? ` (${unparsed} files parsed later: their findings are in the scan cache)` : ''}.`,
    );
    void this.scanInBackground(scan);
  }

  /**
   * Every project's Workspace from disk and the open documents; undefined when `stale()` says a
   * newer scan started. The files are added unparsed (`Workspace.setLater`), in the order an eager
   * read had, then parsed in slices, except in a project whose every file's findings are in the scan
   * cache: that one is parsed when first asked something (an edit, a request), or in the background
   * after the scan. The open documents' text is taken in the same slice as the swap, so it is the latest.
   */
  private async buildProjects(stale: () => boolean, scan: number): Promise<Map<string, Workspace> | undefined> {
    const projects = new Map<string, Workspace>();
    const workspaceIn = (uri: string) => {
      const key = this.projectOf(uri);
      let workspace = projects.get(key);
      if (!workspace) projects.set(key, (workspace = new Workspace((u) => this.configs.configFor(u))));
      return workspace;
    };
    const openDocuments = () =>
      [...this.open.values()].filter((d) => !isConfigFileUri(d.uri) && !this.tooLarge.has(d.uri));
    const openKeys = new Set([...this.open.keys()].map(canonicalUri));
    for (const [key, file] of this.disk)
      if (!isConfigFileUri(file.uri) && !openKeys.has(key)) workspaceIn(file.uri).setLater(file.uri, file.text);
    // Which projects the cache serves whole, with the open documents' text as it is now.
    const opened = new Map<string, Map<string, string>>();
    for (const document of openDocuments()) {
      const key = this.projectOf(document.uri);
      workspaceIn(document.uri);
      if (!opened.has(key)) opened.set(key, new Map());
      opened.get(key)?.set(document.uri, document.getText());
    }
    const cached = new Set([...projects].filter(([key, w]) => this.allCached(w, opened.get(key))).map(([k]) => k));
    this.startScanWorker(projects, cached, openDocuments(), scan);
    let sliceStart = performance.now();
    const sliceDone = () => performance.now() - sliceStart >= LINT_SLICE_MS;
    for (const [key, workspace] of projects) {
      if (cached.has(key)) continue;
      while (!workspace.settle(sliceDone)) {
        await yieldToEvents();
        if (stale()) return undefined;
        sliceStart = performance.now();
      }
    }
    // The open documents last, with their latest text (they may have changed meanwhile).
    for (const document of openDocuments()) {
      const workspace = workspaceIn(document.uri);
      workspace.setLater(document.uri, document.getText(), document.version);
      if (!cached.has(this.projectOf(document.uri))) workspace.settle();
    }
    return projects;
  }

  /**
   * Starts a worker on the largest project the cache does not serve (its files added unparsed,
   * `open`: the open documents, which join the projects last): it checks the last part of the
   * project's files in the scan's order while this thread parses and checks the rest.
   */
  private startScanWorker(
    projects: ReadonlyMap<string, Workspace>,
    cached: ReadonlySet<string>,
    open: readonly TextDocument[],
    scan: number,
  ): void {
    this.stopScanWorker();
    if (this.scanWorkerMode === 'off' || this.rules || !scanWorkerAvailable()) return;
    let project: string | undefined;
    let size = 0;
    for (const [key, workspace] of projects)
      if (!cached.has(key) && workspace.unparsed > size) [project, size] = [key, workspace.unparsed];
    const workspace = project === undefined ? undefined : projects.get(project);
    if (project === undefined || !workspace || size < SCAN_WORKER_MIN_FILES) return;
    const openHere = open.filter((d) => this.projectOf(d.uri) === project);
    const files = [
      ...workspace.uris().map((uri) => ({ uri, text: workspace.textOf(uri) ?? '', version: 0 })),
      ...openHere.map((d) => ({ uri: d.uri, text: d.getText(), version: d.version })),
    ];
    // The scan checks the open documents first, then every file in URI order (scanInBackground).
    const inOrder = files.map((f) => f.uri).filter((uri) => !this.open.has(uri) && !isConfigFileUri(uri));
    inOrder.sort();
    const check = inOrder.slice(Math.floor(inOrder.length * (1 - SCAN_WORKER_SHARE)));
    const received: { uri: string; diagnostics: readonly Diagnostic[] }[] = [];
    let state: NonNullable<Session['scanWorker']> | undefined;
    try {
      const worker = new ScanWorker(
        {
          folders: this.folders,
          configFiles: this.configFileTexts(),
          editorSettings: this.editorSettings,
          files,
          check,
        },
        (results) => {
          received.push(...results);
          state?.apply?.();
        },
        (message) => this.error(`anf-lint: the scan's worker failed: ${message}`),
      );
      state = {
        worker,
        scan,
        project,
        assigned: new Set(check),
        textsAt: this.textsChanged,
        configs: this.configs,
        settings: this.editorSettings,
        received,
      };
      this.scanWorker = state;
    } catch (error) {
      this.error(
        `anf-lint: the scan's worker did not start: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  private stopScanWorker(): void {
    this.scanWorker?.worker.stop();
    this.scanWorker = undefined;
  }

  /**
   * Whether every file of a project (the texts `workspace` holds, parsed or not, and `open`: the
   * open documents' texts by URI) has its findings in the scan cache.
   */
  private allCached(workspace: Workspace, open: ReadonlyMap<string, string> = new Map()): boolean {
    const cache = this.cache();
    if (!cache.enabled) return false;
    const texts = new Map(workspace.uris().map((uri) => [uri, workspace.textOf(uri) ?? '']));
    for (const [uri, text] of open) texts.set(uri, text);
    const fingerprint = this.fingerprint(texts);
    return [...texts].every(([uri, text]) => cache.has(this.cacheKey(uri, text, fingerprint)));
  }

  /** The scan cache, opened on first use in the client's storage folder (none: results are not kept). */
  private cache(): ScanCache {
    this.scanCache ??= ScanCache.open(this.storagePath, (m) => this.log(m));
    return this.scanCache;
  }

  /**
   * The key of a file's findings in the scan cache (scanCache.ts says what it holds and why): the
   * hash of `JSON.stringify([build, rule codes, configuration, editor settings, fingerprint, uri,
   * text hash])`, with the part the files of one configuration share written once (it holds the
   * code of every rule: made for each of 1,000 files, it was most of the keys' cost).
   */
  private cacheKey(uri: string, text: string, fingerprint: string): string {
    const tail = `${JSON.stringify(fingerprint)},${JSON.stringify(uri)},${JSON.stringify(this.textHash(uri, text))}]`;
    return sha256(this.cacheKeyHead(this.configs.sourceOf(uri)) + tail);
  }

  /** The start of the keys of the files that lint with `config`, kept while the rules and the editor's settings stay. */
  private cacheKeyHead(config: FolderConfig | undefined): string {
    let heads = this.cacheKeyHeads;
    if (!heads || heads.rules !== this.rules || heads.settings !== this.editorSettings) {
      heads = { rules: this.rules, settings: this.editorSettings, byConfig: new Map() };
      this.cacheKeyHeads = heads;
    }
    let head = heads.byConfig.get(config);
    if (head === undefined) {
      const whole = JSON.stringify([
        serverBuildHash(),
        (this.rules ?? []).map((r) => r.code),
        configSignature(config),
        this.editorSettings,
      ]);
      head = `${whole.slice(0, -1)},`;
      heads.byConfig.set(config, head);
    }
    return head;
  }
  private cacheKeyHeads:
    | {
        rules: readonly Rule[] | undefined;
        settings: AnfLintConfig;
        byConfig: Map<FolderConfig | undefined, string>;
      }
    | undefined;

  /** A project's fingerprint: every file's URI and text hash (`texts`: by URI). */
  private fingerprint(texts: ReadonlyMap<string, string>): string {
    const parts = [...texts].map(([uri, text]) => `${uri}\n${this.textHash(uri, text)}`).sort();
    return sha256(parts.join('\n'));
  }

  /** A project's fingerprint from the texts its Workspace holds (parsed or not). */
  private fingerprintOf(workspace: Workspace): string {
    return this.fingerprint(new Map(workspace.uris().map((uri) => [uri, workspace.textOf(uri) ?? ''])));
  }

  /** SHA-256 of a file's text, kept while the text is the same object (each file's is asked twice per scan). */
  private textHash(uri: string, text: string): string {
    const known = this.textHashes.get(uri);
    if (known?.text === text) return known.hash;
    const hash = sha256(text);
    this.textHashes.set(uri, { text, hash });
    return hash;
  }
  private readonly textHashes = new Map<string, { text: string; hash: string }>();

  /**
   * Checks every known file not checked yet, in slices that yield to edits and requests, with
   * `$/progress` (when the client shows it) and the `anf/scanProgress` notification. A change of
   * the configuration or the folders, or a newer scan, stops it; files a change touched are
   * checked on request as before.
   */
  private async scanInBackground(scan: number): Promise<void> {
    // The open documents first: the editor asks for their diagnostics again as soon as the workspace is read.
    const known = this.knownUris().filter((u) => !isConfigFileUri(u));
    const uris = [...known.filter((u) => this.open.has(u)), ...known.filter((u) => !this.open.has(u))];
    const total = uris.length;
    const generation = this.generation;
    const stale = () => scan !== this.scanGeneration || generation !== this.generation;
    const cache = this.cache();
    // Each project's fingerprint, computed again after a change of any text: an edit during the scan
    // must miss the entries of the project's state before it (and never store a result under them).
    const fingerprints = new Map<string, { at: number; value: string }>();
    const started = performance.now();
    this.scanning = true;
    this.scanStartedAt = started;
    const progress = this.support.workDoneProgress
      ? await this.connection.window.createWorkDoneProgress().catch(() => undefined)
      : undefined;
    progress?.begin('anf-lint', 0, `checking ${total} files`, false);
    let checked = 0;
    let fromCache = 0;
    let lastReport = performance.now();
    const report = (done: boolean) => {
      const params: ScanProgressParams = { checked, total, done };
      void this.connection.sendNotification(SCAN_PROGRESS_NOTIFICATION, params).catch(() => undefined);
      if (!done) progress?.report(total === 0 ? 100 : Math.floor((100 * checked) / total), `${checked}/${total} files`);
      this.wakeWaiters();
    };
    // The worker's files, when this scan started one: its results are taken while they hold.
    if (this.scanWorker && this.scanWorker.scan !== scan) this.stopScanWorker();
    const worker = this.scanWorker;
    const fromWorker = new Set<string>();
    if (worker) {
      worker.resultIds = new Map([...worker.assigned].map((uri) => [uri, this.resultId(uri)]));
      worker.apply = () => {
        const results = worker.received.splice(0);
        if (stale() || this.textsChanged !== worker.textsAt) return;
        if (this.configs !== worker.configs || this.editorSettings !== worker.settings) return;
        const workspace = this.projects.get(worker.project);
        if (!workspace) return;
        const fingerprint = cache.enabled ? this.fingerprintOf(workspace) : undefined;
        for (const { uri, diagnostics } of results) {
          if (worker.resultIds?.get(uri) !== this.resultId(uri) || this.lintCache.has(uri)) continue;
          this.lintCache.set(uri, diagnostics);
          fromWorker.add(uri);
          checked++;
          const text = workspace.textOf(uri);
          if (fingerprint !== undefined && text !== undefined)
            cache.set(this.cacheKey(uri, text, fingerprint), diagnostics);
        }
        if (results.length === 0) return;
        this.wakeWaiters();
        if (performance.now() - lastReport >= SCAN_REPORT_MS) {
          report(false);
          lastReport = performance.now();
        }
      };
      worker.apply();
    }
    const check = async (uri: string): Promise<boolean> => {
      const workspace = this.workspaceOf(uri);
      if (this.lintCache.has(uri) || !workspace.has(uri)) return true;
      const project = this.projectOf(uri);
      if (cache.enabled && fingerprints.get(project)?.at !== this.textsChanged)
        fingerprints.set(project, { at: this.textsChanged, value: this.fingerprintOf(workspace) });
      const fingerprint = fingerprints.get(project)?.value;
      const text = workspace.textOf(uri);
      const key = fingerprint !== undefined && text !== undefined ? this.cacheKey(uri, text, fingerprint) : undefined;
      const cached = key === undefined ? undefined : cache.get(key);
      if (cached) {
        fromCache++;
        this.lintCache.set(uri, cached);
      } else {
        const startedOn = this.resultId(uri);
        const textsAt = this.textsChanged;
        const diagnostics = await this.allDiagnosticsInSlices(uri, stale);
        if (diagnostics === undefined || stale()) return false;
        // Kept for the texts it was keyed by only when no edit came in between.
        if (key !== undefined && this.resultId(uri) === startedOn && this.textsChanged === textsAt)
          cache.set(key, diagnostics);
      }
      return true;
    };
    // Most files are checked in well under a slice, so a slice spans files: input, and the parts of
    // workspace pulls (which leave in socket-sized writes, one per turn of the event loop), move at
    // least every LINT_SLICE_MS. Turns only at progress reports held both for 200 ms, and most parts
    // reached the client after the scan (bench/notes.md, session 17).
    let turnAt = performance.now();
    const betweenFiles = async () => {
      if (performance.now() - lastReport >= SCAN_REPORT_MS) {
        report(false);
        await yieldToEvents();
        lastReport = turnAt = performance.now();
      } else if (performance.now() - turnAt >= LINT_SLICE_MS) {
        await yieldToEvents();
        turnAt = performance.now();
      }
    };
    try {
      report(false);
      for (const uri of uris) {
        if (stale()) return;
        if (worker?.assigned.has(uri)) continue;
        checked++;
        if (!(await check(uri))) return;
        await betweenFiles();
      }
      if (worker) {
        // The worker's files: its results as they come, then this thread checks any it gave none for.
        await worker.worker.done;
        worker.apply?.();
        for (const uri of uris) {
          if (stale()) return;
          if (!worker.assigned.has(uri) || fromWorker.has(uri)) continue;
          checked++;
          if (!(await check(uri))) return;
          await betweenFiles();
        }
        this.stopScanWorker();
      }
      if (stale()) return;
      this.cacheToSave = cache;
      this.log(
        `anf-lint: checked ${total} files in ${Math.round(performance.now() - started)} ms${cache.enabled ? ` (${fromCache} from the scan cache)` : ''}${worker ? ` (${fromWorker.size} by a worker thread)` : ''}.`,
      );
    } finally {
      if (worker && this.scanWorker === worker) this.stopScanWorker();
      if (scan === this.scanGeneration) this.scanning = false;
      progress?.done();
      report(true);
    }
    // The cache file is written once the client has pulled the scan's answers (megabytes of
    // `workspace/diagnostic`): writing it took a second under load, before them. Its keys say what
    // each entry depends on, so a change meanwhile cannot make an entry wrong. `shutdown` writes it too.
    clearTimeout(this.scanCacheTimer);
    this.scanCacheTimer = setTimeout(() => this.saveScanCache(), SCAN_CACHE_SAVE_DELAY_MS);
    // Projects whose findings all came from the cache are parsed now, in slices, so that the first
    // edit or request does not wait for it.
    let sliceStart = performance.now();
    const sliceDone = () => performance.now() - sliceStart >= LINT_SLICE_MS;
    for (const workspace of this.workspaces())
      while (!workspace.settle(sliceDone)) {
        await yieldToEvents();
        // The scan's answers (megabytes of `workspace/diagnostic`) leave first.
        await outputDrained();
        if (stale()) return;
        sliceStart = performance.now();
      }
  }

  /**
   * Watched-file events: queued by file (the last event of a file wins) and applied in slices that
   * let requests in. One notification with 20,000 changes used to block the server for about
   * 100 s (issue 32). A large batch is applied without tracing dependents file by file; every
   * document is checked again once at the end instead.
   */
  queueDiskChanges(changes: readonly { uri: string; deleted: boolean }[]): void {
    for (const change of changes) {
      const key = canonicalUri(change.uri);
      this.pendingDisk.delete(key);
      this.pendingDisk.set(key, change);
    }
    if (!this.drainingDisk) void this.drainDiskChanges();
  }

  /** Resolves when every queued watched-file change is applied (for tests). */
  async diskChangesApplied(): Promise<void> {
    while (this.drainingDisk || this.pendingDisk.size > 0) await new Promise((r) => setTimeout(r, 5));
  }

  private async drainDiskChanges(): Promise<void> {
    this.drainingDisk = true;
    this.indexFullLogged = false;
    let untraced = false;
    let sliceStart = performance.now();
    try {
      while (this.pendingDisk.size > 0) {
        if (this.pendingDisk.size > WATCHED_BATCH_TRACED) untraced = true;
        const [key, change] = this.pendingDisk.entries().next().value as [string, { uri: string; deleted: boolean }];
        this.pendingDisk.delete(key);
        try {
          this.diskChanged(change.uri, change.deleted, !untraced);
        } catch (error) {
          this.error(
            `anf-lint: could not apply the change of ${change.uri}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        if (performance.now() - sliceStart >= LINT_SLICE_MS) {
          await yieldToEvents();
          sliceStart = performance.now();
        }
      }
      if (untraced) this.invalidateAll();
    } finally {
      this.drainingDisk = false;
    }
  }

  /**
   * A watched file changed on disk: re-read it unless it is open (the editor's text wins).
   * `traced`: re-check what depends on it now (else the caller re-checks everything once).
   */
  diskChanged(uri: string, deleted: boolean, traced = true): void {
    const key = canonicalUri(uri);
    const path = uriToPath(uri);
    const previous = this.disk.get(key);
    // The index keeps its bound: a new file past it is checked only when opened, as at the first scan.
    if (!previous && !deleted && this.disk.size >= this.indexLimits.maxFiles) {
      if (!this.indexFullLogged)
        this.log(
          `anf-lint: the workspace index holds its bound of ${this.indexLimits.maxFiles} files; new files are checked only when opened.`,
        );
      this.indexFullLogged = true;
      return;
    }
    const file = deleted || !path ? undefined : readIndexedFile(path, this.folders, this.indexLimits);
    if (file) this.disk.set(key, file);
    else this.disk.delete(key);
    if (isConfigFileUri(uri)) {
      this.reloadConfig(file?.uri ?? previous?.uri ?? uri);
      return;
    }
    const openTwin = [...this.open.keys()].some((u) => canonicalUri(u) === key);
    if (openTwin) return;
    const target = file?.uri ?? previous?.uri ?? uri;
    const workspace = this.workspaceOf(target);
    const before = workspace.file(target);
    let after: ParsedFile | undefined;
    if (file) after = workspace.set(file.uri, file.text);
    else workspace.delete(target);
    if (!before && !after) return;
    if (traced) this.changed({ uri: target, ...(before ? { before } : {}), ...(after ? { after } : {}) }, false);
    else {
      this.textsChanged++;
      this.lintCache.delete(target);
    }
  }

  /** Whether a path is one the index would keep (for watcher events on files it never saw). */
  wouldIndex(uri: string): boolean {
    return indexedKind(uriToPath(uri) ?? uri);
  }

  // ---- configuration ----------------------------------------------------------------------

  /** The editor's settings changed: they apply to every folder, so every document is checked again. */
  setEditorSettings(raw: unknown): void {
    this.editorSettings = editorConfig(raw, (m) => this.log(m));
    const before = this.configs;
    this.configs = this.readConfigs();
    if (this.workloadsChanged(before)) this.rebuild();
    else this.invalidateAll();
  }

  private readConfigs(): FolderConfigs {
    return readFolderConfigs(this.folders, this.configFileTexts(), this.editorSettings);
  }

  /** Every configuration file in the folders: the open copy wins over the disk. */
  private configFileTexts(): { uri: string; text: string }[] {
    const files = new Map<string, { uri: string; text: string }>();
    for (const [key, file] of this.disk) if (isConfigFileUri(file.uri)) files.set(key, file);
    for (const document of this.open.values())
      if (isConfigFileUri(document.uri))
        files.set(canonicalUri(document.uri), { uri: document.uri, text: document.getText() });
    return [...files.values()].map(({ uri, text }) => ({ uri, text }));
  }

  /**
   * A configuration file changed (`touched`: opened, edited, closed, changed on disk): read the
   * folders' files again and re-check the documents whose configuration changed, that is those of
   * the folder whose file it is (and the documents outside every folder when it is the first one
   * with a file). A changed `workload:` reaches other files of the project through their cross-file
   * rules (the mounts' workloads), so it rebuilds the projects and re-checks everything.
   */
  private reloadConfig(touched: string): void {
    const before = this.configs;
    this.configs = this.readConfigs();
    if (this.workloadsChanged(before)) {
      this.rebuild();
      return;
    }
    const uris = new Set([...this.knownUris(), ...before.configFileUris(), touched]);
    this.invalidate(
      [...uris].filter(
        (uri) =>
          uri === touched || configSignature(before.sourceOf(uri)) !== configSignature(this.configs.sourceOf(uri)),
      ),
    );
  }

  private workloadsChanged(before: FolderConfigs): boolean {
    return this.allFiles().some(
      (f) => before.configFor(f.uri).defaultWorkload !== this.configs.configFor(f.uri).defaultWorkload,
    );
  }

  /** Rebuilds every project's Workspace from disk and open documents (the folders or the index changed). */
  private rebuild(): void {
    this.projects = new Map();
    const openKeys = new Set([...this.open.keys()].map(canonicalUri));
    for (const [key, file] of this.disk)
      if (!openKeys.has(key) && !isConfigFileUri(file.uri)) this.workspaceOf(file.uri).set(file.uri, file.text);
    for (const document of this.open.values())
      if (!isConfigFileUri(document.uri) && !this.tooLarge.has(document.uri))
        this.workspaceOf(document.uri).set(document.uri, document.getText(), document.version);
    this.invalidateAll();
  }

  /** Every document's diagnostics may have changed. */
  private invalidateAll(): void {
    this.generation++;
    // A background scan this makes stale starts again on the new state.
    if (this.scanning) void this.scanInBackground(++this.scanGeneration);
    this.lintCache.clear();
    for (const uri of this.open.keys()) this.scheduler.schedule(uri, false);
    this.wakeWaiters();
    this.requestRefresh();
  }

  /** These documents' diagnostics may have changed (the others keep their result ids). */
  private invalidate(uris: readonly string[]): void {
    if (uris.length === 0) return;
    for (const uri of uris) {
      this.fileGenerations.set(uri, (this.fileGenerations.get(uri) ?? 0) + 1);
      this.lintCache.delete(uri);
      if (this.open.has(uri)) this.scheduler.schedule(uri, false);
    }
    this.wakeWaiters();
    this.requestRefresh();
  }

  // ---- diagnostics ------------------------------------------------------------------------

  /** Changes whenever the file's diagnostics may have changed: the pull result id. */
  resultId(uri: string): string {
    return `${this.generation}.${this.fileGenerations.get(uri) ?? 0}`;
  }

  /** When the running scan started (performance.now()). */
  private scanStartedAt = 0;

  /** Whether the running scan has run for SCAN_LONG_MS (workspace/diagnostic then answers in pieces). */
  scanIsLong(): boolean {
    return this.scanning && performance.now() - this.scanStartedAt >= SCAN_LONG_MS;
  }

  /** Whether a file's diagnostics are at hand without checking it (during the scan: checked already). */
  hasDiagnostics(uri: string): boolean {
    return isConfigFileUri(uri) || this.tooLarge.has(uri) || this.lintCache.has(uri);
  }

  /** Everything the engine reports for a file, suppressed findings included (cached per change). */
  allDiagnostics(uri: string): readonly Diagnostic[] {
    if (isConfigFileUri(uri))
      return this.configs.ofConfigFile(uri) || this.open.has(uri) ? this.configDiagnosticsFor(uri) : [];
    const cached = this.lintCache.get(uri);
    if (cached) return cached;
    const tooLarge = this.tooLarge.get(uri);
    if (tooLarge !== undefined) {
      const finding = fileTooLargeDiagnostic(
        uri,
        { characters: tooLarge, editorLimitCharacters: OPEN_DOCUMENT_MAX_CHARS, cliLimitBytes: NAMED_FILE_MAX_BYTES },
        this.configFor(uri),
      );
      return finding ? [finding] : [];
    }
    this.lintStarts.set(uri, (this.lintStarts.get(uri) ?? 0) + 1);
    const diagnostics = lintFile(this.workspaceOf(uri), uri, this.configFor(uri), this.lintOptions(uri));
    this.lintCache.set(uri, diagnostics);
    return diagnostics;
  }

  private lintOptions(uri: string): LintOptions {
    const memo = this.open.has(uri) ? this.memos.get(uri) : undefined;
    return {
      ...(this.rules ? { rules: this.rules } : {}),
      ...(memo ? { memo } : {}),
      onRuleError: (rule, error, at) => {
        const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
        const key = `${rule.code}:${error instanceof Error ? error.message : String(error)}`;
        // Logged once per distinct fault; the ANF002 diagnostic shows it on the file each time.
        if (this.loggedFaults.has(key)) return;
        this.loggedFaults.add(key);
        this.error(`anf-lint: rule ${rule.code} (${rule.name}) failed on ${at}: ${message}`);
      },
    };
  }

  /**
   * `allDiagnostics` in slices of about LINT_SLICE_MS, letting newer events in between: undefined
   * when one of them made the pass stale (`stale()`), which then stops there. Its result is cached
   * only when it finished on the state it started on.
   */
  private async allDiagnosticsInSlices(uri: string, stale: () => boolean): Promise<readonly Diagnostic[] | undefined> {
    const workspace = this.workspaceOf(uri);
    let sliceStart = performance.now();
    // A project served by the scan cache is parsed on first need: here in slices too.
    while (!this.lintCache.has(uri) && !workspace.settle(() => performance.now() - sliceStart >= LINT_SLICE_MS)) {
      await yieldToEvents();
      if (stale()) return undefined;
      sliceStart = performance.now();
    }
    // An edit that waited for this parse is traced now (its dependents' results go).
    this.flushDeferredEdits();
    if (stale()) return undefined;
    const cached = this.lintCache.get(uri);
    if (cached || isConfigFileUri(uri) || this.tooLarge.has(uri) || !workspace.file(uri))
      return this.allDiagnostics(uri);
    const started = (this.lintStarts.get(uri) ?? 0) + 1;
    this.lintStarts.set(uri, started);
    const startedOn = this.resultId(uri);
    const steps = lintSteps(workspace, uri, this.configFor(uri), this.lintOptions(uri));
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) {
        // An edit of the file, or of a file it reads, between two slices: the result is the old state's
        // (or a mix), so it is not kept as the file's answer; the next question lints the new state.
        if (this.resultId(uri) === startedOn) this.lintCache.set(uri, step.value);
        return step.value;
      }
      if (performance.now() - sliceStart < LINT_SLICE_MS) continue;
      // setImmediate runs after pending input is read: a didChange that arrived meanwhile is applied first.
      await new Promise<void>((resolve) => setImmediate(resolve));
      // Stale, or another lint of the document (a hover's, a code action's) ran meanwhile with the same memo.
      if (stale() || this.lintStarts.get(uri) !== started) {
        steps.return([]);
        return undefined;
      }
      sliceStart = performance.now();
    }
  }

  private configDiagnosticsFor(uri: string): readonly Diagnostic[] {
    const folder = this.configs.ofConfigFile(uri);
    if (folder) return folder.diagnostics;
    // An open configuration file outside the folder roots is checked, not applied.
    const open = this.open.get(uri);
    return open ? checkConfigFile(uri, open.getText(), this.configs.defaults).diagnostics : [];
  }

  visibleDiagnostics(uri: string): Diagnostic[] {
    return visibleDiagnostics(this.allDiagnostics(uri));
  }

  /** URIs with diagnostics to offer: open documents and every indexed file. */
  knownUris(): string[] {
    const uris = new Set(this.workspaces().flatMap((w) => w.uris()));
    for (const uri of this.open.keys()) uris.add(uri);
    for (const uri of this.configs.configFileUris()) uris.add(uri);
    return [...uris].sort();
  }

  /**
   * Push mode: computes a document's diagnostics in slices and sends them. A newer version of the
   * document, or a change of a file it reads, that arrives meanwhile makes the pass stale: it stops
   * at its next slice and publishes nothing (the change scheduled a pass of its own).
   */
  private async publish(uri: string): Promise<void> {
    if (!this.pushDiagnostics) return;
    const document = this.open.get(uri);
    if (!document) return;
    const version = document.version;
    const resultId = this.resultId(uri);
    const stale = () => this.open.get(uri)?.version !== version || this.resultId(uri) !== resultId;
    let diagnostics: readonly Diagnostic[] | undefined;
    try {
      diagnostics = await this.allDiagnosticsInSlices(uri, stale);
      if (stale()) {
        this.superseded++;
        return;
      }
      // Overtaken by another lint of the same state (a request's): its result is cached.
      diagnostics ??= this.allDiagnostics(uri);
    } catch (error) {
      this.error(
        `anf-lint: could not check ${uri}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
      return;
    }
    void this.connection.sendDiagnostics({
      uri,
      version,
      diagnostics: visibleDiagnostics(diagnostics).map(toLspDiagnostic),
    });
  }

  /** Pull mode: ask the client to pull again (dependents changed without an edit of their own). */
  private requestRefresh(): void {
    if (!this.support.pullDiagnostics || !this.support.diagnosticRefresh || this.refreshPending) return;
    this.refreshPending = true;
    setTimeout(() => {
      this.refreshPending = false;
      this.connection.languages.diagnostics.refresh().catch(() => undefined);
    }, DIAGNOSTICS_DEBOUNCE_MS);
  }

  /** After `initialized`'s work: a read that never started (a failed registration) is not waited for. */
  initializedHandled(): void {
    if (this.readGeneration > 0 || !this.reading) return;
    this.reading = false;
    this.wakeWaiters();
  }

  /** Whether the workspace is being read or checked: `workspace/diagnostic` follows the scan then. */
  get scanPending(): boolean {
    return this.scanning || this.reading;
  }

  /** Sends part of a `workspace/diagnostic` result on the request's partial-result token (`$/progress`). */
  sendPartialResult(token: ProgressToken, result: WorkspaceDiagnosticReportPartialResult): void {
    void this.connection.sendProgress(WorkspaceDiagnosticRequest.partialResult, token, result).catch(() => undefined);
  }

  /** Resolves when anything changes (for the workspace-diagnostics long poll). */
  nextChange(): Promise<void> {
    return new Promise((resolve) => this.changeWaiters.push(resolve));
  }

  private wakeWaiters(): void {
    const waiters = this.changeWaiters;
    this.changeWaiters = [];
    for (const wake of waiters) wake();
  }

  /** A complete scan's results not written to the scan cache yet. */
  private cacheToSave: ScanCache | undefined;
  private scanCacheTimer: ReturnType<typeof setTimeout> | undefined;

  private saveScanCache(): void {
    clearTimeout(this.scanCacheTimer);
    const cache = this.cacheToSave;
    this.cacheToSave = undefined;
    if (!cache?.enabled) return;
    const written = cache.save();
    this.log(`anf-lint: scan cache ${written ? 'written' : 'unchanged'}.`);
  }

  dispose(): void {
    this.saveScanCache();
    this.scheduler.dispose();
    for (const timer of this.settling.values()) clearTimeout(timer);
    this.settling.clear();
    this.scanGeneration++;
    this.scanning = false;
    this.reading = false;
    this.stopScanWorker();
    this.pendingDisk.clear();
    this.wakeWaiters();
  }
}
