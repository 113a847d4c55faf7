import type { SpanEdit } from './diagnostics';

/**
 * Applies edits given in offsets of `text`. Edits must not overlap; an overlapping edit is
 * skipped (reported in `skipped`) rather than corrupting the text.
 */
export function applyEdits(text: string, edits: readonly Pick<SpanEdit, 'span' | 'newText'>[]): { text: string; skipped: number } {
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
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
