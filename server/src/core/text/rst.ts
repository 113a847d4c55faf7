import type { SourceText, Span } from './sourceText';

/** A reStructuredText literal block: its body lines `[from, to)` and the language it names, if any. */
export interface RstBlock {
  readonly from: number;
  readonly to: number;
  /** `bash` for `.. code-block:: bash`; `''` for a `::` literal block or a directive without one. */
  readonly language: string;
}

const DIRECTIVE = /^([ \t]*)\.\.[ \t]+(?:code-block|code|sourcecode|highlight)::[ \t]*([\w.+-]*)[ \t]*$/;
const OPTION_LINE = /^[ \t]*:[\w-]+:/;

function indentOf(text: string): number {
  return /^[ \t]*/.exec(text)![0].length;
}

/**
 * The literal blocks of a reStructuredText document: paragraphs ending in `::` and
 * `.. code-block:: lang` directives, each followed by an indented body. Linear; never throws.
 */
export function rstBlocks(source: SourceText): RstBlock[] {
  const blocks: RstBlock[] = [];
  let line = 0;
  while (line < source.lineCount) {
    const text = source.lineText(line);
    const directive = DIRECTIVE.exec(text);
    const literal = !directive && /::[ \t]*$/.test(text) && !/^[ \t]*\.\./.test(text);
    if (!directive && !literal) {
      line++;
      continue;
    }
    const base = indentOf(text);
    let body = line + 1;
    // Directive options (`:linenos:`) and blank lines come before the body.
    while (
      body < source.lineCount &&
      (source.lineText(body).trim() === '' || (directive && OPTION_LINE.test(source.lineText(body))))
    )
      body++;
    let end = body;
    while (end < source.lineCount) {
      const bodyText = source.lineText(end);
      if (bodyText.trim() !== '' && indentOf(bodyText) <= base) break;
      end++;
    }
    while (end > body && source.lineText(end - 1).trim() === '') end--;
    if (end > body && indentOf(source.lineText(body)) > base)
      blocks.push({ from: body, to: end, language: directive ? directive[2]!.toLowerCase() : '' });
    line = Math.max(end, line + 1);
  }
  return blocks;
}

/** Inline literals outside blocks: ``` ``text`` ``` in reStructuredText, `` `text` `` in Markdown. */
export function inlineLiterals(source: SourceText, skip: (line: number) => boolean, marker: '`' | '``'): Span[] {
  const spans: Span[] = [];
  const pattern = marker === '``' ? /``([^`\n]+)``/g : /(?<!`)`([^`\n]+)`(?!`)/g;
  for (let line = 0; line < source.lineCount; line++) {
    if (skip(line)) continue;
    const text = source.lineText(line);
    if (!text.includes(marker)) continue;
    const start = source.lineStart(line);
    for (const match of text.matchAll(pattern)) {
      const from = start + match.index! + marker.length;
      spans.push({ start: from, end: from + match[1]!.length });
    }
  }
  return spans;
}
