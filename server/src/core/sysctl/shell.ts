import type { Span } from '../text/sourceText';
import { MALFORMED_SYSCTL_COMMAND, parseModprobeLine, parseSysctlLine, type Sink } from './lines';
import { normalizeModuleName } from './lines';
import { fieldsOf, isTemplated, mappedPiece, normalizeSysctlKey, spanOf, contiguousPiece, type Piece } from './piece';

/**
 * A small shell reader for the commands that set kernel parameters: `sysctl -w key=value`,
 * `echo value > /proc/sys/...`, `echo ... >> /etc/sysctl.conf`, and here-documents written to
 * sysctl.d or modprobe.d. It splits words the way the shell does (quotes, escapes, `\` line
 * joins, comments, operators) and keeps each character's document offset. It is not a shell
 * parser: anything else is skipped. Linear in the input; never throws.
 */

interface ShellWord {
  readonly text: string;
  readonly offsets: readonly number[];
  readonly start: number;
  readonly end: number;
}

interface Redirect {
  readonly op: string;
  target?: ShellWord;
}

interface SimpleCommand {
  readonly words: ShellWord[];
  readonly redirects: Redirect[];
  heredoc?: Span;
  pipeTo?: SimpleCommand;
}

const NEWLINE = '\n';

function newCommand(): SimpleCommand {
  return { words: [], redirects: [] };
}

function pieceOf(word: ShellWord): Piece {
  return mappedPiece(word.text, word.offsets, word.end);
}

