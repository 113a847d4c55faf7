import { effectiveSeverity, type AnfLintConfig, type ResolvedConfig } from '../config';
import { parseConfigFile } from '../configFile';
import type { Diagnostic } from '../diagnostics';
import { ruleByCode } from '../registry';
import { SourceText } from '../text/sourceText';

/**
 * `.anf-lint.yaml` checked as a document: its configuration and its problems placed as
 * diagnostics (ANF900–ANF904), with fixes resolved to ranges. Severity follows the rule's
 * declaration and the configuration's own overrides, as for any other file.
 */
export function checkConfigFile(
  uri: string,
  text: string,
  config: ResolvedConfig,
): { config: AnfLintConfig; diagnostics: Diagnostic[] } {
  const source = new SourceText(text);
  const parsed = parseConfigFile(text);
  const diagnostics: Diagnostic[] = [];
  for (const problem of parsed.problems) {
    const severity = effectiveSeverity(
      config,
      problem.code,
      ruleByCode(problem.code)?.defaultSeverity ?? 'error',
      problem.severity,
    );
    if (!severity) continue;
    diagnostics.push({
      uri,
      code: problem.code,
      severity,
      message: problem.message,
      span: problem.span,
      range: source.rangeOf(problem.span),
      fixes: (problem.fixes ?? []).map((fix) => ({
        title: fix.title,
        applicability: fix.applicability,
        edits: fix.edits.map((edit) => ({
          uri,
          span: edit.span,
          newText: edit.newText,
          range: source.rangeOf(edit.span),
        })),
      })),
      related: [],
      tags: problem.tags ?? [],
    });
  }
  return { config: parsed.config, diagnostics };
}
