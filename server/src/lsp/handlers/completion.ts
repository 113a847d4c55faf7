/** `textDocument/completion`: mount options, sysctl keys, manifest keys and values, snippets. */
import {
  CompletionItemKind,
  InsertTextFormat,
  MarkupKind,
  type CompletionItem,
  type CompletionParams,
} from 'vscode-languageserver';
import { computeCompletions, type CoreCompletion } from '../../core/features/completion';
import type { Session } from '../session';

const KIND: Record<CoreCompletion['kind'], CompletionItemKind> = {
  option: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  key: CompletionItemKind.Field,
  snippet: CompletionItemKind.Snippet,
  setting: CompletionItemKind.Variable,
};

/** A snippet as plain text, for clients without snippets: placeholders become their text, choices their first value. */
function plainText(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|((?:\\.|[^,|\\])*)(?:,(?:\\.|[^|\\])*)?\|\}/g, '$1')
    .replace(/\$\{\d+:((?:\\.|[^}\\])*)\}/g, '$1')
    .replace(/\$\d+/g, '')
    .replace(/\\(.)/g, '$1');
}

/**
 * The client command that opens the suggestions again (VS Code: `editor.action.triggerSuggest`),
 * from the client's `initializationOptions.retriggerSuggestCommand`. An option item that ends in
 * `=` runs it, so that choosing `nconnect` from the list lists its values at once: the `=` it
 * inserts is not typed, so the `=` trigger character never fires. Clients that do not name a
 * command get no command (Neovim and Emacs would try to run it on the server).
 */
const retriggerCommands = new WeakMap<Session, string>();

export function setRetriggerCommand(session: Session, command: unknown): void {
  if (typeof command === 'string' && command !== '') retriggerCommands.set(session, command);
}

export function completion(session: Session, params: CompletionParams): CompletionItem[] {
  const retrigger = retriggerCommands.get(session);
  const file = session.file(params.textDocument.uri);
  if (!file) return [];
  const config = session.configFor(params.textDocument.uri);
  const estate = {
    volumes: session.workspaceOf(file.uri).volumes(),
    ...(config.defaultWorkload ? { fallbackWorkload: config.defaultWorkload } : {}),
  };
  const items = computeCompletions(file, file.source.offsetAt(params.position), estate);
  const snippets = session.support.snippets;
  return (
    items
      // Whole blocks need their placeholders; a key or value reads fine without them.
      .filter((item) => !item.snippet || snippets || item.kind !== 'snippet' || !/\$\{?\d/.test(item.insertText))
      .map((item) => {
        const asSnippet = item.snippet === true && snippets;
        return {
          label: item.label,
          kind: KIND[item.kind],
          ...(item.detail ? { detail: item.detail } : {}),
          ...(item.documentation ? { documentation: { kind: MarkupKind.Markdown, value: item.documentation } } : {}),
          ...(item.sortText ? { sortText: item.sortText } : {}),
          ...(item.filterText ? { filterText: item.filterText } : {}),
          insertTextFormat: asSnippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
          textEdit: {
            range: file.source.rangeOf(item.replace),
            newText: item.snippet && !asSnippet ? plainText(item.insertText) : item.insertText,
          },
          ...(retrigger && item.kind === 'option' && item.insertText.endsWith('=')
            ? { command: { title: 'Suggest values', command: retrigger } }
            : {}),
          ...(item.additionalEdits?.length
            ? {
                additionalTextEdits: item.additionalEdits.map((e) => ({
                  range: file.source.rangeOf(e.span),
                  newText: e.newText,
                })),
              }
            : {}),
        };
      })
  );
}
