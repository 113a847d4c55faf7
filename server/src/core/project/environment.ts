/**
 * The one door between the core and the machine: everything the project model reads or writes goes
 * through an `Environment`. The CLI and the language server share the Node implementation
 * (server/src/node/nodeEnvironment.ts); tests use `MemoryEnvironment` (memoryEnvironment.ts).
 * Like taplo's `Environment`: small, synchronous, paths are absolute and `/`-separated.
 */

/** What a path is once links are followed. */
export type EntryKind = 'file' | 'directory' | 'other';

export interface EntryInfo {
  /** `file` is a regular file; `other` is a FIFO, socket, device or a dangling link. */
  readonly kind: EntryKind;
  /** Bytes (regular files). */
  readonly size: number;
  /** The path with every link resolved. */
  readonly realPath: string;
  /** The path itself is a symbolic link. */
  readonly symlink: boolean;
}

export interface DirectoryEntry {
  readonly name: string;
  /** Links are listed as `symlink`: discovery decides what to do with them (stat tells where they lead). */
  readonly kind: EntryKind | 'symlink';
}

/** An IO failure: `code` is the errno-like reason (`ENOENT`, `EACCES`, `ENOSPC`, `EFBIG`...). */
export class EnvironmentError extends Error {
  override readonly name = 'EnvironmentError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The git questions the project asks. Paths in and out are relative to the repository root, `/`-separated. */
export interface GitQueries {
  /** The work tree's root that contains `folder`, or undefined outside git (or without git). */
  root(folder: string): string | undefined;
  /** Tracked and untracked files, without the ignored ones. */
  knownFiles(root: string): readonly string[];
  /** Staged files that still exist in the index (added, copied, modified, renamed). */
  stagedFiles(root: string): readonly string[];
  /** A staged file's content (`git show :path`). */
  stagedContent(root: string, path: string): Uint8Array;
  /** Files changed between `ref` and the work tree, and new untracked files. Throws when `ref` is not a commit. */
  changedSince(root: string, ref: string): readonly string[];
  /** The files committed at `ref` (a commit, branch or tag). Throws when `ref` is not a commit. */
  filesAt(root: string, ref: string): readonly string[];
  /** A file's content at `ref` (`git show ref:path`). Throws when the file is not there. */
  contentAt(root: string, ref: string, path: string): Uint8Array;
  /** 0-based line numbers (new side) a diff adds or changes; `all` for a file git does not track yet. */
  changedLines(root: string, against: 'staged' | { readonly ref: string }, path: string): ReadonlySet<number> | 'all';
}

export interface Environment {
  /** What the path is (links followed), or undefined when it does not exist. Never opens the file. */
  stat(path: string): EntryInfo | undefined;
  /** A folder's entries, sorted by name; throws `EnvironmentError` when it cannot be read. */
  list(folder: string): readonly DirectoryEntry[];
  /** The file's bytes; throws `EnvironmentError`. Callers check `stat` first (project/read.ts). */
  readFile(path: string): Uint8Array;
  /**
   * Replaces a file's content atomically: a temporary file beside it, then a rename over it, keeping
   * its mode (and owner where possible). On any failure the original is untouched and this throws.
   */
  writeFile(path: string, bytes: Uint8Array): void;
  /** `file://` URI of an absolute path, spelled as the editor spells it. */
  uriOf(path: string): string;
  /** The absolute path of a `file://` URI, or undefined for other schemes. */
  pathOf(uri: string): string | undefined;
  /** Absent where there is no git (tests, virtual workspaces). */
  readonly git?: GitQueries;
  /** The user's home folder, if known: outside a repository the configuration lookup never goes above it. */
  readonly home?: string;
  /**
   * Folders any user may write to (`/tmp`, `/var/tmp`, the system's temporary folder): outside a
   * repository the configuration lookup never reads a file in one of them or above it.
   */
  readonly sharedFolders?: readonly string[];
}
