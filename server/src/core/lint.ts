import { effectiveSeverity, type ResolvedConfig } from './config';
import {
  plainFinding,
  type Diagnostic,
  type Finding,
  type ResolvedFix,
  type Severity,
  type SpanEdit,
} from './diagnostics';
import { DEFAULT_FINDING_LIMITS, type FindingLimits, type OmittedFindings } from './rules/findingLimits';
import { fitEdit } from './edits';
import { ALL_RULES } from './registry';
import { withValueOrigin } from './iac/hover';
import { formatNumber, formatSize, MiB } from './units/units';
import type { KeyedContext, Rule, RuleContext } from './rules/rule';
import { parseSuppressions, suppressionCovers, type Suppression } from './suppressions';
import type { ParsedFile } from './workspace/parsedFile';
import type { LineItem } from './workspace/parsedFile';
import { LINE_REUSE_KINDS, MOUNT_LINE_KINDS } from './workspace/lineReuse';
import { shellItems, shellReportOrder } from './workspace/shellReuse';
import type { Position, SourceText, Span } from './text/sourceText';
import type { WorkspaceView } from './workspace/workspaceView';

export interface LintOptions {
  readonly rules?: readonly Rule[];
  /** Called when a rule throws; the engine reports it once as ANF002 and goes on. */
  readonly onRuleError?: (rule: Rule, error: unknown, uri: string) => void;
  /** How many findings the file reports at most (default: DEFAULT_FINDING_LIMITS); the rest are counted in one ANF010. */
  readonly limits?: FindingLimits;
  /**
   * What the last lint of the same document found, per mount, for rules that judge mounts one by one
   * (`Rule.perMount`): after an edit read incrementally (ParsedFile.lineEdit) only the edited mounts
   * are judged again. The language server keeps one per open document; findings are the same as without.
   */
  readonly memo?: LintMemo;
}

/**
 * One document's per-mount findings of `perMount` rules, from its last lint, to reuse after an edit.
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
  /** By rule index: the `perMountContext` fingerprint the rule's kept findings were made under. */
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

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info', 'hint'];
const UNUSED_SUPPRESSION = 'ANF001';
const RULE_FAILURE = 'ANF002';
const FINDINGS_NOT_SHOWN = 'ANF010';
const PARSER_FAILURE = 'ANF003';

interface RawFinding {
  readonly code: string;
  readonly severity: Severity;
  readonly finding: Finding;
  /** The suppression comment that silences it, if any. */
  readonly suppressedBy?: number;
  /** How far the finding moved since it was made (a kept mount's finding after an edit above it), with its mount. */
  readonly delta: number;
  readonly mount?: LineItem;
}

/**
 * Runs every applicable rule on one file of the workspace and returns its diagnostics, sorted by
 * position. Suppressed findings are returned too, marked `suppressed` (SARIF lists them); editors
 * and text output drop them. A rule that throws never stops the others.
 *
 * Findings past the limits (per rule, then per file, first by position) are counted, not placed:
 * placing one (ranges for its fixes and related spans) is most of its cost, so a file with a
 * finding on each of a million lines stays linear and small. One ANF010 finding says what was left out.
 */
