import { printParseErrorCode, type ParseError as JsonParseError } from 'jsonc-parser';
import { readAnnotations } from '../mounts/annotation';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { FROM_WORKLOAD_ANNOTATION, type IacRequirements, type IacWorkload } from './estate';
import { parseRate, parseSize } from '../units/units';
import { parseTree, type IacGrammar, type Node } from './treeSitter';
import { BoundedMemo } from './boundedMemo';

/** An evaluated expression: its value, or unknown (never guessed, never flagged). */
export type Value = { ok: true; value: unknown } | { ok: false; reason?: string };
export const UNKNOWN: Value = { ok: false };

/** How many references (var -> local -> resource ...) an evaluation follows before giving up. */
export const MAX_DEPTH = 24; // not a fact: bound on reference chains
/** Instances one loop (Terraform `for_each`/`count`, a Bicep `[for ...]` module) is read as, at most; a larger loop is read once, as repeated. */
export const MAX_LOOP_INSTANCES = 64; // not a fact: bound on work per declaration

export function spanOf(n: { readonly startIndex: number; readonly endIndex: number }): Span {
  return { start: n.startIndex, end: n.endIndex };
}

/** `-x` and `!x` in HCL and Bicep; anything else is unknown. */
export function unaryValue(operator: string, operand: Value): Value {
  if (!operand.ok) return UNKNOWN;
  if (operator === '-' && typeof operand.value === 'number') return { ok: true, value: -operand.value };
  if (operator === '!' && typeof operand.value === 'boolean') return { ok: true, value: !operand.value };
  return UNKNOWN;
}

/** Syntax problems of infrastructure code: one rule code for every language. */
export const IAC_SYNTAX_CODE = 'ANF400';

/** Says each JSON syntax error jsonc-parser found (ANF400), on its text (at least one character). */
export function jsonSyntaxProblems(
  source: SourceText,
  errors: readonly JsonParseError[],
  problems: ParseProblem[],
): void {
  for (const e of errors) {
    const start = Math.min(e.offset, source.text.length);
    problems.push({
      code: IAC_SYNTAX_CODE,
      span: { start, end: Math.min(source.text.length, start + Math.max(1, e.length)) },
      message: `JSON syntax: ${printParseErrorCode(e.error)}. anf-lint reads what it can around it.`,
    });
  }
}

/** Says that the tree-sitter parser of `language` could not be loaded, so the file was not read; undefined, for the reader to return. */
export function noParser(problems: ParseProblem[], language: string): undefined {
  problems.push({
    code: IAC_SYNTAX_CODE,
    span: { start: 0, end: 0 },
    severity: 'info',
    message: `anf-lint could not load its ${language} parser (tree-sitter), so this file was not read.`,
  });
  return undefined;
}
const MAX_SYNTAX_PROBLEMS = 20; // not a fact: one broken brace can produce hundreds of error nodes

/** Whole statements: blocks, attributes, declarations and comments that parsed without error. */
const STATEMENT = /block|attribute|declaration|statement|comment/;

/**
 * Where an ERROR node's trouble starts. Error recovery can wrap whole valid blocks that precede the
 * broken token in the error node: the problem goes to the first child that is not one of them,
 * not to the first of those blocks, many lines above the edit.
 */
function firstUnexpected(n: Node): Node {
  const children = n.children;
  for (let i = 0; i < children.length; i++) {
    const c = children[i];
    if (c && c.isNamed && !c.hasError && !c.isMissing && STATEMENT.test(c.type)) continue;
    // The first token that breaks the statements, or the node itself when nothing precedes it.
    return c && i > 0 ? c : n;
  }
  return n;
}

/**
 * The syntax problems of a parsed file. With `resync` (the grammar and the text the tree was parsed
 * from), one syntax error gives one problem on its own line, and valid declarations after it give
 * none (issue 27): tree-sitter's error recovery often wraps many valid lines after an error in error
 * nodes (an unclosed `{` near the top swallows every declaration after it), so when the tree has
 * errors the file is cut into its top-level declarations and each is parsed alone
 * (`declarationStarts`): a problem is reported only where a declaration alone does not parse, the
 * first in each. Without `resync`, every ERROR and MISSING node of the tree.
 */
