import { byApplicability, type Fix, type SpanEdit } from '../../diagnostics';
import { hostRootOf, onHostWords, type Host } from '../../workspace/hosts';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import type { MountEntry } from '../../mounts/model';
import type { Span } from '../../text/sourceText';
import { baseName, pathOf } from '../../fileKind';
import type { ParsedFile } from '../../workspace/parsedFile';
import type { WorkspaceView } from '../../workspace/workspaceView';
import type { KernelSetting } from '../model';
import { isTemplated } from '../piece';
import { JinjaBranches } from '../../text/templateLines';

/**
 * Which settings a host applies, and in what order. systemd-sysctl and `sysctl --system` read
 * every `sysctl.d/*.conf` (from /etc, /run, /usr/local/lib, /usr/lib, /lib) sorted by file name,
 * then `/etc/sysctl.conf` last; a later value of a key overwrites an earlier one. A repository may
 * hold several hosts (`hosts/eda/etc/...`, `hosts/hana/etc/...`): files belong to the host whose
 * root (the folder above `etc/`, `usr/`, `run/`, `lib/`) they share.
 */

const SYSTEM_DIRS = /\/(?:etc|usr\/local\/lib|usr\/lib|run|lib)\/(?:sysctl\.d\/[^/]+|sysctl\.conf)$/;
const DIR_PRIORITY: readonly [RegExp, number][] = [
  [/\/etc\/sysctl\.d\//, 0],
  [/\/run\/sysctl\.d\//, 1],
  [/\/usr\/local\/lib\/sysctl\.d\//, 2],
  [/\/usr\/lib\/sysctl\.d\//, 3],
  [/\/lib\/sysctl\.d\//, 4],
];

/** The host folder a sysctl file belongs to, or undefined for a file that is not in a system layout. */
export function hostRoot(uri: string): string | undefined {
  const path = pathOf(uri);
  const system = SYSTEM_DIRS.exec(path);
  if (system) return path.slice(0, system.index + 1);
  const dropIn = /\/sysctl\.d\/[^/]+$/.exec(path);
  if (dropIn) return path.slice(0, dropIn.index + 1);
  return undefined;
}

/** Sort key in load order: drop-ins by file name (then directory priority), sysctl.conf last. */
function loadKey(uri: string): string {
  const path = pathOf(uri);
  const name = baseName(path);
  const last = name === 'sysctl.conf' && !path.includes('/sysctl.d/') ? '1' : '0';
  const priority = DIR_PRIORITY.find(([re]) => re.test(path))?.[1] ?? DIR_PRIORITY.length;
  return `${last}\u0000${name}\u0000${priority}\u0000${path}`;
}

/** Settings that apply to a host in the order the kernel sees them. */
export interface SettingScope {
  /** Every setting in order; later ones overwrite earlier ones of the same key. */
  readonly ordered: readonly KernelSetting[];
  /** The settings of each key, in order (the last one wins); also keyed by channel and key. */
  readonly byKey: ReadonlyMap<string, readonly KernelSetting[]>;
  /** Each setting's channel-and-key entry of `byKey`. */
  readonly channels: ReadonlyMap<KernelSetting, string>;
  /**
   * Each conditional setting's condition: its Ansible task's (model.ts `condition`) and the
   * `{% if %}`/`{% for %}` branch of a template it sits in.
   */
  readonly conditions: ReadonlyMap<KernelSetting, string>;
  /** True when the scope spans several files of one host. */
  readonly crossFile: boolean;
  readonly root?: string;
}

const HOST_ORIGINS = new Set(['sysctl']);

/**
 * Which settings can overwrite each other. A script that persists a value (`echo ... >>
 * /etc/sysctl.conf`) and applies it now (`sysctl -w`) writes the key twice on purpose: a boot-time
 * file and a runtime command are separate channels. Markdown shows alternatives side by side, so
 * nothing in it overwrites anything.
 */
function channelOf(setting: KernelSetting, markdown: boolean, index: number): string {
  if (markdown) return `doc:${index}`;
  return setting.persistent ? 'boot' : 'now';
}

function buildScope(
  ordered: readonly KernelSetting[],
  crossFile: boolean,
  root?: string,
  markdown = false,
  branchOf?: (setting: KernelSetting) => string | undefined,
): SettingScope {
  const byKey = new Map<string, KernelSetting[]>();
  const channels = new Map<KernelSetting, string>();
  const conditions = new Map<KernelSetting, string>();
  ordered.forEach((setting, index) => {
    // Settings an Ansible task writes to another file (or for other hosts) never meet these.
    const channelKey = `${channelOf(setting, markdown, index)}\u0000${setting.target ?? ''}\u0000${setting.key}`;
    channels.set(setting, channelKey);
    const condition = [branchOf?.(setting), setting.condition].filter((c) => c !== undefined).join(' && ');
    if (condition !== '') conditions.set(setting, condition);
    // A templated key (`name: "{{ item.name }}"` in a loop) is no key anf-lint knows: it neither
    // overrides nor is overridden by anything, not even by the same placeholder in another task.
    if (isTemplated(setting.rawKey)) return;
    const list = byKey.get(channelKey);
    if (list) list.push(setting);
    else byKey.set(channelKey, [setting]);
    // The key alone: the last write of any channel, for rules that compare values (winning()).
    const all = byKey.get(setting.key);
    if (all) all.push(setting);
    else byKey.set(setting.key, [setting]);
  });
  return { ordered, byKey, channels, conditions, crossFile, ...(root ? { root } : {}) };
}

/**
 * Whether `later` surely overwrites `earlier` (same channel, later in order): it is written whenever
 * `earlier` is (no condition, the same one, or one `earlier`'s condition starts with: an enclosing
 * block's `when:`), and its text lands after `earlier`'s (the same Ansible block replaced, or a task
 * that appends or replaces in place). `when: ha_cluster` and `when: not ha_cluster` are two cases,
 * not a repeat; a `blockinfile` with `insertbefore:` may land before. The fix engine deletes the
 * earlier line on this answer alone, so "maybe" is no.
 */
export function surelyOverwrites(scope: SettingScope, later: KernelSetting, earlier: KernelSetting): boolean {
  const whenLater = scope.conditions.get(later);
  if (whenLater !== undefined) {
    const whenEarlier = scope.conditions.get(earlier);
    if (whenEarlier === undefined || (whenEarlier !== whenLater && !whenEarlier.startsWith(`${whenLater} && `)))
      return false;
  }
  const placement = later.placement;
  if (!placement) return true;
  if (placement.block !== undefined && placement.block === earlier.placement?.block) return true;
  return placement.last;
}

/** Whether two settings are written together whenever either is (the same conditions, target and hosts). */
export function writtenTogether(scope: SettingScope, a: KernelSetting, b: KernelSetting): boolean {
  return a.target === b.target && scope.conditions.get(a) === scope.conditions.get(b);
}

/**
 * The scope a file's settings live in: its host (all sysctl files under the same root, in load
 * order) for sysctl.conf and sysctl.d files, else the file alone (modprobe.d, tuned, scripts).
 * A host's scope is cached per workspace state (`workspace.settings()` is a new array after any
 * change): every rule of every file of the host asks, and rebuilding it each time made a host with
 * many sysctl.d files quadratic.
 */
export function scopeOf(workspace: WorkspaceView, file: ParsedFile): SettingScope {
  const root = file.kind === 'sysctl' ? hostRoot(file.uri) : undefined;
  if (!root) {
    // A file alone (a script, modprobe.d): once per settings list, not once per rule that asks.
    let scope = FILE_SCOPES.get(file.settings);
    if (!scope)
      FILE_SCOPES.set(
        file.settings,
        (scope = fileScope(file.settings, file.kind === 'markdown' || file.kind === 'rst', templateBranchOf(file))),
      );
    return scope;
  }
  const byRoot = innerMap(HOST_SCOPES, workspace.settings());
  let scope = byRoot.get(root);
  if (!scope) byRoot.set(root, (scope = hostScope(workspace, root)));
  return scope;
}

/** The map `outer` holds for `key`, made empty on first use (a cache of caches). */
function innerMap<K extends object, K2, V>(outer: WeakMap<K, Map<K2, V>>, key: K): Map<K2, V> {
  let inner = outer.get(key);
  if (!inner) outer.set(key, (inner = new Map()));
  return inner;
}

const HOST_SCOPES = new WeakMap<readonly KernelSetting[], Map<string, SettingScope>>();
const FILE_SCOPES = new WeakMap<readonly KernelSetting[], SettingScope>();

/**
 * By a file's first setting: the scope last built for that file alone. A document re-read line by
 * line after an edit (workspace/shellReuse.ts, lineReuse.ts) keeps its unchanged settings as the
 * same objects, moved in place, in a new list: when every setting is the one the scope was built
 * from, in the same order, that scope is the new list's too (it reads only the settings' keys,
 * channels and origins, which a kept setting never changes). Most edits of a script touch no
 * setting; building the scope again for each was about a third of ANF306's time (bench/notes.md, session 8).
 */
const LAST_FILE_SCOPE = new WeakMap<KernelSetting, { readonly scope: SettingScope; readonly markdown: boolean }>();

function fileScope(
  settings: readonly KernelSetting[],
  markdown: boolean,
  branchOf?: (setting: KernelSetting) => string | undefined,
): SettingScope {
  if (branchOf) return buildScope(settings, false, undefined, markdown, branchOf);
  const first = settings[0];
  const last = first ? LAST_FILE_SCOPE.get(first) : undefined;
  if (last && last.markdown === markdown && sameItems(last.scope.ordered, settings)) return last.scope;
  const scope = buildScope(settings, false, undefined, markdown);
  if (first) LAST_FILE_SCOPE.set(first, { scope, markdown });
  return scope;
}

/**
 * The `{% if %}`/`{% for %}` branch each setting of a Jinja template sits in (`templates/sysctl.conf.j2`),
 * or undefined for a file that is no template. Line files only: Ansible bodies carry theirs (ansible.ts).
 */
function templateBranchOf(file: ParsedFile): ((setting: KernelSetting) => string | undefined) | undefined {
  if (file.kind === 'ansible' || file.kind === 'markdown' || file.kind === 'rst' || !file.source.text.includes('{%'))
    return undefined;
  let lines = TEMPLATE_BRANCHES.get(file.source);
  if (!lines) {
    const branches = new JinjaBranches();
    lines = [];
    for (let line = 0; line < file.source.lineCount; line++) {
      branches.feed(file.source.lineText(line));
      lines.push(branches.branch);
    }
    TEMPLATE_BRANCHES.set(file.source, lines);
  }
  const known = lines;
  const source = file.source;
  return (setting) => (setting.uri === file.uri ? known[source.positionAt(setting.span.start).line] : undefined);
}
const TEMPLATE_BRANCHES = new WeakMap<object, (string | undefined)[]>();

/** Whether two lists hold the same objects in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function hostScope(workspace: WorkspaceView, root: string): SettingScope {
  const files = [...(sysctlFilesByRoot(workspace.files()).get(root) ?? [])].sort((a, b) =>
    loadKey(a.uri) < loadKey(b.uri) ? -1 : loadKey(a.uri) > loadKey(b.uri) ? 1 : 0,
  );
  const ordered = files.flatMap((f) => f.settings.filter((s) => HOST_ORIGINS.has(s.origin)));
  const branches = new Map(files.map((f) => [f.uri, templateBranchOf(f)] as const).filter(([, b]) => b !== undefined));
  return buildScope(
    ordered,
    files.length > 1,
    root,
    false,
    branches.size === 0 ? undefined : (setting) => branches.get(setting.uri)?.(setting),
  );
}

/** The sysctl files of each host root, once per workspace state (not every file for every host). */
const SYSCTL_FILES = new WeakMap<readonly ParsedFile[], Map<string, ParsedFile[]>>();
function sysctlFilesByRoot(files: readonly ParsedFile[]): ReadonlyMap<string, readonly ParsedFile[]> {
  let byRoot = SYSCTL_FILES.get(files);
  if (byRoot) return byRoot;
  byRoot = new Map();
  for (const file of files) {
    const root = file.kind === 'sysctl' ? hostRoot(file.uri) : undefined;
    if (root === undefined) continue;
    const list = byRoot.get(root);
    if (list) list.push(file);
    else byRoot.set(root, [file]);
  }
  SYSCTL_FILES.set(files, byRoot);
  return byRoot;
}

/** The setting of the same key that overwrites this one later in its scope, if any. */
export function overriddenBy(scope: SettingScope, setting: KernelSetting): KernelSetting | undefined {
  return winnersOf(scope).get(setting);
}

/**
 * Each overwritten setting of a scope and the setting that overwrites it, built once per scope:
 * rules ask `overriddenBy` for every setting of every file of the host, and a lookup of the channel,
 * its list and a set of its members each time was most of a large sysctl file's lint.
 */
const WINNERS = new WeakMap<SettingScope, ReadonlyMap<KernelSetting, KernelSetting>>();
function winnersOf(scope: SettingScope): ReadonlyMap<KernelSetting, KernelSetting> {
  const winners = WINNERS.get(scope);
  if (winners) return winners;
  const built = new Map<KernelSetting, KernelSetting>();
  for (const channel of new Set(scope.channels.values())) {
    const list = scope.byKey.get(channel);
    if (!list || list.length < 2) continue;
    const plain = list.every((s) => s.placement === undefined && !scope.conditions.has(s));
    if (plain) {
      // A plain file (no conditions, no Ansible placement): the last write wins over all, in one pass.
      const last = list[list.length - 1]!;
      for (let i = 0; i < list.length - 1; i++) if (list[i] !== last) built.set(list[i]!, last);
      continue;
    }
    // Conditional or Ansible-placed writes: the last later write that surely overwrites each one.
    for (let i = 0; i < list.length - 1; i++) {
      for (let j = list.length - 1; j > i; j--) {
        if (list[j] === list[i] || !surelyOverwrites(scope, list[j]!, list[i]!)) continue;
        built.set(list[i]!, list[j]!);
        break;
      }
    }
  }
  WINNERS.set(scope, built);
  return built;
}

/** The value of a key that wins in the scope. */
export function winning(scope: SettingScope, key: string): KernelSetting | undefined {
  const list = scope.byKey.get(key);
  return list?.[list.length - 1];
}

/** Settings of this file that take effect (not overwritten later) and are not templates. */
export function liveSettings(workspace: WorkspaceView, file: ParsedFile, key?: string): KernelSetting[] {
  const scope = scopeOf(workspace, file);
  return file.settings.filter((s) => (key === undefined || s.key === key) && !s.templated && !overriddenBy(scope, s));
}

/** Integer value of a single-field setting, or undefined. */
export function integerValue(setting: KernelSetting | undefined): number | undefined {
  if (!setting || setting.templated) return undefined;
  const text = setting.value.trim();
  return /^-?\d+$/.test(text) ? Number(text) : undefined;
}

/** Integer fields of a multi-value setting (`tcp_rmem`), or undefined if any field is not an integer. */
export function integerFields(setting: KernelSetting | undefined): number[] | undefined {
  if (!setting || setting.templated) return undefined;
  const fields = setting.value.trim().split(/\s+/);
  if (!fields.every((f) => /^-?\d+$/.test(f))) return undefined;
  return fields.map(Number);
}

/** The span of a field of a setting (`tcp_rmem`'s third field), falling back to the whole value. */
export function fieldSpan(setting: KernelSetting, index: number): Span {
  return setting.fields?.[index]?.span ?? setting.valueSpan;
}

/** Replace a setting's value (or one field of it): `replaceValueFix.unsafe(title, setting, newText, fieldIndex?)`. */
export const replaceValueFix = byApplicability(
  (applicability, title: string, setting: KernelSetting, newText: string, fieldIndex?: number): Fix => {
    const span = fieldIndex === undefined ? setting.valueSpan : fieldSpan(setting, fieldIndex);
    return { title, edits: [{ span, newText }], applicability };
  },
);

/** The whole line(s) a setting sits on, with the line break, when nothing else shares them. */
export function ownLineSpan(file: ParsedFile, setting: KernelSetting): Span | undefined {
  const source = file.source;
  const startLine = source.positionAt(setting.span.start).line;
  const endLine = source.positionAt(setting.span.end).line;
  const lineStart = source.lineStart(startLine);
  const lineEnd = source.lineEnd(endLine);
  const before = source.text.slice(lineStart, setting.span.start);
  const after = source.text.slice(setting.span.end, lineEnd);
  if (before.trim() !== '' || after.trim() !== '') return undefined;
  const nextLine = endLine + 1 < source.lineCount ? source.lineStart(endLine + 1) : source.text.length;
  return { start: lineStart, end: nextLine };
}

/**
 * Fixes that remove a persistent setting: delete its line, or comment it out. Only for lines it owns.
 * `removeLineFixes.safe(file, setting, why)`, `removeLineFixes.unsafe(...)`.
 */
export const removeLineFixes = byApplicability(
  (applicability, file: ParsedFile, setting: KernelSetting, why: string): Fix[] => {
    if (!setting.persistent || setting.origin === 'modprobe') return [];
    const line = ownLineSpan(file, setting);
    if (!line) return [];
    const deleteEdit: SpanEdit = { span: line, newText: '' };
    const commentEdit: SpanEdit = { span: { start: setting.span.start, end: setting.span.start }, newText: '# ' };
    return [
      { title: `Delete the line (${why})`, edits: [deleteEdit], applicability },
      { title: `Comment out the line (${why})`, edits: [commentEdit], applicability },
    ];
  },
);

/** `file:line` for messages. */
export function where(workspace: WorkspaceView, from: ParsedFile, setting: KernelSetting): string {
  const other = setting.uri === from.uri ? from : workspace.file(setting.uri);
  const line = (other?.source.positionAt(setting.span.start).line ?? 0) + 1;
  return setting.uri === from.uri ? `line ${line}` : `${baseName(setting.uri)}:${line}`;
}

/** ` on host \`hana-node1\`` when the workspace describes several machines, else empty. */
export function hostWords(workspace: WorkspaceView, file: ParsedFile): string {
  return onHostWords(workspace.hosts(), workspace.hostOf(file.uri));
}

/** The NFS mounts of a file's host, in boot order (files by path, then lines). Never another host's. */
export function hostMounts(workspace: WorkspaceView, file: ParsedFile): readonly MountEntry[] {
  const host = workspace.hostOf(file.uri);
  if (host) return host.nfsMounts;
  let own = OWN_NFS.get(file);
  if (!own) {
    own = file.mounts.filter((m) => m.isNfs);
    OWN_NFS.set(file, own);
  }
  return own;
}
const OWN_NFS = new WeakMap<ParsedFile, readonly MountEntry[]>();

/**
 * The manifest volumes of a file's host: those in manifests inside its folder (all of them in a
 * repository without host layout) and those its mounts reach. Never the volumes only another
 * host mounts. Cached per host (a host object lives as long as one workspace state).
 */
export function hostVolumes(workspace: WorkspaceView, file: ParsedFile): readonly VolumeSummary[] {
  const host = workspace.hostOf(file.uri);
  if (!host) return file.volumes;
  let volumes = HOST_VOLUMES.get(host);
  if (!volumes) {
    const found = new Set<VolumeSummary>(host.files.flatMap((f) => f.volumes));
    for (const mount of host.nfsMounts) {
      const volume = workspace.volumeForMount(mount);
      if (volume) found.add(volume);
    }
    volumes = [...found];
    HOST_VOLUMES.set(host, volumes);
  }
  return volumes;
}
const HOST_VOLUMES = new WeakMap<Host, readonly VolumeSummary[]>();

/** The mounts of a file's host that reach a volume (other hosts' mounts of it never count). */
export function hostMountsOfVolume(
  workspace: WorkspaceView,
  file: ParsedFile,
  volume: VolumeSummary,
): readonly MountEntry[] {
  const host = workspace.hostOf(file.uri);
  const all = workspace.mountsOfVolume(volume);
  if (!host) return all.filter((m) => m.uri === file.uri);
  const byVolume = innerMap(HOST_VOLUME_MOUNTS, host);
  let mounts = byVolume.get(volume);
  if (!mounts) byVolume.set(volume, (mounts = all.filter((m) => workspace.hostOf(m.uri) === host)));
  return mounts;
}
const HOST_VOLUME_MOUNTS = new WeakMap<Host, Map<VolumeSummary, readonly MountEntry[]>>();

/** The files of a file's host (the file alone when the workspace does not hold it). */
export function hostFiles(workspace: WorkspaceView, file: ParsedFile): readonly ParsedFile[] {
  return workspace.hostOf(file.uri)?.files ?? [file];
}

/** The files of the host whose folder is `root`. */
export function filesOnHost(workspace: WorkspaceView, root: string): readonly ParsedFile[] {
  return workspace.hosts().scopes.find((h) => h.root === root)?.files ?? [];
}

/** The host folder of any file (the folder above `etc/`, ...): see core/workspace/hosts.ts. */
export const hostRootOfAny = hostRootOf;

/**
 * The highest nconnect of some mounts (1 when none sets it). Cached per array: hostMounts and
 * mountsOfVolume hand out the same arrays until the workspace changes, and ANF315/ANF318 ask for
 * every volume of every sysctl file (most of the time of a 500-file repository went here). A loop,
 * not Math.max(...spread): a host can have 100,000 mounts.
 */
export function maxNconnect(mounts: readonly MountEntry[]): number {
  let max = MAX_NCONNECT.get(mounts);
  if (max === undefined) {
    max = 1;
    for (const mount of mounts) max = Math.max(max, nconnectOf(mount) ?? 1);
    MAX_NCONNECT.set(mounts, max);
  }
  return max;
}

const MAX_NCONNECT = new WeakMap<readonly MountEntry[], number>();

/** A mount's nconnect (1 when not set), or undefined when it is a template. */
export function nconnectOf(mount: MountEntry): number | undefined {
  const option = lastNconnect(mount);
  if (!option) return 1;
  if (option.templated || option.value === undefined || !/^\d+$/.test(option.value)) return undefined;
  return Number(option.value);
}

/** A mount's last `nconnect` option (the one that counts), found without copying its options: asked of every mount of a host on every lint. */
export function lastNconnect(mount: MountEntry): MountEntry['options'][number] | undefined {
  const options = mount.options;
  for (let i = options.length - 1; i >= 0; i--) if (options[i]!.name === 'nconnect') return options[i];
  return undefined;
}
