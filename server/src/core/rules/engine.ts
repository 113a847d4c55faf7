/**
 * The rule engine's re-use of findings after an edit (docs/incremental.md): for the rules that
 * judge items one by one (rules/rule.ts: the checkMount and checkSetting shapes), a document's
 * `LintMemo` keeps each item's findings; after an edit read line by line only the re-read items are
 * judged again, and kept findings are placed again only when they moved. lint.ts asks it through
 * the functions exported here and knows no file format.
 */
import { effectiveSeverity, type ResolvedConfig } from '../config';
import { plainFinding, type Diagnostic, type Finding, type ResolvedFix, type Severity } from '../diagnostics';
import { fitEdit } from '../edits';
import { withValueOrigin } from '../iac/hover';
import type { JudgedMount } from '../mounts/judged';
import type { Position, SourceText, Span } from '../text/sourceText';
import { LINE_REUSE_KINDS, MOUNT_LINE_KINDS } from '../workspace/lineReuse';
import type { LineItem, ParsedFile } from '../workspace/parsedFile';
import { shellItems, shellReportOrder } from '../workspace/shellReuse';
import type { WorkspaceView } from '../workspace/workspaceView';
import { checkItemAlone, judgedMountOf } from './items';
import type { KeyedContext, Rule, RuleContext } from './shapes';

/**
 * One document's per-item findings of item rules (checkMount, checkSetting), from its last lint, to reuse after an edit.
 * Valid for the mount list it was made for, under the same configuration, rules and workspace volumes.
 */
export class LintMemo {
  /** The item list (mounts, settings) of the version last linted (a newer version read from it names it in `lineEdit`). */
  items: readonly LineItem[] | undefined;
  config: ResolvedConfig | undefined;
  rules: readonly Rule[] | undefined;
  volumes: readonly unknown[] | undefined;
  /**
   * By item index: where the item started when its findings were made (they move with it), undefined
   * when it has none, JUDGE for a re-read item not judged yet.
   */
  anchors: (number | undefined)[] = [];
  /**
   * By rule index, then item index: the item's findings of that rule (undefined for a rule with none
   * in the file). One array per rule, not one record per item: a reused rule's kept findings are
   * walked in item order, and a rule with a few findings spread over a large file walks a dense
   * array instead of every item's record (bench/notes.md, session 7).
   */
  found: ((Finding[] | undefined)[] | undefined)[] = [];
  /** By rule index: how many findings the memo holds, by severity (for counting what a report leaves out). */
  tallies: (Record<Severity, number> | undefined)[] = [];
  /** Rules whose findings could not be told apart by mount in this file: run whole every time. */
  whole = new Set<Rule>();
  /** By rule index: the `reads` fingerprint the rule's kept findings were made under. */
  contexts: (string | KeyedContext | undefined)[] = [];
  /** How many lints reused the memo, and how many mounts they judged again (for tests and measurements). */
  reused = 0;
  rejudged = 0;
  /** How many times a rule with a context ran whole because it changed, and how many mounts were judged again for changed keys instead. */
  contextWhole = 0;
  contextRejudged = 0;
  /**
   * Kept findings' diagnostics as the last lint placed them, to hand out again while nothing they
   * rest on moved (`keptDiagnostic`): one object per finding instead of a new one per lint.
   */
  placed = new WeakMap<Finding, Placed>();
  /** Lints that ran to their end (a placed diagnostic is reused only from the one before). */
  epoch = 0;
  /** The text before this offset is the same as at the last lint's end (follow lowers it; `Infinity`: nothing changed). */
  stable = Infinity;
  /** How many kept findings' diagnostics were reused, and how many placed (for tests and measurements). */
  placedReused = 0;
  placedNew = 0;

  reset(): void {
    this.items = undefined;
    this.anchors = [];
    this.found = [];
    this.tallies = [];
    this.whole = new Set();
    this.contexts = [];
  }

  /** Drops one rule's kept findings (its context changed): it runs whole and is recorded again. */
  forget(ruleIndex: number): void {
    this.found[ruleIndex] = undefined;
    this.tallies[ruleIndex] = undefined;
  }

