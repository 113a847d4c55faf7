/** `textDocument/hover`: Markdown from the core's computeHover. */
import { MarkupKind, type Hover, type HoverParams } from 'vscode-languageserver';
import { computeHover } from '../../core/features/hover';
import type { Session } from '../session';

export function hover(session: Session, params: HoverParams): Hover | null {
  const file = session.file(params.textDocument.uri);
  if (!file) return null;
  const found = computeHover(
    session.workspaceOf(file.uri),
    file.uri,
    file.source.offsetAt(params.position),
    session.configFor(file.uri),
  );
  if (!found) return null;
  return {
    contents: {
      kind: session.support.markdownHover ? MarkupKind.Markdown : MarkupKind.PlainText,
      value: found.markdown,
    },
    // An empty span: no word of its own to highlight; the client takes the word at the position.
    ...(found.span.end > found.span.start ? { range: file.source.rangeOf(found.span) } : {}),
  };
}
