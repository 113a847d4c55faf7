/**
 * Re-reading a manifest after a small edit without parsing the whole document again.
 *
 * Typing in a 2,000-volume manifest changes one volume; parsing 0.6 MB of YAML per keystroke
 * takes most of a second. When an edit stays inside one volume's list item, only that item's
 * lines are parsed (as a one-item YAML list of their own), and every other part of the previous
 * model and its problems is kept, moved by the length the edit added or removed.
 *
 * The shortcut is taken only where it gives what a whole parse gives (the tests in
 * test/unit/manifest-incremental.test.ts compare the two on random and exhaustive edits):
 * anything that ties the item to the rest of the document (anchors, aliases, merge keys, tags,
 * document markers, a line moved out of the item, syntax errors that may run past it) or any
 * doubt about where a span moves sends the caller to a whole parse. When a line leaves its volume
 * (a character typed into its indentation), the pool and then the account are read alone the same
 * way, up to half of the text; each item is parsed once, followed by a stand-in sibling (or, the
 * document's last item, to the end of the text). Edits are compared with the
 * last version without syntax errors, so a broken state in between costs no whole parse.
 */
import type { SourceText, Span } from '../text/sourceText';
import { changedRegion, type ChangedRegion } from '../text/changedRegion';
import type { ParseProblem } from '../diagnostics';
import type {
  Located,
  ManifestAccount,
  ManifestCoolAccess,
  ManifestDocument,
  ManifestPool,
  ManifestRequirements,
  ManifestVolume,
} from './model';
import {
  PARSE_CODES,
  parseManifestItem,
  type ItemAfter,
  type ManifestItemLevel,
  type ManifestParseResult,
} from './parse';
import { recordLineage, recordMoved, type Lineage } from './lineage';
import { summarizeVolume } from './summary';
import type { VolumeSummary } from './volumeSummary';
import type { Mutable } from '../mutable';

/** What the previous parse of the document left (a ParsedFile has it). */
export interface PreviousManifest {
  readonly source: SourceText;
  readonly manifest?: ManifestDocument;
  readonly volumes: readonly VolumeSummary[];
  readonly problems: readonly ParseProblem[];
  /**
   * When this version has YAML syntax errors: the last version without any. Edits are compared
   * with it, so typing through a broken line of one volume (`q`, `qu`, ... `quota: 1 TiB`) and
   * undoing a slip stay on the short path.
   */
  readonly lastWellFormed?: PreviousManifest;
}

/** The text that differs between two versions: [start, oldEnd) of the old became [start, newEnd) of the new. */
type Change = ChangedRegion;

/** Anything in an item's text that makes its meaning depend on the rest of the document. */
const NOT_LOCAL = /[&*!]|<<|^(%|---|\.\.\.)/m;
const ITEM_PREFIX = /^ *- +$/;
/**
 * A block scalar that keeps its trailing blank lines (`|+`, `>2+`): an item is read without the blank
 * lines between it and the next one, so its value would lose them. Rare in a manifest; a whole parse.
 */
const KEEP_CHOMPING = /[|>][1-9]?\+/;

/** Why the shortcut was not taken: thrown inside, caught here, never escapes. */
class WholeParseNeeded extends Error {}

/** The manifest after the edit, or undefined when only a whole parse can say (the caller then does one). */
export function reparseManifest(
  latest: PreviousManifest,
  next: SourceText,
  uri: string,
): ManifestParseResult | undefined {
  const previous = latest.manifest?.syntaxErrors ? latest.lastWellFormed : latest;
  const manifest = previous?.manifest;
  if (!previous || !manifest || manifest.format !== 'yaml' || manifest.syntaxErrors) return undefined;
  const change = changeOf(previous.source.text, next.text);
  if (!change) return { manifest, volumes: previous.volumes, problems: previous.problems };
  // Typing in a comment line changes no value: everything is kept, moved.
  try {
    const kept = commentEdit(previous, manifest, next, change);
    if (kept) return kept;
  } catch (error) {
    if (!(error instanceof WholeParseNeeded)) throw error;
  }
  // The innermost item first: a volume, else its pool, else its account (an edit that moves a
  // line out of its volume, such as a character typed into the indentation, mostly stays inside
  // the pool or the account).
  for (const level of LEVELS) {
    try {
      const read = reparseItem(previous, manifest, next, uri, change, level);
      if (read) return read;
    } catch (error) {
      if (!(error instanceof WholeParseNeeded)) throw error;
    }
  }
  return undefined;
}

