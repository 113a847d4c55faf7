import type { MountEntry } from '../mounts/model';
import type { KernelSetting } from '../sysctl/model';
import { baseName, pathOf, type FileKind } from '../fileKind';
import type { ParsedFile } from './parsedFile';

/**
 * Which files describe one machine. Cross-file rules (nconnect shared per address, slot tables
 * against the mounts that use them, kernel settings against the workload) only compare files of
 * one scope: two VMs never share TCP connections, RPC slot tables or kernel settings.
 *
 * The rules, in order (docs/architecture.md, "Hosts"):
 * 1. Markdown and reStructuredText are documentation: each document is its own scope and never part of a host.
 * 2. A file of an own-scope kind (OWN_SCOPE_KINDS: cloud-init, Ansible plays and variables,
 *    Kubernetes manifests, Helm charts, option strings in other YAML or JSON) describes the
 *    machine(s) it is applied to, wherever it sits: each such file is its own scope.
 * 3. A file under a host root (the folder above `etc/`, or above `usr/lib/`, `lib/`, `run/` where
 *    a sysctl.d or modprobe.d layout shows it) belongs to that host.
 * 4. Any other file (scripts, manifests, systemd units outside `etc/`) belongs to the deepest host
 *    folder above it. When the repository has exactly one host folder, files outside it belong to
 *    that host; when it has none, every such file belongs to one repository-wide host (one machine).
 *    When it has several and a file sits outside all of them, nothing says which machine it runs
 *    on: it is its own scope.
 * Pure: paths only, no IO.
 */

/**
 * File kinds that are a scope of their own wherever they sit: what they configure is applied to
 * machines their place in the repository does not name (an inventory, a cluster, a template).
 */
export const OWN_SCOPE_KINDS: ReadonlySet<FileKind> = new Set<FileKind>([
  'cloud-init',
  'ansible',
  'ansible-vars',
  'kubernetes',
  'helm',
  'yaml-options',
  'json-options',
  'salt',
  'puppet',
  'chef',
  // A `remote-exec` provisioner runs on the machine its resource creates.
  'terraform',
]);

/** File kinds that document configurations: never a machine, never part of one. */
export const DOCUMENTATION_KINDS: ReadonlySet<FileKind> = new Set<FileKind>(['markdown', 'rst']);

/**
 * - `host`: the files under one host folder (`hana-node1/etc/...`).
 * - `repository`: a repository without host layout, read as one machine (anf-lint's behaviour
 *   before hosts existed).
 * - `file`: one file that is its own scope (cloud-init, Ansible, Kubernetes; a script outside the
 *   host folders of a repository that has several).
 * - `documentation`: one Markdown document.
 */
export type HostKind = 'host' | 'repository' | 'file' | 'documentation';

export interface Host {
  /** Stable identity within one workspace state: the host folder, or the file's path. */
  readonly id: string;
  readonly kind: HostKind;
  /** What messages call it: the host folder's name (`hana-node1`), or the file's name. */
  readonly name: string;
  /** The host folder with a trailing `/`, for `host` and `repository`. */
  readonly root?: string;
  /** Its files, by URI. */
  readonly files: readonly ParsedFile[];
  /** Every mount of its files, in file (URI) and line order: fstab order is boot order. */
  readonly mounts: readonly MountEntry[];
  /** Its NFS mounts, in the same order. */
  readonly nfsMounts: readonly MountEntry[];
  /** Every kernel setting of its files, in file (URI) order. */
  readonly settings: readonly KernelSetting[];
}

export interface HostModel {
  /** Every scope, by id: hosts, the repository host, own-scope files and documents. */
  readonly scopes: readonly Host[];
  /** The machines a repository describes (`host` scopes): more than one makes messages name them. */
  readonly machines: readonly Host[];
  /** True when the workspace describes several machines (host folders). */
  readonly several: boolean;
  /** The scope of a file (every file of the workspace has one). */
  hostOf(uri: string): Host | undefined;
}