  /**
   * A newer version of the document was read. Read line by line from the version the memo follows,
   * the memo follows it too: the re-read mounts are marked to judge at the next lint, the others keep
   * their findings. Versions read between two lints (typing faster than the lints) chain this way.
   */
  follow(file: ParsedFile): void {
    if (this.items === undefined || this.items === itemsOf(file)) return;
    const edit = file.lineEdit;
    if (!edit || edit.previousItems !== this.items) {
      this.reset();
      return;
    }
    const from = edit.itemsFrom;
    const removed = edit.removed.length;
    const added = edit.itemsTo - from;
    for (let i = from; i < from + removed; i++) this.tally(i, -1);
    // Most edits re-read as many items as they replace: the arrays are updated in place.
    for (const byItem of this.found) if (byItem) replaceRun(byItem, from, removed, added, undefined);
    replaceRun(this.anchors, from, removed, added, JUDGE);
    this.items = itemsOf(file);
    // Before the re-read text, both versions are the same text.
    this.stable = Math.min(this.stable, edit.changed.start);
  }

  /** Adds (`sign` 1) or takes away (-1) item `index`'s findings from the tallies. */
  tally(index: number, sign: 1 | -1): void {
    if (!this.config || !this.rules) return;
    for (let ruleIndex = 0; ruleIndex < this.found.length; ruleIndex++) {
      const found = this.found[ruleIndex]?.[index];
      if (found) this.count(ruleIndex, found, sign);
    }
  }

  /** Adds (`sign` 1) or takes away (-1) one rule's findings from its tally. */
  count(ruleIndex: number, findings: readonly Finding[], sign: 1 | -1): void {
    const rule = this.rules![ruleIndex]!;
    const tally = (this.tallies[ruleIndex] ??= { error: 0, warning: 0, info: 0, hint: 0 });
    for (const finding of findings) {
      const severity = effectiveSeverity(this.config!, rule.code, rule.defaultSeverity, finding.severity);
      if (severity) tally[severity] += sign;
    }
  }

  /** Files findings of rule `ruleIndex` under item `index` (`mount`, of `items` in `source`), in place of what it had. */
  file(
    ruleIndex: number,
    index: number,
    mount: LineItem,
    findings: readonly Finding[] | undefined,
    items: readonly LineItem[],
    source: SourceText,
  ): void {
    const byItem = this.found[ruleIndex];
    const old = byItem?.[index];
    if (old) this.count(ruleIndex, old, -1);
    if (!findings || findings.length === 0) {
      if (byItem) byItem[index] = undefined;
      return;
    }
    let anchor = this.anchors[index];
    if (anchor === undefined || anchor === JUDGE) anchor = this.anchors[index] = mount.span.start;
    // Filed as of the item's anchor (where it started when its other findings were made).
    const delta = anchor - mount.span.start;
    const filed = findings.map((finding) => detached(finding, delta, mount.uri, extentOf(mount), items, source));
    (this.found[ruleIndex] ??= filled(items.length))[index] = filed;
    this.count(ruleIndex, filed, 1);
  }
}

/** The anchor of a re-read item not judged yet (offsets are never negative). */
const JUDGE = -1;

/** An array of `length` undefined elements (packed, whatever the length). */
function filled<T>(length: number): (T | undefined)[] {
  const array: (T | undefined)[] = [];
  for (let i = 0; i < length; i++) array.push(undefined);
  return array;
}

/** Replaces `removed` elements at `from` with `added` copies of `value`. */
function replaceRun<T>(array: T[], from: number, removed: number, added: number, value: T): void {
  if (removed === added) {
    for (let i = from; i < from + added; i++) array[i] = value;
    return;
  }
  const run: T[] = [];
  for (let i = 0; i < added; i++) run.push(value);
  array.splice(from, removed, ...run);
}
//KEPT
/**
 * `place` for a finding the memo kept (`detached`: its spans are its own and never move) made
 * `delta` characters earlier: the same Diagnostic as `place(moved(finding, delta))` was, without
 * the moved finding in between, without copying spans no reader moves, and with shared empty lists.
 * Resolving the fixes only when first read (a getter) was measured slower: V8 defines an object
 * literal's accessor at run time, which cost more than the ranges it saved (bench/notes.md).
 */
