/**
 * Newer Bicep syntax that the tree-sitter Bicep grammar (tree-sitter-bicep 1.1.0, the newest
 * published) does not know, hidden from it so that valid files are not reported as syntax errors.
 * Every rewrite keeps the text's length and line breaks, so positions in the tree stay those of the
 * file. Only type positions are touched: anf-lint reads no types, so nothing it reads changes.
 *
 * - A nullable user-defined type on a `param` line (`param exportPolicy exportPolicyType?`): the
 *   grammar reads the `?` as the start of a conditional expression and the next statement as its
 *   branch. The `?` becomes a space (built-in types such as `string?` parse already; this does the
 *   same for every type).
 * - Resource-derived types (`resourceInput<'Microsoft.NetApp/...@2025-01-01'>.tags`, and
 *   `resourceOutput<...>`), introduced with Bicep 0.34: written as `object` and spaces.
 * - The non-null assertion inside an argument list (`split(keyVaultResourceId!, '/')`): the `!`
 *   becomes a space (`x!` alone at the end of an expression parses already).
 * - The spread operator (`...(cond ? { a: 1 } : {})` in an object, `...items` in an array): in an
 *   object it becomes a property named `_` (`_: (...)`), in an array a plain element. Whatever a
 *   spread adds stays unknown to anf-lint, as it was when the file did not parse.
 *
 * - A nullable type on a property of a `type` declaration (`vnetToPeer: peeredVnetType?`): followed
 *   by the next property, the grammar reads `peeredVnetType ? next : ...` as a conditional. Inside
 *   `type` declarations the `?` of a nullable type becomes a space.
 * - A typed variable (`var name string = ...`, Bicep 0.32): the type becomes spaces.
 * - A string that starts with `//` (`'////'` as a default for `split`): the grammar takes it for a
 *   comment. Its first `/` becomes `_`; such a string is never a value anf-lint reads (names,
 *   sizes, levels, protocols and export paths have no leading `//`).
 * - The `extension <name>` statement (Bicep's extensibility, e.g. Microsoft Graph): the line becomes
 *   spaces (anf-lint reads no extension resources).
 *
 * These are the constructs found breaking the Azure Verified Modules for Azure NetApp Files and the
 * CycleCloud Slurm workspace templates (docs/realworld.md); a construct not listed here still gives ANF400.
 */
export function bicepForGrammar(text: string): string {
  if (!/[?!]|\.\.\.|'\/\/|resource(?:Input|Output)<|^[ \t]*(?:var|extension)[ \t]/m.test(text)) return text;
  const typed = text
    .replace(RESOURCE_DERIVED_TYPE, (match) => 'object'.padEnd(match.length, ' '))
    .replace(NULLABLE_PARAM, (_match, head: string, tail: string) => `${head} ${tail}`)
    .replace(TYPED_VAR, (_match, head: string, type: string) => `${head}${' '.repeat(type.length)}`)
    .replace(EXTENSION_LINE, (match) => ' '.repeat(match.length));
  return rewriteOperators(typed);
}

/** `var <name> <type> =`: the type, a name with an optional `[]`. */
const TYPED_VAR = /^([ \t]*var[ \t]+[A-Za-z_]\w*[ \t]+)([A-Za-z_][\w.]*(?:\[\])?)(?=[ \t]*=)/gm;

/** `extension microsoftGraphV1` (one line, no `with { ... }` configuration). */
const EXTENSION_LINE = /^[ \t]*extension[ \t]+[^\s{]+(?:[ \t]+as[ \t]+\w+)?[ \t]*(?=\r?$)/gm;

/**
 * Postfix `!` before `,` `)` `]` `.` and `...` spreads, outside strings and comments. A small scan:
 * it tracks quotes (`'...'` with `\'`, `'''...'''`), comments and which bracket is open.
 */
function rewriteOperators(text: string): string {
  if (!text.includes('!') && !text.includes('...') && !text.includes('?') && !text.includes("'//")) return text;
  // Edits as (position, character): the text is rebuilt only when there are some.
  const edits: [number, string][] = [];
  const open: string[] = [];
  // Inside a `type` declaration (from `type` at the start of a line to the end of its value).
  const typeAt = (lineStart: number): boolean => TYPE_HEAD.test(text.slice(lineStart, lineStart + 200)); // not a fact: a declaration head fits in 200 characters
  let inType = typeAt(0);
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < INTERESTING.length && !INTERESTING[code]) {
      i++;
      continue;
    }
    const c = text[i]!;
    if (c === '\n') {
      if (open.length === 0) inType = typeAt(i + 1);
      i++;
    } else if (c === '?') {
      if (inType && /[\w\]')}]/.test(text[i - 1] ?? '') && /^[ \t]*(?:$|[\r\n,}\]]|\/\/)/.test(text.slice(i + 1, i + 80))) edits.push([i, ' ']); // not a fact: enough to see the rest of the line
      i++;
    } else if (c === "'") {
      if (text.startsWith("''", i + 1)) {
        const close = text.indexOf("'''", i + 3); // not a fact: the delimiter's length
        i = close < 0 ? text.length : close + 3; // not a fact: the delimiter's length
        continue;
      }
      if (text.startsWith('//', i + 1)) edits.push([i + 1, '_']);
      i++;
      while (i < text.length && text[i] !== "'" && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
      if (text[i] === "'") i++;
    } else if (c === '/') {
      if (text[i + 1] === '/') {
        const close = text.indexOf('\n', i);
        i = close < 0 ? text.length : close;
      } else if (text[i + 1] === '*') {
        const close = text.indexOf('*/', i + 2);
        i = close < 0 ? text.length : close + 2;
      } else i++;
    } else if (c === '{' || c === '[' || c === '(') {
      open.push(c);
      i++;
    } else if (c === '}' || c === ']' || c === ')') {
      open.pop();
      i++;
    } else if (c === '!') {
      if (i > 0 && /[\w)\]]/.test(text[i - 1]!) && /^[ \t]*[,)\]]/.test(text.slice(i + 1, i + 3))) edits.push([i, ' ']);
      i++;
    } else if (text.startsWith('...', i)) {
      const inObject = open[open.length - 1] === '{';
      edits.push([i, inObject ? '_' : ' '], [i + 1, inObject ? ':' : ' '], [i + 2, ' ']);
      i += 3; // not a fact: the operator's length
    } else i++;
  }
  if (edits.length === 0) return text;
  let result = '';
  let from = 0;
  for (const [at, ch] of edits) {
    result += text.slice(from, at) + ch;
    from = at + 1;
  }
  return result + text.slice(from);
}

/** The ASCII characters the scan stops at, by character code; it steps over every other one. */
const INTERESTING: readonly boolean[] = Array.from({ length: 128 }, (_, code) => "\n?'/{}[]()!.".includes(String.fromCharCode(code))); // not a fact: the ASCII range
const TYPE_HEAD = /^[ \t]*type[ \t]+\w+[ \t]*=/;

/** `param <name> <type>?` with no default (`=`), up to an end-of-line comment. */
const NULLABLE_PARAM = /^([ \t]*param[ \t]+[A-Za-z_]\w*[ \t]+[^=\r\n?]*[^=\r\n?\s][ \t]*)\?([ \t]*(?:\/\/[^\r\n]*)?)(?=\r?$)/gm;

/** `resourceInput<'type@api'>` or `resourceOutput<'type@api'>`, with any `.property` path. */
const RESOURCE_DERIVED_TYPE = /\bresource(?:Input|Output)<'[^'\n]*'>(?:\.[A-Za-z_]\w*)*/g;
