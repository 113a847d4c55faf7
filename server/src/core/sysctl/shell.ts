import type { Span } from '../text/sourceText';
import {
  bodyLines,
  commandBaseName,
  commandIndex,
  forEachPipeline,
  offsetAt,
  pipesToNext,
  type ShellCommand,
  type ShellWord,
} from '../text/shell';
import { MALFORMED_SYSCTL_COMMAND, parseModprobeLine, parseSysctlLine, type Sink } from './lines';
import { normalizeModuleName } from './lines';
import { fieldsOf, isTemplated, normalizeSysctlKey, spanOf, contiguousPiece, subPiece, type Piece } from './piece';

/**
 * The commands that set kernel parameters: `sysctl -w key=value`, `echo value > /proc/sys/...`,
 * `echo ... >> /etc/sysctl.conf`, `... | tee file`, and here-documents written to sysctl.d or
 * modprobe.d. The words come from the shared shell tokenizer (`text/shell.ts`); anything else is
 * skipped. Linear in the input; never throws.
 */

/** `$(sysctl -w ...)` inside `$(...)` inside a script is as deep as scripts go. */
const MAX_SUBSTITUTION_DEPTH = 2; // not a fact: nesting guard

function pieceOf(word: ShellWord): Piece {
  return { text: word.value, at: (index) => offsetAt(word, index) };
}

/** The command's name (`sysctl` for `sudo /sbin/sysctl`) and the words after it. */
function commandOf(words: readonly ShellWord[]): { name: string; args: readonly ShellWord[] } | undefined {
  const k = commandIndex(words);
  const nameWord = words[k];
  if (!nameWord) return undefined;
  return { name: commandBaseName(nameWord.value), args: words.slice(k + 1) };
}

type Target =
  | { kind: 'proc'; word: ShellWord; keyFrom: number }
  | { kind: 'module-param'; word: ShellWord; module: string; param: string }
  | { kind: 'sysctl-file' }
  | { kind: 'modprobe-file' };

const PROC_SYS = '/proc/sys/';
const MODULE_PARAM = /^\/sys\/module\/([A-Za-z0-9_-]+)\/parameters\/([A-Za-z0-9_-]+)$/;

export function isSysctlFilePath(path: string): boolean {
  return /(?:^|\/)sysctl\.conf$/.test(path) || /\/sysctl\.d\/[^/]+\.conf$/.test(path) || /\.sysctl\.conf$/.test(path);
}

export function isModprobeFilePath(path: string): boolean {
  return /\/modprobe\.d\/[^/]+\.conf$/.test(path);
}

function targetOf(word: ShellWord): Target | undefined {
  const path = word.value;
  if (path.startsWith(PROC_SYS) && path.length > PROC_SYS.length)
    return { kind: 'proc', word, keyFrom: PROC_SYS.length };
  const moduleParam = MODULE_PARAM.exec(path);
  if (moduleParam) return { kind: 'module-param', word, module: moduleParam[1]!, param: moduleParam[2]! };
  if (isSysctlFilePath(path)) return { kind: 'sysctl-file' };
  if (isModprobeFilePath(path)) return { kind: 'modprobe-file' };
  return undefined;
}

/** Where the command at `index` writes: `> file`, `>> file`, and `| tee [-a] file...`. */
function outputTargets(commands: readonly ShellCommand[], index: number): Target[] {
  const targets: Target[] = [];
  for (const redirect of commands[index]!.redirects) {
    if (redirect.target && (redirect.op.startsWith('>') || redirect.op.startsWith('&>'))) {
      const target = targetOf(redirect.target);
      if (target) targets.push(target);
    }
  }
  for (let k = index; k + 1 < commands.length && pipesToNext(commands[k]!); k++) {
    const tee = commandOf(commands[k + 1]!.words);
    if (tee?.name === 'tee') targets.push(...fileArguments(tee.args));
  }
  return targets;
}

