/** Core answers to LSP types, and back. No domain logic: shapes only. */
import {
  DiagnosticSeverity,
  DiagnosticTag,
  type CodeAction,
  type Diagnostic as LspDiagnostic,
  type TextEdit as LspTextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import { ruleDocUrl, type Diagnostic, type DiagnosticTag as CoreTag, type Severity, type TextEdit } from '../core';
import type { CoreCodeAction } from '../core/features/codeActions';

export const SOURCE = 'anf-lint';

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  info: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

const TAG: Record<CoreTag, DiagnosticTag> = {
  unnecessary: DiagnosticTag.Unnecessary,
  deprecated: DiagnosticTag.Deprecated,
};

export function toLspDiagnostic(diagnostic: Diagnostic): LspDiagnostic {
  return {
    range: diagnostic.range,
    severity: SEVERITY[diagnostic.severity],
    code: diagnostic.code,
    codeDescription: { href: ruleDocUrl(diagnostic.code) },
    source: SOURCE,
    message: diagnostic.message,
    ...(diagnostic.related.length > 0
      ? {
          relatedInformation: diagnostic.related.map((r) => ({
            location: { uri: r.uri, range: r.range },
            message: r.message,
          })),
        }
      : {}),
    ...(diagnostic.tags.length > 0 ? { tags: diagnostic.tags.map((t) => TAG[t]) } : {}),
  };
}

export function toWorkspaceEdit(edits: readonly TextEdit[]): WorkspaceEdit {
  const changes: Record<string, LspTextEdit[]> = {};
  for (const edit of edits) (changes[edit.uri] ??= []).push({ range: edit.range, newText: edit.newText });
  return { changes };
}

export function toCodeAction(action: CoreCodeAction): CodeAction {
  return {
    title: action.title,
    kind: action.kind,
    diagnostics: action.diagnostics.map(toLspDiagnostic),
    edit: toWorkspaceEdit(action.edits),
    ...(action.isPreferred ? { isPreferred: true } : {}),
  };
}