export function lintFile(
  workspace: WorkspaceView,
  uri: string,
  config: ResolvedConfig,
  options: LintOptions = {},
): Diagnostic[] {
  const steps = lintSteps(workspace, uri, config, options);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * `lintFile` in steps: it yields after each rule, so that a caller that must stay responsive (the
 * language server) can let newer events in between, and drop the pass when they make it stale. A
 * caller that stops early must not resume it after the workspace changed.
 */
export function* lintSteps(
  workspace: WorkspaceView,
  uri: string,
  config: ResolvedConfig,
  options: LintOptions = {},
): Generator<void, Diagnostic[], void> {
  const file = workspace.file(uri);
  if (!file) return [];
  const rules = options.rules ?? ALL_RULES;
  const limits = options.limits ?? DEFAULT_FINDING_LIMITS;
  const suppressions = parseSuppressions(file.source);
  const usedSuppressions = new Set<number>();
  const visible: RawFinding[] = [];
  const suppressed: RawFinding[] = [];
  const omitted = new OmittedCounter();

  const collect = (
    code: string,
    severity: Severity,
    finding: Finding,
    shownOfRule: { count: number; silenced: number },
    delta = 0,
    mount?: LineItem,
  ) => {
    const suppressedBy =
      suppressions.length === 0
        ? -1
        : suppressionIndex(suppressions, code, file.source.positionAt(finding.span.start + delta).line);
    if (suppressedBy >= 0) {
      usedSuppressions.add(suppressedBy);
      // Silenced findings are kept for SARIF within the same bound; past it they are simply silent.
      if (shownOfRule.silenced++ < limits.perRule)
        suppressed.push({ code, severity, finding, suppressedBy, delta, ...(mount ? { mount } : {}) });
      return;
    }
    if (shownOfRule.count++ < limits.perRule)
      visible.push({ code, severity, finding, delta, ...(mount ? { mount } : {}) });
    else omitted.add(code, severity);
  };

  // Only files re-read line by line keep their mounts' identity from version to version.
  const memo = options.memo && (LINE_REUSE_KINDS.has(file.kind) || file.kind === 'shell') ? options.memo : undefined;
  const reuse = memo ? perMountReuse(memo, workspace, file, config, rules) : undefined;
  if (reuse?.failed) {
    // A rule threw on an edited mount alone: judge the whole file again, as without a memo.
    memo!.reset();
    return yield* lintSteps(workspace, uri, config, options);
  }

  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    // Between two rules the caller may let newer events in (lintSteps).
    if (ruleIndex > 0) yield;
    const rule = rules[ruleIndex]!;
    if (effectiveSeverity(config, rule.code, rule.defaultSeverity) === undefined) continue;
    const shownOfRule = { count: 0, silenced: 0 };
    // A rule with a context: its kept findings hold only while the context is the same.
    const fingerprint =
      memo && judgesItems(rule, file) && rule.perMountContext && !memo.whole.has(rule)
        ? contextOf(memo, rule, { file, workspace, config, report: () => undefined })
        : undefined;
    let reused = reuse?.byRule[ruleIndex] === true && !memo!.whole.has(rule);
    const kept = fingerprint === undefined ? undefined : memo!.contexts[ruleIndex];
    if (fingerprint !== undefined && !sameContext(kept, fingerprint)) {
      memo!.contexts[ruleIndex] = fingerprint;
      // Only some keys' parts changed: the mounts with those keys are judged again, the rest kept.
      const keys = reused ? changedKeys(rule, kept, fingerprint) : undefined;
      if (!keys || !rejudgeKeys(memo!, workspace, file, config, rule, ruleIndex, keys)) {
        if (reused) {
          memo!.forget(ruleIndex);
          memo!.contextWhole++;
        }
        reused = false;
      }
    }
    if (reused) {
      // Kept and re-judged mounts' findings, in mount order (the order the rule reports them in).
      const tally = memo!.tallies[ruleIndex];
      if (!tally || tally.error + tally.warning + tally.info + tally.hint === 0) continue;
      const mounts = itemsOf(file);
      const byItem = memo!.found[ruleIndex];
      const anchors = memo!.anchors;
      const walked: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
      // Without suppression comments, the findings past the rule's bound are only counted: stop there.
      const everyOne = suppressions.length > 0;
      // Nor past the last record with a finding of the rule (a rule with a few findings near the top).
      let unwalked = tally.error + tally.warning + tally.info + tally.hint;
      // In the order the rule reports them (the first ones are listed): a script's items are by offset, its rules go by mount list.
      const order = file.kind === 'shell' ? shellReportOrder(file) : undefined;
      for (let k = 0; k < mounts.length && unwalked > 0 && (everyOne || shownOfRule.count < limits.perRule); k++) {
        const i = order ? order[k]! : k;
        const found = byItem?.[i];
        if (!found) continue;
        const delta = mounts[i]!.span.start - anchors[i]!;
        for (const finding of found) {
          const severity = effectiveSeverity(config, rule.code, rule.defaultSeverity, finding.severity);
          if (!severity) continue;
          walked[severity]++;
          unwalked--;
          collect(rule.code, severity, finding, shownOfRule, delta, mounts[i]);
        }
      }
      for (const severity of SEVERITIES) omitted.add(rule.code, severity, tally[severity] - walked[severity]);
      continue;
    }
    const recorder =
      memo && judgesItems(rule, file) && !memo.whole.has(rule)
        ? new Recorder(memo, rule, ruleIndex, itemsOf(file), file.source)
        : undefined;
    try {
      if (!rule.appliesTo(file)) continue;
      rule.check({
        file,
        workspace,
        config,
        report(finding) {
          recorder?.add(finding);
          const severity = effectiveSeverity(config, rule.code, rule.defaultSeverity, finding.severity);
          // Terraform: a finding on a value set through variables names where it came from (iac/hover.ts).
          // Undefined: a Terraform module's finding that another file reports (iac/hover.ts).
          const placed = severity && file.iac ? withValueOrigin(file.iac, finding) : finding;
          if (severity && placed) collect(rule.code, severity, placed, shownOfRule);
        },
      });
      recorder?.commit();
    } catch (error) {
      if (recorder) memo!.whole.add(rule);
      options.onRuleError?.(rule, error, uri);
      const severity = effectiveSeverity(config, RULE_FAILURE, 'warning');
      if (severity) {
        const message = error instanceof Error ? error.message : String(error);
        collect(
          RULE_FAILURE,
          severity,
          { span: { start: 0, end: 0 }, message: `Rule ${rule.code} (${rule.name}) failed on this file: ${message}` },
          { count: 0, silenced: 0 },
        );
      }
    }
  }

  // A reader that threw (parseFile.ts): no rule reports its problem, the engine does.
  const parserFailures = file.problems.filter((p) => p.code === PARSER_FAILURE);
  if (parserFailures.length > 0) {
    const severity = effectiveSeverity(config, PARSER_FAILURE, 'warning');
    if (severity)
      for (const { code: _code, ...finding } of parserFailures)
        collect(PARSER_FAILURE, severity, finding, { count: 0, silenced: 0 });
  }
  if (memo) memo.items = itemsOf(file);

  // The file's own bound: the first findings by position.
  let shown = visible;
  if (visible.length > limits.perFile) {
    const byPosition = [...visible].sort((a, b) => a.finding.span.start + a.delta - (b.finding.span.start + b.delta));
    shown = byPosition.slice(0, limits.perFile);
    for (const { code, severity } of byPosition.slice(limits.perFile)) omitted.add(code, severity);
  }

  const diagnostics = [...shown, ...suppressed].map((raw) => {
    // A kept finding (the memo's own copy, never moved in place) is placed without its fixes: they
    // are resolved when first read (a code action); a publish sends none (placeKept).
    const diagnostic =
      raw.mount !== undefined
        ? keptDiagnostic(memo!, workspace, file, raw.code, raw.severity, raw.finding, raw.delta)
        : place(workspace, file, raw.code, raw.severity, raw.finding);
    if (raw.suppressedBy === undefined) return diagnostic;
    const reason = suppressions[raw.suppressedBy]!.reason;
    return { ...diagnostic, suppressed: reason ? { reason } : {} };
  });
  if (memo) {
    memo.epoch++;
    memo.stable = Infinity;
  }
  diagnostics.push(...unusedSuppressions(file, suppressions, usedSuppressions, config));
  const notShown = omitted.finding(file, config);
  if (notShown) diagnostics.push(notShown);
  return diagnostics.sort(
    (a, b) =>
      a.span.start - b.span.start ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      compareCodes(a.code, b.code),
  );
}

