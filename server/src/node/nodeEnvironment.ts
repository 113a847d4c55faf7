/**
 * The Node implementation of the core's `Environment` (core/project/environment.ts), shared by the
 * CLI and the language server: the only module that reads or writes project files and asks git.
 */
import type { execFileSync as ExecFileSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  constants,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isPlainFilePath } from '../core/fileKind';
import {
  EnvironmentError,
  type DirectoryEntry,
  type EntryInfo,
  type Environment,
  type GitQueries,
} from '../core/project/environment';

/** Paths in the core are `/`-separated; on Windows they are converted at this boundary. */
function toNative(path: string): string {
  return sep === '/' ? path : path.split('/').join(sep);
}

export function toCorePath(path: string): string {
  const absolute = resolve(path);
  return sep === '/' ? absolute : absolute.split(sep).join('/');
}

function fail(error: unknown, path: string): never {
  const code = (error as NodeJS.ErrnoException).code ?? 'EIO';
  throw new EnvironmentError(code, `${path}: ${(error as Error).message}`);
}

// Loaded on the first git call: a run outside git never needs it (start-up, issue 17).
let execFileSync: typeof ExecFileSync | undefined;

function git(cwd: string, args: readonly string[]): Buffer {
  execFileSync ??= (require('node:child_process') as typeof import('node:child_process')).execFileSync;
  return execFileSync('git', args, { cwd: toNative(cwd), stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 });
}

function splitZ(output: Buffer): string[] {
  return output
    .toString('utf8')
    .split('\0')
    .filter((p) => p.length > 0);
}

export function parseChangedLines(diff: string): Set<number> {
  const lines = new Set<number>();
  for (const match of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    for (let line = start; line < start + count; line++) lines.add(line - 1);
  }
  return lines;
}

export class RefNotFound extends Error {
  override readonly name = 'RefNotFound';
}

