/**
 * The workspace index: the files of each workspace folder the server reads from disk, found and
 * read by the core's project model (core/project) over the Node environment shared with the CLI:
 * the same discovery (git-aware, one skip list, extension-less shell scripts), the same reading
 * (regular files inside the folder only, at most 1 MiB), the same notes for skipped links.
 * Bounded in files, directory entries and file size; says so in the log when it stops early.
 */
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isProjectFile, Project, type DiscoveryLimits } from '../core/project';
import { NodeEnvironment } from '../node/nodeEnvironment';
import { candidateByName } from '../core/project/discovery';
import { DEFAULT_DISCOVERY_LIMITS } from '../core/project/limits';

export interface IndexedFile {
  readonly uri: string;
  readonly text: string;
}

export type IndexLimits = DiscoveryLimits;

export const DEFAULT_INDEX_LIMITS: IndexLimits = DEFAULT_DISCOVERY_LIMITS;

const env = new NodeEnvironment();

/** Reading pauses about this often for pending input (see indexFolders). */
const SLICE_MS = 8; // not a fact: the server's slice length (diagnosticsScheduler.ts LINT_SLICE_MS)

/** Canonical URIs already made: the first scan asks for each file's several times (project, configuration). */
const canonical = new Map<string, string>();
/** Bounds the map above: more distinct URIs than the index holds start it afresh. */
const CANONICAL_MEMO_MAX = 20_000; // not a fact: ten times the index's bound of files

/** The same file always gets the same key, however the editor spelled its URI. */
export function canonicalUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  const known = canonical.get(uri);
  if (known !== undefined) return known;
  let key: string;
  try {
    key = pathToFileURL(fileURLToPath(uri)).href;
  } catch {
    key = uri;
  }
  if (canonical.size >= CANONICAL_MEMO_MAX) canonical.clear();
  canonical.set(uri, key);
  return key;
}

export function uriToPath(uri: string): string | undefined {
  return env.pathOf(uri);
}

/** Whether a path may name a file the index keeps (YAML and extension-less files need their text to tell). */
export function indexedKind(path: string): boolean {
  return candidateByName(path) !== 'no';
}

let cached: { key: string; project: Project } | undefined;

/** One project per set of folders (its roots, git answers and notes are kept between watcher events). */
function projectOf(folderUris: readonly string[], limits: IndexLimits): Project {
  const key = JSON.stringify([folderUris, limits]);
  if (cached?.key !== key)
    cached = {
      key,
      project: new Project(env, {
        folders: folderUris.map((f) => env.pathOf(f)).filter((p): p is string => p !== undefined),
        limits,
      }),
    };
  return cached.project;
}

/** Reads one file for the index, or undefined when it is missing, too large, outside its folder, special or not ours. */
export function readIndexedFile(
  path: string,
  folderUris: readonly string[],
  limits: IndexLimits = DEFAULT_INDEX_LIMITS,
): IndexedFile | undefined {
  const project = projectOf(folderUris, limits);
  const root = project.rootOf(path);
  if (!root.context) return undefined;
  const read = project.read(path, root);
  if (!read.ok || !isProjectFile(path, read.text)) return undefined;
  return { uri: env.uriOf(path), text: read.text };
}

/**
 * Reads the folders' files. `log` gets one line at the end, one clear line if a bound stopped the
 * walk (which bound, and how far it got), and one per skipped link or special file; the summary
 * line ("indexed N files") is returned for the caller to log once the files are in use. `pause`, when
 * given, is awaited about every SLICE_MS of reading, so that edits and requests get in.
 */
export async function indexFolders(
  folderUris: readonly string[],
  log: (message: string) => void,
  limits: IndexLimits = DEFAULT_INDEX_LIMITS,
  pause?: () => Promise<void>,
): Promise<{ files: IndexedFile[]; summary: string }> {
  let sliceStart = performance.now();
  const found: IndexedFile[] = [];
  const started = Date.now();
  // A fresh index asks git again (the folders' files may have changed since).
  cached = undefined;
  const project = projectOf(folderUris, limits);
  const notesBefore = project.notes.length;
  let stopped: string | undefined;
  let skipped = 0;
  folders: for (const folderUri of folderUris) {
    const folder = env.pathOf(folderUri);
    if (folder === undefined) continue;
    const discovered = project.discover(folder);
    if (discovered.stopped) stopped = discovered.stopped;
    for (const path of discovered.paths) {
      // Nested workspace folders: a file is read once, for its innermost folder.
      if (project.rootOf(path).path !== discovered.root.path) continue;
      if (pause && performance.now() - sliceStart >= SLICE_MS) {
        await pause();
        sliceStart = performance.now();
      }
      const read = project.read(path, discovered.root);
      if (!read.ok) {
        skipped++;
        continue;
      }
      if (!isProjectFile(path, read.text)) continue;
      found.push({ uri: env.uriOf(path), text: read.text });
      if (found.length >= limits.maxFiles) {
        stopped = `it reached ${limits.maxFiles} files`;
        break folders;
      }
    }
  }
  for (const note of project.notes.slice(notesBefore)) log(`anf-lint: ${note.path}: ${note.message}`);
  const took = Date.now() - started;
  if (stopped)
    log(
      `anf-lint: workspace index stopped early because ${stopped}; ${found.length} files indexed, the rest are checked only when opened.`,
    );
  const summary = `anf-lint: indexed ${found.length} files in ${took} ms${skipped > 0 ? ` (${skipped} skipped: larger than ${limits.maxFileBytes} bytes, special or unreadable)` : ''}.`;
  return { files: found, summary };
}