function suppressionIndex(suppressions: readonly Suppression[], code: string, line: number): number {
  return suppressions.findIndex((s) => suppressionCovers(s, code, line));
}

/** Counts the findings a report leaves out, and says so in one ANF010 finding. */
class OmittedCounter {
  private total = 0;
  private readonly bySeverity: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  private readonly byCode: Record<string, number> = {};

  add(code: string, severity: Severity, count = 1): void {
    if (count <= 0) return;
    this.total += count;
    this.bySeverity[severity] += count;
    this.byCode[code] = (this.byCode[code] ?? 0) + count;
  }

  finding(file: ParsedFile, config: ResolvedConfig): Diagnostic | undefined {
    if (this.total === 0) return undefined;
    const omitted: OmittedFindings = {
      total: this.total,
      bySeverity: { ...this.bySeverity },
      byCode: { ...this.byCode },
    };
    const severity = effectiveSeverity(config, FINDINGS_NOT_SHOWN, 'info');
    // Even when ANF010 is turned off, the counts travel with the report (summary, exit code).
    // formatNumber, not toLocaleString: the first Intl call loads ICU's locale data (about 10 ms).
    const codes = Object.entries(this.byCode)
      .sort((a, b) => b[1] - a[1] || compareCodes(a[0], b[0]))
      .map(([code, count]) => `${code}: ${formatNumber(count)}`)
      .join(', ');
    const span = { start: 0, end: 0 };
    return {
      uri: file.uri,
      code: FINDINGS_NOT_SHOWN,
      severity: severity ?? 'hint',
      message: `${formatNumber(this.total)} more finding${this.total === 1 ? ' is' : 's are'} not listed for this file (${codes}): anf-lint lists the first ones of each rule. Fix those first, or run \`anf-lint --all-findings\` to list every one.`,
      span,
      range: file.source.rangeOf(span),
      fixes: [],
      related: [],
      tags: [],
      omitted,
      ...(severity ? {} : { suppressed: { reason: 'ANF010 is turned off' } }),
    };
  }
}

