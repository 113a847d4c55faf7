import { detectFileKind, type FileKind } from '../fileKind';
import { buildHostModel } from '../workspace/hosts';
import { IAC_KINDS } from '../iac/read';
import { normalizeExportPath, normalizeServer } from '../mounts/endpoint';
import type { MountEntry } from '../mounts/model';
import { hostRoot as sysctlRoot } from '../sysctl/rules/scope';
import { parseFile } from '../workspace/parseFile';

/**
 * Lazy context (issue 17): which of a root's other files a run must read whole so that its
 * targets get the findings they would get with every file read. The rules look past a file at
 * three things only:
 * - the estate (manifests and infrastructure code: the volumes every mount is matched against);
 * - the other files of the file's host (core/hosts: nconnect per address, slot tables, kernel
 *   settings against the mounts, duplicate mount points);
 * - which hosts the repository has, and which file belongs to which: that takes every file's path
 *   and kind, not its content.
 * So every file is known by path and kind (the host model is the one a full read builds), and
 * only the estate and the targets' hosts are parsed; the others stay empty in the workspace.
 * A target that is itself estate or configuration is checked against everything (its rules may
 * look at any mount of the repository): then everything is read, as before.
 */

/** Kinds whose files give the volumes mounts are matched against. */
const ESTATE_KINDS: ReadonlySet<FileKind> = new Set<FileKind>(['manifest-yaml', 'manifest-json', ...IAC_KINDS]);
/** anf-lint's own manifests: read only when one of their volumes can match a mount the targets' rules look at. */
const MANIFEST_KINDS: ReadonlySet<FileKind> = new Set<FileKind>(['manifest-yaml', 'manifest-json']);

export interface KnownFile {
  readonly uri: string;
  readonly kind: FileKind;
}

export interface ContextPlan {
  /** Context files to parse whole now (the targets' hosts, infrastructure code, configuration files). */
  readonly whole: ReadonlySet<string>;
  /** Manifests to parse only if `manifestMayMatch` says one of their volumes can match a mount. */
  readonly manifests: ReadonlySet<string>;
}

/** The kind a workspace gives a file with this text (parseFile's default). */
export function kindOf(uri: string, text: string): FileKind {
  return detectFileKind(uri, text);
}

/** What to read of `context` for `targets`; undefined when everything is needed. */
export function planContext(targets: readonly KnownFile[], context: readonly KnownFile[]): ContextPlan | undefined {
  if (context.length === 0) return undefined;
  if (targets.some((t) => ESTATE_KINDS.has(t.kind) || t.kind === 'anf-lint-config')) return undefined;
  // The host model of the whole root from paths and kinds alone (buildHostModel reads nothing else to assign files).
  const model = buildHostModel([...context, ...targets].map((f) => parseFile(f.uri, '', 0, f.kind)));
  const whole = new Set<string>();
  for (const target of targets) {
    const host = model.hostOf(target.uri);
    if (host && (host.kind === 'host' || host.kind === 'repository')) for (const file of host.files) whole.add(file.uri);
  }
  // sysctl files load together per sysctl root (sysctl/scope.ts), which a path with two `etc/` can set apart from the host.
  const sysctlRoots = new Set<string>();
  for (const file of [...targets, ...context]) if (file.kind === 'sysctl' && whole.has(file.uri)) sysctlRoots.add(sysctlRoot(file.uri) ?? '');
  for (const target of targets) if (target.kind === 'sysctl') sysctlRoots.add(sysctlRoot(target.uri) ?? '');
  sysctlRoots.delete('');
  if (sysctlRoots.size > 0) for (const file of context) if (file.kind === 'sysctl' && sysctlRoots.has(sysctlRoot(file.uri) ?? '')) whole.add(file.uri);
  // A manifest in a target's host is read whole: the host's own volumes count for its kernel settings (sysctl/scope.ts).
  const manifests = new Set<string>();
  for (const file of context) {
    if (whole.has(file.uri)) continue;
    if (MANIFEST_KINDS.has(file.kind)) manifests.add(file.uri);
    else if (ESTATE_KINDS.has(file.kind) || file.kind === 'anf-lint-config') whole.add(file.uri);
  }
  for (const target of targets) whole.delete(target.uri);
  return { whole, manifests };
}

/**
 * The strings a manifest volume must contain to match one of `mounts` (core/workspace/links.ts,
 * core/mounts/target.ts): the server (a mount target), the export path or the mount point, each
 * as the manifest would write it (lower case; a path without its leading and trailing slashes).
 * A volume matches a mount only by one of these three values, each written in the manifest.
 */
export function matchKeys(mounts: readonly MountEntry[]): string[] {
  const keys = new Set<string>();
  for (const mount of mounts) {
    if (mount.server) keys.add(normalizeServer(mount.server));
    if (mount.exportPath) keys.add(normalizeExportPath(mount.exportPath).slice(1).toLowerCase());
    if (mount.mountPoint) keys.add(normalizeExportPath(mount.mountPoint).slice(1).toLowerCase());
  }
  return [...keys];
}

/**
 * Whether a manifest's text can hold a volume that matches a mount with one of these keys. Text
 * only, so it errs towards yes: a key anywhere in the text (a comment, another key) is enough; an
 * empty key (a mount of `/`) matches every text; a backslash (an escape in a quoted string may
 * spell a key differently) makes the manifest read.
 */
export function manifestMayMatch(text: string, keys: readonly string[]): boolean {
  if (keys.length === 0) return false;
  if (text.includes('\\')) return true;
  const lower = text.toLowerCase();
  return keys.some((key) => lower.includes(key));
}
