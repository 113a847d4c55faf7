import type { Fix, SpanEdit } from '../diagnostics';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { MountEntry } from '../mounts/model';
import type { Span } from '../text/sourceText';
import { baseName, pathOf } from '../workspace/fileKind';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';
import type { KernelSetting } from './model';

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

function buildScope(ordered: readonly KernelSetting[], crossFile: boolean, root?: string, markdown = false): SettingScope {
  const byKey = new Map<string, KernelSetting[]>();
  ordered.forEach((setting, index) => {
    const channelKey = `${channelOf(setting, markdown, index)}\u0000${setting.key}`;
    const list = byKey.get(channelKey) ?? [];
    list.push(setting);
    byKey.set(channelKey, list);
    // The key alone: the last write of any channel, for rules that compare values (winning()).
    const all = byKey.get(setting.key) ?? [];
    all.push(setting);
    byKey.set(setting.key, all);
  });
  const channels = new Map<KernelSetting, string>(ordered.map((setting, index) => [setting, `${channelOf(setting, markdown, index)}\u0000${setting.key}`]));
  return { ordered, byKey, channels, crossFile, ...(root ? { root } : {}) };
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
  if (!root) return buildScope(file.settings, false, undefined, file.kind === 'markdown' || file.kind === 'rst');
  const state = workspace.settings();
  let byRoot = HOST_SCOPES.get(state);
  if (!byRoot) {
    byRoot = new Map();
    HOST_SCOPES.set(state, byRoot);
  }
  let scope = byRoot.get(root);
  if (!scope) {
    scope = hostScope(workspace, root);
    byRoot.set(root, scope);
  }
  return scope;
}

const HOST_SCOPES = new WeakMap<readonly KernelSetting[], Map<string, SettingScope>>();

function hostScope(workspace: WorkspaceView, root: string): SettingScope {
  const files = [...(sysctlFilesByRoot(workspace.files()).get(root) ?? [])].sort((a, b) => (loadKey(a.uri) < loadKey(b.uri) ? -1 : loadKey(a.uri) > loadKey(b.uri) ? 1 : 0));
  const ordered = files.flatMap((f) => f.settings.filter((s) => HOST_ORIGINS.has(s.origin)));
  return buildScope(ordered, files.length > 1, root);
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
  const channel = scope.channels.get(setting);
  const list = channel === undefined ? undefined : scope.byKey.get(channel);
  if (!list) return undefined;
  const last = list[list.length - 1];
  return last !== setting && membersOf(list).has(setting) ? last : undefined;
}

/**
 * The settings of one key as a set, built once per list: rules ask `overriddenBy` for every
 * setting, and a linear `indexOf` made a file that repeats one key quadratic.
 */
