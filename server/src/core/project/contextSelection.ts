import { detectFileKind, type FileKind } from '../fileKind';
import { buildHostModel } from '../workspace/hosts';
import { IAC_KINDS } from '../iac/read';
import { normalizeExportPath, normalizeServer } from '../mounts/endpoint';
import type { MountEntry } from '../mounts/model';
import type { VolumeSummary } from '../manifest/volumeSummary';
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
  /** A script, document or Kubernetes file whose text holds estate commands (iac/scripts.ts `mayDescribeEstate`): read whole, as infrastructure code. */
  readonly estate?: boolean;
}

export interface ContextPlan {
  /** Context files to parse whole now (the targets' hosts, infrastructure code, configuration files). */
  readonly whole: ReadonlySet<string>;
  /** Manifests to parse only if an answer about a mount needs them (`readMatchingManifests`). */
  readonly manifests: ReadonlySet<string>;
}

/** The kind a workspace gives a file with this text (parseFile's default). */
export function kindOf(uri: string, text: string): FileKind {
  return detectFileKind(uri, text);
}

/** What to read of `context` for `targets`; undefined when everything is needed. */
export function planContext(targets: readonly KnownFile[], context: readonly KnownFile[]): ContextPlan | undefined {
  if (context.length === 0) return undefined;
  if (targets.some((t) => ESTATE_KINDS.has(t.kind) || t.estate === true || t.kind === 'anf-lint-config'))
    return undefined;
  // The host model of the whole root from paths and kinds alone (buildHostModel reads nothing else to assign files).
  const model = buildHostModel([...context, ...targets].map((f) => parseFile(f.uri, '', 0, f.kind)));
  const whole = new Set<string>();
  for (const target of targets) {
    const host = model.hostOf(target.uri);
    if (host && (host.kind === 'host' || host.kind === 'repository'))
      for (const file of host.files) whole.add(file.uri);
  }
  // sysctl files load together per sysctl root (sysctl/scope.ts), which a path with two `etc/` can set apart from the host.
  const sysctlRoots = new Set<string>();
  for (const file of [...targets, ...context])
    if (file.kind === 'sysctl' && whole.has(file.uri)) sysctlRoots.add(sysctlRoot(file.uri) ?? '');
  for (const target of targets) if (target.kind === 'sysctl') sysctlRoots.add(sysctlRoot(target.uri) ?? '');
  sysctlRoots.delete('');
  if (sysctlRoots.size > 0)
    for (const file of context)
      if (file.kind === 'sysctl' && sysctlRoots.has(sysctlRoot(file.uri) ?? '')) whole.add(file.uri);
  // A manifest in a target's host is read whole: the host's own volumes count for its kernel settings (sysctl/scope.ts).
  const manifests = new Set<string>();
  for (const file of context) {
    if (whole.has(file.uri)) continue;
    if (MANIFEST_KINDS.has(file.kind)) manifests.add(file.uri);
    else if (ESTATE_KINDS.has(file.kind) || file.estate === true || file.kind === 'anf-lint-config')
      whole.add(file.uri);
  }
  for (const target of targets) whole.delete(target.uri);
  return { whole, manifests };
}

/**
 * Which deferred manifests to read whole so that the mounts' rules get the answers a full read
 * gives, reading as few as those answers need. The rules ask the estate about a mount only through
 * the volume index (core/workspace/links.ts) and the first volume behind a mount target
 * (mounts/rules/target.ts), over the volumes of every file in URI order:
 * - the last volume with the mount's server and export path;
 * - whether exactly one volume has its mount point as `mountPath`;
 * - whether exactly one volume has its export path (looked at only when no volume has its server
 *   and export path);
 * - the first volume with its server as a mount target.
 * So each question scans the manifests in that order (backwards for the last) and reads a
 * manifest only when its text can hold such a volume (`manifestMayHold`), stopping when the
 * answer is known: the volume found, or a second volume for a key that must be unique. The
 * volumes read are a subset of the full read's, in its order, and hold, for every key of these
 * mounts, its first and last volume and up to two of a unique key's: every answer is the full
 * read's. Reading is whole (a manifest's own parse): a syntax error in a manifest or a volume
 * without a summary (no quota) counts exactly as in a full read. Infrastructure code and the
 * targets' hosts' manifests are read whole before (`ContextPlan.whole`).
 *
 * `read` parses a manifest and returns its volumes (called at most once per manifest).
 */