/**
 * Rule codes are `ANF` and three digits: comparing code units orders them as `localeCompare` did,
 * without a collator call per tie (most findings of a line share its start).
 */
function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The one finding of a document the editor does not check because it is too large (ANF011), in the
 * document's configuration; undefined when the rule is turned off.
 */
export function fileTooLargeDiagnostic(
  uri: string,
  size: { characters: number; editorLimitCharacters: number; cliLimitBytes: number },
  config: ResolvedConfig,
): Diagnostic | undefined {
  const severity = effectiveSeverity(config, 'ANF011', 'info');
  if (!severity) return undefined;
  const millions = (n: number) => (n / MiB).toFixed(1);
  const origin = { line: 0, character: 0 };
  return {
    uri,
    code: 'ANF011',
    severity,
    message: `This document has ${millions(size.characters)} Mi characters; the editor checks documents up to ${millions(size.editorLimitCharacters)} Mi, so anf-lint does not check this one while you type. Run \`anf-lint\` on the file (the CLI reads named files up to ${formatSize(size.cliLimitBytes)}).`,
    span: { start: 0, end: 0 },
    range: { start: origin, end: origin },
    fixes: [],
    related: [],
    tags: [],
  };
}

/** What a file's report left out (from its ANF010 finding), if anything. */
export function omittedFindings(diagnostics: readonly Diagnostic[]): OmittedFindings | undefined {
  return diagnostics.find((d) => d.omitted)?.omitted;
}

/** Diagnostics a person should see: everything not silenced by a suppression comment. */
export function visibleDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => !d.suppressed);
}