/** Splits `text[from, to)` into simple commands. `stripPrompt` drops a leading `$ ` (console blocks). */
export function tokenizeShell(text: string, from: number, to: number, stripPrompt = false): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let command = newCommand();
  let chars: string[] | null = null;
  let offsets: number[] = [];
  let wordStart = 0;
  let wordEnd = 0;
  let pendingRedirect: Redirect | null = null;
  const heredocs: { delimiter: string; stripTabs: boolean; command: SimpleCommand }[] = [];
  let awaitingHeredocDelimiter: { stripTabs: boolean } | null = null;

  const startWord = (at: number) => {
    if (chars === null) {
      chars = [];
      offsets = [];
      wordStart = at;
    }
  };
  const push = (ch: string, at: number) => {
    startWord(at);
    chars!.push(ch);
    offsets.push(at);
    wordEnd = at + 1;
  };
  const endWord = () => {
    if (chars === null) return;
    const word: ShellWord = { text: chars.join(''), offsets, start: wordStart, end: wordEnd };
    chars = null;
    if (awaitingHeredocDelimiter) {
      heredocs.push({ delimiter: word.text, stripTabs: awaitingHeredocDelimiter.stripTabs, command });
      awaitingHeredocDelimiter = null;
      return;
    }
    if (pendingRedirect) {
      pendingRedirect.target = word;
      pendingRedirect = null;
      return;
    }
    command.words.push(word);
  };
  const endCommand = (pipe = false) => {
    endWord();
    pendingRedirect = null;
    const next = newCommand();
    if (command.words.length > 0 || command.redirects.length > 0) {
      commands.push(command);
      if (pipe) command.pipeTo = next;
    }
    command = next;
  };
  const skipPrompt = (at: number): number => {
    if (!stripPrompt) return at;
    let i = at;
    while (i < to && (text[i] === ' ' || text[i] === '\t')) i++;
    return text[i] === '$' && text[i + 1] === ' ' ? i + 2 : at;
  };

  let i = skipPrompt(from);
  while (i < to) {
    const ch = text[i]!;
    const next = text[i + 1];
    if (ch === '\\') {
      if (next === '\n') { i += 2; continue; }
      if (next === '\r' && text[i + 2] === '\n') { i += 3; continue; }
      if (i + 1 < to) { startWord(i); push(next!, i + 1); wordStart = Math.min(wordStart, i); }
      i += 2;
      continue;
    }
    if (ch === "'" || (ch === '$' && next === "'")) {
      const open = ch === '$' ? i + 1 : i;
      startWord(i);
      let j = open + 1;
      while (j < to && text[j] !== "'") { push(text[j]!, j); j++; }
      wordEnd = Math.min(j + 1, to);
      i = j + 1;
      continue;
    }
    if (ch === '"') {
      startWord(i);
      let j = i + 1;
      while (j < to && text[j] !== '"') {
        if (text[j] === '\\' && j + 1 < to && '"\\$`\n'.includes(text[j + 1]!)) {
          if (text[j + 1] !== '\n') push(text[j + 1]!, j + 1);
          j += 2;
          continue;
        }
        push(text[j]!, j);
        j++;
      }
      wordEnd = Math.min(j + 1, to);
      i = j + 1;
      continue;
    }
    if (ch === '#' && chars === null) {
      while (i < to && text[i] !== NEWLINE) i++;
      continue;
    }
    if (ch === ' ' || ch === '\t' || ch === '\r') { endWord(); i++; continue; }
    if (ch === NEWLINE) {
      endCommand();
      i++;
      for (const heredoc of heredocs.splice(0)) {
        const bodyStart = i;
        let bodyEnd = to;
        while (i < to) {
          let lineEnd = text.indexOf(NEWLINE, i);
          if (lineEnd < 0 || lineEnd > to) lineEnd = to;
          let line = text.slice(i, lineEnd).replace(/\r$/, '');
          if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
          if (line === heredoc.delimiter) {
            bodyEnd = i;
            i = Math.min(lineEnd + 1, to);
            break;
          }
          i = lineEnd + 1;
        }
        heredoc.command.heredoc = { start: bodyStart, end: Math.min(bodyEnd, to) };
        if (i > to) i = to;
      }
      i = skipPrompt(i);
      continue;
    }
    if (ch === ';' || ch === '(' || ch === ')' || ch === '`') { endCommand(); i += ch === ';' && next === ';' ? 2 : 1; continue; }
    if (ch === '$' && next === '(') { endCommand(); i += 2; continue; }
    if (ch === '&') {
      if (next === '&') { endCommand(); i += 2; continue; }
      if (next === '>') {
        endWord();
        const op = text[i + 2] === '>' ? '&>>' : '&>';
        pendingRedirect = { op };
        command.redirects.push(pendingRedirect);
        i += op.length;
        continue;
      }
      endCommand();
      i++;
      continue;
    }
    if (ch === '|') {
      if (next === '|') { endCommand(); i += 2; continue; }
      endCommand(true);
      i += next === '&' ? 2 : 1;
      continue;
    }
    if (ch === '>' || ch === '<') {
      // `2>` and `1>>`: a file descriptor number directly before the operator is not a word.
      if (chars !== null && /^\d+$/.test((chars as string[]).join(''))) chars = null;
      endWord();
      let op = ch;
      let j = i + 1;
      while (j < to && j < i + 3 && (text[j] === ch || text[j] === '|' || text[j] === '&' || text[j] === '-')) {
        op += text[j];
        j++;
      }
      i = j;
      if (op.startsWith('<<') && !op.startsWith('<<<')) {
        awaitingHeredocDelimiter = { stripTabs: op.endsWith('-') };
        continue;
      }
      pendingRedirect = { op };
      if (op.endsWith('&')) continue; // `2>&1`: the next word is a descriptor, not a file
      command.redirects.push(pendingRedirect);
      continue;
    }
    push(ch, i);
    i++;
  }
  endCommand();
  return commands;
}

const PREFIX_COMMANDS = new Set(['sudo', 'env', 'exec', 'command', 'nohup', 'time', 'builtin', 'doas']);
/** Reserved words before a command: `if sysctl ...; then sysctl -w ...; fi`. */
const SHELL_KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'do', 'while', 'until', '!', '{']);
const SUDO_OPTIONS_WITH_ARGUMENT = new Set(['-u', '-g', '-C', '-h', '-p', '-U', '-r', '-t']);

