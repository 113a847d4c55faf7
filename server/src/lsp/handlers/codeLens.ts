/** `textDocument/codeLens`: each pool's and volume's figures above its name (display only, no command). */
import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import { computeCodeLenses } from '../../core/features/outline';
import type { Session } from '../session';

export function codeLens(session: Session, params: CodeLensParams): CodeLens[] {
  const file = session.file(params.textDocument.uri);
  if (!file) return [];
  return computeCodeLenses(file, session.configFor(file.uri)).map((lens) => ({
    range: file.source.rangeOf(lens.span),
    command: { title: lens.title, command: '' },
  }));
}