function placeKept(
  workspace: WorkspaceView,
  file: ParsedFile,
  code: string,
  severity: Severity,
  finding: Finding,
  delta: number,
  extent?: { reach: number; here: boolean },
): Diagnostic {
  const uri = file.uri;
  const source = file.source;
  const shifts = delta !== 0 || ON_OTHER_MOUNT_FINDINGS.has(finding);
  const placed = (span: Span, here: boolean): Span => {
    if (!here || !shifts) return span;
    if (ON_MOUNT.has(span)) return delta === 0 ? span : { start: span.start + delta, end: span.end + delta };
    const at = ON_OTHER_MOUNT.get(span);
    const by = at ? source.offsetAt(at) - span.start : 0;
    return by === 0 ? span : { start: span.start + by, end: span.end + by };
  };
  // With `extent`: how far into this file the placed spans reach, and whether all lie in it.
  const shift = (span: Span, here: boolean): Span => {
    const moved = placed(span, here);
    if (extent) {
      if (!here) extent.here = false;
      else if (moved.end > extent.reach) extent.reach = moved.end;
    }
    return moved;
  };
  const sourceOf = (other: string) => (other === uri ? source : (workspace.file(other)?.source ?? source));
  const span = shift(finding.span, true);
  const related = finding.related
    ? finding.related.map((r) => ({
        uri: r.uri,
        message: r.message,
        range: sourceOf(r.uri).rangeOf(shift(r.span, r.uri === uri)),
      }))
    : NO_RELATED;
  const findingFixes = finding.fixes;
  const fixes: readonly ResolvedFix[] =
    !findingFixes || findingFixes.length === 0
      ? NO_FIXES
      : findingFixes.map((fix) => ({
          title: fix.title,
          edits: fix.edits.map((edit) => {
            const editUri = edit.uri ?? uri;
            const editSource = sourceOf(editUri);
            const fitted = fitEdit(editSource.text, { span: shift(edit.span, editUri === uri), newText: edit.newText });
            return { uri: editUri, span: fitted.span, newText: fitted.newText, range: editSource.rangeOf(fitted.span) };
          }),
          applicability: fix.applicability,
        }));
  // The memo's spans never move in place (`detached`), so the diagnostic may hold them as they are.
  // Fields in `place`'s order: one object shape for every diagnostic, and the same JSON.
  return {
    uri,
    code,
    severity,
    message: finding.message,
    span,
    range: source.rangeOf(span),
    fixes,
    related,
    tags: finding.tags ?? NO_TAGS,
  };
}

/** A kept finding's diagnostic as a lint placed it (LintMemo.placed). */
interface Placed {
  /** The lint that placed it or handed it out last (LintMemo.epoch). */
  epoch: number;
  readonly delta: number;
  readonly severity: Severity;
  /** The end of its furthest span (fixes and notes included), all in its own file. */
  readonly reach: number;
  readonly diagnostic: Diagnostic;
}

/**
 * A kept finding's diagnostic: the one the last lint placed when it lies wholly before the text
 * changed since (its ranges are the same) and has not moved, else placed again (`placeKept`).
 * Most kept findings a report lists lie above a random edit (each rule lists its first ones):
 * their diagnostics are no longer made again on every keystroke. (A WeakMap from these objects to
 * the language server's LSP copies was tried: at 200 lines its entries cost the garbage collector
 * more than the copies it saved; bench/notes.md, session 7.)
 */
function keptDiagnostic(
  memo: LintMemo,
  workspace: WorkspaceView,
  file: ParsedFile,
  code: string,
  severity: Severity,
  finding: Finding,
  delta: number,
): Diagnostic {
  const cached = memo.placed.get(finding);
  if (
    cached &&
    cached.epoch === memo.epoch - 1 &&
    cached.reach < memo.stable &&
    cached.delta === delta &&
    cached.severity === severity &&
    cached.diagnostic.uri === file.uri
  ) {
    cached.epoch = memo.epoch;
    memo.placedReused++;
    return cached.diagnostic;
  }
  const extent = { reach: 0, here: true };
  const diagnostic = placeKept(workspace, file, code, severity, finding, delta, extent);
  memo.placedNew++;
  if (extent.here) memo.placed.set(finding, { epoch: memo.epoch, delta, severity, reach: extent.reach, diagnostic });
  return diagnostic;
}

