import { readdir, readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import picomatch from 'picomatch';
import { detectFileKind, isLintable } from '../core';
import { knownFiles } from './git';

/** Folders never walked outside git (inside git, .gitignore decides). */
const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'dist', '.vscode-test']);

export interface InputFile {
  /** Absolute path. */
  readonly path: string;
  /** Relative to the current folder, `/`-separated: what the user sees. */
  readonly displayPath: string;
  readonly text: string;
}

export interface Collected {
  readonly files: InputFile[];
  /** One line each: a missing or unreadable path, a glob that matches nothing. */
  readonly errors: string[];
}

export function displayPathOf(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
  return shown.split(sep).join('/');
}

/**
 * Reads the files to lint. A named file is always linted; folders and globs contribute the files
 * whose kind anf-lint recognizes. Inside a git work tree only files git knows (tracked or
 * untracked, not ignored) are taken from folders and globs.
 */
export async function collectFiles(patterns: readonly string[], cwd: string, gitRootPath: string | undefined): Promise<Collected> {
  const errors: string[] = [];
  const chosen = new Map<string, boolean>(); // absolute path -> named explicitly
  let known: Set<string> | undefined;
  const gitKnown = (): Set<string> => {
    if (!known) known = new Set(gitRootPath ? knownFiles(gitRootPath).map((p) => resolve(gitRootPath, p)) : []);
    return known;
  };
  const inGit = (path: string) => gitRootPath !== undefined && !relative(gitRootPath, path).startsWith('..') && !isAbsolute(relative(gitRootPath, path));

  for (const pattern of patterns) {
    const absolute = resolve(cwd, pattern);
    let info;
    try {
      info = await stat(absolute);
    } catch {
      info = undefined;
    }
    if (info?.isFile()) {
      chosen.set(absolute, true);
      continue;
    }
    if (info?.isDirectory()) {
      if (inGit(absolute)) {
        const prefix = absolute.endsWith(sep) ? absolute : absolute + sep;
        for (const path of gitKnown()) if (path.startsWith(prefix) || path === absolute) addOnce(chosen, path);
      } else {
        await walk(absolute, chosen, errors, cwd);
      }
      continue;
    }
    if (picomatch.scan(pattern).isGlob) {
      // Candidates under the pattern's fixed folder (git-known inside git), matched relative to cwd.
      const base = resolve(cwd, picomatch.scan(pattern).base || '.');
      const candidates = new Map<string, boolean>();
      if (inGit(base)) {
        const prefix = base.endsWith(sep) ? base : base + sep;
        for (const path of gitKnown()) if (path.startsWith(prefix)) candidates.set(path, false);
      } else {
        await walk(base, candidates, [], cwd);
      }
      const isMatch = picomatch(pattern.replace(/^\.\//, ''), { dot: true });
      const kept = [...candidates.keys()].filter((path) => isMatch(relative(cwd, path).split(sep).join('/')));
      if (kept.length === 0) errors.push(`${pattern}: no files match`);
      for (const match of kept) addOnce(chosen, match);
      continue;
    }
    errors.push(`${pattern}: no such file or folder`);
  }

  const files: InputFile[] = [];
  for (const [path, explicit] of chosen) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // A file git lists but the work tree no longer has (deleted, not staged), or a submodule
      // (git lists its folder), is not an error.
      if (!explicit && (code === 'ENOENT' || code === 'EISDIR')) continue;
      errors.push(`${displayPathOf(path, cwd)}: cannot read (${describeErrno(code)})`);
      continue;
    }
    if (!explicit && (text.includes('\0') || !isLintable(detectFileKind(path, text)))) continue;
    files.push({ path, displayPath: displayPathOf(path, cwd), text });
  }
  files.sort((a, b) => (a.displayPath < b.displayPath ? -1 : a.displayPath > b.displayPath ? 1 : 0));
  return { files, errors };
}

function addOnce(chosen: Map<string, boolean>, path: string): void {
  if (!chosen.has(path)) chosen.set(path, false);
}

async function walk(dir: string, chosen: Map<string, boolean>, errors: string[], cwd: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    errors.push(`${displayPathOf(dir, cwd)}: cannot read folder (${describeErrno((error as NodeJS.ErrnoException).code)})`);
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(path, chosen, errors, cwd);
    } else if (entry.isFile()) {
      addOnce(chosen, path);
    }
  }
}

export function describeErrno(code: string | undefined): string {
  switch (code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder';
    default:
      return code ?? 'unknown error';
  }
}