/** The command's name (`sysctl` for `sudo /sbin/sysctl`) and the words after it. */
function commandOf(command: SimpleCommand): { name: string; args: ShellWord[] } | undefined {
  const words = command.words;
  let k = 0;
  while (k < words.length) {
    const text = words[k]!.text;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(text)) { k++; continue; }
    if (SHELL_KEYWORDS.has(text)) { k++; continue; }
    if (PREFIX_COMMANDS.has(text)) {
      k++;
      while (k < words.length && words[k]!.text.startsWith('-')) {
        k += SUDO_OPTIONS_WITH_ARGUMENT.has(words[k]!.text) ? 2 : 1;
      }
      continue;
    }
    break;
  }
  const nameWord = words[k];
  if (!nameWord) return undefined;
  const name = nameWord.text.slice(nameWord.text.lastIndexOf('/') + 1);
  return { name, args: words.slice(k + 1) };
}

type Target = { kind: 'proc'; word: ShellWord; keyFrom: number } | { kind: 'module-param'; word: ShellWord; module: string; param: string } | { kind: 'sysctl-file' } | { kind: 'modprobe-file' };

const PROC_SYS = '/proc/sys/';
const MODULE_PARAM = /^\/sys\/module\/([A-Za-z0-9_-]+)\/parameters\/([A-Za-z0-9_-]+)$/;

export function isSysctlFilePath(path: string): boolean {
  return /(?:^|\/)sysctl\.conf$/.test(path) || /\/sysctl\.d\/[^/]+\.conf$/.test(path) || /\.sysctl\.conf$/.test(path);
}

export function isModprobeFilePath(path: string): boolean {
  return /\/modprobe\.d\/[^/]+\.conf$/.test(path);
}

function targetOf(word: ShellWord): Target | undefined {
  const path = word.text;
  if (path.startsWith(PROC_SYS) && path.length > PROC_SYS.length) return { kind: 'proc', word, keyFrom: PROC_SYS.length };
  const moduleParam = MODULE_PARAM.exec(path);
  if (moduleParam) return { kind: 'module-param', word, module: moduleParam[1]!, param: moduleParam[2]! };
  if (isSysctlFilePath(path)) return { kind: 'sysctl-file' };
  if (isModprobeFilePath(path)) return { kind: 'modprobe-file' };
  return undefined;
}

/** Where a command's output goes: `> file`, `>> file`, and `| tee [-a] file...`. */
function outputTargets(command: SimpleCommand): Target[] {
  const targets: Target[] = [];
  for (const redirect of command.redirects) {
    if (redirect.target && (redirect.op.startsWith('>') || redirect.op.startsWith('&>'))) {
      const target = targetOf(redirect.target);
      if (target) targets.push(target);
    }
  }
  let piped = command.pipeTo;
  while (piped) {
    const tee = commandOf(piped);
    if (tee?.name === 'tee') {
      for (const arg of tee.args) {
        if (arg.text.startsWith('-')) continue;
        const target = targetOf(arg);
        if (target) targets.push(target);
      }
    }
    piped = piped.pipeTo;
  }
  return targets;
}

/** Joins shell words into one piece with single spaces, as `echo` prints them. */
function joinWords(words: readonly ShellWord[]): Piece {
  let text = '';
  const offsets: number[] = [];
  words.forEach((word, index) => {
    if (index > 0) {
      text += ' ';
      offsets.push(words[index - 1]!.end);
    }
    text += word.text;
    offsets.push(...word.offsets);
  });
  return mappedPiece(text, offsets, words[words.length - 1]?.end ?? 0);
}