export function readMatchingManifests(
  manifests: readonly { readonly uri: string; readonly text: string }[],
  mounts: readonly MountEntry[],
  read: (uri: string) => readonly VolumeSummary[],
): void {
  if (manifests.length === 0) return;
  // URI order, as the workspace orders files (workspace.ts derive()).
  const sorted = [...manifests].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const texts: (ManifestText | undefined)[] = [];
  const volumes: (readonly VolumeSummary[] | undefined)[] = [];
  const volumesOf = (i: number) => (volumes[i] ??= read(sorted[i]!.uri));
  // Per key, per manifest: an export path is asked about twice (with its server, and alone), a server once per export.
  const held = new Map<string, (boolean | undefined)[]>();
  const holds = (i: number, key: string) => {
    let answers = held.get(key);
    if (!answers) held.set(key, (answers = []));
    return (answers[i] ??= mayHoldKey((texts[i] ??= manifestText(sorted[i]!.text)), key));
  };
  const mayHold = (i: number, keys: readonly string[]) => keys.every((key) => holds(i, key));
  const asked = new Set<string>();
  /** The endpoint questions a volume answered. */
  const endpoints = new Set<string>();
  const once = (question: string) => {
    if (asked.has(question)) return false;
    asked.add(question);
    return true;
  };

  /** Scans in URI order (or backwards) the manifests that may hold `keys` until `done` says the answer is known. */
  const scan = (keys: readonly string[], backwards: boolean, done: (volumes: readonly VolumeSummary[]) => boolean) => {
    for (let n = 0; n < sorted.length; n++) {
      const i = backwards ? sorted.length - 1 - n : n;
      if (mayHold(i, keys) && done(volumesOf(i))) return;
    }
  };
  /** Until two volumes have `value(volume)` equal to `key` (normalized): a unique key's answer needs no more. */
  const unique = (key: string, textKey: string, value: (volume: VolumeSummary) => string | undefined) => {
    let seen = 0;
    scan([textKey], false, (found) => {
      for (const volume of found) {
        const own = value(volume);
        if (own !== undefined && normalizeExportPath(own) === key) seen++;
      }
      return seen >= 2;
    });
  };

  for (const mount of mounts) {
    const server = mount.server ? normalizeServer(mount.server) : undefined;
    const exportPath = mount.exportPath ? normalizeExportPath(mount.exportPath) : undefined;
    const mountPoint = mount.mountPoint ? normalizeExportPath(mount.mountPoint) : undefined;
    let reached = false;
    if (server !== undefined && exportPath !== undefined) {
      const question = `endpoint ${server}|${exportPath}`;
      if (once(question)) {
        // The index keeps the last volume with this endpoint.
        scan([server, textKey(exportPath)], true, (found) => {
          const hit = found.some(
            (v) =>
              v.exportPath !== undefined &&
              normalizeExportPath(v.exportPath) === exportPath &&
              v.mountTargets.some((t) => normalizeServer(t) === server),
          );
          if (hit) endpoints.add(question);
          return hit;
        });
      }
      reached = endpoints.has(question);
    }
    // The mount path also answers ANF226 (which volume has the mount's path), whatever the mount reaches.
    if (mountPoint !== undefined && once(`mountPath ${mountPoint}`))
      unique(mountPoint, textKey(mountPoint), (v) => v.mountPath);
    // The index looks a mount up by its export path alone only when no volume has its server and export path.
    if (!reached && exportPath !== undefined && once(`exportPath ${exportPath}`))
      unique(exportPath, textKey(exportPath), (v) => v.exportPath);
    if (server !== undefined && once(`target ${server}`)) {
      // mounts/rules/target.ts names the first volume behind a mount target.
      scan([server], false, (found) => found.some((v) => v.mountTargets.some((t) => normalizeServer(t) === server)));
    }
  }
}

/** A normalized path as a manifest's text would hold it: without its leading slash, in lower case. */
function textKey(normalizedPath: string): string {
  return normalizedPath.slice(1).toLowerCase();
}

/** A manifest's text as the key test reads it: in lower case, and whether it may spell a value otherwise. */
interface ManifestText {
  readonly lower: string;
  /** An escape, or a character outside ASCII (whose lower case can depend on its neighbours: the Greek final sigma). */
  readonly escapes: boolean;
  /** Its words (`WORD_BREAKS` apart), each also as a path key (`textKey`): made on the first key asked about. */
  words?: ReadonlySet<string>;
}

function manifestText(text: string): ManifestText {
  const lower = text.toLowerCase();
  return { lower, escapes: lower.includes('\\') || lower.includes("''") || /[^\x00-\x7f]/.test(text) };
}

/**
 * What separates a YAML or JSON value from what surrounds it, whatever the style: white space,
 * quotes, flow punctuation, a comment and a key's colon. A value without any of these is one
 * word of its text (with no escape in the text: it is spelled as it reads); a key with one of
 * them is looked for in the text instead.
 */
const WORD_BREAKS = /[\s"',[\]{}#:]+/;
const HAS_WORD_BREAK = /[\s"',[\]{}#:]/;

/**
 * Whether a manifest's text can hold a volume with every one of these (lower-case) keys. Text
 * only, so it errs towards yes: the key as a word anywhere (a comment, another field) is enough;
 * an empty key (a mount of `/`) is in every text. Where the text may spell a value other than as
 * it is read, it always may: an escape (a backslash in a double-quoted YAML or JSON string, `''`
 * in a single-quoted one), a character outside ASCII (lower case may spell it otherwise in the
 * text than in the key), or a key with a space (a YAML scalar folded over two lines reads as one
 * with a space).
 */
export function manifestMayHold(text: string, keys: readonly string[]): boolean {
  const read = manifestText(text);
  return keys.every((key) => mayHoldKey(read, key));
}

function mayHoldKey(text: ManifestText, key: string): boolean {
  if (text.escapes || key.length === 0 || /\s/.test(key)) return true;
  // A key with a separator in it (an IPv6 address, a path with a comma) may span words.
  if (HAS_WORD_BREAK.test(key)) return text.lower.includes(key);
  text.words ??= wordsOf(text.lower);
  return text.words.has(key);
}

/** Every word of the text, and each as the key of a path (normalizeExportPath without its leading slash). */
function wordsOf(lower: string): ReadonlySet<string> {
  const words = new Set<string>();
  for (const word of lower.split(WORD_BREAKS)) {
    if (word.length === 0) continue;
    words.add(word);
    // Servers are keyed as written (lower case); paths as normalizeExportPath keys them.
    words.add(normalizeExportPath(word).slice(1));
  }
  return words;
}
