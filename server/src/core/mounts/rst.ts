import { rstBlocks } from '../text/rst';
import type { SourceText } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { fieldsOf, parseFstabLine } from './fstab';
import type { MountEntry } from './model';
import { isNfsType } from './optionText';
import { shellMounts } from './shellMounts';

const SHELL_LANGUAGES = new Set(['', 'bash', 'sh', 'shell', 'console', 'zsh', 'shell-session', 'none', 'text']);
const PROMPT = /^([ \t]*)(?:\$|#|%)[ \t]/;

/**
 * Mounts in a reStructuredText document: literal blocks (`::` and `.. code-block:: bash`) read as
 * shell, and lines of those blocks that are NFS fstab entries. Text outside the blocks is blanked
 * (same length), so every span stays an offset of the document.
 */
export function parseRst(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const text = source.text;
  if (!text.includes('mount') && !text.includes('fstab') && !text.includes('nfs')) return [];
  const mounts: MountEntry[] = [];
  const masked = text.replace(/[^\r\n]/g, ' ').split('');
  let any = false;
  for (const block of rstBlocks(source)) {
    if (!SHELL_LANGUAGES.has(block.language) && block.language !== 'fstab') continue;
    for (let line = block.from; line < block.to; line++) {
      const lineText = source.lineText(line);
      const start = source.lineStart(line);
      const fields = fieldsOf(lineText, start);
      if (fields.length >= 4 && isNfsType(fields[2]!.text) && fields[0]!.text.includes(':')) {
        const entry = parseFstabLine(lineText, start, uri, problems, 'rst');
        if (entry) mounts.push(entry);
        continue;
      }
      if (block.language === 'fstab') continue;
      any = true;
      const prompt = PROMPT.exec(lineText);
      const keepFrom = prompt ? prompt[0].length : 0;
      for (let i = keepFrom; i < lineText.length; i++) masked[start + i] = lineText[i]!;
    }
  }
  if (any) for (const entry of shellMounts(masked.join(''), { uri, host: 'rst', problems })) mounts.push(entry);
  return mounts;
}
