import type { SourceText } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { parseFstabLine } from './fstab';
import type { MountEntry } from './model';
import { shellMounts } from './shellMounts';
import { inlineCodeOptionStrings, lineOptionStrings, shellOptionStrings } from './contentStrings';
import { inlineLiterals, rstBlocks } from '../text/rst';

/** Blocks without a language (or a plain-text one): their NFS fstab lines are read, nothing else. */
const PLAIN_INFO = new Set(['', 'text', 'txt', 'plaintext', 'output', 'conf', 'config']);

/** `server:/export  /mnt  nfs|nfs4  options ...`: an fstab line even where the block does not say so. */
export function looksLikeNfsFstabLine(line: string): boolean {
  const fields = line.trim().split(/[ \t]+/);
  return (
    fields.length >= 4 &&
    fields.length <= 6 &&
    (fields[2] === 'nfs' || fields[2] === 'nfs4') &&
    /^[^\s:/]+:\//.test(fields[0]!) &&
    fields[1]!.startsWith('/')
  );
}

const SHELL_INFO = new Set(['bash', 'sh', 'shell', 'console', 'zsh', 'shell-session', 'shellsession', 'terminal']);
const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`{]*)/;
const PROMPT = /^(\s*)(?:\$|%)\s/;
const PLAIN_PROMPT = /^\s*\$\s+\S/;

/**
 * Mounts in a Markdown file: `mount` commands (and fstab lines written by them) in fenced
 * `bash`/`sh`/`shell`/`console` blocks, and lines of fenced `fstab` blocks. Text outside those
 * blocks is blanked out (same length) so that every span stays an offset of the document.
 */
export function parseMarkdown(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const text = source.text;
  if (!text.includes('mount') && !text.includes('fstab')) return [];
  const mounts: MountEntry[] = [];
  const masked: string[] = [];
  let inShell = false;
  let inFstab = false;
  let inPlain = false;
  let fence = '';
  let console = false;
  let any = false;
  let continued = false;
  let cursor = 0;
  for (let line = 0; line < source.lineCount; line++) {
    const start = source.lineStart(line);
    const end = source.lineEnd(line);
    const lineText = text.slice(start, end);
    const next = line + 1 < source.lineCount ? source.lineStart(line + 1) : text.length;
    const brk = text.slice(end, next);
    const blank = (s: string) => s.replace(/[^\r\n]/g, ' ');
    const open = FENCE.exec(lineText);
    if (fence === '' && open) {
      const info = (open[3] ?? '').toLowerCase();
      fence = open[2]!;
      inShell = SHELL_INFO.has(info);
      inFstab = info === 'fstab';
      inPlain = PLAIN_INFO.has(info);
      console = info === 'console' || info === 'shell-session' || info === 'shellsession' || info === 'terminal';
      masked.push(blank(lineText) + brk);
    } else if (
      fence !== '' &&
      lineText.trim().startsWith(fence[0]!.repeat(fence.length)) &&
      lineText.trim().replace(/[`~]/g, '') === ''
    ) {
      fence = '';
      continued = false;
      inShell = false;
      inFstab = false;
      inPlain = false;
      masked.push(blank(lineText) + brk);
    } else if (inShell) {
      any = true;
      // Prompts (`$ sudo mount ...`) are blanked so the command starts where the scanner expects it.
      const prompt = PROMPT.exec(lineText);
      const keep =
        prompt && (console || prompt[0].trim() === '$')
          ? lineText.replace(PROMPT, (m) => ' '.repeat(m.length))
          : lineText;
      masked.push(keep + brk);
    } else if (inPlain && (PLAIN_PROMPT.test(lineText) || continued)) {
      // A block without a language whose line starts with a `$ ` prompt is a shell session: that
      // command (and its `\` continuation lines) is read as shell.
      any = true;
      const prompted = PLAIN_PROMPT.test(lineText);
      continued = /\\\r?$/.test(lineText);
      masked.push((prompted ? lineText.replace(PROMPT, (m) => ' '.repeat(m.length)) : lineText) + brk);
    } else {
      if (inFstab || (inPlain && looksLikeNfsFstabLine(lineText))) {
        const entry = parseFstabLine(lineText, start, uri, problems, 'markdown');
        if (entry) mounts.push(entry);
      }
      masked.push(blank(lineText) + brk);
    }
    cursor = next;
  }
  void cursor;
  if (any) for (const entry of shellMounts(masked.join(''), { uri, host: 'markdown', problems })) mounts.push(entry);
  return mounts;
}

const YAML_INFO = new Set(['yaml', 'yml']);

/**
 * Option strings in documentation found by their content: inline code (`` `rw,hard,vers=3` ``,
 * reStructuredText ``` ``...`` ```), shell blocks (`OPTS="..."`) and YAML blocks (`opts: ...`).
 */
export function markdownOptionStrings(
  source: SourceText,
  uri: string,
  kind: 'markdown' | 'rst',
  existing: readonly MountEntry[],
): MountEntry[] {
  const text = source.text;
  if (!/vers=|nconnect=|hard|rsize=|wsize=|sec=|actimeo=|nolock/.test(text)) return [];
  const found: MountEntry[] = [];
  const inBlock = new Uint8Array(source.lineCount);
  const add = (entries: readonly MountEntry[]) => {
    for (const entry of entries) found.push(entry);
  };
  const blocks: { from: number; to: number; language: string }[] = [];
  if (kind === 'rst') {
    for (const block of rstBlocks(source)) blocks.push({ ...block, from: block.from - 1 });
  } else {
    let open: { from: number; fence: string; language: string } | undefined;
    for (let line = 0; line < source.lineCount; line++) {
      const lineText = source.lineText(line);
      if (!open) {
        const fence = FENCE.exec(lineText);
        if (fence) open = { from: line, fence: fence[2]!, language: (fence[3] ?? '').toLowerCase() };
      } else if (lineText.trim().startsWith(open.fence) && lineText.trim().replace(/[`~]/g, '') === '') {
        blocks.push({ from: open.from, to: line + 1, language: open.language });
        open = undefined;
      }
    }
  }
  for (const block of blocks) {
    for (let line = block.from; line < block.to; line++) inBlock[line] = 1;
    // Body lines only (the first is the fence or the `::` line).
    const bodyFrom = block.from + 1;
    const bodyTo = kind === 'rst' ? block.to : block.to - 1;
    if (bodyTo <= bodyFrom) continue;
    if (YAML_INFO.has(block.language))
      add(lineOptionStrings(source, uri, kind, [...existing, ...found], bodyFrom, bodyTo));
    else if (SHELL_INFO.has(block.language) || (kind === 'rst' && (block.language === '' || block.language === 'none')))
      add(
        shellOptionStrings(
          text,
          uri,
          kind,
          [...existing, ...found],
          source.lineStart(bodyFrom),
          source.lineEnd(bodyTo - 1),
        ),
      );
  }
  const inline = inlineLiterals(source, (line) => inBlock[line] === 1, kind === 'rst' ? '``' : '`');
  // `` `sudo mount -t nfs -o … server:/x /mnt` `` written in a sentence: a mount command like one in a block.
  for (const span of inline) {
    if (text.slice(span.start, span.end).includes('mount '))
      add(shellMounts(text, { uri, host: kind, problems: [] }, span.start, span.end));
  }
  add(inlineCodeOptionStrings(text, uri, kind, [...existing, ...found], inline));
  return found;
}
