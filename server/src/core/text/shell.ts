import type { Span } from './sourceText';

/**
 * The one shell tokenizer: enough of POSIX sh to find simple commands, their words with exact
 * document offsets, redirections and here-documents. Mount and kernel-setting extraction both read
 * scripts through it and keep only their own recognition. It never evaluates anything, is linear
 * in the input and never throws.
 */

/** `value[at]` stands at document offset `offset`; the characters after it follow on until the next run. */
export interface OffsetRun {
  readonly at: number;
  readonly offset: number;
}

export interface ShellWord {
  /** The word as written, quotes included: `text.slice(span.start, span.end)`. */
  readonly raw: string;
  /** The word with quotes removed, backslash escapes resolved and `\` line joins dropped. */
  readonly value: string;
  readonly span: Span;
  /** Where each character of `value` stands in the document; read it with `offsetAt`. */
  readonly runs: readonly OffsetRun[];
  /** Holds an expansion (`$VAR`, `${var}`, `$(cmd)`, backticks) or a Jinja placeholder. */
  readonly templated: boolean;
  /** The insides of `$(...)` and backtick substitutions, to be read again as scripts. */
  readonly substitutions: readonly Span[];
}

export interface ShellRedirect {
  /** `>`, `>>`, `<`, `<<`, `<<-`, `<<<`, `>&`, `&>`, `&>>`, `>|`... */
  readonly op: string;
  /** The descriptor written before the operator: `2` in `2>/dev/null`. */
  readonly fd?: string;
  /** The file (or, for `<<`, the delimiter). */
  readonly target?: ShellWord;
  /** Here-document body: the lines between the operator's line and the delimiter line. */
  readonly body?: Span;
}

export interface ShellCommand {
  readonly words: readonly ShellWord[];
  readonly redirects: readonly ShellRedirect[];
  /** What ended the command: `;`, `;;`, `&&`, `||`, `|`, `|&`, `&`, `(`, `)`, `\n`, or `''` at the end of the text. */
  readonly separator: string;
}

export interface ShellOptions {
  /** Drop a leading `$ ` prompt on each line (Markdown `console` blocks). */
  readonly stripPrompt?: boolean;
  /**
   * Called at each line start where reading could begin afresh: no word, command, pipeline or
   * here-document is open there, so the commands from it on are those a read starting there gives
   * (workspace/shellReuse.ts). Returning true ends the reading there.
   */
  readonly freshLine?: (offset: number) => boolean | void;
}

type MutableRedirect = { -readonly [K in keyof ShellRedirect]: ShellRedirect[K] };

const isBlank = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\r';
const OPERATORS = new Set([';', '&', '|', '(', ')', '<', '>']);
/** Characters that end a plain run inside a word. */
const SPECIAL = new Set([' ', '\t', '\n', '\r', ';', '&', '|', '(', ')', '<', '>', '\\', "'", '"', '$', '`', '{']);
/** Characters that end a plain run inside double quotes. */
const SPECIAL_IN_DOUBLE_QUOTES = new Set(['"', '\\', '$', '`']);
/** Inside double quotes a backslash escapes only these (POSIX 2.2.3). */
const ESCAPABLE_IN_DOUBLE_QUOTES = new Set(['"', '\\', '$', '`', '\n']);
const REDIRECT_TAIL = new Set(['&', '|', '-']);
const TWO_CHAR_SEPARATORS = new Set(['&&', '||', ';;', '|&']);
const DIGITS = /^\d+$/;

/** Splits `text[from, to)` into simple commands. */
export function tokenizeShell(text: string, from = 0, to = text.length, options: ShellOptions = {}): ShellCommand[] {
  const commands: ShellCommand[] = [];
  split(text, from, to, options, (command) => commands.push(command));
  return commands;
}

/**
 * Calls `visit` with each pipeline of `text[from, to)` in order: the commands joined by `|` or
 * `|&` (most often one command). Readers that look at most as far as the end of a pipeline (what
 * `tee` writes, `echo ... | tee -a /etc/fstab`) read a script this way: its commands are not all
 * kept at once. A 10 MB script has 200,000 commands, and keeping every word and span of them was
 * most of its memory (issue 18.6).
 */