function place(
  workspace: WorkspaceView,
  file: ParsedFile,
  code: string,
  severity: Severity,
  finding: Finding,
): Diagnostic {
  const sourceOf = (uri: string | undefined) =>
    uri === undefined || uri === file.uri ? file.source : (workspace.file(uri)?.source ?? file.source);
  const resolveEdit = (edit: SpanEdit) => {
    const uri = edit.uri ?? file.uri;
    const source = sourceOf(uri);
    // After a BOM, in the file's line endings (edits.ts): the editor and the fix engine get the same edit.
    const fitted = fitEdit(source.text, { span: copy(edit.span), newText: edit.newText });
    return { uri, span: fitted.span, newText: fitted.newText, range: source.rangeOf(fitted.span) };
  };
  const fixes: ResolvedFix[] = (finding.fixes ?? []).map((fix) => ({
    title: fix.title,
    edits: fix.edits.map(resolveEdit),
    applicability: fix.applicability,
  }));
  return {
    uri: file.uri,
    code,
    severity,
    message: finding.message,
    // Copies: a reader may move a kept mount's spans in place after the next edit (workspace/lineReuse.ts).
    span: copy(finding.span),
    range: file.source.rangeOf(finding.span),
    fixes,
    related: (finding.related ?? []).map((r) => ({
      uri: r.uri,
      message: r.message,
      range: sourceOf(r.uri).rangeOf(r.span),
    })),
    tags: finding.tags ?? [],
  };
}

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

function unusedSuppressions(
  file: ParsedFile,
  suppressions: readonly Suppression[],
  used: ReadonlySet<number>,
  config: ResolvedConfig,
): Diagnostic[] {
  const severity = effectiveSeverity(config, UNUSED_SUPPRESSION, 'warning');
  if (!severity) return [];
  const result: Diagnostic[] = [];
  suppressions.forEach((suppression, index) => {
    if (used.has(index)) return;
    const what = suppression.codes.length > 0 ? suppression.codes.join(', ') : 'all rules';
    result.push({
      uri: file.uri,
      code: UNUSED_SUPPRESSION,
      severity,
      message: `This suppression of ${what} silences nothing: no finding of ${suppression.codes.length === 1 ? 'that rule' : 'those rules'} is reported where it points.`,
      span: suppression.span,
      range: file.source.rangeOf(suppression.span),
      fixes: [
        {
          title: 'Remove the unused suppression comment',
          edits: [
            {
              uri: file.uri,
              span: suppression.lineSpan,
              newText: '',
              range: file.source.rangeOf(suppression.lineSpan),
            },
          ],
          applicability: 'safe',
        },
      ],
      related: [],
      tags: ['unnecessary'],
    });
  });
  return result;
}

const copy = (span: Span): Span => ({ start: span.start, end: span.end });

/** The spans of kept findings (`detached` copies) that lie on the finding's own mount: they move with it (`moved`). */
const ON_MOUNT = new WeakSet<Span>();

/**
 * Spans of kept findings that lie on another mount of the same file (a note on the first mount to
 * a server), with their line and column when copied: they stay at that line and column. The rule's
 * `perMountContext` fingerprint holds that line and column (ANF217), so while it is the same the
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
    !rule.contextKeyOf ||
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
 * alone (as `perMountReuse` judges re-read mounts) and files their findings in place of the kept
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
  const keyOf = rule.contextKeyOf!;
  const judged: { index: number; found: Finding[] }[] = [];
  for (let index = 0; index < items.length; index++) {
    const item = items[index]!;
    if ('key' in item) continue; // a kernel setting of a script: no perMount rule judges it
    const key = keyOf(item);
    if (key === undefined || !keys.has(key)) continue;
    const view = viewOf(file, item);
    const found: Finding[] = [];
    let off = false;
    try {
      if (rule.appliesTo(view)) {
        rule.check({
          file: view,
          workspace,
          config,
          report(finding) {
            if (!onMount(finding, item)) off = true;
            found.push(finding);
          },
        });
      }
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

/** A rule's `perMountContext` fingerprint; a rule whose fingerprint fails runs whole from then on (its check reports the fault). */
function contextOf(memo: LintMemo, rule: Rule, context: RuleContext): string | KeyedContext | undefined {
  try {
    return rule.perMountContext!(context);
  } catch {
    memo.whole.add(rule);
    return undefined;
  }
}