const NO_FIXES: readonly ResolvedFix[] = [];
const NO_RELATED: readonly Diagnostic['related'][number][] = [];
const NO_TAGS: Diagnostic['tags'] = [];
//TAIL
const copy = (span: Span): Span => ({ start: span.start, end: span.end });

/** The spans of kept findings (`detached` copies) that lie on the finding's own mount: they move with it (`moved`). */
const ON_MOUNT = new WeakSet<Span>();

/**
 * Spans of kept findings that lie on another mount of the same file (a note on the first mount to
 * a server), with their line and column when copied: they stay at that line and column. The rule's
 * `reads` fingerprint holds that line and column (ANF217), so while it is the same the
 * span is there, whichever object the mount now is (a re-read line is a new one).
 */
const ON_OTHER_MOUNT = new WeakMap<Span, Position>();
/** Kept findings with a span in ON_OTHER_MOUNT. */
const ON_OTHER_MOUNT_FINDINGS = new WeakSet<Finding>();

/**
 * A finding with its own copy of every span: a reader moves kept mounts' spans in place
 * (workspace/lineReuse.ts). With `on` (its mount's span), spans on that mount in file `uri` move by
 * `delta` (to file it under the mount's older anchor). With `items` (the file's mounts, in order)
 * and `source` (the file's text now), a span on another of them keeps its line and column (ON_OTHER_MOUNT).
 */
function detached(
  finding: Finding,
  delta = 0,
  uri = '',
  on?: Span,
  items?: readonly LineItem[],
  source?: SourceText,
): Finding {
  let onOther = false;
  const span = (s: Span, here: boolean): Span => {
    if (!(here && on && s.start >= on.start && s.end <= on.end)) {
      const copied = copy(s);
      if (here && items && source && (itemAt(items, s) || inRemoteOptions(items, s))) {
        ON_OTHER_MOUNT.set(copied, source.positionAt(s.start));
        onOther = true;
      }
      return copied;
    }
    const own = { start: s.start + delta, end: s.end + delta };
    ON_MOUNT.add(own);
    return own;
  };
  const result: Finding = {
    ...plainFinding(finding),
    span: span(finding.span, true),
    ...(finding.fixes
      ? {
          fixes: finding.fixes.map((fix) => ({
            ...fix,
            edits: fix.edits.map((e) => ({ ...e, span: span(e.span, e.uri === undefined || e.uri === uri) })),
          })),
        }
      : {}),
    ...(finding.related ? { related: finding.related.map((r) => ({ ...r, span: span(r.span, r.uri === uri) })) } : {}),
  };
  if (onOther) ON_OTHER_MOUNT_FINDINGS.add(result);
  return result;
}

/** The item of `items` (in file order) whose span holds `span`, if any. */
function itemAt(items: readonly LineItem[], span: Span): LineItem | undefined {
  let low = 0;
  let high = items.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const item = items[middle]!;
    if (item.span.end < span.start) low = middle + 1;
    else if (item.span.start > span.start) high = middle - 1;
    else return span.end <= item.span.end ? item : undefined;
  }
  return undefined;
}

/** By item list: the option lists of a script's mounts that lie off their own command (`OPTS=...` then `mount -o "$OPTS"`). */
const REMOTE_OPTIONS = new WeakMap<readonly LineItem[], readonly Span[]>();

/**
 * Whether `span` lies in the option list a mount of `items` reads from off its own text (a
 * variable's assignment, extentOf): a note there (ANF217's on the first mount's `nconnect`) is on
 * that mount as much as one on its line, and keeps its line and column as those do.
 */
function inRemoteOptions(items: readonly LineItem[], span: Span): boolean {
  let lists = REMOTE_OPTIONS.get(items);
  if (!lists) {
    const found: Span[] = [];
    for (const item of items) {
      if ('key' in item || item.origin !== 'mount-command' || !item.optionsSpan) continue;
      const options = item.optionsSpan;
      if (options.start < item.span.start || options.end > item.span.end) found.push(options);
    }
    REMOTE_OPTIONS.set(items, (lists = found));
  }
  for (const options of lists) if (span.start >= options.start && span.end <= options.end) return true;
  return false;
}