function handleSysctl(args: readonly ShellWord[], sink: Sink): void {
  let ignoreFailure = false;
  const positional: ShellWord[] = [];
  for (const arg of args) {
    const text = arg.text;
    if (text.startsWith('--')) {
      if (['--system', '--load', '--all', '--pattern'].some((flag) => text.startsWith(flag))) return;
      if (text === '--ignore') ignoreFailure = true;
      continue;
    }
    if (text.startsWith('-') && !text.includes('=')) {
      if (/[paAXr]/.test(text.slice(1))) return; // loads a file or reads: no assignment here
      if (text.includes('e')) ignoreFailure = true;
      continue;
    }
    positional.push(arg);
  }
  const problem = (from: ShellWord, to: ShellWord, message: string) =>
    sink.problems.push({ code: MALFORMED_SYSCTL_COMMAND, span: { start: from.start, end: to.end }, message });
  for (let p = 0; p < positional.length; p++) {
    const word = positional[p]!;
    const text = word.text;
    const eq = text.indexOf('=');
    const next = positional[p + 1];
    if (eq < 0) {
      if (next && next.text.startsWith('=')) {
        const valueWord = next.text === '=' ? positional[p + 2] : next;
        const last = valueWord ?? next;
        const value = valueWord ? (next.text === '=' ? valueWord.text : next.text.slice(1)) : '';
        problem(word, last, `sysctl reads \`${text}\`, \`=\` and the value as separate arguments: write \`${text}=${value}\` with no spaces around \`=\` (quote a value with spaces).`);
        p += next.text === '=' && valueWord ? 2 : 1;
      }
      continue; // `sysctl net.ipv4.tcp_sack` reads a value
    }
    if (eq === 0) {
      problem(word, word, `\`${text}\` has no key before the \`=\`.`);
      continue;
    }
    const piece = pieceOf(word);
    let valueFrom = eq + 1;
    while (valueFrom < text.length && (text[valueFrom] === ' ' || text[valueFrom] === '\t')) valueFrom++;
    let valueTo = text.length;
    while (valueTo > valueFrom && (text[valueTo - 1] === ' ' || text[valueTo - 1] === '\t')) valueTo--;
    if (valueTo <= valueFrom) {
      if (next && !next.text.includes('=')) {
        problem(word, next, `sysctl reads \`${text}\` and \`${next.text}\` as separate arguments: write \`${text}${next.text}\` (quote a value with spaces).`);
        p++;
      } else {
        problem(word, word, `\`${text}\` has no value after the \`=\`.`);
      }
      continue;
    }
    const rawKey = text.slice(0, eq);
    const value = text.slice(valueFrom, valueTo);
    sink.settings.push({
      uri: sink.uri,
      origin: 'sysctl-w',
      key: normalizeSysctlKey(rawKey),
      rawKey,
      keySpan: spanOf(piece, 0, eq),
      value,
      valueSpan: spanOf(piece, valueFrom, valueTo),
      span: { start: word.start, end: word.end },
      ignoreFailure,
      templated: isTemplated(rawKey) || isTemplated(value),
      fields: fieldsOf(piece, valueFrom, valueTo),
      persistent: false,
    });
  }
}

