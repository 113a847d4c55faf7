import type { Span } from '../text/sourceText';

/**
 * Reading values the way fio and vdbench do: sizes with their unit rules, times, booleans, and
 * the forms whose value only the running tool knows (environment variables, fio's reserved
 * keywords and arithmetic). Pure.
 */

/** One physical line of a file with its offset, without its line break. */
export interface Line {
  readonly text: string;
  readonly start: number;
}

export function linesOf(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    const body = text.slice(start, stop);
    lines.push({ text: body.endsWith('\r') ? body.slice(0, -1) : body, start });
    if (end < 0) break;
    start = end + 1;
  }
  return lines;
}

/** Leading blanks of a line: their length. */
export function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}

/**
 * Why a value is only known when the tool runs, or undefined when it is plain text: fio's
 * `${VAR}` (the environment), its reserved `$ncpus`, `$mb_memory`, `$pagesize`, and arithmetic
 * in parentheses; vdbench's `$name` (a value given on its command line).
 */
export function runtimeOnly(value: string, tool: 'fio' | 'vdbench'): string | undefined {
  const variable = /\$\{?([A-Za-z_]\w*)\}?/.exec(value);
  if (variable) {
    const name = variable[1]!;
    if (tool === 'fio' && /^(?:ncpus|mb_memory|pagesize)$/.test(name))
      return `\`$${name}\` is worked out by fio on the machine it runs on`;
    return tool === 'fio'
      ? `\`${variable[0]}\` comes from the environment fio runs in`
      : `\`${variable[0]}\` is given on vdbench's command line`;
  }
  if (tool === 'fio' && value.trim().startsWith('(')) return 'an arithmetic expression fio works out when it runs';
  return undefined;
}

const POWERS = 'kmgtp';

/**
 * A fio size (HOWTO, "int"): a number (decimal or `0x` hexadecimal) with an optional unit prefix
 * `k`, `m`, `g`, `t`, `p`, an optional `i`, and an optional `b`, case-insensitive. With
 * `kb_base=1024` (the default) `k` is 1024 and `ki` 1000 ("the unit prefixes are opposite from
 * those specified in the SI and IEC 80000-13 standards to provide compatibility with old
 * scripts"); with `kb_base=1000` `k` is 1000 and `ki` 1024. Undefined when it is not a size.
 */
export function fioBytes(text: string, kbBase: number): number | undefined {
  const match = /^(0x[0-9a-f]+|\d+(?:\.\d+)?)[ \t]*([kmgtp]?)(i?)(b?)$/i.exec(text.trim());
  if (!match) return undefined;
  const [, digits, prefix, iec] = match;
  if (iec && !prefix) return undefined;
  const amount = Number(digits); // Number() reads a 0x hexadecimal number too
  if (!prefix) return amount;
  const power = POWERS.indexOf(prefix.toLowerCase()) + 1;
  const decimal = kbBase === 1000 ? !iec : Boolean(iec);
  return amount * (decimal ? 1000 : 1024) ** power;
}

/** A fio time (HOWTO, "time"): seconds unless a suffix says days, hours, minutes, ms or us. */
export function fioSeconds(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)[ \t]*(d|h|m|s|sec|ms|msec|us|usec)?$/i.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  switch ((match[2] ?? 's').toLowerCase()) {
    case 'd':
      return amount * 86400; // not a fact: seconds in a day
    case 'h':
      return amount * 3600; // not a fact: seconds in an hour
    case 'm':
      return amount * 60; // not a fact: seconds in a minute
    case 'ms':
    case 'msec':
      return amount / 1000;
    case 'us':
    case 'usec':
      return amount / 1e6; // not a fact: microseconds in a second
    default:
      return amount;
  }
}

/** fio's bool: 1/0 (and the words fio's parser also takes). */
export function fioBool(text: string | undefined): boolean | undefined {
  if (text === undefined || text === '') return true;
  const value = text.trim().toLowerCase();
  if (/^(?:1|true|yes|on)$/.test(value)) return true;
  if (/^(?:0|false|no|off)$/.test(value)) return false;
  return undefined;
}

/**
 * A vdbench number (Vdb_scan.java): plain, or with `k`, `m`, `g`, `t` (times 1024s, an optional
 * trailing `b`), `h` hours; in `elapsed`, `interval`, `warmup` and `pause`, `m` is minutes.
 */
export function vdbenchNumber(text: string, keyword: string, minutes: number, hours: number): number | undefined {
  const value = text.trim().toLowerCase();
  if (/^\d+(?:\.\d+)?$/.test(value)) return Number(value);
  const match = /^(\d+(?:\.\d+)?)([kmgth])b?$/.exec(value);
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2]!;
  if (unit === 'h') return amount * hours;
  if (unit === 'm' && /^(?:el|in|pa|wa)/.test(keyword)) return amount * minutes;
  return amount * 1024 ** (POWERS.indexOf(unit) + 1);
}

/** Splits at `separator` outside parentheses, with each part's span (offsets from `start`). */
export function splitTopLevel(text: string, start: number, separator: string): { text: string; span: Span }[] {
  const parts: { text: string; span: Span }[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i <= text.length; i++) {
    const ch = text[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    if (i === text.length || (ch === separator && depth === 0)) {
      parts.push({ text: text.slice(from, i), span: { start: start + from, end: start + i } });
      from = i + 1;
    }
  }
  return parts;
}

/** The items of a vdbench list `(a,b,c)`, or the value itself. */
export function listItems(value: string): string[] {
  const inner = value.startsWith('(') && value.endsWith(')') ? value.slice(1, -1) : value;
  return inner
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Splits a fio path list at `:` not escaped with `\`, with each part's span. */
export function fioPathList(value: string, start: number): { path: string; span: Span }[] {
  const parts: { path: string; span: Span }[] = [];
  let from = 0;
  let path = '';
  for (let i = 0; i <= value.length; i++) {
    const ch = value[i];
    if (ch === '\\' && value[i + 1] === ':') {
      path += ':';
      i++;
      continue;
    }
    if (i === value.length || ch === ':') {
      if (path.trim() !== '') parts.push({ path: path.trim(), span: { start: start + from, end: start + i } });
      path = '';
      from = i + 1;
      continue;
    }
    path += ch;
  }
  return parts;
}