function sameContext(a: string | KeyedContext | undefined, b: string | KeyedContext): boolean {
  if (typeof a === 'string' || typeof b === 'string' || a === undefined) return a === b;
  if (a.shared !== b.shared || a.byKey.size !== b.byKey.size) return false;
  for (const [key, print] of b.byKey) if (a.byKey.get(key) !== print) return false;
  return true;
}

/**
 * The keys whose parts of a keyed context differ (a key in one of them only counts as changed), or
 * undefined when the rule must run whole: an unkeyed fingerprint, or a changed shared part.
 */
function changedKeys(
  rule: Rule,
  before: string | KeyedContext | undefined,
  now: string | KeyedContext,
): Set<string> | undefined {
  if (
    !rule.reads?.keyOf ||
    before === undefined ||
    typeof before === 'string' ||
    typeof now === 'string' ||
    before.shared !== now.shared
  )
    return undefined;
  const keys = new Set<string>();
  for (const [key, print] of now.byKey) if (before.byKey.get(key) !== print) keys.add(key);
  for (const key of before.byKey.keys()) if (!now.byKey.has(key)) keys.add(key);
  return keys;
}

/**
 * A keyed context changed for `keys` only: judges the mounts with those keys again with this rule
 * alone (as `judgeEditedItems` judges re-read mounts) and files their findings in place of the kept
 * ones. False when that cannot be done (the rule threw, or reported off the mount): it then runs whole.
 */
function rejudgeKeys(
  memo: LintMemo,
  workspace: WorkspaceView,
  file: ParsedFile,
  config: ResolvedConfig,
  rule: Rule,
  ruleIndex: number,
  keys: ReadonlySet<string>,
): boolean {
  if (keys.size === 0) return true;
  const items = itemsOf(file);
  const keyOf = rule.reads!.keyOf!;
  const judged: { index: number; found: Finding[] }[] = [];
  let read: unknown;
  let readDone = false;
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    if ('key' in item) continue; // a kernel setting of a script: no mount rule judges it
    const key = keyOf(item);
    if (key === undefined || !keys.has(key)) continue;
    const found: Finding[] = [];
    let off = false;
    const context: RuleContext = {
      file,
      workspace,
      config,
      report(finding) {
        if (!onMount(finding, item)) off = true;
        found.push(finding);
      },
    };
    try {
      if (!readDone) {
        read = rule.reads!.of(context);
        readDone = true;
      }
      checkItemAlone(rule, item, () => judgedMountOf(item), context, read);
    } catch {
      return false;
    }
    if (off) return false;
    judged.push({ index, found });
  }
  memo.tallies[ruleIndex] ??= { error: 0, warning: 0, info: 0, hint: 0 };
  for (const { index, found } of judged) memo.file(ruleIndex, index, items[index]!, found, items, file.source);
  memo.contextRejudged += judged.length;
  return true;
}

/** A rule's `reads` fingerprint; a rule whose fingerprint fails runs whole from then on (its check reports the fault). */
function contextOf(memo: LintMemo, rule: Rule, context: RuleContext): string | KeyedContext | undefined {
  try {
    return rule.reads!.fingerprint(context);
  } catch {
    memo.whole.add(rule);
    return undefined;
  }
}

/**
 * Whether a finding lies on a mount's own text (where a mount rule's findings must lie). A
 * setting's finding must lie on the setting wholly, its fixes and notes in this file too: nothing
 * else moves with it (setting rules declare no `reads`).
 */
function onMount(finding: Finding, mount: LineItem): boolean {
  const extent = extentOf(mount);
  if (!(finding.span.start >= extent.start && finding.span.start <= extent.end)) return false;
  if (!('key' in mount)) return true;
  const on = (span: Span) => span.start >= mount.span.start && span.end <= mount.span.end;
  if (!on(finding.span)) return false;
  for (const fix of finding.fixes ?? [])
    for (const edit of fix.edits)
      if ((edit.uri === undefined || edit.uri === mount.uri) && !on(edit.span)) return false;
  for (const note of finding.related ?? []) if (note.uri === mount.uri && !on(note.span)) return false;
  return true;
}

