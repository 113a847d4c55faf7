import type { SourceText } from './sourceText';

/** One fenced code block of a Markdown text: its info word and the offsets of its body. */
export interface FencedBlock {
  /** The info string's first word, lower case (`bash`, `azurecli`, `powershell`); '' when none. */
  readonly language: string;
  /** The body: from the line after the opening fence to the end of the line before the closing one. */
  readonly from: number;
  readonly to: number;
}

// Any indentation: Microsoft Learn indents the blocks of numbered steps (list items) by four spaces.
const FENCE = /^([ \t]*)(`{3,}|~{3,})\s*([^\s`{]*)/;

/**
 * The fenced code blocks of a Markdown text (CommonMark: three or more backticks or tildes, closed
 * by a fence of the same character at least as long; an unclosed block runs to the end).
 */
export function fencedBlocks(source: SourceText): FencedBlock[] {
  const blocks: FencedBlock[] = [];
  let open: { fence: string; language: string; from: number } | undefined;
  for (let line = 0; line < source.lineCount; line++) {
    const text = source.lineText(line);
    if (!open) {
      const m = FENCE.exec(text);
      if (m)
        open = {
          fence: m[2]!,
          language: (m[3] ?? '').toLowerCase(),
          from: line + 1 < source.lineCount ? source.lineStart(line + 1) : source.text.length,
        };
      continue;
    }
    const trimmed = text.trim();
    if (trimmed.startsWith(open.fence) && trimmed.split('').every((c) => c === open!.fence[0])) {
      blocks.push({ language: open.language, from: open.from, to: Math.max(open.from, source.lineStart(line)) });
      open = undefined;
    }
  }
  if (open) blocks.push({ language: open.language, from: open.from, to: source.text.length });
  return blocks;
}

/**
 * The text with only the bodies of `blocks` kept and every other character blanked (line breaks
 * kept), so offsets stay the document's; each fence line becomes `---` so that every block is a
 * YAML document of its own.
 */
export function onlyBlocks(source: SourceText, blocks: readonly FencedBlock[]): string {
  const text = source.text;
  const out = text.replace(/[^\r\n]/g, ' ').split('');
  for (const b of blocks) {
    for (let i = b.from; i < b.to; i++) out[i] = text[i]!;
    // The fence line above the body (`---` fits: a fence is at least three characters).
    const fenceLine = source.positionAt(Math.max(0, b.from - 1)).line;
    const at = source.lineStart(fenceLine);
    if (b.from > 0 && at < b.from) out.splice(at, 3, '-', '-', '-');
  }
  return out.join('');
}
