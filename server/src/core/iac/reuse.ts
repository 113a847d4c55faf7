import type { SourceText, Span } from '../text/sourceText';
import type { IacAccount, IacPool, IacVolume } from './estate';

/**
 * Reuse of what a resource block read, from one version of a document to the next. Typing in a
 * 5,000-line .tf changes one block; reading the other 200 again (walking their tree-sitter nodes
 * and evaluating their expressions) cost most of an edit. A block's result is reused when:
 *
 * - its region (the block, the comment lines directly above it, where a `# anf:` annotation may
 *   stand, and the rest of its last line) has the same text as when it was read;
 * - the document's context is the same: every character outside the resource blocks (variables,
 *   locals, outputs, data sources: what an expression may refer to) and the list of resources;
 * - no resource it names (`azurerm_netapp_pool.p`, anywhere in its text) was read again, directly
 *   or through the resources that one names.
 *
 * Every span of a reused result is moved by how far its region moved. A result with a span outside
 * its own region (a value written in a local) is never reused: it is read again each time. The
 * check is conservative: a false "changed" costs a read, a false "unchanged" would be a wrong
 * finding, so anything in doubt is read again.
 */
export interface BlockResult {
  readonly accounts: readonly IacAccount[];
  readonly pools: readonly IacPool[];
  readonly volumes: readonly IacVolume[];
  /** The block named something its file alone cannot resolve (terraform.ts: read with its module). */
  readonly unresolved?: boolean;
}

interface Entry {
  /** Unique per read: what depends on this block records which read of it it saw. */
  readonly id: number;
  readonly context: string;
  readonly region: string;
  readonly regionStart: number;
  /** The `type.label` names written in the block, each with the id of that block's read then (undefined: none). */
  mentions: readonly (readonly [string, number | undefined])[];
  readonly result: BlockResult | undefined;
  /** Reads since the block was last in the document (a block cut and pasted back, a brace typed and deleted). */
  readonly absent: number;
}

const KEPT_DOCUMENTS = 8; // not a fact: as many documents as treeSitter.ts keeps trees for
const KEPT_ABSENT_READS = 3; // not a fact: how long the entry of a block that left the document is kept
const KEPT_PER_BLOCK = 2; // not a fact: a block's last reads (a character typed, then deleted, finds the one before)
const documents = new Map<string, Map<string, readonly Entry[]>>();
let nextId = 1;

/** A resource block as the reader sees it: its symbol (`type.label`) and where it is. */
export interface BlockPlace {
  readonly symbol: string;
  readonly span: Span;
}

/** One read of a document: which blocks can be reused, and what the read blocks gave. */
export class BlockReuse {
  private readonly regions = new Map<string, Span>();
  private readonly reusable = new Set<string>();
  private readonly next = new Map<string, Entry>();
  private readonly stored: Entry[] = [];
  private readonly previous: Map<string, readonly Entry[]>;
  /** The earlier read each block of this version matches, before the names it mentions are checked. */
  private readonly candidates = new Map<string, Entry>();
  private reused = 0;

  /**
   * `blocks`: the resource blocks in the order of the text; `context`: everything else the reader
   * may read while it reads a block (the text of the variables and locals blocks).
   */
  constructor(
    private readonly key: string,
    private readonly source: SourceText,
    blocks: readonly BlockPlace[],
    private readonly context: string,
  ) {
    this.previous = documents.get(key) ?? new Map();
    let at = 0;
    let simple = true;
    for (const b of blocks) {
      const region = regionOf(source, b.span);
      // Regions sharing a line, or a symbol written twice: read everything (not worth the doubt).
      if (region.start < at || this.regions.has(b.symbol)) simple = false;
      this.regions.set(b.symbol, region);
      at = region.end;
    }
    if (!simple) return;
    const changed = new Set<string>();
    const choices = new Map<string, Entry[]>();
    for (const b of blocks) {
      const text = this.text(b.symbol);
      const matches = (this.previous.get(b.symbol) ?? []).filter(
        (e) => e.result !== undefined && e.context === context && e.region === text,
      );
      // One that needs no moving first (after a character typed and deleted, the read before it).
      const start = this.regions.get(b.symbol)!.start;
      const ordered = [
        ...matches.filter((e) => e.regionStart === start),
        ...matches.filter((e) => e.regionStart !== start),
      ];
      if (ordered.length > 0) this.candidates.set(b.symbol, ordered[0]!);
      else changed.add(b.symbol);
      if (ordered.length > 1) choices.set(b.symbol, ordered);
    }
    // A block that names a block read again, or one that came or went since, is read again; and so on.
    const idNow = (name: string): number | undefined =>
      changed.has(name) ? -1 : this.regions.has(name) ? this.candidates.get(name)!.id : undefined;
    // A block with two matching reads (an edit that re-read it, then its undo) takes, in the order of
    // the text, the one that saw the reads now chosen for the blocks it names: picking by position
    // alone could mix the two generations, and every block naming a mixed one would be read again.
    for (const [symbol, ordered] of choices) {
      const consistent = ordered.find((e) => e.mentions.every(([name, id]) => idNow(name) === id));
      if (consistent) this.candidates.set(symbol, consistent);
    }
    let grew = true;
    while (grew) {
      grew = false;
      for (const b of blocks) {
        if (changed.has(b.symbol)) continue;
        if (this.candidates.get(b.symbol)!.mentions.some(([name, id]) => idNow(name) !== id)) {
          changed.add(b.symbol);
          grew = true;
        }
      }
    }
    for (const b of blocks) {
      if (changed.has(b.symbol)) continue;
      this.reusable.add(b.symbol);
      const entry = this.candidates.get(b.symbol)!;
      this.next.set(b.symbol, entry.absent === 0 ? entry : { ...entry, absent: 0 });
    }
  }