/**
 * The text an item's findings lie on: its span, and for a `mount -o "$OPTS"` in a shell script the
 * assignment its options come from (workspace/shellReuse.ts re-reads both whenever an edit falls
 * between them, so they move together).
 */
function extentOf(item: LineItem): Span {
  if ('key' in item || item.origin !== 'mount-command' || !item.optionsSpan) return item.span;
  const options = item.optionsSpan;
  if (options.start >= item.span.start && options.end <= item.span.end) return item.span;
  return { start: Math.min(options.start, item.span.start), end: Math.max(options.end, item.span.end) };
}

/**
 * Files the findings of a whole run of an item rule under the mount they lie on, to keep after
 * the next edit. Mounts are in line order (fstab); a finding off every mount, or before the previous
 * one, means the rule's findings cannot be told apart by mount in this file: it is then run whole.
 */
class Recorder {
  private next = 0;
  private offItem = false;
  private readonly found: { index: number; finding: Finding }[] = [];

  constructor(
    private readonly memo: LintMemo,
    private readonly rule: Rule,
    private readonly ruleIndex: number,
    private readonly mounts: readonly LineItem[],
    private readonly source: SourceText,
  ) {}

  add(finding: Finding): void {
    if (this.offItem) return;
    const mounts = this.mounts;
    let i = this.next;
    while (i < mounts.length && mounts[i]!.span.end < finding.span.start) i++;
    const mount = mounts[i];
    if (
      !mount ||
      !onMount(finding, mount) ||
      (i + 1 < mounts.length && mounts[i + 1]!.span.start <= finding.span.start)
    ) {
      this.offItem = true;
      return;
    }
    this.next = i;
    this.found.push({ index: i, finding });
  }

  /** The rule threw: it runs whole from now on. */
  failed(): void {
    this.memo.whole.add(this.rule);
  }

  /** After the rule ran to its end. */
  commit(): void {
    if (this.offItem) {
      this.memo.whole.add(this.rule);
      return;
    }
    // The rule ran whole: the memo holds what it found now (and other rules' findings).
    this.memo.forget(this.ruleIndex);
    this.memo.tallies[this.ruleIndex] = { error: 0, warning: 0, info: 0, hint: 0 };
    const found = this.found;
    for (let start = 0; start < found.length; ) {
      const index = found[start]!.index;
      let end = start + 1;
      while (end < found.length && found[end]!.index === index) end++;
      this.memo.file(
        this.ruleIndex,
        index,
        this.mounts[index]!,
        found.slice(start, end).map((f) => f.finding),
        this.mounts,
        this.source,
      );
      start = end;
    }
  }
}

interface Reuse {
  /** A rule threw on an edited mount alone. */
  readonly failed: boolean;
  /** For each rule index: its findings come from the memo (the rule is not run whole). */
  readonly byRule: readonly boolean[];
}

/** More re-read mounts than this: a whole lint is as quick. */
const MAX_REJUDGED = 1000; // beyond it, judging mount by mount costs more than a whole run

/**
 * After an edit read incrementally from the version the memo was made for: judges the re-read
 * items alone with each item rule (the others' findings are kept) and updates the memo.
 * Undefined when the memo cannot be used (another version, configuration, rule set or volumes); the
 * memo is then emptied, for the whole run to fill.
 */
