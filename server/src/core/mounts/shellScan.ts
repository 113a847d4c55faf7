import type { Span } from '../text/sourceText';

/**
 * A small, linear shell scanner: enough of POSIX sh to find simple commands, their words with
 * exact offsets, redirections and here-documents. It never evaluates anything and never throws.
 */
export interface Word {
  /** The word as written, quotes included. */
  readonly raw: string;
  /** The word with quotes removed and backslash escapes resolved (best effort). */
  readonly value: string;
  readonly span: Span;
  /** Holds an expansion (`$VAR`, `${var}`, `$(cmd)`, backticks) or a Jinja placeholder. */
  readonly templated: boolean;
}

export interface Redirect {
  readonly op: string;
  readonly target?: Word;
  /** Here-document body (`<<EOF`): the lines between the operator's line and the delimiter. */
  readonly body?: Span;
}

export interface Command {
  readonly words: Word[];
  readonly redirects: Redirect[];
  /** The operator that ended the command: `;`, `&&`, `||`, `|`, `&`, newline or end of text. */
  readonly separator: string;
}

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t';
const isBreak = (ch: string | undefined) => ch === '\n' || ch === '\r';
const OPERATOR_CHARS = new Set([';', '&', '|', '(', ')', '<', '>']);
/** Characters that end a plain run inside a word. */
const SPECIAL = new Set([' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>', '\\', "'", '"', '$', '`', '{']);

export function scanShell(text: string, from = 0, to = text.length): Command[] {
  const commands: Command[] = [];
  let words: Word[] = [];
  let redirects: Redirect[] = [];
  const pendingHeredocs: { index: number; delimiter: string; stripTabs: boolean; redirects: Redirect[] }[] = [];
  let i = from;

  const endCommand = (separator: string) => {
    if (words.length > 0 || redirects.length > 0) commands.push({ words, redirects, separator });
    words = [];
    redirects = [];
  };

  const readWord = (): Word | undefined => {
    const start = i;
    let value = '';
    let templated = false;
    while (i < to) {
      const ch = text[i]!;
      if (isBlank(ch) || isBreak(ch) || OPERATOR_CHARS.has(ch)) break;
      if (ch === '\\') {
        if (isBreak(text[i + 1])) break; // line continuation ends the word
        value += text[i + 1] ?? '';
        i += 2;
        continue;
      }
      if (ch === "'") {
        const close = text.indexOf("'", i + 1);
        const end = close < 0 || close >= to ? to : close;
        value += text.slice(i + 1, end);
        i = end + 1;
        continue;
      }
      if (ch === '"') {
        i++;
        while (i < to && text[i] !== '"') {
          if (text[i] === '\\' && i + 1 < to) {
            value += text[i + 1];
            i += 2;
            continue;
          }
          if (text[i] === '$' || text[i] === '`') templated = true;
          value += text[i];
          i++;
        }
        i++;
        continue;
      }
      if (ch === '$' && (text[i + 1] === '(' || text[i + 1] === '{')) {
        templated = true;
        const open = text[i + 1]!;
        const close = open === '(' ? ')' : '}';
        let depth = 0;
        const begin = i;
        i++;
        while (i < to) {
          if (text[i] === open) depth++;
          else if (text[i] === close) {
            depth--;
            if (depth === 0) break;
          } else if (isBreak(text[i]) && open === '{') break;
          i++;
        }
        i = Math.min(i + 1, to);
        value += text.slice(begin, i);
        continue;
      }
      if (ch === '`') {
        templated = true;
        const close = text.indexOf('`', i + 1);
        const end = close < 0 || close >= to ? to : close + 1;
        value += text.slice(i, end);
        i = end;
        continue;
      }
      if (ch === '$' || (ch === '{' && text[i + 1] === '{')) templated = true;
      // A run of plain characters is appended at once (a 1 MB option list is one word).
      let j = i + 1;
      while (j < to && !SPECIAL.has(text[j]!)) j++;
      value += text.slice(i, j);
      i = j;
    }
    if (i === start) return undefined;
    const end = Math.min(i, to);
    return { raw: text.slice(start, end), value, span: { start, end }, templated };
  };

  while (i < to) {
    const ch = text[i]!;
    if (isBlank(ch)) {
      i++;
      continue;
    }
    if (ch === '\\' && isBreak(text[i + 1])) {
      i += text[i + 1] === '\r' && text[i + 2] === '\n' ? 3 : 2;
      continue;
    }
    if (isBreak(ch)) {
      endCommand('\n');
      i += ch === '\r' && text[i + 1] === '\n' ? 2 : 1;
      if (pendingHeredocs.length > 0) i = readHeredocs(text, i, to, pendingHeredocs.splice(0));
      continue;
    }
    if (ch === '#' ) {
      while (i < to && !isBreak(text[i])) i++;
      continue;
    }
    if (ch === ';' || ch === '&' || ch === '|' || ch === '(' || ch === ')') {
      const two = text.slice(i, i + 2);
      const op = two === '&&' || two === '||' || two === ';;' || two === '|&' ? two : ch;
      if (op === '&' && text[i + 1] === '>') {
        // `&>file`: a redirection, not a separator.
        i += 2;
        while (isBlank(text[i])) i++;
        const target = readWord();
        redirects.push({ op: '&>', ...(target ? { target } : {}) });
        continue;
      }
      endCommand(op);
      i += op.length;
      continue;
    }
    if (ch === '<' || ch === '>') {
      let op = ch;
      let j = i + 1;
      while (j < to && j - i < 3 && (text[j] === '<' || text[j] === '>' || text[j] === '&' || text[j] === '|' || text[j] === '-')) {
        op += text[j];
        j++;
      }
      i = j;
      while (isBlank(text[i])) i++;
      const target = readWord();
      const redirect: Redirect = { op, ...(target ? { target } : {}) };
      if ((op === '<<' || op === '<<-') && target) {
        pendingHeredocs.push({ index: redirects.length, delimiter: target.value, stripTabs: op === '<<-', redirects });
      }
      redirects.push(redirect);
      continue;
    }
    const word = readWord();
    if (!word) {
      i++;
      continue;
    }
    // `2>/dev/null`: the file descriptor number belongs to the redirection.
    if (/^\d+$/.test(word.raw) && (text[i] === '>' || text[i] === '<')) continue;
    words.push(word);
  }
  endCommand('');
  return commands;
}

/** Consumes here-document bodies starting at `i`; records each body's span on its redirect. */
function readHeredocs(
  text: string,
  i: number,
  to: number,
  pending: { index: number; delimiter: string; stripTabs: boolean; redirects: Redirect[] }[],
): number {
  for (const heredoc of pending) {
    const bodyStart = i;
    let bodyEnd = to;
    while (i < to) {
      let lineEnd = text.indexOf('\n', i);
      if (lineEnd < 0 || lineEnd > to) lineEnd = to;
      let line = text.slice(i, lineEnd).replace(/\r$/, '');
      if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
      if (line === heredoc.delimiter) {
        bodyEnd = i;
        i = Math.min(lineEnd + 1, to);
        break;
      }
      i = Math.min(lineEnd + 1, to);
      if (i >= to) bodyEnd = to;
    }
    const redirect = heredoc.redirects[heredoc.index];
    if (redirect) heredoc.redirects[heredoc.index] = { ...redirect, body: { start: bodyStart, end: bodyEnd } };
  }
  return i;
}
