import type { CodeLens, CodeLensParams } from 'vscode-languageserver';
import type { Session } from '../session';

export function codeLens(_session: Session, _params: CodeLensParams): CodeLens[] {
  return [];
}