export function forEachPipeline(
  text: string,
  from: number,
  to: number,
  options: ShellOptions,
  visit: (pipeline: readonly ShellCommand[]) => void,
): void {
  let pipeline: ShellCommand[] = [];
  split(text, from, to, options, (command) => {
    pipeline.push(command);
    if (pipesToNext(command)) return;
    const done = pipeline;
    pipeline = [];
    visit(done);
  });
  if (pipeline.length > 0) visit(pipeline);
}

function split(
  text: string,
  from: number,
  to: number,
  options: ShellOptions,
  emit: (command: ShellCommand) => void,
): void {
  let words: ShellWord[] = [];
  let redirects: MutableRedirect[] = [];
  let pendingHeredocs: { redirect: MutableRedirect; delimiter: string; stripTabs: boolean }[] = [];

  // A command waits until the here-documents of its line are read (their bodies follow the line).
  const waiting: ShellCommand[] = [];
  // Whether the last command emitted pipes into the next one (a pipeline is still open).
  let piped = false;
  const flush = () => {
    for (const command of waiting) {
      piped = pipesToNext(command);
      emit(command);
    }
    waiting.length = 0;
  };
  const endCommand = (separator: string) => {
    if (words.length > 0 || redirects.length > 0)
      waiting.push({ words, redirects: redirects.length > 0 ? redirects : NONE, separator });
    words = [];
    redirects = [];
    if (pendingHeredocs.length === 0) flush();
  };
  const skipPrompt = (at: number): number => {
    if (!options.stripPrompt) return at;
    let i = at;
    while (i < to && (text[i] === ' ' || text[i] === '\t')) i++;
    return text[i] === '$' && i + 1 < to && text[i + 1] === ' ' ? i + 2 : at;
  };
  /** Reads the redirection whose operator starts at `i`; returns where reading goes on. */
  const readRedirect = (i: number, fd: string | undefined): number => {
    let op = text[i]!;
    let j = i + 1;
    if (op === '&') {
      op += '>'; // `&>` and `&>>`
      j++;
    }
    const direction = op[op.length - 1]!; // `>>`, `<<`, `<<-`, `>&`, `>|`, but `<>` is `<` then `>`
    const longest = j + 2;
    while (j < to && j < longest && (text[j] === direction || REDIRECT_TAIL.has(text[j]!))) op += text[j++];
    while (j < to && (text[j] === ' ' || text[j] === '\t')) j++;
    // A `#` there starts a comment, as in sh (`echo >#x` is a syntax error).
    const target =
      j < to && !OPERATORS.has(text[j]!) && text[j] !== '\n' && text[j] !== '\r' && text[j] !== '#'
        ? readWord(text, j, to)
        : undefined;
    const redirect: MutableRedirect = { op, ...(fd !== undefined ? { fd } : {}), ...(target ? { target } : {}) };
    redirects.push(redirect);
    if (target && (op === '<<' || op === '<<-'))
      pendingHeredocs.push({ redirect, delimiter: target.value, stripTabs: op === '<<-' });
    return target ? target.span.end : j;
  };

  let i = skipPrompt(from);
  while (i < to) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (isBlank(ch)) {
      i++;
      continue;
    }
    if (ch === '\\' && (next === '\n' || (next === '\r' && text[i + 2] === '\n'))) {
      i += next === '\n' ? 2 : 3;
      continue;
    }
    if (ch === '\n') {
      endCommand('\n');
      i++;
      // A here-document without its delimiter line runs to the end: text added after it is more of it.
      let unterminated = false;
      if (pendingHeredocs.length > 0) {
        i = readHeredocBodies(text, i, to, pendingHeredocs);
        unterminated = pendingHeredocs.some((heredoc) => heredoc.redirect.body!.end >= to);
        pendingHeredocs = [];
        flush();
      }
      if (options.freshLine && !piped && !unterminated && options.freshLine(i) === true) break;
      i = skipPrompt(i);
      continue;
    }
    if (ch === '#') {
      while (i < to && text[i] !== '\n') i++;
      continue;
    }
    if (ch === '&' && next === '>' && i + 1 < to) {
      i = readRedirect(i, undefined);
      continue;
    }
    if (ch === '<' || ch === '>') {
      i = readRedirect(i, undefined);
      continue;
    }
    if (OPERATORS.has(ch)) {
      const two = text.slice(i, i + 2);
      const op = i + 1 < to && TWO_CHAR_SEPARATORS.has(two) ? two : ch;
      endCommand(op);
      i += op.length;
      continue;
    }
    const word = readWord(text, i, to);
    i = Math.max(word.span.end, i + 1);
    // `2>/dev/null`: the descriptor number belongs to the redirection.
    if (DIGITS.test(word.raw) && (text[i] === '>' || text[i] === '<') && i < to) {
      i = readRedirect(i, word.raw);
      continue;
    }
    words.push(word);
  }
  endCommand('');
  flush();
}

