/**
 * Where the cursor is in a JSON manifest that may be half-typed (`{"accounts": [{"na`): the path
 * of keys and list indexes above it, and whether a key or a value is being typed. A JSON document
 * being typed is rarely valid, so this reads tokens from the start of the text up to the cursor
 * (which is always enough to know the path in JSON), then looks past the cursor only for the keys
 * already written further on in the same object and for what follows the token being replaced.
 */
import type { Span } from '../text/sourceText';

export interface JsonContext {
  /** Keys and list indexes from the root to the object or list the cursor is in. */
  readonly path: readonly (string | number)[];
  /** `key`: a key of the object at `path`; `value`: the value of `valueKey` in it, or the item at `index` of the list at `path`. */
  readonly position: 'key' | 'value';
  readonly valueKey?: string;
  readonly index?: number;
  /** The word typed so far, without its opening quote. */
  readonly typed: string;
  /** Whether the word being typed is a string (it starts with `"`). */
  readonly quoted: boolean;
  /** The token an item replaces: the string being typed with both quotes (when closed on its line), or the bare word. */
  readonly replace: Span;
  /** Keys already present in the object (before and after the cursor), the one being typed excepted. */
  readonly siblings: readonly string[];
  /** A key that already has its `:` after it: complete the key only. */
  readonly colonFollows: boolean;
  /** Another member or item follows the token: what is inserted needs a `,` after it. */
  readonly commaAfter: boolean;
  /** The previous member or item ends here without a `,`: the item should add one there. */
  readonly commaBefore?: number;
}

type Token =
  | { readonly type: 'punct'; readonly char: '{' | '}' | '[' | ']' | ':' | ','; readonly start: number; readonly end: number }
  | { readonly type: 'string'; readonly value: string; readonly closed: boolean; readonly start: number; readonly end: number }
  | { readonly type: 'word'; readonly value: string; readonly start: number; readonly end: number };

const PUNCT = '{}[]:,';
const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f' || c === '\v' || c === '\uFEFF';

/** JSON tokens of `text` from `from` to `to`; a string still open at `to` is returned unclosed. */
function* tokens(text: string, from: number, to: number): Generator<Token> {
  let i = from;
  while (i < to) {
    const c = text[i]!;
    if (isSpace(c)) {
      i++;
    } else if (PUNCT.includes(c)) {
      yield { type: 'punct', char: c as '{', start: i, end: i + 1 };
      i++;
    } else if (c === '"') {
      let j = i + 1;
      let value = '';
      let closed = false;
      while (j < to) {
        const d = text[j]!;
        if (d === '\\' && j + 1 < to) {
          value += text[j + 1];
          j += 2;
        } else if (d === '"') {
          closed = true;
          j++;
          break;
        } else if (d === '\n') {
          break;
        } else {
          value += d;
          j++;
        }
      }
      yield { type: 'string', value, closed, start: i, end: j };
      i = j;
    } else {
      let j = i;
      while (j < to && !isSpace(text[j]!) && !PUNCT.includes(text[j]!) && text[j] !== '"') j++;
      yield { type: 'word', value: text.slice(i, j), start: i, end: j };
      i = j;
    }
  }
}

interface ObjectFrame {
  readonly kind: 'object';
  readonly segment?: string | number;
  state: 'key' | 'colon' | 'value' | 'after';
  key?: string;
  readonly keys: string[];
  /** End of the last member's value (for a missing comma). */
  valueEnd?: number;
}

interface ListFrame {
  readonly kind: 'list';
  readonly segment?: string | number;
  state: 'value' | 'after';
  index: number;
  valueEnd?: number;
}

type Frame = ObjectFrame | ListFrame;

/** The path segment a value starting now would have in `frame`. */
function segmentIn(frame: Frame | undefined): string | number | undefined {
  if (!frame) return undefined;
  return frame.kind === 'list' ? frame.index : frame.key;
}

function valueDone(frame: Frame | undefined, end: number): void {
  if (!frame) return;
  frame.state = 'after';
  frame.valueEnd = end;
}

