import type { SourceText } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { parseFstabLine } from './fstab';
import type { MountEntry } from './model';
import { shellMounts } from './shellMounts';

const SHELL_INFO = new Set(['bash', 'sh', 'shell', 'console', 'zsh', 'shell-session', 'shellsession', 'terminal']);
const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^\s`{]*)/;
const PROMPT = /^(\s*)(?:\$|%)\s/;

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
  let fence = '';
  let console = false;
  let any = false;
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
      console = info === 'console' || info === 'shell-session' || info === 'shellsession' || info === 'terminal';
      masked.push(blank(lineText) + brk);
    } else if (fence !== '' && lineText.trim().startsWith(fence[0]!.repeat(fence.length)) && lineText.trim().replace(/[`~]/g, '') === '') {
      fence = '';
      inShell = false;
      inFstab = false;
      masked.push(blank(lineText) + brk);
    } else if (inShell) {
      any = true;
      // Prompts (`$ sudo mount ...`) are blanked so the command starts where the scanner expects it.
      const prompt = PROMPT.exec(lineText);
      const keep = prompt && (console || prompt[0].trim() === "$") ? lineText.replace(PROMPT, (m) => ' '.repeat(m.length)) : lineText;
      masked.push(keep + brk);
    } else {
      if (inFstab) {
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