function handleEcho(command: SimpleCommand, args: readonly ShellWord[], sink: Sink): void {
  const targets = outputTargets(command);
  if (targets.length === 0) return;
  let k = 0;
  while (k < args.length && /^-[neE]+$/.test(args[k]!.text)) k++;
  const values = args.slice(k);
  for (const target of targets) {
    if (target.kind === 'sysctl-file' || target.kind === 'modprobe-file') {
      if (values.length === 0) continue;
      const piece = joinWords(values);
      if (piece.text.includes('\\n')) continue; // `echo -e "a\nb"`: several lines, not judged
      if (target.kind === 'sysctl-file') parseSysctlLine(piece, sink, 'sysctl', true);
      else parseModprobeLine(piece, sink, true);
      continue;
    }
    if (values.length === 0) {
      sink.problems.push({ code: MALFORMED_SYSCTL_COMMAND, span: { start: target.word.start, end: target.word.end }, message: '`echo` with no value writes an empty line, which the kernel rejects.' });
      continue;
    }
    const piece = joinWords(values);
    const targetPiece = pieceOf(target.word);
    const value = piece.text.trim();
    let key: string;
    let keySpan: Span;
    let rawKey: string;
    let moduleSpan: Span | undefined;
    if (target.kind === 'proc') {
      rawKey = target.word.text.slice(target.keyFrom);
      key = normalizeSysctlKey(rawKey);
      keySpan = spanOf(targetPiece, target.keyFrom, target.word.text.length);
    } else {
      rawKey = target.param;
      key = `${normalizeModuleName(target.module)}.${normalizeModuleName(target.param)}`;
      const paramFrom = target.word.text.length - target.param.length;
      keySpan = spanOf(targetPiece, paramFrom, target.word.text.length);
      const moduleFrom = '/sys/module/'.length;
      moduleSpan = spanOf(targetPiece, moduleFrom, moduleFrom + target.module.length);
    }
    sink.settings.push({
      uri: sink.uri,
      origin: 'proc-echo',
      key,
      rawKey,
      keySpan,
      ...(moduleSpan ? { moduleSpan } : {}),
      value,
      valueSpan: { start: values[0]!.start, end: values[values.length - 1]!.end },
      span: { start: values[0]!.start, end: target.word.end },
      ignoreFailure: false,
      templated: isTemplated(value) || isTemplated(rawKey),
      fields: fieldsOf(piece, 0, piece.text.length),
      persistent: false,
    });
  }
}

/** `cat > /etc/sysctl.d/90-nfs.conf <<EOF ... EOF` and `tee /etc/modprobe.d/sunrpc.conf <<EOF`. */
function handleHeredoc(command: SimpleCommand, name: string, args: readonly ShellWord[], text: string, sink: Sink): void {
  const body = command.heredoc;
  if (!body) return;
  const targets = outputTargets(command);
  if (name === 'tee') for (const arg of args) if (!arg.text.startsWith('-')) { const t = targetOf(arg); if (t) targets.push(t); }
  const kind = targets.find((t) => t.kind === 'sysctl-file' || t.kind === 'modprobe-file')?.kind;
  if (!kind) return;
  let lineStart = body.start;
  while (lineStart < body.end) {
    let lineEnd = text.indexOf(NEWLINE, lineStart);
    if (lineEnd < 0 || lineEnd > body.end) lineEnd = body.end;
    const lineText = text.slice(lineStart, lineEnd).replace(/\r$/, '');
    const piece = contiguousPiece(lineText, lineStart);
    if (kind === 'sysctl-file') parseSysctlLine(piece, sink, 'sysctl', true);
    else parseModprobeLine(piece, sink, true);
    lineStart = lineEnd + 1;
  }
}

/** Finds kernel settings in shell text `text[from, to)`. */
export function scanShell(text: string, from: number, to: number, sink: Sink, stripPrompt = false): void {
  for (const command of tokenizeShell(text, from, to, stripPrompt)) {
    const parsed = commandOf(command);
    if (!parsed) continue;
    if (parsed.name === 'sysctl') handleSysctl(parsed.args, sink);
    else if (parsed.name === 'echo') handleEcho(command, parsed.args, sink);
    if (command.heredoc) handleHeredoc(command, parsed.name, parsed.args, text, sink);
  }
}

/** Runs the command handlers on words that are already split (cloud-init `runcmd: - [sysctl, -w, ...]`). */
export function scanWords(words: readonly { text: string; start: number; end: number; offsets: readonly number[] }[], sink: Sink): void {
  const command: SimpleCommand = { words: [...words], redirects: [] };
  const parsed = commandOf(command);
  if (parsed?.name === 'sysctl') handleSysctl(parsed.args, sink);
}
