/** `textDocument/completion`: mount options, sysctl keys, manifest keys and values, snippets. */
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem, type CompletionParams } from 'vscode-languageserver';
import { computeCompletions, type CoreCompletion } from '../../core/features/completion';
import type { Session } from '../session';

const KIND: Record<CoreCompletion['kind'], CompletionItemKind> = {
  option: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  key: CompletionItemKind.Field,
  snippet: CompletionItemKind.Snippet,
  setting: CompletionItemKind.Variable,
};

export function completion(session: Session, params: CompletionParams): CompletionItem[] {
  const file = session.file(params.textDocument.uri);
  if (!file) return [];
  const items = computeCompletions(file, file.source.offsetAt(params.position));
  return items
    .filter((item) => !item.snippet || session.support.snippets || !/\$\{?\d/.test(item.insertText))
    .map((item) => ({
      label: item.label,
      kind: KIND[item.kind],
      ...(item.detail ? { detail: item.detail } : {}),
      ...(item.documentation ? { documentation: { kind: MarkupKind.Markdown, value: item.documentation } } : {}),
      ...(item.sortText ? { sortText: item.sortText } : {}),
      insertTextFormat: item.snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      textEdit: { range: file.source.rangeOf(item.replace), newText: item.insertText },
    }));
}