const MEMBERS = new WeakMap<readonly KernelSetting[], ReadonlySet<KernelSetting>>();
function membersOf(list: readonly KernelSetting[]): ReadonlySet<KernelSetting> {
  let members = MEMBERS.get(list);
  if (!members) {
    members = new Set(list);
    MEMBERS.set(list, members);
  }
  return members;
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

/** Replace a setting's value (or one field of it). */
export function replaceValueFix(title: string, setting: KernelSetting, newText: string, safe: boolean, fieldIndex?: number): Fix {
  const span = fieldIndex === undefined ? setting.valueSpan : fieldSpan(setting, fieldIndex);
  return { title, safe, edits: [{ span, newText }] };
}

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

/** Fixes that remove a persistent setting: delete its line, or comment it out. Only for lines it owns. */
export function removeLineFixes(file: ParsedFile, setting: KernelSetting, why: string, safe: boolean): Fix[] {
  if (!setting.persistent || setting.origin === 'modprobe') return [];
  const line = ownLineSpan(file, setting);
  if (!line) return [];
  const deleteEdit: SpanEdit = { span: line, newText: '' };
  const commentEdit: SpanEdit = { span: { start: setting.span.start, end: setting.span.start }, newText: '# ' };
  return [
    { title: `Delete the line (${why})`, safe, edits: [deleteEdit] },
    { title: `Comment out the line (${why})`, safe, edits: [commentEdit] },
  ];
}

/** `file:line` for messages. */
export function where(workspace: WorkspaceView, from: ParsedFile, setting: KernelSetting): string {
  const other = setting.uri === from.uri ? from : workspace.file(setting.uri);
  const line = (other?.source.positionAt(setting.span.start).line ?? 0) + 1;
  return setting.uri === from.uri ? `line ${line}` : `${baseName(setting.uri)}:${line}`;
}

/** NFS mounts on the same host as a file (same root folder), else every NFS mount in the workspace. */
export function hostMounts(workspace: WorkspaceView, file: ParsedFile): readonly MountEntry[] {
  const nfs = nfsMountsOf(workspace.mounts());
  const root = hostRootOfAny(file.uri);
  if (!root) return nfs;
  const local = onHost(nfs, root);
  return local.length > 0 ? local : nfs;
}

const NFS_MOUNTS = new WeakMap<readonly MountEntry[], readonly MountEntry[]>();
function nfsMountsOf(all: readonly MountEntry[]): readonly MountEntry[] {
  let nfs = NFS_MOUNTS.get(all);
  if (!nfs) {
    nfs = all.filter((m) => m.isNfs);
    NFS_MOUNTS.set(all, nfs);
  }
  return nfs;
}

/** Manifest volumes next to a host (same root folder or above), else every volume. */
export function hostVolumes(workspace: WorkspaceView, file: ParsedFile): readonly VolumeSummary[] {
  const volumes = workspace.volumes();
  const root = hostRootOfAny(file.uri);
  if (!root) return volumes;
  const local = onHost(volumes, root);
  return local.length > 0 ? local : volumes;
}

/** The workspace's files that belong to a host (see onHost), in workspace order. */
export function filesOnHost(workspace: WorkspaceView, root: string): readonly ParsedFile[] {
  return onHost(workspace.files(), root);
}

/**
 * The items (mounts, volumes, files) that belong to a host, in their order. An item belongs to a
 * host when its file sits under the host's `etc/` (same root), or, for files outside any `etc/`
 * (scripts, manifests, Markdown), anywhere below the host folder. Answered from an index built
 * once per array: the workspace's arrays change whenever a document does, every rule of every file
 * asks, and filtering all items for every host made a repository of many hosts quadratic.
 */
function onHost<T extends { readonly uri: string }>(items: readonly T[], root: string): readonly T[] {
  let groups = HOST_GROUPS.get(items) as HostGroups<T> | undefined;
  if (!groups) {
    groups = groupByHost(items);
    HOST_GROUPS.set(items, groups);
  }
  let answer = groups.answers.get(root);
  if (!answer) {
    const positions = [...(groups.byOwnRoot.get(root) ?? []), ...below(groups.unrooted, root)];
    answer = positions.sort((a, b) => a - b).map((position) => items[position]!);
    groups.answers.set(root, answer);
  }
  return answer;
}

/** Positions of the unrooted items whose path starts with `root`: a binary search, then a walk. */
function below(unrooted: HostGroups<unknown>['unrooted'], root: string): number[] {
  let low = 0;
  let high = unrooted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (unrooted[mid]!.path < root) low = mid + 1;
    else high = mid;
  }
  const positions: number[] = [];
  for (let i = low; i < unrooted.length && unrooted[i]!.path.startsWith(root); i++) positions.push(unrooted[i]!.position);
  return positions;
}

interface HostGroups<T> {
  /** Positions of the items under a host's `etc/`, by that host's root. */
  readonly byOwnRoot: ReadonlyMap<string, number[]>;
  /**
   * Items outside any `etc/`, with their paths, sorted by path: they belong to every host folder
   * above them, found by prefix (one scan per host made many hosts x many scripts quadratic).
   */
  readonly unrooted: readonly { readonly position: number; readonly path: string }[];
  readonly answers: Map<string, readonly T[]>;
}
const HOST_GROUPS = new WeakMap<readonly object[], HostGroups<unknown>>();

function groupByHost<T extends { readonly uri: string }>(items: readonly T[]): HostGroups<T> {
  const byOwnRoot = new Map<string, number[]>();
  const unrooted: { position: number; path: string }[] = [];
  items.forEach((item, position) => {
    const own = hostRootOfAny(item.uri);
    if (own === undefined) unrooted.push({ position, path: pathOf(item.uri) });
    else {
      const positions = byOwnRoot.get(own);
      if (positions) positions.push(position);
      else byOwnRoot.set(own, [position]);
    }
  });
  unrooted.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.position - b.position));
  return { byOwnRoot, unrooted, answers: new Map() };
}

/** Like hostRoot, for any file under `etc/` (modprobe.d, fstab, tuned profiles). */
export function hostRootOfAny(uri: string): string | undefined {
  const path = pathOf(uri);
  const etc = path.lastIndexOf('/etc/');
  if (etc >= 0) return path.slice(0, etc + 1);
  return hostRoot(uri);
}

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
  const option = [...mount.options].reverse().find((o) => o.name === 'nconnect');
  if (!option) return 1;
  if (option.templated || option.value === undefined || !/^\d+$/.test(option.value)) return undefined;
  return Number(option.value);
}