/** Reads one word starting at `start` (not a blank, newline, operator or comment). */
function readWord(text: string, start: number, to: number): ShellWord {
  let value = '';
  const runs: OffsetRun[] = [];
  const substitutions: Span[] = [];
  let templated = false;
  let end = start;
  const add = (chars: string, offset: number) => {
    if (chars.length === 0) return;
    const last = runs[runs.length - 1];
    if (!last || last.offset + (value.length - last.at) !== offset) runs.push({ at: value.length, offset });
    value += chars;
  };
  let i = start;
  while (i < to) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (isBlank(ch) || ch === '\n' || OPERATORS.has(ch)) break;
    if (ch === '\\') {
      if (i + 1 >= to) {
        i = end = to; // a backslash at the very end escapes nothing
        continue;
      }
      if (next === '\n' || (next === '\r' && text[i + 2] === '\n')) {
        i += next === '\n' ? 2 : 3; // a line join inside a word: the word goes on
        continue;
      }
      add(next!, i + 1);
      i = end = i + 2;
      continue;
    }
    if (ch === "'" || (ch === '$' && next === "'")) {
      const open = ch === '$' ? i + 1 : i;
      const found = text.indexOf("'", open + 1);
      const close = found < 0 || found >= to ? to : found;
      add(text.slice(open + 1, close), open + 1);
      i = end = Math.min(close + 1, to);
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < to && text[j] !== '"') {
        const c = text[j]!;
        if (c === '\\' && j + 1 < to && ESCAPABLE_IN_DOUBLE_QUOTES.has(text[j + 1]!)) {
          if (text[j + 1] !== '\n') add(text[j + 1]!, j + 1);
          j += 2;
          continue;
        }
        if (c === '$' || c === '`') templated = true;
        let k = j + 1;
        while (k < to && !SPECIAL_IN_DOUBLE_QUOTES.has(text[k]!)) k++;
        add(text.slice(j, k), j);
        j = k;
      }
      i = end = Math.min(j + 1, to);
      continue;
    }
    if (ch === '$' && (next === '(' || next === '{')) {
      templated = true;
      const close = next === '(' ? ')' : '}';
      let depth = 0;
      let j = i + 1;
      while (j < to) {
        if (text[j] === next) depth++;
        else if (text[j] === close && --depth === 0) break;
        else if (next === '{' && text[j] === '\n') break;
        j++;
      }
      const closed = j < to && text[j] === close;
      if (next === '(') substitutions.push({ start: i + 2, end: Math.min(j, to) });
      const stop = closed ? j + 1 : j;
      add(text.slice(i, stop), i);
      i = end = stop;
      continue;
    }
    if (ch === '`') {
      templated = true;
      const found = text.indexOf('`', i + 1);
      const close = found < 0 || found >= to ? to : found;
      substitutions.push({ start: i + 1, end: close });
      const stop = Math.min(close + 1, to);
      add(text.slice(i, stop), i);
      i = end = stop;
      continue;
    }
    if (ch === '$' || (ch === '{' && next === '{')) templated = true;
    // A run of plain characters is added at once (a 1 MB option list is one word).
    let j = i + 1;
    while (j < to && !SPECIAL.has(text[j]!)) j++;
    add(text.slice(i, j), i);
    i = end = j;
  }
  const raw = text.slice(start, end);
  // A word written without quotes or escapes: its value is its text (one string kept, not two).
  const plain = runs.length === 1 && runs[0]!.offset === start && value.length === end - start;
  return {
    raw,
    value: plain ? raw : value,
    span: { start, end },
    runs,
    templated,
    substitutions: substitutions.length > 0 ? substitutions : NONE,
  };
}

/** The empty list words and commands share (never changed: callers only read them). */
const NONE: readonly never[] = Object.freeze([]);

