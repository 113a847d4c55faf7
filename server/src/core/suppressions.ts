import type { SourceText, Span } from './text/sourceText';

/**
 * Suppression comments, the same in every format that has `#` (YAML, fstab, shell, sysctl),
 * `;` (sysctl) or HTML (Markdown) comments:
 *
 *   # anf-lint disable-next-line ANF201,ANF204 -- tools volume is read-only
 *   # anf-lint disable-file ANF310 -- reason
 *
 * Without codes the comment silences every rule. The reason after `--` is optional but shown.
 */
export interface Suppression {
  readonly scope: 'next-line' | 'file';
  /** Empty means all rules. */
  readonly codes: readonly string[];
  readonly reason?: string;
  /** The comment itself (its whole line, for removal). */
  readonly span: Span;
  readonly lineSpan: Span;
  /** next-line: the lines it covers (the next non-comment line and its continuations). */
  readonly firstLine: number;
  readonly lastLine: number;
}

const SUPPRESSION = /^\s*(?:#|;|<!--)\s*anf-lint\s+(disable-next-line|disable-file)\b([^\n]*)$/;
const COMMENT_LINE = /^\s*(?:#|;|<!--|$)/;
/** What follows a comment's mark in SUPPRESSION (sticky: tried where the mark ends). */
const TOOL_AFTER_MARK = /\s*anf-lint/y;

/**
 * The lines that may hold a suppression comment, in order: those where a comment mark (`#`, `;`,
 * `<!--`) is followed by `anf-lint`. The marks are found by indexOf of one character, which is
 * fast; searching the text for `anf-lint` itself took longer than the rest of an edit's lint in a
 * 10,000-line fstab (bench/notes.md, session 7).
 */
function candidateLines(source: SourceText): number[] {
  const text = source.text;
  const lines: number[] = [];
  for (const [mark, after] of MARKS) {
    for (let at = text.indexOf(mark); at >= 0; at = text.indexOf(mark, at + 1)) {
      if (after > 1 && !text.startsWith('<!--', at)) continue;
      TOOL_AFTER_MARK.lastIndex = at + after;
      if (TOOL_AFTER_MARK.test(text)) lines.push(source.positionAt(at).line);
    }
  }
  return lines.length > 1 ? [...new Set(lines)].sort((a, b) => a - b) : lines;
}

/** A comment's first character, and how long its mark is. */
const MARKS: readonly (readonly [string, number])[] = [
  ['#', 1],
  [';', 1],
  ['<', 4],
];

export function parseSuppressions(source: SourceText): Suppression[] {
  const result: Suppression[] = [];
  for (const line of candidateLines(source)) {
    const text = source.lineText(line);
    const match = SUPPRESSION.exec(text);
    if (!match) continue;
    const rest = (match[2] ?? '').replace(/-->\s*$/, '');
    const [codesPart = '', ...reasonParts] = rest.split(/\s--\s?/);
    const codes = codesPart
      .split(/[\s,]+/)
      .filter((c) => c.length > 0)
      .map((c) => c.toUpperCase());
    const reason = reasonParts.join(' -- ').trim();
    const lineStart = source.lineStart(line);
    const lineEnd = source.lineEnd(line);
    const nextLineStart = line + 1 < source.lineCount ? source.lineStart(line + 1) : lineEnd;
    let firstLine = line + 1;
    let lastLine = line + 1;
    if (match[1] === 'disable-next-line') {
      while (
        firstLine < source.lineCount &&
        COMMENT_LINE.test(source.lineText(firstLine)) &&
        !SUPPRESSION.test(source.lineText(firstLine))
      )
        firstLine++;
      lastLine = firstLine;
      // A shell command continued with a trailing backslash is one statement.
      while (lastLine + 1 < source.lineCount && /\\\s*$/.test(source.lineText(lastLine))) lastLine++;
    } else {
      firstLine = 0;
      lastLine = source.lineCount - 1;
    }
    result.push({
      scope: match[1] === 'disable-file' ? 'file' : 'next-line',
      codes,
      ...(reason ? { reason } : {}),
      span: { start: lineStart + (text.length - text.trimStart().length), end: lineEnd },
      lineSpan: { start: lineStart, end: nextLineStart },
      firstLine,
      lastLine,
    });
  }
  return result;
}

export function suppressionCovers(suppression: Suppression, code: string, line: number): boolean {
  return (
    line >= suppression.firstLine &&
    line <= suppression.lastLine &&
    (suppression.codes.length === 0 || suppression.codes.includes(code))
  );
}