export function jsonContextAt(text: string, offset: number): JsonContext | undefined {
  const stack: Frame[] = [];
  const all = [...tokens(text, 0, offset)];
  // The token touching the cursor is the one being typed: an open string, or a bare word.
  const last = all[all.length - 1];
  const typing = last && last.end === offset && ((last.type === 'string' && !last.closed) || last.type === 'word') ? last : undefined;
  if (typing) all.pop();

  for (const token of all) {
    const top = stack[stack.length - 1];
    if (token.type === 'punct') {
      if (token.char === '{' || token.char === '[') {
        // `[{} {`: a comma missing before the cursor; read on as if it were there.
        if (top?.kind === 'list' && top.state === 'after') top.index++;
        const segment = segmentIn(top);
        stack.push(token.char === '{' ? { kind: 'object', ...(segment !== undefined ? { segment } : {}), state: 'key', keys: [] } : { kind: 'list', ...(segment !== undefined ? { segment } : {}), state: 'value', index: 0 });
      } else if (token.char === '}' || token.char === ']') {
        stack.pop();
        valueDone(stack[stack.length - 1], token.end);
      } else if (token.char === ':') {
        if (top?.kind === 'object' && top.state === 'colon') top.state = 'value';
      } else if (top?.kind === 'object') {
        top.state = 'key';
        delete top.key;
      } else if (top?.kind === 'list') {
        top.state = 'value';
        top.index++;
      }
    } else if (top?.kind === 'object' && (top.state === 'key' || (top.state === 'after' && token.type === 'string'))) {
      // A key (after a missing comma too).
      top.key = token.value;
      top.keys.push(token.value);
      top.state = 'colon';
    } else {
      if (top?.kind === 'list' && top.state === 'after') top.index++;
      valueDone(top, token.end);
    }
  }

  const top = stack[stack.length - 1];
  if (!top) return undefined;
  const path = stack.flatMap((frame) => (frame.segment !== undefined ? [frame.segment] : []));
  let position: 'key' | 'value';
  if (top.kind === 'object') {
    if (top.state === 'colon') return undefined;
    position = top.state === 'value' ? 'value' : 'key';
  } else {
    position = 'value';
  }
  // Right after a value (`"eda"|`, typing its closing quote): nothing to offer until the user moves on.
  if (top.state === 'after' && !typing && all[all.length - 1]?.end === offset) return undefined;
  const commaBefore = top.state === 'after' ? top.valueEnd : undefined;

  const start = typing?.start ?? offset;
  const quoted = typing?.type === 'string';
  let end = typing?.end ?? offset;
  if (quoted) {
    // The rest of the string after the cursor up to its closing quote (editors close quotes as you
    // type), when it is on this line and holds no JSON punctuation (else the string was never closed).
    const close = /^[^"\n{}[\]:,]*"/.exec(text.slice(offset));
    if (close) end = offset + close[0].length;
  } else if (typing) {
    // `tr|ue`: the rest of the word.
    while (end < text.length && !isSpace(text[end]!) && !PUNCT.includes(text[end]!) && text[end] !== '"') end++;
  }
  const typed = typing ? text.slice(start + (quoted ? 1 : 0), offset) : '';

  // The keys further on in the same object, and what follows the replaced token: a `:` (the key is
  // complete), another member or item (a comma is needed), or the end of the object or list.
  const siblings = top.kind === 'object' ? [...top.keys] : [];
  let next: Token | undefined;
  let previous: Token | undefined;
  let depth = 0;
  for (const token of tokens(text, end, text.length)) {
    next ??= token;
    if (top.kind !== 'object') break;
    if (token.type === 'punct') {
      if (token.char === '{' || token.char === '[') depth++;
      else if (token.char === '}' || token.char === ']') {
        if (depth === 0) break;
        depth--;
      } else if (token.char === ':' && depth === 0 && previous?.type === 'string') siblings.push(previous.value);
    }
    previous = token;
  }
  const colonFollows = position === 'key' && next?.type === 'punct' && next.char === ':';
  const commaAfter = next !== undefined && !colonFollows && !(next.type === 'punct' && (next.char === ',' || next.char === '}' || next.char === ']'));
  return {
    path,
    position,
    ...(position === 'value' && top.kind === 'object' && top.key !== undefined ? { valueKey: top.key } : {}),
    ...(top.kind === 'list' ? { index: top.index } : {}),
    typed,
    quoted,
    replace: { start, end },
    siblings: [...new Set(siblings)],
    colonFollows,
    commaAfter,
    ...(commaBefore !== undefined ? { commaBefore } : {}),
  };
}
