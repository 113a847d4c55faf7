import type { Span } from '../text/sourceText';

/**
 * A run of text with the document offset of each of its characters. A plain line maps one to one;
 * a shell word with quotes (`"net.ipv4.tcp_rmem=4096 87380 16777216"`) does not, so parsers work on
 * pieces and turn their indexes back into document spans with `spanOf`.
 */
export interface Piece {
  readonly text: string;
  /** Document offset of `text[i]`; `at(text.length)` is the offset just after the last character. */
  at(index: number): number;
}

export function contiguousPiece(text: string, start: number): Piece {
  return { text, at: (index) => start + index };
}

export function mappedPiece(text: string, offsets: readonly number[], end: number): Piece {
  return { text, at: (index) => (index < offsets.length ? offsets[index]! : end) };
}

export function subPiece(piece: Piece, from: number, to: number = piece.text.length): Piece {
  return {
    text: piece.text.slice(from, to),
    at: (index) => (from + index < to ? piece.at(from + index) : endOf(piece, to)),
  };
}

/** The document span of `piece.text[from, to)`. */
export function spanOf(piece: Piece, from: number, to: number): Span {
  if (to <= from) return { start: piece.at(from), end: piece.at(from) };
  return { start: piece.at(from), end: piece.at(to - 1) + 1 };
}

function endOf(piece: Piece, to: number): number {
  return to > 0 ? piece.at(to - 1) + 1 : piece.at(0);
}

/** Whitespace-separated fields of `piece.text[from, to)`, each with its document span. */
export function fieldsOf(piece: Piece, from: number, to: number): { text: string; span: Span }[] {
  const fields: { text: string; span: Span }[] = [];
  let i = from;
  while (i < to) {
    while (i < to && isBlank(piece.text.charCodeAt(i))) i++;
    const start = i;
    while (i < to && !isBlank(piece.text.charCodeAt(i))) i++;
    if (i > start) fields.push({ text: piece.text.slice(start, i), span: spanOf(piece, start, i) });
  }
  return fields;
}

const SPACE = 32; // not a fact: character code
const TAB = 9; // not a fact: character code

export function isBlank(code: number): boolean {
  return code === SPACE || code === TAB;
}

/** `{{ x }}`, `{% %}`, `${X}`, `$X`, `<%= x %>`, `@X@`: a value filled in later, never judged. */
const TEMPLATE = /\{\{|\{%|\$\{|\$[A-Za-z_]|<%|@[A-Za-z_][A-Za-z0-9_]*@/;

export function isTemplated(text: string): boolean {
  return TEMPLATE.test(text);
}

/**
 * The dotted form of a sysctl key. sysctl.d(5): when the first separator is a slash, slashes
 * separate and dots are part of names (`net/ipv4/conf/eth0.100/rp_filter` is
 * `net.ipv4.conf.eth0/100.rp_filter`), so the two characters swap.
 */
export function normalizeSysctlKey(raw: string): string {
  let from = 0;
  let to = raw.length;
  while (from < to && raw[from] === '/') from++;
  while (to > from && raw[to - 1] === '/') to--;
  const key = raw.slice(from, to);
  const firstSlash = key.indexOf('/');
  const firstDot = key.indexOf('.');
  if (firstSlash < 0 || (firstDot >= 0 && firstDot < firstSlash)) return key;
  let result = '';
  for (const ch of key) result += ch === '/' ? '.' : ch === '.' ? '/' : ch;
  return result;
}

/** A key written with `/` separators, as the catalog would write it: the inverse of normalizeSysctlKey. */
export function slashForm(key: string): string {
  let result = '';
  for (const ch of key) result += ch === '.' ? '/' : ch === '/' ? '.' : ch;
  return result;
}
