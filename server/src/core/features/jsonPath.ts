/**
 * Where the cursor is in a JSON manifest that may be half-typed (`{"accounts": [{"na`): the path
 * of keys and list indexes above it, and whether a key or a value is being typed. jsonc-parser, the
 * error-tolerant parser of VS Code's JSON support, reads the document with the token being typed
 * set aside: `getLocation` gives the path, its scanner the tokens on either side of the cursor, and
 * `parseTree` the keys already written in the same object.
 */
import { nestingPastBound } from '../text/nesting';
import { createScanner, findNodeAtLocation, getLocation, parseTree, type ScanError } from 'jsonc-parser';
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

/** `ScanError.UnexpectedEndOfString`: jsonc-parser's enums are `const enum`s, which `isolatedModules` code cannot read. */
const UNEXPECTED_END_OF_STRING = 2 as ScanError;

/** A token: what it is shows in its first character (`{}[]:,`, `"` for a string, else a bare word). */
interface Token {
  readonly start: number;
  readonly end: number;
  readonly first: string;
  /** A string without its closing quote on the line. */
  readonly open: boolean;
}

/** The tokens of `text` from `from` on, comments and white space skipped. */
function* tokens(text: string, from = 0): Generator<Token> {
  const scanner = createScanner(text, true);
  scanner.setPosition(from);
  for (;;) {
    scanner.scan();
    const start = scanner.getTokenOffset();
    const end = start + scanner.getTokenLength();
    if (end === start) return;
    yield { start, end, first: text[start]!, open: scanner.getTokenError() === UNEXPECTED_END_OF_STRING };
  }
}

const isPunctuation = (token: Token) => '{}[]:,'.includes(token.first);
/** A string, a bare word, `}` or `]`: what follows it in the same object or list needs a comma. */
const endsValue = (token: Token) => !'{[:,'.includes(token.first);

export function jsonContextAt(text: string, offset: number): JsonContext | undefined {
  // The last two tokens that start before the cursor. The last one is being typed when the cursor is
  // in it or at its end, unless it is a string closed there (`"eda"|`).
  let last: Token | undefined;
  let beforeLast: Token | undefined;
  for (const token of tokens(text)) {
    if (token.start >= offset) break;
    [beforeLast, last] = [last, token];
  }
  const typing =
    last && !isPunctuation(last) && (last.end > offset || (last.end === offset && (last.first !== '"' || last.open)))
      ? last
      : undefined;
  const previous = typing ? beforeLast : last;
  const quoted = typing?.first === '"';
  const start = typing?.start ?? offset;
  let end = typing?.end ?? offset;
  // A string replaces up to its closing quote (editors close quotes as you type) when that holds no
  // JSON punctuation; else the string was never closed and the scanner ran on into what follows.
  if (typing && quoted && (typing.open || /[{}[\]:,]/.test(text.slice(offset, typing.end - 1)))) end = offset;
  const typed = typing ? text.slice(start + (quoted ? 1 : 0), offset) : '';

  // The document with a space in place of the token being typed: `getLocation` counts a token that
  // starts right at the position as the one there, and the cursor is between tokens now.
  const rest = `${text.slice(0, start)} ${text.slice(end)}`;
  const location = getLocation(rest, start);
  // The last segment is the key of the member the cursor is in (or `''`), or the index of the item.
  const segment = location.path[location.path.length - 1];
  if (segment === undefined) return undefined;
  // After a key that has no `:` yet (`{"accounts" |`): nothing fits.
  if (location.previousNode?.type === 'property') return undefined;
  const afterValue = previous !== undefined && endsValue(previous);
  // Right after a value (`"eda"|`, typing its closing quote): nothing to offer until the user moves on.
  if (afterValue && !typing && previous.end === offset) return undefined;
  const inList = typeof segment === 'number';
  const position = inList || previous?.first === ':' ? 'value' : 'key';
  const path = location.path.slice(0, -1);

  const next = tokens(rest, start).next().value;
  const colonFollows = position === 'key' && next?.first === ':';
  const commaAfter = next !== undefined && !colonFollows && !',}]'.includes(next.first);
  // Before a `:`, an empty key keeps `: value` a member: else the parser would skip it up to the next comma, nested or not.
  const root =
    inList || nestingPastBound(rest)
      ? undefined
      : parseTree(colonFollows ? `${text.slice(0, start)}""${text.slice(end)}` : rest);
  const object = root && findNodeAtLocation(root, path);
  // The keys written with their `:` (a key without one may be a word still being typed elsewhere),
  // the empty one standing in for the key being typed excepted.
  const siblings = (object?.type === 'object' ? (object.children ?? []) : []).flatMap((member) => {
    const key: unknown = member.children?.[0]?.value;
    return typeof key === 'string' && member.colonOffset !== undefined && member.offset !== start ? [key] : [];
  });
  return {
    path,
    position,
    ...(position === 'value' && !inList ? { valueKey: segment } : {}),
    // After an item without its comma (`[1 2|`), the cursor is in the next item.
    ...(inList ? { index: segment + (afterValue ? 1 : 0) } : {}),
    typed,
    quoted,
    replace: { start, end },
    siblings: [...new Set(siblings)],
    colonFollows,
    commaAfter,
    ...(afterValue ? { commaBefore: previous.end } : {}),
  };
}
