import { readAnnotations } from '../mounts/annotation';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import type { IacRequirements, IacWorkload } from './estate';
import { parseRate, parseSize } from '../units/units';
import type { Node } from './treeSitter';

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

/** tree-sitter's ERROR and MISSING nodes as positioned problems. */
export function syntaxProblems(root: Node, language: string): ParseProblem[] {
  const problems: ParseProblem[] = [];
  if (!root.hasError) return problems;
  const visit = (n: Node): void => {
    if (problems.length >= MAX_SYNTAX_PROBLEMS) return;
    if (n.isMissing) {
      problems.push({ code: IAC_SYNTAX_CODE, span: { start: n.startIndex, end: n.endIndex }, message: `${language} syntax: missing \`${n.type}\`. anf-lint reads what it can around it.` });
      return;
    }
    if (n.isError) {
      const from = firstUnexpected(n);
      const at = from.startIndex;
      const text = from.text.split('\n')[0]!.slice(0, 40); // not a fact: message length
      const end = Math.min(Math.max(root.endIndex, n.endIndex), Math.max(at + 1, Math.min(n.endIndex, at + text.length)));
      problems.push({ code: IAC_SYNTAX_CODE, span: { start: at, end: Math.max(at, end) }, message: `${language} syntax: unexpected \`${text.trim()}\`. anf-lint reads what it can around it.` });
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
    if (a?.workload) return { kind: a.workload, span: a.span, from: 'its `anf: workload` annotation' };
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
