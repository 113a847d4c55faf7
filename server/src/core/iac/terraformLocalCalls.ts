import type { IacModuleCall } from './estate';

/**
 * The word `module` followed by a label, after the text's start, a space, a brace or a semicolon:
 * where a `.tf` file may declare a `module` block. Any case, in a comment or a string too: a test
 * that may say "maybe", never "no" when there is one.
 */
const MODULE_WORD_PATTERN = String.raw`(?<![^\s{};])module\s*["A-Za-z_]`;
const MODULE_WORD = new RegExp(MODULE_WORD_PATTERN, 'gi');
const ANY_MODULE_WORD = new RegExp(MODULE_WORD_PATTERN, 'i');

/** Whether a `.tf` file's text may declare a `module` block. */
export function hasModuleWord(text: string): boolean {
  return ANY_MODULE_WORD.test(text);
}

/** A top-level `module "name" {` line as `terraform fmt` writes it: at column 0, the brace ending the line. */
const HEADER = /^module[ \t]+"([A-Za-z_][A-Za-z0-9_-]*)"[ \t]*\{[ \t]*\r?$/gm;
/** The line that closes a top-level block as `terraform fmt` writes it. */
const CLOSE = /^\}[ \t]*\r?$/gm;
/** Any `source` argument line; the one of a block must be `PLAIN_LOCAL_SOURCE`. */
const SOURCE_LINE = /^[ \t]*source[ \t]*=/gm;
/** `source = "./modules/anf"`: a plain string (no template, no escape) naming a local folder, alone on its line. */
const PLAIN_LOCAL_SOURCE = /^[ \t]*source[ \t]*=[ \t]*("(\.\.?\/[^"\\$%\n\r]*)")[ \t]*\r?$/m;
/** A line that starts with anything but a space, a tab or its end. */
const TOP_LEVEL_LINE = /^[^ \t\r\n]/m;
/** What the lines above cannot see past: a block comment or a heredoc may hold any of them. */
const OPAQUE = /\/\*|<<|\\u/;

/**
 * The `module` blocks of a `.tf` file, read from its text without parsing it, when the file is
 * surely that simple: every `module` word of the text starts a top-level block in `terraform fmt`'s
 * layout, whose one `source` is a plain local path, and no block comment or heredoc hides
 * anything. Undefined when unsure: the file is parsed (terraform.ts `readTerraform`).
 *
 * Why: most `.tf` files of a real repository that anf-lint reads at all call local modules and
 * hold no NetApp resource (a stack's `main.tf`; issue 29's 3,000-file repository has 600). Alone,
 * such a file gives only its calls, which the module step needs to know which folders reach NetApp
 * resources (terraformModules.ts); a folder that does is read as a module, which parses every
 * file. Each call found here is the one the parse gives (test/iac/terraformLocalCalls.test.ts
 * compares them).
 */
export function localCallsFromText(text: string): IacModuleCall[] | undefined {
  if (OPAQUE.test(text)) return undefined;
  const headers = [...text.matchAll(HEADER)];
  const words = [...text.matchAll(MODULE_WORD)];
  if (headers.length === 0 || words.length !== headers.length) return undefined;
  const calls: IacModuleCall[] = [];
  for (const [i, header] of headers.entries()) {
    const start = header.index!;
    if (words[i]!.index !== start) return undefined;
    CLOSE.lastIndex = start;
    const close = CLOSE.exec(text);
    const next = headers[i + 1]?.index ?? text.length;
    if (!close || close.index > next) return undefined;
    const body = text.slice(start + header[0].length, close.index);
    // Every line of a block is indented in that layout: one that is not means the `}` found closes
    // something else (the block's own ended with a comment after its brace).
    if (TOP_LEVEL_LINE.test(body)) return undefined;
    if ((body.match(SOURCE_LINE)?.length ?? 0) !== 1) return undefined;
    const source = PLAIN_LOCAL_SOURCE.exec(body);
    if (!source) return undefined;
    const bodyStart = start + header[0].length;
    const sourceStart = bodyStart + source.index + source[0].indexOf(source[1]!);
    calls.push({
      name: header[1]!,
      source: source[2]!,
      local: true,
      span: { start, end: close.index + 1 },
      headSpan: { start, end: start + header[0].indexOf('{') },
      sourceSpan: { start: sourceStart, end: sourceStart + source[1]!.length },
      repeated: repeatedAt(body, source[0]),
    });
  }
  return calls;
}

/**
 * Whether the block has `count` or `for_each`: an argument of the block itself, indented as its
 * `source` line is (a `count` key inside a map argument is indented deeper in that layout).
 */
function repeatedAt(body: string, sourceLine: string): boolean {
  const indent = /^[ \t]*/.exec(sourceLine)![0];
  return new RegExp(`^${indent}(?:count|for_each)[ \\t]*=`, 'm').test(body);
}
