import { effectiveSeverity, type ResolvedConfig } from './config';
import type { Diagnostic, Finding, ResolvedFix, Severity, SpanEdit } from './diagnostics';
import { ALL_RULES } from './registry';
import type { Rule } from './rules/rule';
import { parseSuppressions, suppressionCovers } from './suppressions';
import type { ParsedFile } from './workspace/parsedFile';
import type { WorkspaceView } from './workspace/workspaceView';

export interface LintOptions {
  readonly rules?: readonly Rule[];
  /** Called when a rule throws; the engine reports it once as ANF002 and goes on. */
  readonly onRuleError?: (rule: Rule, error: unknown, uri: string) => void;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
const UNUSED_SUPPRESSION = 'ANF001';
const RULE_FAILURE = 'ANF002';
const PARSER_FAILURE = 'ANF003';

/**
 * Runs every applicable rule on one file of the workspace and returns its diagnostics, sorted by
 * position. Suppressed findings are returned too, marked `suppressed` (SARIF lists them); editors
 * and text output drop them. A rule that throws never stops the others.
 */
export function lintFile(workspace: WorkspaceView, uri: string, config: ResolvedConfig, options: LintOptions = {}): Diagnostic[] {
  const file = workspace.file(uri);
  if (!file) return [];
  const rules = options.rules ?? ALL_RULES;
  const raw: { code: string; severity: Severity; finding: Finding }[] = [];

  for (const rule of rules) {
    if (effectiveSeverity(config, rule.code, rule.defaultSeverity) === undefined) continue;
    let applies = false;
    try {
      applies = rule.appliesTo(file);
      if (!applies) continue;
      rule.check({
        file,
        workspace,
        config,
        report(finding) {
          const severity = effectiveSeverity(config, rule.code, rule.defaultSeverity, finding.severity);
          if (severity) raw.push({ code: rule.code, severity, finding });
        },
      });
    } catch (error) {
      options.onRuleError?.(rule, error, uri);
      const severity = effectiveSeverity(config, RULE_FAILURE, 'warning');
      if (severity) {
        const message = error instanceof Error ? error.message : String(error);
        raw.push({ code: RULE_FAILURE, severity, finding: { span: { start: 0, end: 0 }, message: `Rule ${rule.code} (${rule.name}) failed on this file: ${message}` } });
      }
    }
  }

  // A reader that threw (parseFile.ts): no rule reports its problem, the engine does.
  const parserFailures = file.problems.filter((p) => p.code === PARSER_FAILURE);
  if (parserFailures.length > 0) {
    const severity = effectiveSeverity(config, PARSER_FAILURE, 'warning');
    if (severity) for (const { code: _code, ...finding } of parserFailures) raw.push({ code: PARSER_FAILURE, severity, finding });
  }

  const diagnostics = raw.map(({ code, severity, finding }) => place(workspace, file, code, severity, finding));
  return applySuppressions(file, diagnostics, config).sort(
    (a, b) => a.span.start - b.span.start || SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || compareCodes(a.code, b.code),
  );
}

/**
 * Rule codes are `ANF` and three digits: comparing code units orders them as `localeCompare` did,
 * without a collator call per tie (most findings of a line share its start).
 */
function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Diagnostics a person should see: everything not silenced by a suppression comment. */
export function visibleDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.filter((d) => !d.suppressed);
}

function place(workspace: WorkspaceView, file: ParsedFile, code: string, severity: Severity, finding: Finding): Diagnostic {
  const sourceOf = (uri: string | undefined) => (uri === undefined || uri === file.uri ? file.source : workspace.file(uri)?.source ?? file.source);
  const resolveEdit = (edit: SpanEdit) => {
    const uri = edit.uri ?? file.uri;
    return { uri, span: edit.span, newText: edit.newText, range: sourceOf(uri).rangeOf(edit.span) };
  };
  const fixes: ResolvedFix[] = (finding.fixes ?? []).map((fix) => ({ title: fix.title, safe: fix.safe, edits: fix.edits.map(resolveEdit) }));
  return {
    uri: file.uri,
    code,
    severity,
    message: finding.message,
    span: finding.span,
    range: file.source.rangeOf(finding.span),
    fixes,
    related: (finding.related ?? []).map((r) => ({ uri: r.uri, message: r.message, range: sourceOf(r.uri).rangeOf(r.span) })),
    tags: finding.tags ?? [],
  };
}

function applySuppressions(file: ParsedFile, diagnostics: Diagnostic[], config: ResolvedConfig): Diagnostic[] {
  const suppressions = parseSuppressions(file.source);
  if (suppressions.length === 0) return diagnostics;
  const used = new Set<number>();
  const result = diagnostics.map((diagnostic) => {
    const index = suppressions.findIndex((s) => suppressionCovers(s, diagnostic.code, diagnostic.range.start.line));
    if (index < 0) return diagnostic;
    used.add(index);
    const reason = suppressions[index]!.reason;
    return { ...diagnostic, suppressed: reason ? { reason } : {} };
  });
  const severity = effectiveSeverity(config, UNUSED_SUPPRESSION, 'warning');
  if (!severity) return result;
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
          safe: true,
          edits: [{ uri: file.uri, span: suppression.lineSpan, newText: '', range: file.source.rangeOf(suppression.lineSpan) }],
        },
      ],
      related: [],
      tags: ['unnecessary'],
    });
  });
  return result;
}
