import { pathToFileURL } from 'node:url';
import { ALL_RULES, ruleDocUrl, SourceText, type Severity } from '../../core';
import type { FileResult } from '../lint';

/**
 * SARIF 2.1.0 for GitHub code scanning: every rule in `tool.driver.rules[]` with its description
 * and `helpUri`, results with repository-relative URIs under `%SRCROOT%`, `partialFingerprints` so
 * that an alert follows its line as code moves, and suppressed findings with `suppressions`.
 */
const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
  hint: 'note',
};
const SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';
const INFORMATION_URI = 'https://github.com/anf-lint/anf-lint';
const FINGERPRINT_KEY = 'anfLint/v1';

/** `errors`: files that could not be read, shown as tool execution notifications. */
export function toSarif(
  results: readonly FileResult[],
  root: string,
  version: string,
  errors: readonly string[] = [],
): unknown {
  const ruleIndex = new Map(ALL_RULES.map((rule, index) => [rule.code, index]));
  const sarifResults: unknown[] = [];
  for (const result of results) {
    const source = new SourceText(result.text);
    const seen = new Map<string, number>();
    for (const d of result.diagnostics) {
      const { start, end } = d.range;
      // Same rule, same file, same line text: the n-th such finding keeps its fingerprint when lines move.
      const lineText = start.line < source.lineCount ? source.lineText(start.line).trim() : '';
      const base = `${d.code}\u0000${result.repoPath}\u0000${lineText}`;
      const occurrence = seen.get(base) ?? 0;
      seen.set(base, occurrence + 1);
      const fingerprint = sha256().update(`${base}\u0000${occurrence}`).digest('hex');
      const index = ruleIndex.get(d.code);
      sarifResults.push({
        ruleId: d.code,
        ...(index !== undefined ? { ruleIndex: index } : {}),
        level: LEVEL[d.severity],
        message: { text: d.message },
        locations: [
          {
            physicalLocation: {
              artifactLocation: { uri: encodeURI(result.repoPath), uriBaseId: '%SRCROOT%' },
              region: {
                startLine: start.line + 1,
                startColumn: start.character + 1,
                endLine: end.line + 1,
                endColumn: end.character + 1,
              },
            },
          },
        ],
        partialFingerprints: { [FINGERPRINT_KEY]: fingerprint },
        ...(d.suppressed
          ? {
              suppressions: [
                { kind: 'inSource', ...(d.suppressed.reason ? { justification: d.suppressed.reason } : {}) },
              ],
            }
          : {}),
      });
    }
  }
  const rootUri = pathToFileURL(root).href;
  return {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'anf-lint',
            version,
            semanticVersion: version,
            informationUri: INFORMATION_URI,
            rules: ALL_RULES.map((rule) => ({
              id: rule.code,
              name: rule.name,
              shortDescription: { text: rule.doc.title },
              fullDescription: { text: rule.doc.what },
              help: {
                text: `${rule.doc.why}\n\n${rule.doc.instead}`,
                markdown: `${rule.doc.why}\n\n**What to do instead:** ${rule.doc.instead}`,
              },
              helpUri: ruleDocUrl(rule.code),
              defaultConfiguration: { level: LEVEL[rule.defaultSeverity] },
              properties: { tags: [rule.domain], fixes: rule.fixes },
            })),
          },
        },
        invocations: [
          {
            executionSuccessful: errors.length === 0,
            toolExecutionNotifications: errors.map((text) => ({ level: 'error', message: { text } })),
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { uri: rootUri.endsWith('/') ? rootUri : `${rootUri}/` } },
        columnKind: 'utf16CodeUnits',
        results: sarifResults,
      },
    ],
  };
}

export function formatSarif(
  results: readonly FileResult[],
  root: string,
  version: string,
  errors: readonly string[] = [],
): string {
  return `${JSON.stringify(toSarif(results, root, version, errors), null, 2)}\n`;
}

/** node:crypto loads on the first SARIF fingerprint: loading it costs every other run start-up time (issue 17). */
function sha256(): import('node:crypto').Hash {
  return (require('node:crypto') as typeof import('node:crypto')).createHash('sha256');
}
