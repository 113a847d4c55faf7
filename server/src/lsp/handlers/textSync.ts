/** `textDocument/didOpen`, `didChange` (incremental), `didClose`. */
import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
} from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Session } from '../session';

export function didOpen(session: Session, params: DidOpenTextDocumentParams): void {
  const { uri, languageId, version, text } = params.textDocument;
  session.openDocument(TextDocument.create(uri, languageId, version, text));
}

export function didChange(session: Session, params: DidChangeTextDocumentParams): void {
  const document = session.open.get(params.textDocument.uri);
  // A change for a document never opened: nothing to apply it to. Ignored, never fatal.
  if (!document) return;
  // Out of order or repeated: the newer version already applied wins.
  if (params.textDocument.version !== null && params.textDocument.version <= document.version) return;
  session.changeDocument(TextDocument.update(document, params.contentChanges, params.textDocument.version));
}

export function didClose(session: Session, params: DidCloseTextDocumentParams): void {
  session.closeDocument(params.textDocument.uri);
}