/** Consumes here-document bodies starting at `i`, in order; records each body's span on its redirect. */
function readHeredocBodies(
  text: string,
  i: number,
  to: number,
  pending: readonly { redirect: MutableRedirect; delimiter: string; stripTabs: boolean }[],
): number {
  for (const heredoc of pending) {
    const bodyStart = i;
    let bodyEnd = to;
    while (i < to) {
      let lineEnd = text.indexOf('\n', i);
      if (lineEnd < 0 || lineEnd > to) lineEnd = to;
      let line = text.slice(i, lineEnd);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (heredoc.stripTabs) line = stripLeadingTabs(line);
      const lineStart = i;
      i = Math.min(lineEnd + 1, to);
      if (line === heredoc.delimiter) {
        bodyEnd = lineStart;
        break;
      }
    }
    heredoc.redirect.body = { start: bodyStart, end: bodyEnd };
  }
  return i;
}

function stripLeadingTabs(line: string): string {
  let k = 0;
  while (line[k] === '\t') k++;
  return line.slice(k);
}

/** The document offset of `word.value[index]`; `word.span.end` past the last character. */
export function offsetAt(word: Pick<ShellWord, 'value' | 'runs' | 'span'>, index: number): number {
  if (index >= word.value.length || word.runs.length === 0) return word.span.end;
  let low = 0;
  let high = word.runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (word.runs[middle]!.at <= index) low = middle;
    else high = middle - 1;
  }
  const run = word.runs[low]!;
  return run.offset + Math.max(0, index - run.at);
}

/** A word written without shell quoting, whose value is `text[valueStart, valueEnd)` (an item of a YAML flow list). */
export function literalWord(text: string, span: Span, valueStart: number, valueEnd: number): ShellWord {
  const value = text.slice(valueStart, valueEnd);
  return {
    raw: text.slice(span.start, span.end),
    value,
    span,
    runs: value.length > 0 ? [{ at: 0, offset: valueStart }] : [],
    templated: value.includes('$') || value.includes('`') || value.includes('{{'),
    substitutions: [],
  };
}

/** The lines of a here-document body, without their line breaks, each with its document offset. */
export function bodyLines(text: string, body: Span): { text: string; start: number }[] {
  const lines: { text: string; start: number }[] = [];
  let start = body.start;
  while (start < body.end) {
    let end = text.indexOf('\n', start);
    if (end < 0 || end > body.end) end = body.end;
    const line = text.slice(start, end);
    lines.push({ text: line.endsWith('\r') ? line.slice(0, -1) : line, start });
    start = end + 1;
  }
  return lines;
}

/** Words that run the next word as the command, and shell keywords before a command. */
const PREFIX_COMMANDS = new Set([
  'sudo',
  'doas',
  'env',
  'exec',
  'command',
  'nohup',
  'time',
  'builtin',
  'xargs',
  'timeout',
  'then',
  'do',
  'else',
  'elif',
  'if',
  'while',
  'until',
  '!',
  '{',
]);
/** Options of those prefixes that take an argument (`sudo -u root`). */
const PREFIX_OPTIONS_WITH_ARGUMENT = new Set(['-u', '-g', '-C', '-p', '-U', '-r', '-t', '-h', '--user', '--group']);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * The index of the word that names the command, past `VAR=x`, `sudo -E`, `env`, `timeout 30`,
 * `then` and the like; `words.length` when there is none.
 */
export function commandIndex(words: readonly Pick<ShellWord, 'raw' | 'value'>[]): number {
  let i = 0;
  while (i < words.length) {
    const word = words[i]!;
    if (ASSIGNMENT.test(word.raw)) {
      i++;
      continue;
    }
    if (!PREFIX_COMMANDS.has(word.value)) break;
    i++;
    while (i < words.length && words[i]!.value.startsWith('-')) {
      const option = words[i]!.value;
      i += PREFIX_OPTIONS_WITH_ARGUMENT.has(option) ? 2 : 1;
      if (option === '--') break;
    }
    if (word.value === 'timeout' && i < words.length) i++; // the duration
  }
  return Math.min(i, words.length);
}

/** `mount` for `/usr/bin/mount`. */
export function commandBaseName(value: string): string {
  return value.slice(value.lastIndexOf('/') + 1);
}

/** True when a command's output goes on to the next command. */
export function pipesToNext(command: ShellCommand): boolean {
  return command.separator === '|' || command.separator === '|&';
}