function judgeEditedItems(
  memo: LintMemo,
  workspace: WorkspaceView,
  file: ParsedFile,
  config: ResolvedConfig,
  rules: readonly Rule[],
): Reuse | undefined {
  memo.follow(file);
  const volumes = workspace.volumes();
  const items = itemsOf(file);
  const judged: { index: number; mount: LineItem; judged?: JudgedMount }[] = [];
  if (memo.items === items) {
    const anchors = memo.anchors;
    for (let i = 0; i < anchors.length && judged.length <= MAX_REJUDGED; i++) {
      if (anchors[i] === JUDGE) judged.push({ index: i, mount: items[i]! });
    }
  }
  const usable =
    memo.items === items &&
    judged.length <= MAX_REJUDGED &&
    memo.config === config &&
    memo.rules === rules &&
    memo.volumes === volumes;
  if (!usable) {
    memo.reset();
    memo.config = config;
    memo.rules = rules;
    memo.volumes = volumes;
    memo.anchors = filled(items.length);
    return undefined;
  }
  const byRule: boolean[] = [];
  // By judged item, then rule index: its findings.
  const fresh: (Finding[] | undefined)[][] = judged.map(() => []);
  let failed = false;
  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    const rule = rules[ruleIndex]!;
    if (
      !judgesItems(rule, file) ||
      memo.whole.has(rule) ||
      effectiveSeverity(config, rule.code, rule.defaultSeverity) === undefined
    )
      continue;
    byRule[ruleIndex] = true;
    if (judged.length === 0) continue;
    let read: unknown;
    try {
      // No `appliesTo(file)` here: it may scan every item, and an item rule's check already says
      // whether one item applies (rules/rule.ts).
      if (rule.reads) read = rule.reads.of({ file, workspace, config, report: () => undefined });
    } catch {
      failed = true;
      continue;
    }
    judged.forEach((entry, n) => {
      const { mount } = entry;
      try {
        checkItemAlone(
          rule,
          mount,
          () => (entry.judged ??= judgedMountOf(mount as JudgedMount['mount'])),
          {
            file,
            workspace,
            config,
            report(finding) {
              if (!onMount(finding, mount)) failed = true;
              (fresh[n]![ruleIndex] ??= []).push(finding);
            },
          },
          read,
        );
      } catch {
        failed = true;
      }
    });
  }
  if (failed) return { failed, byRule };
  judged.forEach(({ index, mount }, n) => {
    // Not judged any more; its anchor is where it starts now, if it has findings (memo.file).
    memo.anchors[index] = undefined;
    fresh[n]!.forEach((found, ruleIndex) => memo.file(ruleIndex, index, mount, found, items, file.source));
  });
  memo.reused++;
  memo.rejudged += judged.length;
  return { failed, byRule };
}

/** The items a line-based file is judged by, one by one: an fstab's mounts, a sysctl file's settings. */
function itemsOf(file: ParsedFile): readonly LineItem[] {
  if (file.kind === 'shell') return shellItems(file);
  return MOUNT_LINE_KINDS.has(file.kind) ? file.mounts : file.settings;
}

/** Whether a rule judges this file's items one by one (`checkMount` for mounts, `checkSetting` for settings). */
function judgesItems(rule: Rule, file: ParsedFile): boolean {
  // A shell script's items are its mounts and its settings (workspace/shellReuse.ts).
  if (file.kind === 'shell') return rule.checkMount !== undefined || rule.checkSetting !== undefined;
  return (MOUNT_LINE_KINDS.has(file.kind) ? rule.checkMount : rule.checkSetting) !== undefined;
}

/**
 * One lint's use of a document's memo (lint.ts asks it rule by rule): which rules' findings come
 * from the memo, their walk in report order, and the recording of the rules run whole.
 */
export class LintReuse {
  private constructor(
    readonly memo: LintMemo,
    private readonly workspace: WorkspaceView,
    private readonly file: ParsedFile,
    private readonly config: ResolvedConfig,
    private readonly reuse: Reuse | undefined,
  ) {}

  /**
   * The memo's use for this lint of `file`, or undefined without a memo or for a file not read line
   * by line (only those keep their items' identity from version to version). Judges the re-read
   * items alone with each item rule; `failed` when a rule threw on one (the memo is then emptied:
   * judge the whole file again, as without a memo).
   */
  static start(
    memo: LintMemo | undefined,
    workspace: WorkspaceView,
    file: ParsedFile,
    config: ResolvedConfig,
    rules: readonly Rule[],
  ): LintReuse | 'failed' | undefined {
    if (!memo || !(LINE_REUSE_KINDS.has(file.kind) || file.kind === 'shell')) return undefined;
    const reuse = judgeEditedItems(memo, workspace, file, config, rules);
    if (reuse?.failed) {
      memo.reset();
      return 'failed';
    }
    return new LintReuse(memo, workspace, file, config, reuse);
  }