const LEVELS: readonly ManifestItemLevel[] = ['volume', 'pool', 'account'];
const LARGE_ITEM_SHARE = 2; // not a fact: a pool or account above half of the text is not read alone

/** Where an item sits in the manifest: its indexes (the deeper ones only for its level) and whether it is its list's last. */
interface FoundItem {
  readonly level: ManifestItemLevel;
  readonly item: ManifestAccount | ManifestPool | ManifestVolume;
  readonly path: ManifestVolume['path'];
  readonly accountIndex: number;
  readonly poolIndex: number;
  readonly volumeIndex: number;
  readonly last: boolean;
}

function reparseItem(
  previous: PreviousManifest,
  manifest: ManifestDocument,
  next: SourceText,
  uri: string,
  rightmost: Change,
  level: ManifestItemLevel,
): ManifestParseResult | undefined {
  const old = previous.source;
  let change = rightmost;
  const found =
    itemAround(manifest, old, change, level) ??
    itemAround(manifest, old, (change = leftmost(old.text, next.text, change)), level);
  if (!found) return undefined;
  const { item, accountIndex, poolIndex, volumeIndex } = found;

  // The item's whole lines, before and after the edit.
  const itemStart = old.lineStart(old.positionAt(item.span.start).line);
  const lastLine = old.positionAt(Math.max(item.span.start, item.span.end - 1)).line;
  // A pool or an account is read with the comment lines that follow it: after a syntax error in
  // its last volume, yaml's node runs on over them, and the item read alone must see them too.
  const oldItemEnd = old.lineEnd(level === 'volume' ? lastLine : lastLineBeforeContent(old, lastLine));
  if (change.oldEnd > oldItemEnd) return undefined;
  const delta = change.newEnd - change.oldEnd;
  const newItemEnd = oldItemEnd + delta;
  const oldItem = old.text.slice(itemStart, oldItemEnd);
  const newItem = next.text.slice(itemStart, newItemEnd);
  if (
    !ITEM_PREFIX.test(old.text.slice(itemStart, item.span.start)) ||
    NOT_LOCAL.test(oldItem) ||
    NOT_LOCAL.test(newItem)
  )
    return undefined;
  if (KEEP_CHOMPING.test(newItem)) return undefined;
  // A line typed out of the item (content left of its dash) belongs to an enclosing item now:
  // reading this one alone could only be refused, after costing a parse or two.
  const dashColumn = old.text.indexOf('-', itemStart) - itemStart;
  if (leavesItem(next, itemStart, change, dashColumn)) return undefined;
  // An account's line typed between its dash and its keys' column (`   x  quota: ...` at column 4)
  // makes yaml start a list item there without its dash: the account splits in two and a third of
  // the text would be parsed only to be refused. (Volumes and pools: their reads are cheap and
  // some of these are taken.)
  if (
    level === 'account' &&
    touchedIndents(next, change).some((indent) => indent > dashColumn && indent < item.span.start - itemStart)
  )
    return undefined;
  // What follows must close the item whatever it now holds: a deeper comment line would become
  // content of a block scalar (`|`) typed on the item's last line.
  const following = nextLineWithContent(old, oldItemEnd);
  if (following && following.indent > dashColumn) return undefined;
  // A pool or an account that is most of the document: reading it alone, and finding that only a
  // whole parse can say (an error that runs to its end), would cost about as much as a whole
  // parse on top of one. (An account of a third of the text is read alone: one parse of it with
  // a sibling after it, parseManifestItem's `after`, about a third of a whole parse.)
  if (level !== 'volume' && oldItem.length * LARGE_ITEM_SHARE > old.text.length) return undefined;

  // A duplicate-key message names a line: if lines moved, those after the edit would be stale.
  const linesMoved = old.lineCount !== next.lineCount;
  const after = (span: Span) => span.start >= oldItemEnd;
  if (linesMoved && previous.problems.some((p) => p.code === PARSE_CODES.duplicateKey && after(p.span)))
    return undefined;

  // The document's last item, nothing but white space after it: read to the end of the text, as
  // the whole document has it, its syntax errors included.
  const atEnd = found.last && !following && next.text.slice(newItemEnd).trim().length === 0;
  // (A problem placed after it, at the end of the text, would be read again: a doubt.)
  if (atEnd && previous.problems.some((p) => p.span.end > oldItemEnd)) return undefined;
  const itemAfter: ItemAfter = !found.last ? 'sibling' : atEnd ? 'end' : 'more';
  const read = parseManifestItem(
    next,
    uri,
    level,
    found.path,
    itemStart,
    atEnd ? next.text.slice(itemStart) : newItem,
    itemAfter,
  );
  if (!read || read.item.span.start !== item.span.start || read.item.span.end > newItemEnd) return undefined;
  // After the list's last item, yaml's node of the enclosing item may run on over the comment
  // lines that follow (after an empty value or a syntax error): where it now ends only a whole
  // parse can say. The same for a comment typed after the last value.
  const trailing = next.text.slice(read.item.span.end, newItemEnd).trim().length > 0;
  if (found.last && !atEnd && (read.syntaxErrors || following?.comment || trailing)) return undefined;

  const shift = new Shift(change, item.span.end, read.item.span.end);
  const sameAs: Lineage['sameAs'] = new Map();
  shift.sameAs = sameAs;
  const problems: ParseProblem[] = [];
  for (const problem of previous.problems) {
    const inside = problem.span.start >= itemStart && problem.span.end <= oldItemEnd;
    if (inside) continue;
    if (problem.span.start < oldItemEnd && problem.span.end > itemStart) return undefined;
    problems.push(shift.problem(problem));
  }
  for (const problem of read.problems) problems.push(problem);
  problems.sort((a, b) => a.span.start - b.span.start);

  const accounts = manifest.accounts.map((account, a) => {
    if (a !== accountIndex) return shift.account(account);
    if (level === 'account') return read.item as ManifestAccount;
    return shift.account(account, (pool, p) => {
      if (p !== poolIndex) return undefined;
      if (level === 'pool') return read.item as ManifestPool;
      return shift.pool(pool, (v, i) => (i === volumeIndex ? (read.item as ManifestVolume) : shift.volume(v)));
    });
  });
  const updated: ManifestDocument = {
    ...manifest,
    syntaxErrors: read.syntaxErrors,
    ...(manifest.region ? { region: shift.located(manifest.region) } : {}),
    accounts,
  };
  recordLineage(updated, { previous: manifest, sameAs });

  // A volume's summary depends on its pool and account only: keep the others, moved; summarize
  // the volumes of the item read again.
  const account = updated.accounts[accountIndex]!;
  const summaries: VolumeSummary[] = [];
  const summarize = (pool: ManifestPool, volume: ManifestVolume) => {
    const summary = summarizeVolume(account, pool, volume, uri);
    if (summary) summaries.push(summary);
  };
  if (level === 'account') for (const pool of account.pools) for (const volume of pool.volumes) summarize(pool, volume);
  else if (level === 'pool')
    for (const volume of account.pools[poolIndex]!.volumes) summarize(account.pools[poolIndex]!, volume);
  else summarize(account.pools[poolIndex]!, read.item as ManifestVolume);
  const volumes: VolumeSummary[] = [];
  for (const other of previous.volumes) {
    if (other.nameSpan.start >= oldItemEnd) break;
    if (other.nameSpan.start < itemStart) volumes.push(other);
  }
  volumes.push(...summaries);
  for (const other of previous.volumes) if (other.nameSpan.start >= oldItemEnd) volumes.push(shift.summary(other));
  return { manifest: updated, volumes, problems };
}