/** `/usr/lib/sysctl.d/`, `/run/modprobe.d/`, ...: kernel-setting layouts outside `etc/`. */
const SYSTEM_LAYOUT = /\/(?:usr\/local\/lib|usr\/lib|lib|run)\/(?:sysctl\.d|modprobe\.d|sysctl\.conf$)/;
/** A bare `sysctl.d/` or `modprobe.d/` folder: the folder above it is the host. */
const BARE_DROP_IN = /\/(?:sysctl\.d|modprobe\.d)\/[^/]+$/;

/**
 * The host folder of a file (with a trailing `/`), or undefined when its path shows no host
 * layout: the folder above the last `etc/`, above `usr/lib/`, `lib/`, `run/` holding sysctl.d or
 * modprobe.d files, or above a bare `sysctl.d/` or `modprobe.d/` folder.
 */
export function hostRootOf(uri: string): string | undefined {
  const path = pathOf(uri);
  const etc = path.lastIndexOf('/etc/');
  if (etc >= 0) return path.slice(0, etc + 1);
  const system = SYSTEM_LAYOUT.exec(path);
  if (system) return path.slice(0, system.index + 1);
  const dropIn = BARE_DROP_IN.exec(path);
  if (dropIn) return path.slice(0, dropIn.index + 1);
  return undefined;
}

/**
 * The host model of a workspace state, built once per files array (the workspace hands out a new one
 * after any change). With `previous` (the model of the state before), when the files are the same
 * URIs of the same kinds in the same order (an edit of open documents), the scopes are the same:
 * only the hosts of the files that changed are made again, the others are the same objects (answers
 * cached per host, such as the first mount to each server, stay valid).
 */
export function hostModelOf(files: readonly ParsedFile[], previous?: HostModel): HostModel {
  let model = MODELS.get(files);
  if (!model) {
    model = (previous && updatedHostModel(previous, files)) ?? buildHostModel(files);
    MODELS.set(files, model);
  }
  return model;
}

const MODELS = new WeakMap<readonly ParsedFile[], HostModel>();
/** The files a model was built from. */
const INPUTS = new WeakMap<HostModel, readonly ParsedFile[]>();

/** The model of `files` from that of an earlier state with the same URIs and kinds, or undefined. */
function updatedHostModel(previous: HostModel, files: readonly ParsedFile[]): HostModel | undefined {
  const input = INPUTS.get(previous);
  if (!input || input.length !== files.length) return undefined;
  let changed: Map<string, ParsedFile> | undefined;
  for (let i = 0; i < files.length; i++) {
    const before = input[i]!;
    const after = files[i]!;
    if (before === after) continue;
    if (before.uri !== after.uri || before.kind !== after.kind) return undefined;
    (changed ??= new Map()).set(after.uri, after);
  }
  if (!changed) return assembleModel(previous.scopes, files);
  const scopes = previous.scopes.map((host) => {
    if (!host.files.some((f) => changed.has(f.uri))) return host;
    return makeHost(
      host.id,
      host.kind,
      host.name,
      host.root,
      host.files.map((f) => changed.get(f.uri) ?? f),
    );
  });
  return assembleModel(scopes, files);
}

/** One scope: its mounts and settings are its file's own arrays when it has one file (no copy per edit); NFS mounts when first asked. */
function makeHost(
  id: string,
  kind: HostKind,
  name: string,
  root: string | undefined,
  files: readonly ParsedFile[],
): Host {
  const mounts = files.length === 1 ? files[0]!.mounts : files.flatMap((f) => f.mounts);
  const settings = files.length === 1 ? files[0]!.settings : files.flatMap((f) => f.settings);
  let nfs: readonly MountEntry[] | undefined;
  return {
    id,
    kind,
    name,
    ...(root !== undefined ? { root } : {}),
    files,
    mounts,
    get nfsMounts() {
      return (nfs ??= mounts.filter((m) => m.isNfs));
    },
    settings,
  };
}

function assembleModel(scopes: readonly Host[], files: readonly ParsedFile[]): HostModel {
  const byUri = new Map<string, Host>();
  for (const host of scopes) for (const file of host.files) byUri.set(file.uri, host);
  const machines = scopes.filter((s) => s.kind === 'host');
  const model: HostModel = { scopes, machines, several: machines.length > 1, hostOf: (uri) => byUri.get(uri) };
  INPUTS.set(model, files);
  return model;
}