  /** Whether rule `ruleIndex`'s findings come from the memo in this lint (kept, and judged again where the items or its context changed). */
  keeps(rule: Rule, ruleIndex: number): boolean {
    const { memo, file, workspace, config } = this;
    // A rule with a context: its kept findings hold only while the context is the same.
    const fingerprint =
      judgesItems(rule, file) && rule.reads && !memo.whole.has(rule)
        ? contextOf(memo, rule, { file, workspace, config, report: () => undefined })
        : undefined;
    let reused = this.reuse?.byRule[ruleIndex] === true && !memo.whole.has(rule);
    const kept = fingerprint === undefined ? undefined : memo.contexts[ruleIndex];
    if (fingerprint !== undefined && !sameContext(kept, fingerprint)) {
      memo.contexts[ruleIndex] = fingerprint;
      // Only some keys' parts changed: the mounts with those keys are judged again, the rest kept.
      const keys = reused ? changedKeys(rule, kept, fingerprint) : undefined;
      if (!keys || !rejudgeKeys(memo, workspace, file, config, rule, ruleIndex, keys)) {
        if (reused) {
          memo.forget(ruleIndex);
          memo.contextWhole++;
        }
        reused = false;
      }
    }
    return reused;
  }

  /**
   * Hands a kept rule's findings to `take` in the order the rule reports them (the first ones are
   * listed), while `more()` says the report wants more; returns how many of each severity it did
   * not hand out (to count as left out).
   */
  walk(
    rule: Rule,
    ruleIndex: number,
    more: () => boolean,
    take: (severity: Severity, finding: Finding, delta: number, item: LineItem) => void,
  ): Record<Severity, number> | undefined {
    const { memo, file, config } = this;
    const tally = memo.tallies[ruleIndex];
    if (!tally || tally.error + tally.warning + tally.info + tally.hint === 0) return undefined;
    const items = itemsOf(file);
    const byItem = memo.found[ruleIndex];
    const anchors = memo.anchors;
    const left = { ...tally };
    // Nor past the last record with a finding of the rule (a rule with a few findings near the top).
    let unwalked = tally.error + tally.warning + tally.info + tally.hint;
    // A script's items are by offset, its rules go by mount list (workspace/shellReuse.ts).
    const order = file.kind === 'shell' ? shellReportOrder(file) : undefined;
    for (let k = 0; k < items.length && unwalked > 0 && more(); k++) {
      const i = order ? order[k]! : k;
      const found = byItem?.[i];
      if (!found) continue;
      const delta = items[i]!.span.start - anchors[i]!;
      for (const finding of found) {
        const severity = effectiveSeverity(config, rule.code, rule.defaultSeverity, finding.severity);
        if (!severity) continue;
        left[severity]--;
        unwalked--;
        take(severity, finding, delta, items[i]!);
      }
    }
    return left;
  }

  /** For a whole run of rule `ruleIndex`: what files its findings under their items, if it judges items. */
  recorder(rule: Rule, ruleIndex: number): Recorder | undefined {
    const { memo, file } = this;
    return judgesItems(rule, file) && !memo.whole.has(rule)
      ? new Recorder(memo, rule, ruleIndex, itemsOf(file), file.source)
      : undefined;
  }

  /** Every rule ran: the memo now follows this version. */
  ranRules(): void {
    this.memo.items = itemsOf(this.file);
  }

  /** A kept finding's diagnostic (`keptDiagnostic`). */
  diagnostic(code: string, severity: Severity, finding: Finding, delta: number): Diagnostic {
    return keptDiagnostic(this.memo, this.workspace, this.file, code, severity, finding, delta);
  }

  /** The lint placed its diagnostics. */
  placed(): void {
    this.memo.epoch++;
    this.memo.stable = Infinity;
  }
}

/**
 * A finding as the file's format shows it. Terraform: a finding on a value set through variables
 * names where it came from; undefined: a Terraform module's finding that another file reports (iac/hover.ts).
 */
export function shownFinding(file: ParsedFile, finding: Finding): Finding | undefined {
  return file.iac ? withValueOrigin(file.iac, finding) : finding;
}