export function syntaxProblems(
  root: Node,
  language: string,
  resync?: { readonly grammar: IacGrammar; readonly text: string },
): ParseProblem[] {
  if (!root.hasError) return [];
  if (!resync) return treeProblems(root, language, 0, MAX_SYNTAX_PROBLEMS);
  const { grammar, text } = resync;
  const starts = declarationStarts(root, text, grammar);
  const problems: ParseProblem[] = [];
  for (let i = 0; i < starts.length && problems.length < MAX_SYNTAX_PROBLEMS; i++) {
    const start = starts[i]!;
    const first = declarationProblems(grammar, language, text.slice(start, starts[i + 1] ?? text.length))[0];
    if (first) problems.push({ ...first, span: { start: first.span.start + start, end: first.span.end + start } });
  }
  // Every declaration parses alone but the file does not (a construct across declarations, or a
  // declaration keyword inside an unindented value): the tree's own first problem.
  return problems.length > 0 ? problems : treeProblems(root, language, 0, 1);
}

/**
 * Where top-level declarations start: offset 0 and each line that starts, at column 0, as a
 * declaration of the language does (`resource`, `param`, a decorator ... in Bicep; a block or an
 * attribute in Terraform), unless the whole file's tree has that line inside a string, a heredoc
 * or a comment. Declarations are written at column 0 and their contents indented, in both
 * languages' own formatting (`bicep format`, `terraform fmt`).
 */
function declarationStarts(root: Node, text: string, grammar: IacGrammar): number[] {
  const starts = [0];
  const pattern = DECLARATION_LINE[grammar];
  for (let at = text.indexOf('\n'); at !== -1 && at + 1 < text.length; at = text.indexOf('\n', at + 1)) {
    const line = at + 1;
    if (!pattern.test(text.slice(line, line + 40))) continue; // enough to see a keyword and what follows it
    let inside = false;
    for (let n: Node | null = root.descendantForIndex(line); n; n = n.parent) {
      if (n.startIndex < line && INSIDE_TEXT.test(n.type)) {
        inside = true;
        break;
      }
    }
    if (!inside) starts.push(line);
  }
  return starts;
}

