import {
  EnvironmentError,
  type DirectoryEntry,
  type EntryInfo,
  type Environment,
  type GitQueries,
} from './environment';
import { basename, dirname, isInside, joinPath, relativeTo } from './paths';

/**
 * An environment held in memory, for tests: files, folders, symbolic links, special files (FIFOs,
 * devices), git repositories (known and staged files), and write failures on demand. Nothing
 * touches the disk.
 */
type Entry =
  | { readonly type: 'file'; bytes: Uint8Array; mode: number }
  | { readonly type: 'symlink'; readonly target: string }
  | { readonly type: 'special' };

const encoder = new TextEncoder();
const DEFAULT_MODE = 0o644; // not a fact: rw-r--r--
const MAX_LINK_HOPS = 40; // not a fact: link hops before ELOOP, as Linux

export interface MemoryRepository {
  /** Root-relative paths git knows; default: every file under the root. */
  known?: string[];
  /** Root-relative staged paths and their staged text. */
  staged?: Record<string, string>;
  /** Commits by ref: root-relative paths and their text at that ref. */
  commits?: Record<string, Record<string, string>>;
}

export class MemoryEnvironment implements Environment {
  private readonly entries = new Map<string, Entry>();
  private readonly repositories = new Map<string, MemoryRepository>();
  /** Paths whose write fails, with the errno-like code. */
  readonly failWrites = new Map<string, string>();
  /** Every read, in order (tests check what was never read). */
  readonly reads: string[] = [];
  /** The user's home folder (the configuration lookup outside git never goes above it). */
  home: string | undefined = '/home/user';
  /** Temporary folders any user may write to. */
  sharedFolders: readonly string[] = ['/tmp', '/var/tmp'];
  readonly git: GitQueries;

  constructor(files: Record<string, string | Uint8Array> = {}) {
    for (const [path, content] of Object.entries(files)) this.writeText(path, content);
    const self = this;
    this.git = {
      root(folder) {
        return [...self.repositories.keys()].filter((r) => isInside(r, folder)).sort((a, b) => b.length - a.length)[0];
      },
      knownFiles(root) {
        const repo = self.repositories.get(root);
        if (repo?.known) return repo.known;
        return [...self.entries.keys()]
          .filter((p) => isInside(root, p) && self.entries.get(p)!.type !== 'special')
          .map((p) => relativeTo(root, p)!);
      },
      stagedFiles(root) {
        return Object.keys(self.repositories.get(root)?.staged ?? {});
      },
      stagedContent(root, path) {
        const text = self.repositories.get(root)?.staged?.[path];
        if (text === undefined) throw new EnvironmentError('ENOENT', `not staged: ${path}`);
        return encoder.encode(text);
      },
      changedSince() {
        return [];
      },
      filesAt(root, ref) {
        const commit = self.repositories.get(root)?.commits?.[ref];
        if (!commit) throw new EnvironmentError('ENOENT', `not a commit: ${ref}`);
        return Object.keys(commit).sort();
      },
      contentAt(root, ref, path) {
        const text = self.repositories.get(root)?.commits?.[ref]?.[path];
        if (text === undefined) throw new EnvironmentError('ENOENT', `not in ${ref}: ${path}`);
        return encoder.encode(text);
      },
      changedLines() {
        return 'all';
      },
    };
  }

  writeText(path: string, content: string | Uint8Array, mode = DEFAULT_MODE): void {
    this.entries.set(path, {
      type: 'file',
      bytes: typeof content === 'string' ? encoder.encode(content) : content,
      mode,
    });
  }

  symlink(path: string, target: string): void {
    this.entries.set(path, { type: 'symlink', target });
  }

  /** A FIFO, socket or device: reading it would block or never end. */
  special(path: string): void {
    this.entries.set(path, { type: 'special' });
  }

  repository(root: string, repo: MemoryRepository = {}): void {
    this.repositories.set(root, repo);
  }

  text(path: string): string | undefined {
    const entry = this.entries.get(path);
    return entry?.type === 'file' ? new TextDecoder().decode(entry.bytes) : undefined;
  }

  bytes(path: string): Uint8Array | undefined {
    const entry = this.entries.get(path);
    return entry?.type === 'file' ? entry.bytes : undefined;
  }

  private isFolder(path: string): boolean {
    const prefix = path.endsWith('/') ? path : `${path}/`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) return true;
    return path === '/';
  }

  private resolve(path: string, depth = 0): string {
    if (depth > MAX_LINK_HOPS) throw new EnvironmentError('ELOOP', `too many links: ${path}`);
    const entry = this.entries.get(path);
    if (entry?.type === 'symlink')
      return this.resolve(
        entry.target.startsWith('/') ? entry.target : joinPath(dirname(path), entry.target),
        depth + 1,
      );
    return path;
  }

  stat(path: string): EntryInfo | undefined {
    const real = this.resolve(path);
    const entry = this.entries.get(real);
    const symlink = this.entries.get(path)?.type === 'symlink';
    if (entry?.type === 'file') return { kind: 'file', size: entry.bytes.length, realPath: real, symlink };
    if (entry?.type === 'special') return { kind: 'other', size: 0, realPath: real, symlink };
    if (this.isFolder(real)) return { kind: 'directory', size: 0, realPath: real, symlink };
    return undefined;
  }

  list(folder: string): readonly DirectoryEntry[] {
    const names = new Map<string, DirectoryEntry['kind']>();
    for (const [path, entry] of this.entries) {
      const below = relativeTo(folder, path);
      if (below === undefined || below === '') continue;
      const name = below.split('/')[0]!;
      if (below.includes('/')) names.set(name, 'directory');
      else names.set(name, entry.type === 'symlink' ? 'symlink' : entry.type === 'file' ? 'file' : 'other');
    }
    return [...names].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([name, kind]) => ({ name, kind }));
  }

  readFile(path: string): Uint8Array {
    this.reads.push(path);
    const entry = this.entries.get(this.resolve(path));
    if (entry?.type === 'special')
      throw new Error(`MemoryEnvironment: ${path} is a special file; reading it would block`);
    if (entry?.type !== 'file') throw new EnvironmentError('ENOENT', `no such file: ${path}`);
    return entry.bytes;
  }

  writeFile(path: string, bytes: Uint8Array): void {
    const failure = this.failWrites.get(path);
    if (failure) throw new EnvironmentError(failure, `cannot write ${basename(path)}`);
    const entry = this.entries.get(path);
    this.entries.set(path, { type: 'file', bytes, mode: entry?.type === 'file' ? entry.mode : DEFAULT_MODE });
  }

  uriOf(path: string): string {
    return `file://${path.split('/').map(encodeURIComponent).join('/')}`;
  }

  pathOf(uri: string): string | undefined {
    if (!uri.startsWith('file://')) return undefined;
    return decodeURIComponent(uri.slice('file://'.length));
  }
}
