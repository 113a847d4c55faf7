import type { SpanEdit } from './diagnostics';
import type { Span } from './text/sourceText';

const BOM = 0xfeff;
const CR = '\r'.charCodeAt(0);

/** The line break a text uses: CRLF when its first line break is one (as SourceText.eol). */
export function lineBreakOf(text: string): '\r\n' | '\n' {
  const firstBreak = text.indexOf('\n');
  return firstBreak > 0 && text.charCodeAt(firstBreak - 1) === CR ? '\r\n' : '\n';
}

/**
 * An edit fitted to the text it applies to: it never starts before a UTF-8 byte order mark (an
 * annotation inserted at the start of line 1 goes after it, else the file gets a second BOM in the
 * middle of a line), and every line break it inserts is the file's own (CRLF in a CRLF file). Fixes
 * are written with `\n`; this is the one place that turns them into the file's line endings.
 * Idempotent: a fitted edit fits again unchanged.
 */
export function fitEdit<E extends { readonly span: Span; readonly newText: string }>(text: string, edit: E): E {
  let { span, newText } = edit;
  if (span.start === 0 && text.charCodeAt(0) === BOM) span = { start: 1, end: Math.max(1, span.end) };
  if (newText.includes('\n') || newText.includes('\r')) {
    const eol = lineBreakOf(text);
    const fitted = newText.replace(/\r\n|\r|\n/g, eol);
    if (fitted !== newText) newText = fitted;
  }
  return span === edit.span && newText === edit.newText ? edit : { ...edit, span, newText };
}

/**
 * Applies edits given in offsets of `text`. Edits must not overlap; an overlapping edit is
 * skipped (reported in `skipped`) rather than corrupting the text. Each edit is fitted first
 * (`fitEdit`: after the BOM, in the file's line endings).
 */
export function applyEdits(
  text: string,
  edits: readonly Pick<SpanEdit, 'span' | 'newText'>[],
): { text: string; skipped: number } {
  const sorted = edits
    .map((edit) => fitEdit(text, edit))
    .sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
  let result = '';
  let cursor = 0;
  let skipped = 0;
  for (const edit of sorted) {
    if (edit.span.start < cursor || edit.span.end < edit.span.start || edit.span.end > text.length) {
      skipped++;
      continue;
    }
    result += text.slice(cursor, edit.span.start) + edit.newText;
    cursor = edit.span.end;
  }
  return { text: result + text.slice(cursor), skipped };
}
