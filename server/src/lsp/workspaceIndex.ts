/**
 * The workspace index: finds the manifests, mount files and kernel-tuning files of each workspace
 * folder on disk. The only file-system reading of the server (the core never touches node:fs).
 * Bounded in files, directory entries and file size; says so in the log when it stops early.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { detectFileKind, isLintable, kindNeedsText } from '../core';
import { INDEX_MAX_ENTRIES, INDEX_MAX_FILE_BYTES, INDEX_MAX_FILES, INDEX_SKIPPED_DIRECTORIES } from './limits';

export interface IndexedFile {
  readonly uri: string;
  readonly text: string;
}

export interface IndexLimits {
  readonly maxFiles: number;
  readonly maxEntries: number;
  readonly maxFileBytes: number;
}

export const DEFAULT_INDEX_LIMITS: IndexLimits = { maxFiles: INDEX_MAX_FILES, maxEntries: INDEX_MAX_ENTRIES, maxFileBytes: INDEX_MAX_FILE_BYTES };

/** The same file always gets the same key, however the editor spelled its URI. */
export function canonicalUri(uri: string): string {
  if (!uri.startsWith('file:')) return uri;
  try {
    return pathToFileURL(fileURLToPath(uri)).href;
  } catch {
    return uri;
  }
}

export function uriToPath(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(uri);
  } catch {
    return undefined;
  }
}

/** Whether a path names a file the index keeps (a YAML file needs its text to tell). */
export function indexedKind(path: string, text?: string): boolean {
  const kind = detectFileKind(path, text);
  return kind === 'anf-lint-config' || isLintable(kind);
}

/** Reads one file for the index, or undefined when it is missing, too large or not ours. */
export async function readIndexedFile(path: string, limits: IndexLimits = DEFAULT_INDEX_LIMITS): Promise<IndexedFile | undefined> {
  try {
    const info = await stat(path);
    if (!info.isFile() || info.size > limits.maxFileBytes) return undefined;
    const text = await readFile(path, 'utf8');
    if (!indexedKind(path, text)) return undefined;
    return { uri: pathToFileURL(path).href, text };
  } catch {
    return undefined;
  }
}

/**
 * Walks the folders breadth-first. `log` gets one line at the end, and one clear line if a bound
 * stopped the walk (which bound, and how far it got).
 */
export async function indexFolders(folderUris: readonly string[], log: (message: string) => void, limits: IndexLimits = DEFAULT_INDEX_LIMITS): Promise<IndexedFile[]> {
  const found: IndexedFile[] = [];
  let entries = 0;
  let skippedLarge = 0;
  const queue = folderUris.map(uriToPath).filter((p): p is string => p !== undefined);
  const started = Date.now();
  let stopped: string | undefined;

  walk: while (queue.length > 0) {
    const dir = queue.shift()!;
    let children;
    try {
      children = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (++entries > limits.maxEntries) {
        stopped = `it looked at ${limits.maxEntries} directory entries`;
        break walk;
      }
      const path = join(dir, child.name);
      if (child.isDirectory()) {
        if (!INDEX_SKIPPED_DIRECTORIES.has(child.name)) queue.push(path);
        continue;
      }
      if (!child.isFile()) continue;
      const kind = detectFileKind(path);
      // YAML, JSON and ini files without a telling name need their text (kindNeedsText); the rest are decided by name.
      const maybe = kind === 'anf-lint-config' || isLintable(kind) || (kind === 'unknown' && kindNeedsText(child.name));
      if (!maybe) continue;
      const file = await readIndexedFile(path, limits);
      if (!file) {
        if (isLintable(kind)) skippedLarge++;
        continue;
      }
      found.push(file);
      if (found.length >= limits.maxFiles) {
        stopped = `it reached ${limits.maxFiles} files`;
        break walk;
      }
    }
  }
  const took = Date.now() - started;
  if (stopped) log(`anf-lint: workspace index stopped early because ${stopped}; ${found.length} files indexed, the rest are checked only when opened.`);
  log(`anf-lint: indexed ${found.length} files in ${took} ms${skippedLarge > 0 ? ` (${skippedLarge} skipped: larger than ${limits.maxFileBytes} bytes or unreadable)` : ''}.`);
  return found;
}