const DECLARATION_LINE: Record<IacGrammar, RegExp> = {
  bicep:
    /^(?:@[A-Za-z_]|(?:resource|module|param|var|output|type|func|import|extension|metadata|targetScope|using|extends|assert|provider|test)\b(?![ \t]*[:.([]))/,
  terraform:
    /^(?:(?:resource|data|ephemeral|module|variable|output|locals|provider|terraform|moved|import|removed|check)[ \t]*["{A-Za-z_]|[A-Za-z_][\w-]*[ \t]*=(?!=))/,
};

/** Node types whose text may hold a line that looks like a declaration. */
const INSIDE_TEXT = /string|heredoc|template|comment/;

/** One declaration's problems, at offsets in its text; remembered by text, so an edit parses only the declaration it touched. */
function declarationProblems(grammar: IacGrammar, language: string, declaration: string): readonly ParseProblem[] {
  return declarationCache.get(`${grammar}\u0000${language}\u0000${declaration}`, () => {
    const tree = parseTree(grammar, declaration);
    if (!tree) return [];
    try {
      return tree.rootNode.hasError ? treeProblems(tree.rootNode, language, 0, 1) : [];
    } finally {
      tree.delete();
    }
  });
}

const declarationCache = new BoundedMemo<readonly ParseProblem[]>(20_000); // not a fact: bounds the memory of remembered declarations

const OPENER: Readonly<Record<string, string>> = { '}': '{', ']': '[', ')': '(' };

/** Where the token before a MISSING node ends (the node's own start when nothing precedes it). */
function endOfTokenBefore(missing: Node): number {
  for (let n: Node | null = missing; n; n = n.parent) {
    const before = n.previousSibling;
    if (before) return before.endIndex;
  }
  return missing.startIndex;
}

/** The opening bracket a MISSING closing one would close: in its parent, or (HCL's `block_end` wraps its `}`) its grandparent. */
function openerOf(missing: Node): Node | undefined {
  const open = OPENER[missing.type];
  if (open === undefined) return undefined;
  for (let p = missing.parent, level = 0; p && level < 2; p = p.parent, level++) {
    const found = p.children.find(
      (c) =>
        c !== null &&
        !c.isMissing &&
        c.startIndex < missing.startIndex &&
        c.endIndex - c.startIndex === 1 &&
        c.text === open,
    );
    if (found) return found;
  }
  return undefined;
}

/** tree-sitter's ERROR and MISSING nodes as positioned problems, at most `limit`. */
function treeProblems(root: Node, language: string, offset: number, limit: number): ParseProblem[] {
  const problems: ParseProblem[] = [];
  const visit = (n: Node): void => {
    if (problems.length >= limit) return;
    if (n.isMissing) {
      // A missing closing bracket belongs where its opening one is: the block that was not closed.
      const opener = openerOf(n);
      if (opener) {
        problems.push({
          code: IAC_SYNTAX_CODE,
          span: { start: opener.startIndex + offset, end: opener.endIndex + offset },
          message: `${language} syntax: this \`${OPENER[n.type]}\` is never closed (missing \`${n.type}\`). anf-lint reads what it can around it.`,
        });
        return;
      }
      // tree-sitter puts a missing token where the next one starts (often the next line, or the
      // end of the file); it is missing right after the token before it (`size = ` then nothing).
      const at = endOfTokenBefore(n);
      problems.push({
        code: IAC_SYNTAX_CODE,
        span: { start: at + offset, end: at + offset },
        message: `${language} syntax: missing \`${n.type}\`. anf-lint reads what it can around it.`,
      });
      return;
    }
    if (n.isError) {
      const from = firstUnexpected(n);
      const at = from.startIndex;
      const text = from.text.split('\n')[0]!.slice(0, 40);
      const end = Math.min(
        Math.max(root.endIndex, n.endIndex),
        Math.max(at + 1, Math.min(n.endIndex, at + text.length)),
      );
      problems.push({
        code: IAC_SYNTAX_CODE,
        span: { start: at + offset, end: Math.max(at, end) + offset },
        message: `${language} syntax: unexpected \`${text.trim()}\`. anf-lint reads what it can around it.`,
      });
      return;
    }
    for (const c of n.children) if (c && (c.hasError || c.isMissing)) visit(c);
  };
  visit(root);
  return problems;
}

const annotationCache = new WeakMap<SourceText, ReturnType<typeof readAnnotations>>();

/**
 * A `# anf: workload=<kind>` (or `// anf: ...`) annotation inside a resource, or in the block of
 * comment lines directly above it.
 */
export function annotationFor(source: SourceText, span: Span): IacWorkload | undefined {
  let annotations = annotationCache.get(source);
  if (!annotations) {
    annotations = readAnnotations(source, []);
    annotationCache.set(source, annotations);
  }
  if (annotations.size === 0) return undefined;
  const first = source.positionAt(span.start).line;
  const last = source.positionAt(span.end).line;
  let above = first - 1;
  while (above >= 0 && /^\s*(?:#|\/\/)/.test(source.lineText(above))) above--;
  for (let line = above + 1; line <= last; line++) {
    const a = annotations.get(line);
    if (a?.workload) return { kind: a.workload, span: a.span, from: FROM_WORKLOAD_ANNOTATION };
  }
  return undefined;
}

const HAS_ANNOTATION = new WeakMap<SourceText, boolean>();

/** `throughput=400MiB/s` (or `throughput=400 MiB/s`) and `capacity=2TiB` in an `anf:` annotation. */
const REQUIREMENT = /(?<![A-Za-z_-])(throughput|capacity)\s*=\s*(\d[\d.,]*\s*[A-Za-z]+(?:\/s)?)/g;

/**
 * What a volume must deliver, from its `# anf: throughput=<rate> capacity=<size>` annotation (inside
 * the resource or in the comment lines directly above it, as the workload annotation).
 */
export function requirementsFor(source: SourceText, span: Span): IacRequirements | undefined {
  // Once per document, not once per resource (a 5,000-line file has hundreds).
  let has = HAS_ANNOTATION.get(source);
  if (has === undefined) {
    has = source.text.includes('anf:');
    HAS_ANNOTATION.set(source, has);
  }
  if (!has) return undefined;
  const first = source.positionAt(span.start).line;
  const last = source.positionAt(span.end).line;
  let above = first - 1;
  while (above >= 0 && /^\s*(?:#|\/\/)/.test(source.lineText(above))) above--;
  let found: IacRequirements | undefined;
  for (let line = above + 1; line <= last; line++) {
    const text = source.lineText(line);
    const at = text.search(/(?:#|\/\/)\s*anf:/);
    if (at < 0) continue;
    const lineStart = source.lineStart(line);
    for (const match of text.slice(at).matchAll(REQUIREMENT)) {
      const raw = match[2]!.trim();
      const start = lineStart + at + (match.index ?? 0) + match[0].length - match[2]!.length;
      const where = { span: { start, end: start + raw.length }, raw, from: 'its `anf:` annotation' };
      if (match[1] === 'throughput') {
        const rate = parseRate(raw.replace(/,/g, ''));
        if (rate.ok) found = { span: where.span, ...found, throughput: { ...where, value: rate.value } };
      } else {
        const size = parseSize(raw.replace(/,/g, ''));
        if (size.ok) found = { span: where.span, ...found, capacity: { ...where, value: size.value } };
      }
    }
  }
  return found;
}
