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
/** SUPPRESSION's literal part. */
const TOOL = 'anf-lint';

export function parseSuppressions(source: SourceText): Suppression[] {
  const result: Suppression[] = [];
  // Only lines that say `anf-lint` can hold one (most files have none; a large file's header may
  // name the tool): found by indexOf, not by a regular expression on every line of every lint.
  const all = source.text;
  let previous = -1;
  for (let at = all.indexOf(TOOL); at >= 0; at = all.indexOf(TOOL, at + TOOL.length)) {
    const line = source.positionAt(at).line;
    if (line === previous) continue;
    previous = line;
    const text = source.lineText(line);
    const match = SUPPRESSION.exec(text);
    if (!match) continue;
    const rest = (match[2] ?? '').replace(/-->\s*$/, '');
    const [codesPart = '', ...reasonParts] = rest.split(/\s--\s?/);
    const codes = codesPart.split(/[\s,]+/).filter((c) => c.length > 0).map((c) => c.toUpperCase());
    const reason = reasonParts.join(' -- ').trim();
    const lineStart = source.lineStart(line);
    const lineEnd = source.lineEnd(line);
    const nextLineStart = line + 1 < source.lineCount ? source.lineStart(line + 1) : lineEnd;
    let firstLine = line + 1;
    let lastLine = line + 1;
    if (match[1] === 'disable-next-line') {
      while (firstLine < source.lineCount && COMMENT_LINE.test(source.lineText(firstLine)) && !SUPPRESSION.test(source.lineText(firstLine))) firstLine++;
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
  return line >= suppression.firstLine && line <= suppression.lastLine && (suppression.codes.length === 0 || suppression.codes.includes(code));
}