/**
 * An edit inside one comment line that leaves it a comment line: yaml reads the same nodes, so
 * the model, problems and summaries are the previous ones, moved by the edit's length. Only where
 * a line starting with `#` cannot be anything but a comment (see commentsAreComments); undefined
 * otherwise, and the caller goes on to the other shortcuts.
 */
function commentEdit(
  previous: PreviousManifest,
  manifest: ManifestDocument,
  next: SourceText,
  change: Change,
): ManifestParseResult | undefined {
  const old = previous.source;
  const line = old.positionAt(change.start).line;
  const lineStart = old.lineStart(line);
  const oldLineEnd = old.lineEnd(line);
  if (change.oldEnd > oldLineEnd) return undefined;
  const newLineEnd = oldLineEnd + change.newEnd - change.oldEnd;
  const oldLine = old.text.slice(lineStart, oldLineEnd);
  const newLine = next.text.slice(lineStart, newLineEnd);
  if (!oldLine.trimStart().startsWith('#') || !newLine.trimStart().startsWith('#') || /[\r\n]/.test(newLine))
    return undefined;
  if (!commentsAreComments(old.text)) return undefined;
  // A value that spans the line (a block list or mapping) keeps its text in `raw`: read it again.
  const holder = innermostVolume(manifest, change.start);
  if (
    holder &&
    [holder.protocolsNode, holder.coolAccess?.node].some(
      (value) => value && value.span.start < change.start && value.span.end > change.oldEnd,
    )
  )
    return undefined;

  // No item is read again: the Shift's item end is one no span has.
  const shift = new Shift(change, -1, -1);
  const sameAs: Lineage['sameAs'] = new Map();
  shift.sameAs = sameAs;
  const accounts = manifest.accounts.map((account) => shift.account(account));
  const problems = previous.problems.map((problem) => shift.problem(problem));
  const volumes = previous.volumes.map((summary) => shift.summary(summary));
  const updated: ManifestDocument = {
    ...manifest,
    ...(manifest.region ? { region: shift.located(manifest.region) } : {}),
    accounts,
  };
  recordLineage(updated, { previous: manifest, sameAs });
  return { manifest: updated, volumes, problems };
}