  /** The block's earlier result, its spans moved to where the block is now; undefined: read it. */
  reuse(symbol: string): BlockResult | undefined {
    if (!this.reusable.has(symbol)) return undefined;
    this.reused++;
    const entry = this.next.get(symbol)!;
    const delta = this.regions.get(symbol)!.start - entry.regionStart;
    const result = entry.result!;
    if (delta === 0) return result;
    const moved = {
      accounts: result.accounts.map((r) => moveSpans(r, delta)),
      pools: result.pools.map((r) => moveSpans(r, delta)),
      volumes: result.volumes.map((r) => moveSpans(r, delta)),
      ...(result.unresolved ? { unresolved: true } : {}),
    };
    this.next.set(symbol, { ...entry, regionStart: entry.regionStart + delta, result: moved });
    return moved;
  }

  /** What reading the block gave; kept for the next version when every span lies in its region. */
  store(symbol: string, result: BlockResult): void {
    const region = this.regions.get(symbol);
    if (!region) return;
    const text = this.text(symbol);
    const names = [...new Set(text.match(MENTION) ?? [])].filter((m) => m !== symbol && !NOT_RESOURCES.test(m));
    const entry: Entry = {
      id: nextId++,
      context: this.context,
      region: text,
      regionStart: region.start,
      mentions: names.map((name) => [name, undefined] as const),
      result: spansWithin(result, region) ? result : undefined,
      absent: 0,
    };
    this.next.set(symbol, entry);
    this.stored.push(entry);
  }

  /** Keeps this read's entries for the document's next version. */
  commit(): void {
    lastRead = { reused: this.reused, read: this.regions.size - this.reused };
    // The blocks read now name the reads of this version.
    for (const entry of this.stored)
      entry.mentions = entry.mentions.map(
        ([name]) => [name, this.regions.has(name) ? this.next.get(name)?.id : undefined] as const,
      );
    const kept = new Map<string, readonly Entry[]>();
    for (const [symbol, entry] of this.next) {
      // The read before stays too, unless it is the one reused now where it is now. The same read
      // where it was before an edit above moved it stays as well: undoing the edit (a character
      // typed, then deleted) takes it back without moving every span of the block again.
      const earlier = (this.previous.get(symbol) ?? []).filter(
        (e) => e !== entry && !(e.id === entry.id && e.regionStart === entry.regionStart),
      );
      kept.set(symbol, [entry, ...earlier].slice(0, KEPT_PER_BLOCK));
    }
    for (const [symbol, entries] of this.previous) {
      if (this.regions.has(symbol)) continue;
      const stay = entries.filter((e) => e.absent < KEPT_ABSENT_READS).map((e) => ({ ...e, absent: e.absent + 1 }));
      if (stay.length > 0) kept.set(symbol, stay);
    }
    documents.delete(this.key);
    documents.set(this.key, kept);
    for (const oldest of documents.keys()) {
      if (documents.size <= KEPT_DOCUMENTS) break;
      documents.delete(oldest);
    }
  }

  private text(symbol: string): string {
    const region = this.regions.get(symbol)!;
    return this.source.text.slice(region.start, region.end);
  }
}

let lastRead = { reused: 0, read: 0 };

/** How many resource blocks the last read of a document reused and read (for tests and the benchmark). */
export function lastBlockReuse(): { readonly reused: number; readonly read: number } {
  return lastRead;
}

/** Forgets a document's block results (every document's without a key). */
export function forgetBlockResults(key?: string): void {
  if (key === undefined) documents.clear();
  else documents.delete(key);
}

/**
 * `type.label` pairs written in a block: the resources it may refer to. A name starts only where
 * no name character precedes it (the lookbehind), so a long run of `a-a-a-...` is scanned once.
 */
const MENTION = /(?<![\w-])[A-Za-z_][\w-]*\.[A-Za-z_][\w-]*/g;
const NOT_RESOURCES = /^(?:var|local|data|module|each|count|self|path|terraform)\./;
const COMMENT_LINE = /^\s*(?:#|\/\/)/;

/** The block, the comment lines directly above it, and the rest of its last line. */
function regionOf(source: SourceText, span: Span): Span {
  const first = source.positionAt(span.start).line;
  const last = source.positionAt(span.end).line;
  let above = first - 1;
  while (above >= 0 && COMMENT_LINE.test(source.lineText(above))) above--;
  return { start: source.lineStart(above + 1), end: source.lineEnd(last) };
}

function isSpan(value: object): value is Span {
  return (
    typeof (value as Span).start === 'number' &&
    typeof (value as Span).end === 'number' &&
    Object.keys(value).length === 2
  );
}

/** Every span in a result (the values themselves, `value`, are not looked into). */
function forEachSpan(value: unknown, visit: (span: Span) => void): void {
  if (value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) forEachSpan(item, visit);
    return;
  }
  if (isSpan(value)) {
    visit(value);
    return;
  }
  for (const [key, child] of Object.entries(value)) if (key !== 'value') forEachSpan(child, visit);
}

function spansWithin(result: BlockResult, region: Span): boolean {
  let inside = true;
  forEachSpan(result, (span) => {
    if (span.start < region.start || span.end > region.end) inside = false;
  });
  return inside;
}

/** A copy with every span moved by `delta` (values are copied as they are). */
function moveSpans<T>(value: T, delta: number): T {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item: unknown) => moveSpans(item, delta)) as T;
  if (isSpan(value)) return { start: value.start + delta, end: value.end + delta } as T;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) out[key] = key === 'value' ? child : moveSpans(child, delta);
  return out as T;
}
