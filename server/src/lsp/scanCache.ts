/**
 * The first scan's results kept across editor restarts (issue 29), in the folder the client gives
 * the server for its own storage (`initializationOptions.storagePath`; VS Code's
 * `ExtensionContext.storageUri`). One JSON file, rewritten after each complete scan with that
 * scan's entries only, so it never holds more than the index's bound of files.
 *
 * An entry's key is a hash of everything a file's findings can depend on, so a stale entry can
 * never be read back as a wrong finding:
 * - the server build (a hash of the bundle that runs: any change of a rule or a reader changes it),
 *   and the codes of the rules that run;
 * - the configuration the file lints with (its folder's `.anf-lint.yaml` text and the editor's settings);
 * - the file's URI and text;
 * - the project's fingerprint: the URI and text hash of every file of its project. Cross-file rules
 *   read other files (the manifest a mount reaches, a Terraform module, a host's other files), and
 *   which ones is the rules' business: any change in the project misses the whole project's
 *   entries. The cache serves the restart of an editor on an unchanged repository, the slow case.
 * The cache is an optimisation only: a file it cannot read or write is logged and ignored.
 */
import * as crypto from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Diagnostic } from '../core';

/** Bumped when the file's layout changes. */
const CACHE_FORMAT = 'anf-lint-scan-cache-1';
const FILE_NAME = 'scan-cache.json';
/** Not a fact: a cache file larger than this is ignored (2,000 files of findings are far smaller). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024; // not a fact: anf-lint's own bound on the cache file

/**
 * SHA-256 of a text, hex. Node's one-shot `crypto.hash` (20.12 and later) where the runtime has
 * it: a `createHash` object per file cost about 20 us each in a cold scan of 1,000 files, most of
 * the keys' hashing. Editors may run the server on an older Node (VS Code's own), hence the
 * fallback; both give the same digest.
 */
export function sha256(text: string): string {
  return oneShotHash ? oneShotHash('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex');
}
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;

let buildHash: string | undefined;

/** A hash of the running server bundle (dist/server/server.js): changes with every build that changes code. */
export function serverBuildHash(): string {
  if (buildHash === undefined) {
    try {
      buildHash = sha256(readFileSync(__filename, 'utf8'));
    } catch {
      buildHash = `unreadable-${process.pid}-${Date.now()}`; // never matches a stored entry
    }
  }
  return buildHash;
}

export class ScanCache {
  private stored = new Map<string, readonly Diagnostic[]>();
  private fresh = new Map<string, readonly Diagnostic[]>();
  hits = 0;

  private constructor(
    private readonly path: string | undefined,
    private readonly log: (message: string) => void,
  ) {}

  /** The cache in `folder` (created if missing); a cache that keeps nothing when `folder` is undefined. */
  static open(folder: string | undefined, log: (message: string) => void): ScanCache {
    const cache = new ScanCache(folder === undefined ? undefined : join(folder, FILE_NAME), log);
    cache.load();
    return cache;
  }

  get enabled(): boolean {
    return this.path !== undefined;
  }

  private load(): void {
    if (!this.path) return;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch {
      return; // no cache yet
    }
    try {
      if (text.length > MAX_CACHE_BYTES) throw new Error(`larger than ${MAX_CACHE_BYTES} bytes`);
      const data = JSON.parse(text) as { format?: unknown; entries?: unknown };
      if (data.format !== CACHE_FORMAT || typeof data.entries !== 'object' || data.entries === null) return;
      this.stored = new Map(Object.entries(data.entries as Record<string, readonly Diagnostic[]>));
    } catch (error) {
      this.log(`anf-lint: scan cache ${this.path} ignored: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Whether an entry is stored (without counting it as used). */
  has(key: string): boolean {
    return this.stored.has(key);
  }

  get(key: string): readonly Diagnostic[] | undefined {
    const found = this.stored.get(key);
    if (found) {
      this.hits++;
      this.fresh.set(key, found);
    }
    return found;
  }

  set(key: string, diagnostics: readonly Diagnostic[]): void {
    if (this.path) this.fresh.set(key, diagnostics);
  }

  /** Writes this scan's entries (only them) and starts the next scan's set; false when the file already held them. */
  save(): boolean {
    const entries = this.fresh;
    // Every entry stored was used and no other made: the file already holds this scan's entries.
    const unchanged =
      entries.size === this.stored.size && [...entries].every(([key, value]) => this.stored.get(key) === value);
    this.stored = entries;
    this.fresh = new Map();
    this.hits = 0;
    if (!this.path || unchanged) return false;
    try {
      mkdirSync(join(this.path, '..'), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify({ format: CACHE_FORMAT, entries: Object.fromEntries(entries) }));
      renameSync(temporary, this.path);
      return true;
    } catch (error) {
      this.log(`anf-lint: scan cache not written: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}
