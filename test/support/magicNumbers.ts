/**
 * The facts test's scanner (test/unit/no-magic-numbers.test.ts). Every limit, rate, price, default
 * and measured figure lives in server/src/core/facts/ with its source. Allowed elsewhere without a word:
 * - small numbers (ALLOWED: indexes, the 1024 of binary units, percent, ms per s);
 * - structural numbers, whose place in the code says what they are (STRUCTURAL_CALLS and
 *   STRUCTURAL_SHAPES): offsets and lengths given to string methods (`.slice(0, 40)`,
 *   `.padStart(2, '0')`), radixes (`.toString(16)`, `parseInt(s, 8)`), indexes (`match[12]`), lengths
 *   compared (`name.length < 4`), character codes compared with `charCodeAt`/`codePointAt`, bit
 *   widths and masks (`<< 8`, `& 0o7777`, `2 ** 32`), and numbers written in hexadecimal, octal or
 *   binary. None of these is a threshold a source could give: asking for a comment on each only
 *   taught writers to add `// not a fact:` by reflex (issue 31).
 * Anything else, a threshold above all (`quota > 4398046511104`, `throughput < 64`, `MAX_DEPTH = 24`),
 * needs a row in the facts table or, when it is our own judgement or a protocol constant, a
 * `// not a fact: why` comment on its line.
 */
const ALLOWED = new Set([0, 1, 2, 3, 4, 5, 6, 7, 10, 100, 1000, 1024]);

/** Calls whose numeric arguments are offsets, lengths, radixes, digit counts or character codes. */
const STRUCTURAL_CALLS = new Set([
  'slice',
  'substring',
  'substr',
  'padStart',
  'padEnd',
  'charAt',
  'charCodeAt',
  'codePointAt',
  'at',
  'toString',
  'toFixed',
  'toPrecision',
  'parseInt',
  'fromCharCode',
  'fromCodePoint',
]);
const COMPARISON = '(?:[<>]=?|[!=]==?)';
/** Patterns around a literal (written `N`) that make it structural; each must match at the literal. */
const STRUCTURAL_SHAPES: readonly RegExp[] = [
  // An index: `match[12]`, `parts[3]!` (not an array literal `[12]`, which has no name before it).
  /[\w$)\]!]\[N\]/,
  // A length compared: `name.length < 4`, `4 >= name.length`.
  new RegExp(String.raw`\.length\s*${COMPARISON}\s*N|N\s*${COMPARISON}\s*[\w$.!]*\.length\b`),
  // A character code compared: `text.charCodeAt(i) === 47`.
  new RegExp(
    String.raw`(?:charCodeAt|codePointAt)\([^()]*\)!?\s*${COMPARISON}\s*N|N\s*${COMPARISON}\s*[\w$.!]*\.(?:charCodeAt|codePointAt)\(`,
  ),
  // A bit width or mask: `<< 8`, `>>> 0`, `& 0o7777`, `| 0x80`, `2 ** 32`.
  /(?:<<|>>>?|(?<![&|])[&|^](?![&|=]))\s*N|N\s*(?:<<|>>>?|(?<![&|])[&|^](?![&|=]))|\b2\s*\*\*\s*\(?N/,
];

/** The name of the call whose argument list holds position `at` of `code`, if any. */
function enclosingCall(code: string, at: number): string | undefined {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    const c = code[i];
    if (c === ')' || c === ']' || c === '}') depth++;
    else if (c === '[' || c === '{') {
      if (depth === 0) return undefined;
      depth--;
    } else if (c === '(') {
      if (depth > 0) {
        depth--;
        continue;
      }
      return /([\w$]+)\s*$/.exec(code.slice(0, i))?.[1];
    }
  }
  return undefined;
}

function isStructural(code: string, at: number, literal: string): boolean {
  const call = enclosingCall(code, at);
  if (call && STRUCTURAL_CALLS.has(call)) return true;
  // Each shape is tried with `N` standing for this occurrence of the literal only.
  const marked = `${code.slice(0, at)}\u0000${code.slice(at + literal.length)}`;
  return STRUCTURAL_SHAPES.some((shape) => new RegExp(shape.source.replace(/N/g, '\\u0000')).test(marked));
}

/** Blanks out comments, strings and regular-expression literals so only code remains. */
function codeOnly(line: string): string {
  return line
    .replace(/\/\/.*$/, '')
    .replace(/\/\*.*?\*\//g, '')
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""')
    .replace(/\/(?:[^/\\\n]|\\.)+\/[gimsuy]*/g, '/re/');
}

/** The numbers of one line of product code that need a source or a `// not a fact:` comment. */
export function magicNumbersIn(line: string): string[] {
  if (/not a fact:/.test(line) || /^\s*(\*|\/\/|\/\*)/.test(line)) return [];
  const code = codeOnly(line);
  const found: string[] = [];
  for (const match of code.matchAll(/(?<![\w.$])(\d[\d_]*(?:\.\d+)?(?:e\d+)?|0[xob][\da-f_]+)(?![\w])/gi)) {
    const literal = match[1]!;
    const value = Number(literal.replace(/_/g, ''));
    // Hexadecimal, octal and binary literals are bytes, character codes and masks by their notation.
    if (/^0[xob]/i.test(literal) || ALLOWED.has(value) || isStructural(code, match.index, literal)) continue;
    found.push(literal);
  }
  return found;
}
