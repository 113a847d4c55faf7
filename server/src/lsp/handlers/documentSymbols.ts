/** `textDocument/documentSymbol`: accounts > pools > volumes, mounts, kernel settings. */
import { SymbolKind, type DocumentSymbol, type DocumentSymbolParams } from 'vscode-languageserver';
import { computeSymbols, type CoreSymbol } from '../../core/features/outline';
import type { ParsedFile } from '../../core';
import type { Session } from '../session';

const KIND: Record<CoreSymbol['kind'], SymbolKind> = {
  account: SymbolKind.Namespace,
  pool: SymbolKind.Package,
  volume: SymbolKind.Object,
  mount: SymbolKind.File,
  setting: SymbolKind.Property,
};

function toLsp(file: ParsedFile, symbol: CoreSymbol): DocumentSymbol {
  return {
    name: symbol.name,
    ...(symbol.detail ? { detail: symbol.detail } : {}),
    kind: KIND[symbol.kind],
    range: file.source.rangeOf(symbol.span),
    selectionRange: file.source.rangeOf(symbol.selectionSpan),
    children: symbol.children.map((child) => toLsp(file, child)),
  };
}

export function documentSymbols(session: Session, params: DocumentSymbolParams): DocumentSymbol[] {
  const file = session.file(params.textDocument.uri);
  return file ? computeSymbols(file).map((symbol) => toLsp(file, symbol)) : [];
}