/** Builds the model: O(files × path depth). */
export function buildHostModel(files: readonly ParsedFile[]): HostModel {
  const sorted = [...files].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const roots = new Set<string>();
  const ownRoot = new Map<ParsedFile, string>();
  for (const file of sorted) {
    if (DOCUMENTATION_KINDS.has(file.kind) || OWN_SCOPE_KINDS.has(file.kind)) continue;
    const root = hostRootOf(file.uri);
    if (root === undefined) continue;
    roots.add(root);
    ownRoot.set(file, root);
  }
  const onlyRoot = roots.size === 1 ? [...roots][0]! : undefined;
  const repositoryRoot = roots.size === 0 ? commonFolder(sorted.map((f) => pathOf(f.uri))) : undefined;

  const members = new Map<string, { kind: HostKind; root?: string; files: ParsedFile[] }>();
  const join = (id: string, kind: HostKind, file: ParsedFile, root?: string) => {
    let entry = members.get(id);
    if (!entry) {
      entry = { kind, ...(root !== undefined ? { root } : {}), files: [] };
      members.set(id, entry);
    }
    entry.files.push(file);
  };
  for (const file of sorted) {
    const path = pathOf(file.uri);
    if (DOCUMENTATION_KINDS.has(file.kind)) join(`doc:${path}`, 'documentation', file);
    else if (OWN_SCOPE_KINDS.has(file.kind)) join(`file:${path}`, 'file', file);
    else {
      const root = ownRoot.get(file) ?? deepestRootAbove(path, roots) ?? onlyRoot;
      if (root !== undefined) join(`host:${root}`, 'host', file, root);
      else if (repositoryRoot !== undefined) join(`repository:${repositoryRoot}`, 'repository', file, repositoryRoot);
      else join(`file:${path}`, 'file', file);
    }
  }

  const hostRoots = [...members.values()].filter((m) => m.kind === 'host').map((m) => m.root!);
  const common = commonFolder(hostRoots.map((r) => r.slice(0, -1)));
  const scopes: Host[] = [];
  for (const [id, entry] of members) {
    const name =
      entry.kind === 'host'
        ? hostName(entry.root!, common)
        : entry.kind === 'repository'
          ? 'repository'
          : baseName(entry.files[0]!.uri);
    scopes.push(makeHost(id, entry.kind, name, entry.root, entry.files));
  }
  return assembleModel(scopes, files);
}

/** The deepest host root that is a folder above `path`: a walk up its folders, not a scan of the roots. */
function deepestRootAbove(path: string, roots: ReadonlySet<string>): string | undefined {
  if (roots.size === 0) return undefined;
  for (let slash = path.lastIndexOf('/'); slash >= 0; slash = path.lastIndexOf('/', slash - 1)) {
    const folder = path.slice(0, slash + 1);
    if (roots.has(folder)) return folder;
    if (slash === 0) break;
  }
  return undefined;
}

/** The deepest folder (with a trailing `/`) above every path. */
function commonFolder(paths: readonly string[]): string {
  if (paths.length === 0) return '/';
  let prefix = paths[0]!;
  for (const path of paths) {
    let i = 0;
    while (i < prefix.length && i < path.length && prefix[i] === path[i]) i++;
    prefix = prefix.slice(0, i);
  }
  return prefix.slice(0, prefix.lastIndexOf('/') + 1) || '/';
}

/** A host folder's name relative to the folder all hosts share (`hana-node1`, `site-a/hana`), else its own name. */
function hostName(root: string, common: string): string {
  const relative = root.startsWith(common) ? root.slice(common.length, -1) : '';
  if (relative !== '') return relative;
  const trimmed = root.slice(0, -1);
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || '/';
}

/**
 * ` on host \`hana-node1\``, for a message about a file of one of several machines; empty when
 * the workspace describes one machine or the scope is a file of its own (its name is in the
 * finding's location already).
 */
export function onHostWords(model: HostModel, host: Host | undefined): string {
  return model.several && host?.kind === 'host' ? ` on host \`${host.name}\`` : '';
}
