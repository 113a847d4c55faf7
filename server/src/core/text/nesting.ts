/**
 * How deep a YAML or JSON text nests, measured in one linear pass before the text reaches a
 * parser. The `yaml` library and jsonc-parser recurse once per level: a few thousand levels in a
 * 3-10 KB file exhaust the stack, and where the stack is nearly gone V8 can abort the whole process
 * ("RegExpCompiler Allocation failed - process out of memory", issue 32) instead of throwing an
 * error anyone could catch. So the readers of manifests, the configuration file and YAML hosts
 * refuse a text nested past MAX_NESTING_DEPTH with one finding, and never hand it to the parser.
 *
 * The count is an upper bound of the parsers' recursion, never far above it: every flow bracket
 * (`[`, `{`) outside quotes and comments, plus the block levels open on the line (indentation
 * levels and compact `- - x` sequences). Block scalars (`|`, `>`), quoted strings and comments are
 * skipped, so brackets in text never count.
 */

/**
 * The deepest nesting a YAML or JSON file anf-lint reads may have. Not a fact: anf-lint's own
 * bound, about ten times the deepest real file we know (Kubernetes manifests and Ansible playbooks
 * nest 10-20 levels, an ANF manifest 6), and far below the depth where the parsers run out of
 * stack (about 1,000 levels of `- ` in the CLI; less inside the language server).
 */
export const MAX_NESTING_DEPTH = 'È'.charCodeAt(0); // not a fact: anf-lint's own bound (above)

export interface NestingPastBound {
  /** Where the nesting first went past the bound (an offset into the text). */
  readonly offset: number;
  readonly depth: number;
}

const SPACE = ' '.charCodeAt(0);
const TAB = '\t'.charCodeAt(0);
const CR = '\r'.charCodeAt(0);
const HASH = '#'.charCodeAt(0);
const DASH = '-'.charCodeAt(0);
const QUESTION = '?'.charCodeAt(0);
const COLON = ':'.charCodeAt(0);
const DOUBLE_QUOTE = '"'.charCodeAt(0);
const SINGLE_QUOTE = "'".charCodeAt(0);
const BACKSLASH = '\\'.charCodeAt(0);
const OPEN_SQUARE = '['.charCodeAt(0);
const CLOSE_SQUARE = ']'.charCodeAt(0);
const OPEN_CURLY = '{'.charCodeAt(0);
const CLOSE_CURLY = '}'.charCodeAt(0);
const PIPE = '|'.charCodeAt(0);
const GREATER = '>'.charCodeAt(0);
const AMPERSAND = '&'.charCodeAt(0);
const BANG = '!'.charCodeAt(0);

const isBlank = (c: number) => c === SPACE || c === TAB || c === CR;

/** Whether position `p` (on a line ending at `end`) is a space, a tab or the line's end. */
function spaceOrEnd(text: string, p: number, end: number): boolean {
  return p >= end || isBlank(text.charCodeAt(p));
}

/**
 * Where `text` (YAML, or JSON, which is YAML) first nests deeper than `maxDepth`, or undefined when
 * it never does. Linear in the text; no regular expression, no recursion.
 */
export function nestingPastBound(text: string, maxDepth: number = MAX_NESTING_DEPTH): NestingPastBound | undefined {
  /** The columns of the block levels open at the current line. */
  const block: number[] = [];
  let flow = 0;
  /** The quote character of a quoted scalar still open (it may span lines), or 0. */
  let quote = 0;
  /** Inside a block scalar: the indentation of its header line (content is indented further); else -1. */
  let blockScalar = -1;
  const n = text.length;
  let lineStart = 0;
  while (lineStart < n) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = n;
    let first = lineStart;
    while (first < lineEnd && text.charCodeAt(first) === SPACE) first++;
    const column = first - lineStart;
    let rest = first;
    while (rest < lineEnd && isBlank(text.charCodeAt(rest))) rest++;
    const blank = rest >= lineEnd;
    if (blockScalar >= 0) {
      if (blank || column > blockScalar) {
        lineStart = lineEnd + 1;
        continue;
      }
      blockScalar = -1;
    }
    let p = lineStart;
    let valueStart = false;
    if (quote === 0 && flow === 0) {
      if (blank || text.charCodeAt(first) === HASH) {
        lineStart = lineEnd + 1;
        continue;
      }
      while (block.length > 0 && block[block.length - 1]! >= column) block.pop();
      p = first;
      // The line's own levels: its indentation, then one per compact `- ` or `? ` in front of the content.
      for (;;) {
        block.push(p - lineStart);
        if (block.length > maxDepth) return { offset: p, depth: block.length };
        const c = text.charCodeAt(p);
        if ((c === DASH || c === QUESTION) && spaceOrEnd(text, p + 1, lineEnd)) {
          p++;
          while (p < lineEnd && isBlank(text.charCodeAt(p))) p++;
          if (p < lineEnd && text.charCodeAt(p) !== HASH) continue;
        }
        break;
      }
      valueStart = true;
    }
    while (p < lineEnd) {
      const c = text.charCodeAt(p);
      if (quote !== 0) {
        if (quote === DOUBLE_QUOTE && c === BACKSLASH) p++;
        else if (c === quote) {
          if (quote === SINGLE_QUOTE && text.charCodeAt(p + 1) === SINGLE_QUOTE) p++;
          else quote = 0;
        }
        p++;
        continue;
      }
      if (isBlank(c)) {
        p++;
        continue;
      }
      // A comment starts at `#` after a blank or at the line's start.
      if (c === HASH && (p === lineStart || isBlank(text.charCodeAt(p - 1)))) break;
      if (flow > 0) {
        if (c === OPEN_SQUARE || c === OPEN_CURLY) {
          flow++;
          if (block.length + flow > maxDepth) return { offset: p, depth: block.length + flow };
        } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) flow--;
        else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) quote = c;
        p++;
        continue;
      }
      if (valueStart) {
        valueStart = false;
        if (c === OPEN_SQUARE || c === OPEN_CURLY) {
          flow = 1;
          if (block.length + flow > maxDepth) return { offset: p, depth: block.length + flow };
          p++;
          continue;
        }
        if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
          quote = c;
          p++;
          continue;
        }
        if (c === PIPE || c === GREATER) {
          blockScalar = column;
          break;
        }
        if (c === AMPERSAND || c === BANG) {
          // An anchor or a tag: the value follows it.
          while (p < lineEnd && !isBlank(text.charCodeAt(p))) p++;
          valueStart = true;
          continue;
        }
      }
      // In a plain scalar or after a quoted key: `: ` starts the value.
      if (c === COLON && spaceOrEnd(text, p + 1, lineEnd)) valueStart = true;
      p++;
    }
    lineStart = lineEnd + 1;
  }
  return undefined;
}

export function tooDeepMessage(maxDepth: number = MAX_NESTING_DEPTH): string {
  return `The file nests deeper than ${maxDepth} levels (anf-lint reads at most ${maxDepth}, so a parser cannot run out of stack); nothing in it was read. Flatten the nesting.`;
}