/** The targets among `tee`'s arguments. */
function fileArguments(args: readonly ShellWord[]): Target[] {
  const targets: Target[] = [];
  for (const arg of args) {
    if (arg.value.startsWith('-')) continue;
    const target = targetOf(arg);
    if (target) targets.push(target);
  }
  return targets;
}

/** Joins shell words into one piece with single spaces, as `echo` prints them; a space maps to the end of the word before it. */
function joinWords(words: readonly ShellWord[]): Piece {
  const starts: number[] = [];
  let text = '';
  words.forEach((word, index) => {
    if (index > 0) text += ' ';
    starts.push(text.length);
    text += word.value;
  });
  const at = (index: number): number => {
    let w = 0;
    let high = starts.length - 1;
    while (w < high) {
      const middle = (w + high + 1) >> 1;
      if (starts[middle]! <= index) w = middle;
      else high = middle - 1;
    }
    const word = words[w];
    if (!word) return 0;
    return index - starts[w]! < word.value.length ? offsetAt(word, index - starts[w]!) : word.span.end;
  };
  return { text, at };
}

function handleSysctl(args: readonly ShellWord[], sink: Sink): void {
  let ignoreFailure = false;
  const positional: ShellWord[] = [];
  for (const arg of args) {
    const text = arg.value;
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
    sink.problems.push({ code: MALFORMED_SYSCTL_COMMAND, span: { start: from.span.start, end: to.span.end }, message });
  for (let p = 0; p < positional.length; p++) {
    const word = positional[p]!;
    const text = word.value;
    const eq = text.indexOf('=');
    const next = positional[p + 1];
    if (eq < 0) {
      if (next && next.value.startsWith('=')) {
        const valueWord = next.value === '=' ? positional[p + 2] : next;
        const last = valueWord ?? next;
        const value = valueWord ? (next.value === '=' ? valueWord.value : next.value.slice(1)) : '';
        problem(
          word,
          last,
          `sysctl reads \`${text}\`, \`=\` and the value as separate arguments: write \`${text}=${value}\` with no spaces around \`=\` (quote a value with spaces).`,
        );
        p += next.value === '=' && valueWord ? 2 : 1;
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
      if (next && !next.value.includes('=')) {
        problem(
          word,
          next,
          `sysctl reads \`${text}\` and \`${next.value}\` as separate arguments: write \`${text}${next.value}\` (quote a value with spaces).`,
        );
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
      span: { start: word.span.start, end: word.span.end },
      ignoreFailure,
      templated: word.templated || isTemplated(rawKey) || isTemplated(value),
      fields: fieldsOf(piece, valueFrom, valueTo),
      persistent: false,
    });
  }
}

function handleEcho(targets: readonly Target[], args: readonly ShellWord[], sink: Sink): void {
  if (targets.length === 0) return;
  let k = 0;
  while (k < args.length && /^-[neE]+$/.test(args[k]!.value)) k++;
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
      sink.problems.push({
        code: MALFORMED_SYSCTL_COMMAND,
        span: { start: target.word.span.start, end: target.word.span.end },
        message: '`echo` with no value writes an empty line, which the kernel rejects.',
      });
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
      rawKey = target.word.value.slice(target.keyFrom);
      key = normalizeSysctlKey(rawKey);
      keySpan = spanOf(targetPiece, target.keyFrom, target.word.value.length);
    } else {
      rawKey = target.param;
      key = `${normalizeModuleName(target.module)}.${normalizeModuleName(target.param)}`;
      const paramFrom = target.word.value.length - target.param.length;
      keySpan = spanOf(targetPiece, paramFrom, target.word.value.length);
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
      valueSpan: { start: values[0]!.span.start, end: values[values.length - 1]!.span.end },
      span: { start: values[0]!.span.start, end: target.word.span.end },
      ignoreFailure: false,
      templated: values.some((word) => word.templated) || isTemplated(value) || isTemplated(rawKey),
      fields: fieldsOf(piece, 0, piece.text.length),
      persistent: false,
    });
  }
}