/** The volume whose span holds `offset`, if any. */
function innermostVolume(manifest: ManifestDocument, offset: number): ManifestVolume | undefined {
  for (const account of manifest.accounts) {
    if (account.span.end < offset || account.span.start > offset) continue;
    for (const pool of account.pools) {
      if (pool.span.end < offset || pool.span.start > offset) continue;
      for (const volume of pool.volumes) if (volume.span.start <= offset && volume.span.end >= offset) return volume;
    }
  }
  return undefined;
}

/**
 * Whether every line of the text that starts with `#` is a comment to yaml. It is not inside a
 * block scalar (`|`, `>`) or a quoted scalar that runs over several lines, and a flow list or
 * mapping over several lines holds its comments in its value's text: a text with any of these
 * is refused. Deliberately crude: a quote or bracket it cannot pair up on its line (`don't`
 * in a plain value) refuses too, and a refusal only costs the usual reading.
 */
function commentsAreComments(text: string): boolean {
  let quote = '';
  let depth = 0;
  let content = false;
  let last = '';
  for (let i = 0; i <= text.length; i++) {
    const ch = i < text.length ? text.charAt(i) : '\n';
    if (ch === '\n' || ch === '\r') {
      // The end of a line: nothing may stay open, and no block scalar may start here.
      if (
        quote ||
        depth > 0 ||
        (content &&
          (last === '|' || last === '>' || (BLOCK_HEADER_END.test(last) && BLOCK_HEADER.test(lineBefore(text, i)))))
      )
        return false;
      content = false;
      last = '';
      continue;
    }
    if (quote) {
      if (quote === '"' && ch === '\\') i++;
      else if (ch === quote) quote = '';
      continue;
    }
    if (ch === ' ' || ch === '\t') continue;
    const prev = i > 0 ? text.charAt(i - 1) : '\n';
    if (ch === '#' && (prev === ' ' || prev === '\t' || prev === '\n' || prev === '\r')) {
      // The rest of the line is a comment (a loop: indexOf('\r') would run to the end of a text without one).
      while (i + 1 < text.length && text.charAt(i + 1) !== '\n' && text.charAt(i + 1) !== '\r') i++;
      continue;
    }
    content = true;
    last = ch;
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '[' || ch === '{') depth++;
    else if ((ch === ']' || ch === '}') && depth > 0) depth--;
  }
  return true;
}

