import { type Diagnostic, omittedFindings, visibleDiagnostics, type OmittedFindings, type Severity } from '../../core';
import type { FileResult } from '../lint';

/**
 * The JSON format (stable, documented in docs/cli.md): one object per linted file, lines and
 * columns 1-based (columns count UTF-16 code units, as editors do), suppressed findings left out.
 */
export interface JsonFileReport {
  readonly file: string;
  readonly kind: string;
  readonly diagnostics: readonly JsonDiagnostic[];
  /** Findings past the report's limits (see ANF010): counted, not listed. Absent when nothing was left out. */
  readonly notListed?: OmittedFindings;
}

export interface JsonDiagnostic {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
  readonly fixable: boolean;
}

export function toJsonReport(results: readonly FileResult[]): JsonFileReport[] {
  return results.map((result) => {
    const omitted = omittedFindings(result.diagnostics);
    return {
      file: result.displayPath,
      kind: result.kind,
      ...(omitted ? { notListed: omitted } : {}),
      diagnostics: visibleDiagnostics(result.diagnostics).map(toJsonDiagnostic),
    };
  });
}

/** One finding as the JSON formats write it (lint, `anf-lint host`). */
export function toJsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  return {
    code: d.code,
    severity: d.severity,
    message: d.message,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    endLine: d.range.end.line + 1,
    endColumn: d.range.end.character + 1,
    fixable: d.fixes.some((f) => f.applicability === 'safe'),
  };
}

export function formatJson(results: readonly FileResult[]): string {
  return `${JSON.stringify(toJsonReport(results), null, 2)}\n`;
}
