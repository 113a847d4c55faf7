/**
 * The first scan's results kept across editor restarts (issue 29), in the folder the client gives
 * the server for its own storage (`initializationOptions.storagePath`; VS Code's
 * `ExtensionContext.storageUri`). One file, rewritten after each complete scan with that scan's
 * entries only, so it never holds more than the index's bound of files. Its first line is the
 * format; each other line an entry: its key, a tab, and the JSON of its findings. An entry's JSON
 * is parsed when the entry is first asked for: parsing every finding when the cache opened (one
 * JSON document) held the server's event loop for about 440 ms at a warm start of 1,000 files;
 * asked for one by one, the parses fall in the scan's slices (bench/notes.md, session 17).
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

/** Bumped when the file's layout changes (1: one JSON document). */
const CACHE_FORMAT = 'anf-lint-scan-cache-2';
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

/** A stored entry: its JSON as read from the file until it is asked for, its findings after. */
interface StoredEntry {
  json?: string;
  findings?: readonly Diagnostic[];
}

export class ScanCache {
  private stored = new Map<string, StoredEntry>();
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
      const lines = text.split('\n');
      // Another format (an older build's) is not read; the next save replaces it.
      if (lines[0] !== CACHE_FORMAT) return;
      const stored = new Map<string, StoredEntry>();
      for (let i = 1; i < lines.length; i++) {
        const line = lines[i]!;
        if (line === '') continue;
        const tab = line.indexOf('\t');
        if (tab < 1) throw new Error(`line ${i + 1} is not an entry`);
        stored.set(line.slice(0, tab), { json: line.slice(tab + 1) });
      }
      this.stored = stored;
    } catch (error) {
      this.log(`anf-lint: scan cache ${this.path} ignored: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Whether an entry is stored (without counting it as used). */
  has(key: string): boolean {
    return this.stored.has(key);
  }

  get(key: string): readonly Diagnostic[] | undefined {
    const entry = this.stored.get(key);
    if (!entry) return undefined;
    if (entry.findings === undefined) {
      try {
        const findings: unknown = JSON.parse(entry.json ?? '');
        if (!Array.isArray(findings)) throw new Error('not a list of findings');
        entry.findings = findings as readonly Diagnostic[];
        entry.json = undefined;
      } catch (error) {
        // A damaged entry is a miss: the file is checked, and the next save writes its entry anew.
        this.stored.delete(key);
        this.log(
          `anf-lint: scan cache entry ignored: ${error instanceof Error ? error.message : String(error)} (${this.path})`,
        );
        return undefined;
      }
    }
    this.hits++;
    this.fresh.set(key, entry.findings);
    return entry.findings;
  }

  set(key: string, diagnostics: readonly Diagnostic[]): void {
    if (this.path) this.fresh.set(key, diagnostics);
  }

  /** Writes this scan's entries (only them) and starts the next scan's set; false when the file already held them. */
  save(): boolean {
    const entries = this.fresh;
    // Every entry stored was used and no other made: the file already holds this scan's entries.
    const unchanged =
      entries.size === this.stored.size &&
      [...entries].every(([key, value]) => this.stored.get(key)?.findings === value);
    this.stored = new Map([...entries].map(([key, findings]) => [key, { findings }]));
    this.fresh = new Map();
    this.hits = 0;
    if (!this.path || unchanged) return false;
    try {
      mkdirSync(join(this.path, '..'), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      // JSON.stringify escapes every line break inside a value, so an entry is one line.
      const lines = [CACHE_FORMAT, ...[...entries].map(([key, findings]) => `${key}\t${JSON.stringify(findings)}`)];
      writeFileSync(temporary, `${lines.join('\n')}\n`);
      renameSync(temporary, this.path);
      return true;
    } catch (error) {
      this.log(`anf-lint: scan cache not written: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }
}