/**
 * Whether a finding lies on a mount's own text (where a `perMount` rule's findings must lie). A
 * setting's finding must lie on the setting wholly, its fixes and notes in this file too: nothing
 * else moves with it (`perSetting` rules have no context fingerprint).
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
 * Files the findings of a whole run of a `perMount` rule under the mount they lie on, to keep after
 * the next edit. Mounts are in line order (fstab); a finding off every mount, or before the previous
 * one, means the rule's findings cannot be told apart by mount in this file: it is then run whole.
 */
class Recorder {
  private next = 0;
  private failed = false;
  private readonly found: { index: number; finding: Finding }[] = [];

  constructor(
    private readonly memo: LintMemo,
    private readonly rule: Rule,
    private readonly ruleIndex: number,
    private readonly mounts: readonly LineItem[],
    private readonly source: SourceText,
  ) {}

  add(finding: Finding): void {
    if (this.failed) return;
    const mounts = this.mounts;
    let i = this.next;
    while (i < mounts.length && mounts[i]!.span.end < finding.span.start) i++;
    const mount = mounts[i];
    if (
      !mount ||
      !onMount(finding, mount) ||
      (i + 1 < mounts.length && mounts[i + 1]!.span.start <= finding.span.start)
    ) {
      this.failed = true;
      return;
    }
    this.next = i;
    this.found.push({ index: i, finding });
  }

  /** After the rule ran to its end. */
  commit(): void {
    if (this.failed) {
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
const MAX_REJUDGED = 1000; // not a fact: beyond it, judging mount by mount costs more than a whole run

/**
 * After an edit read incrementally from the version the memo was made for: judges the re-read
 * mounts alone with each `perMount` rule (the others' findings are kept) and updates the memo.
 * Undefined when the memo cannot be used (another version, configuration, rule set or volumes); the
 * memo is then emptied, for the whole run to fill.
 */
function perMountReuse(
  memo: LintMemo,
  workspace: WorkspaceView,
  file: ParsedFile,
  config: ResolvedConfig,
  rules: readonly Rule[],
): Reuse | undefined {
  memo.follow(file);
  const volumes = workspace.volumes();
  const items = itemsOf(file);
  const judged: { index: number; mount: LineItem; view: ParsedFile }[] = [];
  if (memo.items === items) {
    const anchors = memo.anchors;
    for (let i = 0; i < anchors.length && judged.length <= MAX_REJUDGED; i++) {
      if (anchors[i] === JUDGE) judged.push({ index: i, mount: items[i]!, view: viewOf(file, items[i]!) });
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
    judged.forEach(({ mount, view }, n) => {
      try {
        if (!rule.appliesTo(view)) return;
        rule.check({
          file: view,
          workspace,
          config,
          report(finding) {
            if (!onMount(finding, mount)) failed = true;
            (fresh[n]![ruleIndex] ??= []).push(finding);
          },
        });
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

/** Whether a rule judges this file's items one by one (`Rule.perMount` for mounts, `Rule.perSetting` for settings). */
function judgesItems(rule: Rule, file: ParsedFile): boolean {
  // A shell script's items are its mounts and its settings (workspace/shellReuse.ts).
  if (file.kind === 'shell') return rule.perMount === true || rule.perSetting === true;
  return (MOUNT_LINE_KINDS.has(file.kind) ? rule.perMount : rule.perSetting) === true;
}

/** The file as a rule judging one item sees it: that item alone. */
function viewOf(file: ParsedFile, item: LineItem): ParsedFile {
  if (file.kind === 'shell')
    return 'key' in item ? { ...file, mounts: [], settings: [item] } : { ...file, mounts: [item], settings: [] };
  return MOUNT_LINE_KINDS.has(file.kind)
    ? { ...file, mounts: [item as ParsedFile['mounts'][number]] }
    : { ...file, settings: [item as ParsedFile['settings'][number]] };
}
