import { isTemplateDirectiveLine } from '../text/templateLines';
import { type ParseProblem, unsafeFix } from '../diagnostics';
import type { KernelSetting, KernelSettingOrigin } from './model';
import { fieldsOf, isBlank, isTemplated, normalizeSysctlKey, spanOf, type Piece } from './piece';

/** Parse problems of kernel settings: their rule codes (the rules in rules/ report them). */
export const MALFORMED_SYSCTL_LINE = 'ANF300';
export const MALFORMED_MODPROBE_LINE = 'ANF301';
export const MALFORMED_SYSCTL_COMMAND = 'ANF302';
export const QUOTED_KERNEL_LINE = 'ANF323';

/** Curly and angle quotes that word processors and web pages put around copied lines. */
const TYPOGRAPHIC_QUOTES = new Set([
  '\u201C',
  '\u201D',
  '\u201E',
  '\u201F',
  '\u2018',
  '\u2019',
  '\u201A',
  '\u201B',
  '\u00AB',
  '\u00BB',
  '\u2039',
  '\u203A',
]);

/** True for the curly and angle quotes of copied text (never for ASCII `"` and `'`). */
export function isTypographicQuote(char: string | undefined): boolean {
  return char !== undefined && TYPOGRAPHIC_QUOTES.has(char);
}

/**
 * A value wrapped in typographic quotes (`max_session_slots=“180”`, `tcp_rmem = “4096 87380 16777216”`):
 * a problem with a fix that removes them. True when it was one; the caller then makes no setting,
 * since the kernel rejects the value as written.
 */
function quotedValue(line: Piece, sink: Sink, from: number, to: number, key: string): boolean {
  const text = line.text;
  if (to - from < 2 || !isTypographicQuote(text[from]) || !isTypographicQuote(text[to - 1])) return false;
  sink.problems.push({
    code: QUOTED_KERNEL_LINE,
    span: spanOf(line, from, to),
    message: `The value of \`${key}\` is wrapped in typographic quotes (${text[from]}…${text[to - 1]}), as copied from a web page or document: the kernel reads them as part of the value and rejects it. Remove the quotes.`,
    fixes: [
      unsafeFix('Remove the quotes', [
        { span: spanOf(line, from, from + 1), newText: '' },
        { span: spanOf(line, to - 1, to), newText: '' },
      ]),
    ],
  });
  return true;
}

/**
 * A line wrapped in typographic quotes (`“options nfs max_session_slots=180”`), copied from a web
 * page: a problem with a fix that removes them. True when the line was one: it sets nothing as
 * written (sysctl cannot find the key, modprobe ignores an unknown command), so no setting is made.
 */
