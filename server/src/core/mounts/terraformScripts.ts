import type { ParseProblem } from '../diagnostics';
import type { SourceText, Span } from '../text/sourceText';
import type { OffsetRun } from '../text/shell';
import type { MountEntry } from './model';
import { derivedScriptMounts, mayHoldMounts, shellMounts } from './shellMounts';

/**
 * Mounts run by Terraform's `remote-exec` provisioner on the machine a resource creates:
 *
 * ```hcl
 * provisioner "remote-exec" {
 *   inline = [
 *     "sudo mkdir -p /data",
 *     "sudo mount -t nfs -o rw,hard,vers=3 ${azurerm_netapp_volume.data.mount_ip_addresses[0]}:/data /data",
 *   ]
 * }
 * ```
 *
 * Each string of `inline` is a command line the provisioner runs (Terraform's "remote-exec
 * Provisioner" page: "a list of command strings"); they are read as one shell script, each
 * string in its place. A string with escapes (`\"`) is read from its value, its spans taken back
 * to the document. `${...}` interpolations are unknown parts (the shell reader sees an expansion).
 * `script`/`scripts` name files, which are read as the shell scripts they are. A light scan of
 * the block (strings, comments, nested brackets): the estate reader's tree is not needed here.
 * Never throws.
 */
export function terraformScriptMounts(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  const text = source.text;
  if (!text.includes('remote-exec') || !mayHoldMounts(text)) return [];
  const mounts: MountEntry[] = [];
  for (const block of text.matchAll(REMOTE_EXEC)) {
    const open = block.index + block[0].length - 1;
    const close = closing(text, open, '{', '}');
    INLINE.lastIndex = open + 1;
    for (;;) {
      const inline = INLINE.exec(text);
      if (!inline || inline.index >= close) break;
      const listOpen = inline.index + inline[0].length - 1;
      const listClose = Math.min(closing(text, listOpen, '[', ']'), close);
      for (const string of strings(text, listOpen + 1, listClose)) {
        const host = { uri, host: 'shell' as const, problems };
        if (string.plain) for (const m of shellMounts(text, host, string.start, string.end)) mounts.push(m);
        else for (const m of derivedScriptMounts(string.word, host)) mounts.push(m);
      }
      INLINE.lastIndex = listClose;
    }
  }
  return mounts;
}

const REMOTE_EXEC = /\bprovisioner\s+"remote-exec"\s*\{/g;
const INLINE = /\binline\s*=\s*\[/g;

/** Where the bracket opened at `open` closes (past strings and comments), or the end of the text. */
function closing(text: string, open: number, left: string, right: string): number {
  let depth = 0;
  let i = open;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      i = stringEnd(text, i) + 1;
      continue;
    }
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? text.length : eol + 1;
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      continue;
    }
    if (c === left) depth++;
    else if (c === right && --depth === 0) return i;
    i++;
  }
  return text.length;
}

/** The index of the closing quote of the string opened at `i` (escapes and `${ ... }` with their own strings skipped). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j]!;
    if (c === '\\') {
      j += 2;
      continue;
    }
    if (c === '"' || c === '\n') return j;
    if ((c === '$' || c === '%') && text[j + 1] === '{' && text[j - 1] !== c) {
      j = closing(text, j + 1, '{', '}') + 1;
      continue;
    }
    j++;
  }
  return text.length;
}

type Found =
  | { plain: true; start: number; end: number }
  | { plain: false; word: { value: string; runs: OffsetRun[]; span: Span } };

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', '\\': '\\' };

/** The strings of a list `text[from, to)`: in place when written without escapes, else with their values. */
function* strings(text: string, from: number, to: number): Generator<Found> {
  let i = from;
  while (i < to) {
    const c = text[i]!;
    if (c === '#' || (c === '/' && text[i + 1] === '/')) {
      const eol = text.indexOf('\n', i);
      i = eol < 0 ? to : eol + 1;
      continue;
    }
    if (c !== '"') {
      i++;
      continue;
    }
    const end = Math.min(stringEnd(text, i), to);
    const body = text.slice(i + 1, end);
    if (!body.includes('\\') && !body.includes('$${')) yield { plain: true, start: i + 1, end };
    else {
      let value = '';
      const runs: OffsetRun[] = [];
      const put = (chars: string, at: number) => {
        const last = runs[runs.length - 1];
        if (!last || last.offset + (value.length - last.at) !== at) runs.push({ at: value.length, offset: at });
        value += chars;
      };
      for (let j = i + 1; j < end; j++) {
        const ch = text[j]!;
        if (ch === '\\' && j + 1 < end) {
          put(ESCAPES[text[j + 1]!] ?? text[j + 1]!, j + 1);
          j++;
        } else if (ch === '$' && text.startsWith('$${', j)) {
          // `$${` is a literal `${` in HCL.
          put('$', j + 1);
          j++;
        } else put(ch, j);
      }
      yield { plain: false, word: { value, runs, span: { start: i + 1, end } } };
    }
    i = end + 1;
  }
}
