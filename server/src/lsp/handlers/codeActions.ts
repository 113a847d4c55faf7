/** `textDocument/codeAction`: quick fixes, fix all of a rule, fix-all (safe), disable on this line. */
import type { CodeAction, CodeActionParams } from 'vscode-languageserver';
import { computeCodeActions } from '../../core/features/codeActions';
import { toCodeAction } from '../convert';
import type { Session } from '../session';

export function codeActions(session: Session, params: CodeActionParams): CodeAction[] {
  const file = session.file(params.textDocument.uri);
  if (!file) return [];
  const diagnostics = session.allDiagnostics(file.uri);
  return computeCodeActions(
    file,
    diagnostics,
    { range: params.range, ...(params.context.only ? { only: params.context.only } : {}) },
    session.configFor(file.uri),
  ).map(toCodeAction);
}