/**
 * `printf 'options sunrpc tcp_max_slot_table_entries=128\n' > /etc/modprobe.d/sunrpc.conf` and
 * `printf '%s\n' 'key = value' ... | tee file`: a format without conversions is the text itself
 * (`\n` separates lines); `%s\n` prints each argument as a line. Other formats are not judged.
 */
function handlePrintf(targets: readonly Target[], args: readonly ShellWord[], sink: Sink): void {
  const kind = targets.find((t) => t.kind === 'sysctl-file' || t.kind === 'modprobe-file')?.kind;
  if (!kind) return;
  let k = 0;
  if (args[k]?.value === '--') k++;
  const format = args[k];
  if (!format) return;
  const lines: Piece[] = [];
  if (/^%s(?:\\n)?$/.test(format.value)) for (const arg of args.slice(k + 1)) lines.push(pieceOf(arg));
  else if (!format.value.includes('%')) {
    const piece = pieceOf(format);
    let from = 0;
    for (let at = piece.text.indexOf('\\n'); ; at = piece.text.indexOf('\\n', from)) {
      const to = at < 0 ? piece.text.length : at;
      if (to > from) lines.push(subPiece(piece, from, to));
      if (at < 0) break;
      from = at + 2; // not a fact: the length of `\n`
    }
  }
  for (const line of lines) {
    if (kind === 'sysctl-file') parseSysctlLine(line, sink, 'sysctl', true);
    else parseModprobeLine(line, sink, true);
  }
}

/** `cat > /etc/sysctl.d/90-nfs.conf <<EOF ... EOF` and `tee /etc/modprobe.d/sunrpc.conf <<EOF`. */
function handleHeredoc(body: Span, targets: readonly Target[], text: string, sink: Sink): void {
  const kind = targets.find((t) => t.kind === 'sysctl-file' || t.kind === 'modprobe-file')?.kind;
  if (!kind) return;
  for (const line of bodyLines(text, body)) {
    const piece = contiguousPiece(line.text, line.start);
    if (kind === 'sysctl-file') parseSysctlLine(piece, sink, 'sysctl', true);
    else parseModprobeLine(piece, sink, true);
  }
}

/** Finds kernel settings in shell text `text[from, to)`. `stripPrompt` drops a leading `$ ` (console blocks). */
export function scanShell(text: string, from: number, to: number, sink: Sink, stripPrompt = false, depth = 0): void {
  // A pipeline at a time: what a command writes to is known by the end of its pipeline (outputTargets).
  forEachPipeline(text, from, to, { stripPrompt }, (commands) =>
    commands.forEach((command, index) => {
      // `x=$(sysctl -w ...)`: the substitution is a script of its own.
      if (depth < MAX_SUBSTITUTION_DEPTH)
        for (const word of command.words)
          for (const inner of word.substitutions) scanShell(text, inner.start, inner.end, sink, false, depth + 1);
      const parsed = commandOf(command.words);
      if (!parsed) return;
      const targets = outputTargets(commands, index);
      if (parsed.name === 'sysctl') handleSysctl(parsed.args, sink);
      else if (parsed.name === 'echo') handleEcho(targets, parsed.args, sink);
      else if (parsed.name === 'printf') handlePrintf(targets, parsed.args, sink);
      // The last here-document is the one the command reads.
      const body = command.redirects.reduce<Span | undefined>((found, redirect) => redirect.body ?? found, undefined);
      if (body)
        handleHeredoc(body, parsed.name === 'tee' ? [...targets, ...fileArguments(parsed.args)] : targets, text, sink);
    }),
  );
}

/** Runs the command handlers on words that are already split (cloud-init `runcmd: - [sysctl, -w, ...]`). */
export function scanWords(words: readonly ShellWord[], sink: Sink): void {
  const parsed = commandOf(words);
  if (parsed?.name === 'sysctl') handleSysctl(parsed.args, sink);
}
