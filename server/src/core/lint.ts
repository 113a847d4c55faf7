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
import { formatNumber, formatSize, MiB } from './units/units';
import { LintMemo, LintReuse, shownFinding } from './rules/engine';
import type { Rule } from './rules/rule';
import { parseSuppressions, suppressionCovers, type Suppression } from './suppressions';
import type { ParsedFile } from './workspace/parsedFile';
import type { LineItem } from './workspace/parsedFile';
import type { Span } from './text/sourceText';
import type { WorkspaceView } from './workspace/workspaceView';

export interface LintOptions {
  readonly rules?: readonly Rule[];
  /** Called when a rule throws; the engine reports it once as ANF002 and goes on. */
  readonly onRuleError?: (rule: Rule, error: unknown, uri: string) => void;
  /** How many findings the file reports at most (default: DEFAULT_FINDING_LIMITS); the rest are counted in one ANF010. */
  readonly limits?: FindingLimits;
  /**
   * What the last lint of the same document found, per item, for rules that judge items one by one
   * (rules/rule.ts: checkMount, checkSetting): after an edit read incrementally (ParsedFile.lineEdit)
   * only the edited items are judged again (rules/engine.ts). The language server keeps one per open document; findings are the same as without.
   */
  readonly memo?: LintMemo;
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
  const steps = lintSteps(workspace, uri, config, options, false);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/**
 * `lintFile` in steps: it yields after each rule, so that a caller that must stay responsive (the
 * language server) can let newer events in between, and drop the pass when they make it stale. A
 * caller that stops early must not resume it after the workspace changed.
 */
/** Which of `rules` the configuration leaves on, by index: worked out once per configuration, not per file (200 rules on 3,000 files). */
const enabledByConfig = new WeakMap<ResolvedConfig, WeakMap<readonly Rule[], readonly boolean[]>>();

function enabledRules(config: ResolvedConfig, rules: readonly Rule[]): readonly boolean[] {
  let byRules = enabledByConfig.get(config);
  if (!byRules) enabledByConfig.set(config, (byRules = new WeakMap()));
  let enabled = byRules.get(rules);
  if (!enabled) {
    enabled = rules.map((rule) => effectiveSeverity(config, rule.code, rule.defaultSeverity) !== undefined);
    byRules.set(rules, enabled);
  }
  return enabled;
}

export function* lintSteps(
  workspace: WorkspaceView,
  uri: string,
  config: ResolvedConfig,
  options: LintOptions = {},
  /** Yield between rules (false: `lintFile`, which runs them all at once; a pause per rule and file added up on 3,000 files). */
  pause = true,
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

  // Rules that judge items one by one keep their findings per item between lints (rules/engine.ts).
  const reuse = LintReuse.start(options.memo, workspace, file, config, rules);
  if (reuse === 'failed') return yield* lintSteps(workspace, uri, config, options, pause);

  const enabled = enabledRules(config, rules);
  // Whether a rule worked on the file since the last pause: most of 200 rules do not apply to a
  // given file, and a pause after each of them was 200,000 resumptions on a 1,000-file scan.
  let worked = false;
  for (let ruleIndex = 0; ruleIndex < rules.length; ruleIndex++) {
    // Between two rules the caller may let newer events in (lintSteps).
    if (pause && worked) {
      worked = false;
      yield;
    }
    if (!enabled[ruleIndex]) continue;
    const rule = rules[ruleIndex]!;
    if (reuse?.keeps(rule, ruleIndex)) {
      worked = true;
      const shownOfRule = { count: 0, silenced: 0 };
      // Without suppression comments, the findings past the rule's bound are only counted: stop there.
      const everyOne = suppressions.length > 0;
      const left = reuse.walk(
        rule,
        ruleIndex,
        () => everyOne || shownOfRule.count < limits.perRule,
        (severity, finding, delta, item) => collect(rule.code, severity, finding, shownOfRule, delta, item),
      );
      if (left) for (const severity of SEVERITIES) omitted.add(rule.code, severity, left[severity]);
      continue;
    }
    const recorder = reuse?.recorder(rule, ruleIndex);
    try {
      if (!rule.appliesTo(file)) continue;
      worked = true;
      // Made for the rules that judge the file only (most of 200 rules do not apply to a given file).
      const shownOfRule = { count: 0, silenced: 0 };
      rule.check({
        file,
        workspace,
        config,
        report(finding) {
          recorder?.add(finding);
          const severity = effectiveSeverity(config, rule.code, rule.defaultSeverity, finding.severity);
          const placed = severity && shownFinding(file, finding);
          if (severity && placed) collect(rule.code, severity, placed, shownOfRule);
        },
      });
      recorder?.commit();
    } catch (error) {
      recorder?.failed();
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
  reuse?.ranRules();
  return placedDiagnostics(workspace, file, config, limits, reuse, {
    visible,
    suppressed,
    omitted,
    suppressions,
    usedSuppressions,
  });
}

/** What one lint's rules found, before it is placed. */
interface Collected {
  readonly visible: readonly RawFinding[];
  readonly suppressed: readonly RawFinding[];
  readonly omitted: OmittedCounter;
  readonly suppressions: readonly Suppression[];
  readonly usedSuppressions: ReadonlySet<number>;
}

/**
 * The end of `lintSteps`: the file's bound, the findings placed, sorted by position. A function of
 * its own, not the generator's tail: V8 compiles the generator's rule loop on the stack (OSR), and
 * that code, entered again for each file, also covered this tail and fell back to the interpreter
 * at one array check in it for most files: 760 deoptimizations on a 1,000-file scan, all of the
 * same code at the same check (bench/notes.md, session 16).
 */
function placedDiagnostics(
  workspace: WorkspaceView,
  file: ParsedFile,
  config: ResolvedConfig,
  limits: FindingLimits,
  reuse: LintReuse | undefined,
  { visible, suppressed, omitted, suppressions, usedSuppressions }: Collected,
): Diagnostic[] {
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
        ? reuse!.diagnostic(raw.code, raw.severity, raw.finding, raw.delta)
        : place(workspace, file, raw.code, raw.severity, raw.finding);
    if (raw.suppressedBy === undefined) return diagnostic;
    const reason = suppressions[raw.suppressedBy]!.reason;
    return { ...diagnostic, suppressed: reason ? { reason } : {} };
  });
  reuse?.placed();
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

export { LintMemo };