/** A block scalar's header at the end of a line's content: `|`, `>-`, `|2+` and the like. */
const BLOCK_HEADER = /[|>][-+0-9]*$/;
const BLOCK_HEADER_END = /[-+0-9]/;

/** The line's content up to `end`, its comment and trailing blanks left out (as commentsAreComments saw it). */
function lineBefore(text: string, end: number): string {
  // A loop: lastIndexOf('\r') would run back to the start of a text without one.
  let start = end;
  while (start > 0 && text.charAt(start - 1) !== '\n' && text.charAt(start - 1) !== '\r') start--;
  const line = text.slice(start, end);
  const comment = line.search(/(^|[ \t])#/);
  return (comment >= 0 ? line.slice(0, comment) : line).trimEnd();
}

/**
 * Whether a line the change touched now has content (not a comment) at or left of the item's
 * dash (left of it on the item's first line): yaml then closes the item before that line. Only
 * saves work: the read would be refused anyway, and a whole parse is always right.
 */
function leavesItem(next: SourceText, itemStart: number, change: Change, dashColumn: number): boolean {
  const firstLine = next.positionAt(itemStart).line;
  const last = next.positionAt(change.newEnd).line;
  for (let line = next.positionAt(change.start).line; line <= last; line++) {
    const text = next.text.slice(next.lineStart(line), next.lineEnd(line));
    const content = text.trimStart();
    if (content.length === 0 || content.startsWith('#')) continue;
    const indent = text.length - content.length;
    if (line === firstLine ? indent < dashColumn : indent <= dashColumn) return true;
  }
  return false;
}

/** The indentation of each line the change touched that has content other than a comment. */
function touchedIndents(next: SourceText, change: Change): number[] {
  const indents: number[] = [];
  const last = next.positionAt(change.newEnd).line;
  for (let line = next.positionAt(change.start).line; line <= last; line++) {
    const text = next.text.slice(next.lineStart(line), next.lineEnd(line));
    const content = text.trimStart();
    if (content.length > 0 && !content.startsWith('#')) indents.push(text.length - content.length);
  }
  return indents;
}

/** The last line from `line` on that is followed by a line with content other than a comment (or the end). */
function lastLineBeforeContent(source: SourceText, line: number): number {
  let last = line;
  for (let next = line + 1; next < source.lineCount; next++) {
    const content = source.text.slice(source.lineStart(next), source.lineEnd(next)).trim();
    if (content.length > 0 && !content.startsWith('#')) break;
    last = next;
  }
  return last;
}

/** The first line after the one holding `offset` with anything on it: its indentation and whether it is a comment. */
function nextLineWithContent(source: SourceText, offset: number): { indent: number; comment: boolean } | undefined {
  for (let line = source.positionAt(offset).line + 1; line < source.lineCount; line++) {
    const text = source.text.slice(source.lineStart(line), source.lineEnd(line));
    const content = text.trimStart();
    if (content.length > 0) return { indent: text.length - content.length, comment: content.startsWith('#') };
  }
  return undefined;
}

/** The common prefix and suffix of two texts; undefined when they are equal. */
function changeOf(before: string, after: string): Change | undefined {
  return before === after ? undefined : changedRegion(before, after);
}

/**
 * The same change placed as far left as it goes. Typing a line break and a key at the end of a
 * volume's last line matches the next line's break and indentation, so the common prefix puts the
 * change inside the next line; slid left, it is inside the volume, where the typing happened.
 */
function leftmost(before: string, after: string, change: Change): Change {
  let { start, oldEnd, newEnd } = change;
  while (
    start > 0 &&
    (oldEnd === start || before.charCodeAt(start - 1) === before.charCodeAt(oldEnd - 1)) &&
    (newEnd === start || after.charCodeAt(start - 1) === after.charCodeAt(newEnd - 1))
  ) {
    start--;
    oldEnd--;
    newEnd--;
  }
  return { start, oldEnd, newEnd };
}

/** The item of `level` whose lines the edit falls in: from the start of its content to the end of its last line. */
function itemAround(
  manifest: ManifestDocument,
  old: SourceText,
  change: Change,
  level: ManifestItemLevel,
): FoundItem | undefined {
  const lastLineEnd = (span: Span) => old.lineEnd(old.positionAt(Math.max(span.start, span.end - 1)).line);
  for (const [accountIndex, account] of manifest.accounts.entries()) {
    if (account.span.end < change.start) continue;
    if (level === 'account') {
      if (account.span.start > change.start || change.oldEnd > lastLineEnd(account.span)) return undefined;
      return {
        level,
        item: account,
        path: account.path,
        accountIndex,
        poolIndex: -1,
        volumeIndex: -1,
        last: accountIndex === manifest.accounts.length - 1,
      };
    }
    for (const [poolIndex, pool] of account.pools.entries()) {
      if (level === 'pool') {
        if (pool.span.start > change.start) return undefined;
        if (change.oldEnd <= lastLineEnd(pool.span))
          return {
            level,
            item: pool,
            path: pool.path,
            accountIndex,
            poolIndex,
            volumeIndex: -1,
            last: poolIndex === account.pools.length - 1,
          };
        continue;
      }
      for (const [volumeIndex, volume] of pool.volumes.entries()) {
        if (volume.span.start > change.start) return undefined;
        if (change.oldEnd <= lastLineEnd(volume.span))
          return {
            level,
            item: volume,
            path: volume.path,
            accountIndex,
            poolIndex,
            volumeIndex,
            last: volumeIndex === pool.volumes.length - 1,
          };
      }
    }
  }
  return undefined;
}

/**
 * Moves the spans of everything outside the edited item. Before the edit nothing moves; after it
 * everything moves by the edit's length; an enclosing pool or account that ended where the item
 * ended now ends where the new item ends. A span with an end inside the edit is a doubt.
 */
class Shift {
  private readonly delta: number;
  /** Where each moved copy came from (lineage.ts). */
  sameAs: Lineage['sameAs'] | undefined;

  constructor(
    private readonly change: Change,
    private readonly oldVolumeEnd: number,
    private readonly newVolumeEnd: number,
  ) {
    this.delta = change.newEnd - change.oldEnd;
  }

  private offset(x: number): number {
    if (x < this.change.start) return x;
    if (x > this.change.oldEnd) return x + this.delta;
    throw new WholeParseNeeded();
  }

  span(span: Span): Span {
    if (span.end === this.oldVolumeEnd) return { start: this.offset(span.start), end: this.newVolumeEnd };
    if (span.end < this.change.start) return span;
    return { start: this.offset(span.start), end: this.offset(span.end) };
  }

  located<T>(value: Located<T>): Located<T> {
    if (value.span.end < this.change.start && value.keySpan.end < this.change.start) return value;
    // Written out rather than spread: one object shape, several times faster on large manifests.
    const span = this.span(value.span);
    const keySpan = this.span(value.keySpan);
    return value.editSpan
      ? { value: value.value, span, keySpan, raw: value.raw, editSpan: this.span(value.editSpan) }
      : { value: value.value, span, keySpan, raw: value.raw };
  }

  /** A copy with its spans and the located values under `keys` moved (absent ones stay absent). */
  private moved<T extends { readonly span: Span; readonly headSpan?: Span }>(value: T, keys: readonly (keyof T)[]): T {
    const copy: Record<string, unknown> = { ...value, span: this.span(value.span) };
    if (value.headSpan) copy['headSpan'] = this.span(value.headSpan);
    for (const key of keys) {
      const located = value[key] as Located<unknown> | undefined;
      if (located) copy[key as string] = this.located(located);
    }
    return copy as T;
  }

  problem(problem: ParseProblem): ParseProblem {
    if (problem.span.end < this.change.start && !problem.related && !problem.fixes) return problem;
    return {
      ...problem,
      span: this.span(problem.span),
      ...(problem.related ? { related: problem.related.map((r) => ({ ...r, span: this.span(r.span) })) } : {}),
      ...(problem.fixes
        ? {
            fixes: problem.fixes.map((f) => ({ ...f, edits: f.edits.map((e) => ({ ...e, span: this.span(e.span) })) })),
          }
        : {}),
    };
  }

  summary(summary: VolumeSummary): VolumeSummary {
    return summary.nameSpan.end < this.change.start ? summary : { ...summary, nameSpan: this.span(summary.nameSpan) };
  }

  account(
    account: ManifestAccount,
    pools?: (pool: ManifestPool, index: number) => ManifestPool | undefined,
  ): ManifestAccount {
    if (!pools && account.span.end < this.change.start) return account;
    const moved = this.moved(account, ACCOUNT_VALUES) as Mutable<ManifestAccount>;
    this.sameAs?.set(moved, account);
    moved.pools = account.pools.map((pool, index) => pools?.(pool, index) ?? this.pool(pool));
    if (account.poolsKeySpan) moved.poolsKeySpan = this.span(account.poolsKeySpan);
    return moved;
  }

  pool(pool: ManifestPool, volumes?: (volume: ManifestVolume, index: number) => ManifestVolume): ManifestPool {
    if (!volumes && pool.span.end < this.change.start) return pool;
    const moved = this.moved(pool, POOL_VALUES) as Mutable<ManifestPool>;
    this.sameAs?.set(moved, pool);
    recordMoved(moved, pool);
    moved.volumes = pool.volumes.map((volume, index) => (volumes ? volumes(volume, index) : this.volume(volume)));
    if (pool.volumesKeySpan) moved.volumesKeySpan = this.span(pool.volumesKeySpan);
    return moved;
  }

  volume(volume: ManifestVolume): ManifestVolume {
    if (volume.span.end < this.change.start) return volume;
    const moved = this.moved(volume, VOLUME_VALUES) as Mutable<ManifestVolume>;
    this.sameAs?.set(moved, volume);
    recordMoved(moved, volume);
    moved.protocols = volume.protocols.map((p) => this.located(p));
    if (volume.coolAccess) moved.coolAccess = this.coolAccess(volume.coolAccess);
    if (volume.requirements) moved.requirements = this.moved(volume.requirements, REQUIREMENT_VALUES);
    return moved;
  }

  private coolAccess(cool: ManifestCoolAccess): ManifestCoolAccess {
    const moved: Mutable<ManifestCoolAccess> = { ...cool, node: this.located(cool.node) };
    if (cool.enabledValue) moved.enabledValue = this.located(cool.enabledValue);
    return moved;
  }
}

// The located values of each level of the model (the rest is moved above, field by field).
const ACCOUNT_VALUES = ['name'] as const satisfies readonly (keyof ManifestAccount)[];
const POOL_VALUES = [
  'name',
  'serviceLevel',
  'size',
  'qos',
  'throughput',
  'coolAccess',
  'networkFeatures',
] as const satisfies readonly (keyof ManifestPool)[];
const VOLUME_VALUES = [
  'name',
  'quota',
  'largeVolume',
  'breakthroughMode',
  'protocolsNode',
  'security',
  'throughput',
  'workload',
  'exportPath',
  'mountTarget',
  'mountPath',
  'networkFeatures',
] as const satisfies readonly (keyof ManifestVolume)[];
const REQUIREMENT_VALUES = [
  'capacity',
  'throughput',
  'iops',
  'blockSize',
  'latency',
  'clients',
  'readPercent',
] as const satisfies readonly (keyof ManifestRequirements)[];
