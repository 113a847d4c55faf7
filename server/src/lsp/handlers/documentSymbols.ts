import type { DocumentSymbol, DocumentSymbolParams } from 'vscode-languageserver';
import type { Session } from '../session';

export function documentSymbols(_session: Session, _params: DocumentSymbolParams): DocumentSymbol[] {
  return [];
}