function hasDotGitAbove(folder: string): boolean {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

const gitQueries: GitQueries = {
  root(folder) {
    // No `.git` in the folder or above it (and no GIT_DIR): git would find no work tree either. Saves a process per run.
    if (
      process.env.GIT_DIR === undefined &&
      process.env.GIT_WORK_TREE === undefined &&
      !hasDotGitAbove(toNative(folder))
    )
      return undefined;
    try {
      const root = git(folder, ['rev-parse', '--show-toplevel']).toString('utf8').trim();
      return root ? toCorePath(root) : undefined;
    } catch {
      return undefined;
    }
  },
  knownFiles(root) {
    return splitZ(git(root, ['ls-files', '-co', '--exclude-standard', '-z']));
  },
  stagedFiles(root) {
    return splitZ(git(root, ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z']));
  },
  stagedContent(root, path) {
    return new Uint8Array(git(root, ['show', `:${path}`]));
  },
  changedSince(root, ref) {
    try {
      git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    } catch {
      throw new RefNotFound(ref);
    }
    const changed = splitZ(git(root, ['diff', '--name-only', '--diff-filter=ACMR', '-z', ref, '--']));
    const untracked = splitZ(git(root, ['ls-files', '--others', '--exclude-standard', '-z']));
    return [...new Set([...changed, ...untracked])].sort();
  },
  filesAt(root, ref) {
    try {
      git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
    } catch {
      throw new RefNotFound(ref);
    }
    return splitZ(git(root, ['ls-tree', '-r', '--name-only', '-z', `${ref}^{commit}`, '--']));
  },
  contentAt(root, ref, path) {
    return new Uint8Array(git(root, ['show', `${ref}^{commit}:${path}`]));
  },
  changedLines(root, against, path) {
    // A file git does not track yet is new: every line is a change.
    if (
      against !== 'staged' &&
      splitZ(git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', path])).length > 0
    )
      return 'all';
    const args =
      against === 'staged'
        ? ['diff', '--cached', '-U0', '--no-color', '--no-ext-diff', '--', path]
        : ['diff', '-U0', '--no-color', '--no-ext-diff', against.ref, '--', path];
    return parseChangedLines(git(root, args).toString('utf8'));
  },
};

/**
 * The path with every link resolved. On POSIX the C library's realpath (about half the time of
 * Node's, which looks at each folder of the path in JavaScript: it counts for the 5,000 files of
 * a repository's context, issue 17), with Node's as the fallback (musl without /proc); on Windows
 * Node's, whose spelling of drives and shares the rest of the run expects.
 */
function realPathOf(native: string): string {
  if (sep === '/') {
    try {
      return realpathSync.native(native);
    } catch {
      // Below: a dangling link fails there too.
    }
  }
  return realpathSync(native);
}

let temporaryCounter = 0;

/** The user's home folder, unless it is unknown or the file system's root. */
function homeFolder(): string | undefined {
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  return home === '' || resolve(home) === resolve('/') ? undefined : toCorePath(home);
}

/** Temporary folders other users can write to (and the system's temporary folder, which usually is one). */
function sharedFolders(): string[] {
  const folders = new Set([toCorePath(tmpdir())]);
  if (sep === '/') for (const folder of ['/tmp', '/var/tmp', '/dev/shm']) folders.add(folder);
  return [...folders];
}

const ASCII = /^[\x20-\x7e]+$/;

export interface NodeEnvironmentOptions {
  /**
   * Remember each folder's real path for the life of the environment: a file that is not a link is
   * then its folder's real path and its name, without a realpath call of its own (which looks at
   * every folder of the path: 3,000 files, 3,000 calls). For a one-shot run (the CLI), whose folders
   * do not move under it; a process that lives on (the language server) asks every time. Each
   * folder's listing is remembered too: a second `list` of it reads nothing, and `stat` of a name
   * its folder's listing does not hold answers "none" without a call (the configuration lookup
   * asks for `.anf-lint.yaml` and `.anf-lint.yml` in every folder: 3,000 files in 753 folders,
   * 1,512 calls that found nothing).
   */
  readonly rememberFolders?: boolean;
}

/** A folder's listing as remembered: its entries and their names in lower case (see `absentFrom`). */
interface Listing {
  readonly entries: readonly DirectoryEntry[];
  readonly lowerNames: ReadonlySet<string>;
}

export class NodeEnvironment implements Environment {
  readonly git: GitQueries = gitQueries;
  readonly home = homeFolder();
  readonly sharedFolders = sharedFolders();
  private readonly realFolders: Map<string, string> | undefined;
  private readonly listings: Map<string, Listing> | undefined;

  constructor(options: NodeEnvironmentOptions = {}) {
    if (options.rememberFolders) {
      this.realFolders = new Map();
      this.listings = new Map();
    }
  }

  stat(path: string): EntryInfo | undefined {
    if (this.absentFrom(path)) return undefined;
    const native = toNative(path);
    let link;
    try {
      // Most paths asked about do not exist (a configuration file looked for in every folder):
      // without a thrown error for each, 11,000 such questions cost 0.25 s instead of a few ms.
      link = lstatSync(native, { throwIfNoEntry: false });
    } catch {
      return undefined;
    }
    if (link === undefined) return undefined;
    const symlink = link.isSymbolicLink();
    let info = link;
    let realPath = path;
    try {
      realPath = symlink || !this.realFolders ? toCorePath(realPathOf(native)) : this.realPathInFolder(native);
      if (symlink) info = statSync(native);
    } catch {
      // A dangling link: there is no file.
      return undefined;
    }
    const kind = info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other';
    return { kind, size: info.size, realPath, symlink };
  }

  /** The real path of an entry that is not a link itself: its folder's (remembered) and its name. */
  private realPathInFolder(native: string): string {
    const folder = dirname(native);
    const name = basename(native);
    // The root, or a name that is not one (`.`, `..`): as before.
    if (folder === native || name === '' || name === '.' || name === '..') return toCorePath(realPathOf(native));
    let real = this.realFolders!.get(folder);
    if (real === undefined) {
      real = toCorePath(realPathOf(folder));
      this.realFolders!.set(folder, real);
    }
    return real.endsWith('/') ? `${real}${name}` : `${real}/${name}`;
  }

  /**
   * Whether a remembered listing of the path's folder says the path is not there. Only a name no
   * entry matches in any case, and only in ASCII, counts: a case-insensitive file system (or one
   * that normalises Unicode) finds `.Anf-lint.yaml` under another spelling.
   */
  private absentFrom(path: string): boolean {
    if (!this.listings) return false;
    const slash = path.lastIndexOf('/');
    if (slash < 0) return false;
    const listing = this.listings.get(slash === 0 ? '/' : path.slice(0, slash));
    if (!listing) return false;
    const name = path.slice(slash + 1);
    return (
      name !== '' && name !== '.' && name !== '..' && ASCII.test(name) && !listing.lowerNames.has(name.toLowerCase())
    );
  }

  list(folder: string): readonly DirectoryEntry[] {
    const known = this.listings?.get(folder);
    if (known) return known.entries;
    const entries = this.readListing(folder);
    this.listings?.set(folder, { entries, lowerNames: new Set(entries.map((e) => e.name.toLowerCase())) });
    return entries;
  }

  private readListing(folder: string): readonly DirectoryEntry[] {
    let entries;
    try {
      entries = readdirSync(toNative(folder), { withFileTypes: true });
    } catch (error) {
      fail(error, folder);
    }
    return entries
      .map(
        (e): DirectoryEntry => ({
          name: e.name,
          kind: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other',
        }),
      )
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  readFile(path: string): Uint8Array {
    try {
      // O_NONBLOCK: should a FIFO appear between the look and the read, the open does not wait for a writer.
      const fd = openSync(toNative(path), constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
      try {
        return readFileSync(fd);
      } finally {
        closeSync(fd);
      }
    } catch (error) {
      fail(error, path);
    }
  }

  /** A temporary file beside the original, written and flushed, then renamed over it; mode and owner kept. */
  writeFile(path: string, bytes: Uint8Array): void {
    const native = toNative(path);
    let before;
    try {
      before = statSync(native);
    } catch (error) {
      fail(error, path);
    }
    const temporary = join(dirname(native), `.${basename(native)}.anf-lint-${process.pid}-${temporaryCounter++}.tmp`);
    let fd: number | undefined;
    try {
      fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, before.mode & 0o7777); // not a fact: permission bits
      let written = 0;
      while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written);
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      chmodSync(temporary, before.mode & 0o7777); // not a fact: permission bits (umask does not apply)
      try {
        chownSync(temporary, before.uid, before.gid);
      } catch {
        // Only root may give a file away; the owner stays the writer's, as with any editor.
      }
      renameSync(temporary, native);
    } catch (error) {
      if (fd !== undefined) {
        try {
          closeSync(fd);
        } catch {
          // already closed
        }
      }
      try {
        unlinkSync(temporary);
      } catch {
        // never created
      }
      fail(error, path);
    }
  }

  uriOf(path: string): string {
    // Most paths need neither resolving nor escaping: the URI is the path after `file://` (what
    // pathToFileURL gives, without building a URL per file).
    if (sep === '/' && isPlainFilePath(path)) return `file://${path}`;
    return pathToFileURL(toNative(path)).href;
  }

  pathOf(uri: string): string | undefined {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return toCorePath(fileURLToPath(uri));
    } catch {
      return undefined;
    }
  }
}