function quotedLine(line: Piece, sink: Sink, what: 'sysctl' | 'modprobe'): boolean {
  const text = line.text;
  const start = firstNonBlank(text);
  const end = lastNonBlank(text, text.length, start);
  if (end <= start) return false;
  const opens = TYPOGRAPHIC_QUOTES.has(text[start]!);
  const closes = end - 1 > start && TYPOGRAPHIC_QUOTES.has(text[end - 1]!);
  if (!opens) return false;
  const inner = text.slice(start + 1, closes ? end - 1 : end).trim();
  const looksLikeSetting = what === 'modprobe' ? /^options\s/.test(inner) : /^-?[A-Za-z0-9_./*-]+\s*=/.test(inner);
  if (!looksLikeSetting) return false;
  const quotes = closes ? `${text[start]}…${text[end - 1]}` : text[start]!;
  const effect =
    what === 'modprobe'
      ? 'modprobe reads the first word as an unknown command and ignores the line'
      : `sysctl looks for a key named \`${text.slice(start, text.indexOf('=', start)).trim()}\`, finds none and sets nothing`;
  const edits = [
    { span: spanOf(line, start, start + 1), newText: '' },
    ...(closes ? [{ span: spanOf(line, end - 1, end), newText: '' }] : []),
  ];
  sink.problems.push({
    code: QUOTED_KERNEL_LINE,
    span: spanOf(line, start, end),
    message: `This line is wrapped in typographic quotes (${quotes}), as copied from a web page or document: ${effect}. Remove the quotes.`,
    fixes: [unsafeFix('Remove the quotes', edits)],
  });
  return true;
}

/** Where extraction writes what it finds. */
export interface Sink {
  readonly uri: string;
  readonly settings: KernelSetting[];
  readonly problems: ParseProblem[];
}

function firstNonBlank(text: string, from = 0): number {
  let i = from;
  while (i < text.length && isBlank(text.charCodeAt(i))) i++;
  return i;
}

function lastNonBlank(text: string, to: number, from: number): number {
  let i = to;
  while (i > from && isBlank(text.charCodeAt(i - 1))) i--;
  return i;
}

/** True for blank lines and `#`/`;` comments. */
export function isSysctlComment(text: string): boolean {
  const i = firstNonBlank(text);
  return i >= text.length || text[i] === '#' || text[i] === ';';
}

/**
 * One line of sysctl.conf / sysctl.d / a tuned `[sysctl]` section: `key = value`, `key=value`,
 * `-key = value`. Blank lines and comments produce nothing; anything else that is not an
 * assignment is a problem with `code`.
 */
export function parseSysctlLine(
  line: Piece,
  sink: Sink,
  origin: KernelSettingOrigin,
  persistent: boolean,
  code = MALFORMED_SYSCTL_LINE,
): void {
  const text = line.text;
  const start = firstNonBlank(text);
  if (start >= text.length || text[start] === '#' || text[start] === ';' || isTemplateDirectiveLine(text)) return;
  if (quotedLine(line, sink, 'sysctl')) return;
  const end = lastNonBlank(text, text.length, start);
  const problem = (from: number, to: number, message: string) =>
    sink.problems.push({ code, span: spanOf(line, from, to), message });

  const eq = text.indexOf('=', start);
  if (eq < 0) {
    const words = text.slice(start, end).split(/[ \t]+/);
    const hint = words.length === 2 ? ` Write \`${words[0]} = ${words[1]}\`.` : '';
    problem(
      start,
      end,
      `This line is not a setting: sysctl expects \`key = value\`, and \`${text.slice(start, end)}\` has no \`=\`.${hint}`,
    );
    return;
  }
  let keyStart = start;
  const ignoreFailure = text[keyStart] === '-';
  if (ignoreFailure) keyStart = firstNonBlank(text, keyStart + 1);
  const keyEnd = lastNonBlank(text, eq, keyStart);
  if (keyEnd <= keyStart) {
    problem(start, end, 'This line has a value but no key before the `=`.');
    return;
  }
  const rawKeyText = text.slice(keyStart, keyEnd);
  if (/[ \t]/.test(rawKeyText)) {
    problem(
      keyStart,
      keyEnd,
      `The key \`${rawKeyText}\` contains spaces; sysctl keys are one word such as \`net.ipv4.tcp_sack\`.`,
    );
    return;
  }
  const valueStart = firstNonBlank(text, eq + 1);
  let valueEnd = end;
  // sysctl.d(5) has no trailing comments: "1 # comment" is written to the kernel as is.
  const comment = /[ \t][#;]/.exec(text.slice(valueStart, valueEnd));
  if (comment) {
    const commentStart = valueStart + comment.index + 1;
    problem(
      commentStart,
      end,
      `sysctl has no comments after a value: \`${text.slice(commentStart, end)}\` becomes part of the value and the kernel rejects it. Move the comment to its own line.`,
    );
    valueEnd = lastNonBlank(text, commentStart, valueStart);
  }
  if (valueEnd <= valueStart) {
    if (!comment) problem(start, end, `\`${rawKeyText}\` has no value after the \`=\`.`);
    return;
  }
  if (quotedValue(line, sink, valueStart, valueEnd, normalizeSysctlKey(rawKeyText))) return;
  const value = text.slice(valueStart, valueEnd);
  const rawKey = text.slice(start, keyEnd);
  sink.settings.push({
    uri: sink.uri,
    origin,
    key: normalizeSysctlKey(rawKeyText),
    rawKey,
    keySpan: spanOf(line, start, keyEnd),
    value,
    valueSpan: spanOf(line, valueStart, valueEnd),
    span: spanOf(line, start, valueEnd),
    ignoreFailure,
    templated: isTemplated(rawKeyText) || isTemplated(value),
    fields: fieldsOf(line, valueStart, valueEnd),
    persistent,
  });
}

/** modprobe.d treats `-` and `_` in module and parameter names as the same character. */
export function normalizeModuleName(name: string): string {
  return name.replace(/-/g, '_');
}

interface Word {
  readonly from: number;
  readonly to: number;
}

function wordsOf(text: string): Word[] {
  const words: Word[] = [];
  let i = 0;
  while (i < text.length) {
    i = firstNonBlank(text, i);
    const from = i;
    while (i < text.length && !isBlank(text.charCodeAt(i))) i++;
    if (i > from) words.push({ from, to: i });
  }
  return words;
}

/**
 * One logical line of modprobe.d (continuations already joined by the caller):
 * `options sunrpc tcp_max_slot_table_entries=128 udp_slot_table_entries=64`. Other commands
 * (`install`, `blacklist`, `alias`, `softdep`) produce nothing.
 */
export function parseModprobeLine(
  line: Piece,
  sink: Sink,
  persistent: boolean,
  origin: KernelSettingOrigin = 'modprobe',
): void {
  const text = line.text;
  const start = firstNonBlank(text);
  if (start >= text.length || text[start] === '#' || isTemplateDirectiveLine(text)) return;
  if (quotedLine(line, sink, 'modprobe')) return;
  const words = wordsOf(text);
  const command = words[0];
  if (!command || text.slice(command.from, command.to) !== 'options') return;
  const end = words[words.length - 1]!.to;
  const problem = (from: number, to: number, message: string) =>
    sink.problems.push({ code: MALFORMED_MODPROBE_LINE, span: spanOf(line, from, to), message });
  const module = words[1];
  if (!module) {
    problem(
      start,
      end,
      '`options` needs a module name and at least one `parameter=value`, e.g. `options sunrpc tcp_max_slot_table_entries=128`.',
    );
    return;
  }
  const moduleText = text.slice(module.from, module.to);
  const runTogether = /^([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+=.*)$/.exec(moduleText);
  if (runTogether) {
    problem(
      module.from,
      module.to,
      `modprobe reads \`${moduleText}\` as a module name: write the module and the parameter as two words, \`options ${runTogether[1]} ${runTogether[2]}\`.`,
    );
    return;
  }
  if (moduleText.includes('=')) {
    problem(
      module.from,
      module.to,
      `\`${moduleText}\` is not a module name: write \`options <module> ${moduleText}\`.`,
    );
    return;
  }
  if (words.length < 3) {
    problem(start, end, `\`options ${moduleText}\` sets no parameter: add \`parameter=value\`.`);
    return;
  }
  const moduleKey = normalizeModuleName(moduleText);
  for (let w = 2; w < words.length; w++) {
    const word = words[w]!;
    const wordText = text.slice(word.from, word.to);
    if (wordText.startsWith('#')) break;
    const eq = wordText.indexOf('=');
    const next = words[w + 1];
    const nextText = next ? text.slice(next.from, next.to) : '';
    if (eq < 0 && nextText.startsWith('=')) {
      const after = nextText === '=' ? words[w + 2] : next;
      const lastWord = after ?? next!;
      problem(
        word.from,
        lastWord.to,
        `modprobe splits options at spaces: write \`${wordText}=${nextText === '=' ? (after ? text.slice(after.from, after.to) : '') : nextText.slice(1)}\` with no spaces around \`=\`.`,
      );
      w += nextText === '=' && after ? 2 : 1;
      continue;
    }
    if (eq < 0) continue; // a bare boolean parameter: `options nfs enable_ino64`
    if (eq === 0) {
      problem(word.from, word.to, `\`${wordText}\` has no parameter name before the \`=\`.`);
      continue;
    }
    let valueFrom = word.from + eq + 1;
    let valueTo = word.to;
    if (valueTo - valueFrom >= 2 && /^(["']).*\1$/.test(text.slice(valueFrom, valueTo))) {
      valueFrom++;
      valueTo--;
    }
    if (valueTo <= valueFrom) {
      problem(word.from, word.to, `\`${wordText}\` has no value after the \`=\`.`);
      continue;
    }
    const name = text.slice(word.from, word.from + eq);
    if (quotedValue(line, sink, valueFrom, valueTo, `${moduleKey}.${normalizeModuleName(name)}`)) continue;
    const value = text.slice(valueFrom, valueTo);
    sink.settings.push({
      uri: sink.uri,
      origin,
      key: `${moduleKey}.${normalizeModuleName(name)}`,
      rawKey: name,
      keySpan: spanOf(line, word.from, word.from + eq),
      moduleSpan: spanOf(line, module.from, module.to),
      value,
      valueSpan: spanOf(line, valueFrom, valueTo),
      span: spanOf(line, word.from, word.to),
      ignoreFailure: false,
      templated: isTemplated(moduleText) || isTemplated(name) || isTemplated(value),
      fields: fieldsOf(line, valueFrom, valueTo),
      persistent,
    });
  }
}
