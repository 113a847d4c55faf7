import type { CompletionItem, CompletionParams } from 'vscode-languageserver';
import type { Session } from '../session';

export function completion(_session: Session, _params: CompletionParams): CompletionItem[] {
  return [];
}
