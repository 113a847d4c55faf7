import type { Diagnostic, TextEdit } from '../diagnostics';
import type { Range } from '../text/sourceText';
import type { ParsedFile } from '../workspace/parsedFile';
import { parseSuppressions } from '../suppressions';
import type { ResolvedConfig } from '../config';
import { FIX_ALL_KIND, type CoreCodeAction } from './codeAction';
import { sizingAlternativeActions } from './sizingAlternatives';

/**
 * Code actions, computed from a file's diagnostics: each fix as a quick fix, "fix all of <CODE>",
 * fix-all of safe fixes, and "disable <CODE> on this line". Plain data; the LSP turns each into a
 * CodeAction with a WorkspaceEdit, the CLI's --fix uses `safeFixEdits`.
 */
export { FIX_ALL_KIND, type CoreCodeAction, type CoreCodeActionKind } from './codeAction';

export interface CodeActionRequest {
  /** The range the editor asks about (the cursor or a selection). */
  readonly range: Range;
  /** LSP `only`: e.g. ['quickfix'] or ['source.fixAll']; absent means every kind. */
  readonly only?: readonly string[];
}

const UNUSED_SUPPRESSION = 'ANF001';

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) =>
    p.line < q.line || (p.line === q.line && p.character < q.character);
  // Touching counts: a cursor at the end of a diagnostic still gets its fixes.
  return !before(a.end, b.start) && !before(b.end, a.start);
}

function wants(only: readonly string[] | undefined, kind: string): boolean {
  if (!only || only.length === 0) return true;
  return only.some((o) => kind === o || kind.startsWith(`${o}.`));
}

/** Two edits clash when they overlap, or an insertion touches the other edit (order would be a guess). */
function editsClash(a: TextEdit, b: TextEdit): boolean {
  if (a.uri !== b.uri) return false;
  const insertion = a.span.start === a.span.end || b.span.start === b.span.end;
  return insertion
    ? a.span.start <= b.span.end && b.span.start <= a.span.end
    : a.span.start < b.span.end && b.span.start < a.span.end;
}

/**
 * Picks the first fix of each diagnostic (safe ones only when `safeOnly`), leaving out fixes whose
 * edits overlap an edit already taken, so the combined edit always applies cleanly.
 */
export function combinedFixEdits(
  diagnostics: readonly Diagnostic[],
  safeOnly: boolean,
): { edits: TextEdit[]; fixed: Diagnostic[] } {
  const edits: TextEdit[] = [];
  const fixed: Diagnostic[] = [];
  for (const diagnostic of diagnostics) {
    const fix = diagnostic.fixes.find((f) => !safeOnly || f.applicability === 'safe');
    if (!fix || fix.edits.length === 0) continue;
    if (fix.edits.some((e) => edits.some((taken) => editsClash(e, taken)))) continue;
    edits.push(...fix.edits);
    fixed.push(diagnostic);
  }
  return { edits, fixed };
}

/** The edits `--fix` and `source.fixAll.anf-lint` apply: every diagnostic's first safe fix. */
export function safeFixEdits(diagnostics: readonly Diagnostic[]): TextEdit[] {
  return combinedFixEdits(
    diagnostics.filter((d) => !d.suppressed),
    true,
  ).edits;
}

export function computeCodeActions(
  file: ParsedFile,
  diagnostics: readonly Diagnostic[],
  request: CodeActionRequest,
  config?: ResolvedConfig,
): CoreCodeAction[] {
  const visible = diagnostics.filter((d) => !d.suppressed && d.uri === file.uri);
  const actions: CoreCodeAction[] = [];

  if (wants(request.only, 'quickfix')) {
    const here = visible.filter((d) => overlaps(d.range, request.range));
    const offeredFixAll = new Set<string>();
    for (const diagnostic of here) {
      diagnostic.fixes.forEach((fix, index) => {
        actions.push({
          title: fix.title,
          kind: 'quickfix',
          edits: fix.edits,
          diagnostics: [diagnostic],
          ...(index === 0 && fix.applicability === 'safe' ? { isPreferred: true } : {}),
        });
      });
      if (config) actions.push(...sizingAlternativeActions(file, diagnostic, config));
    }
    for (const diagnostic of here) {
      if (offeredFixAll.has(diagnostic.code)) continue;
      offeredFixAll.add(diagnostic.code);
      const sameCode = visible.filter((d) => d.code === diagnostic.code && d.fixes.length > 0);
      if (sameCode.length < 2) continue;
      const { edits, fixed } = combinedFixEdits(sameCode, false);
      if (fixed.length < 2) continue;
      actions.push({
        title: `Fix all ${diagnostic.code} problems in this file (${fixed.length})`,
        kind: 'quickfix',
        edits,
        diagnostics: fixed,
      });
    }
    const disabled = new Set<string>();
    for (const diagnostic of here) {
      const key = `${diagnostic.code}@${diagnostic.range.start.line}`;
      if (disabled.has(key)) continue;
      disabled.add(key);
      const action = disableOnLineAction(file, diagnostic);
      if (action) actions.push(action);
    }
  }

  if (wants(request.only, FIX_ALL_KIND)) {
    const { edits, fixed } = combinedFixEdits(visible, true);
    if (edits.length > 0)
      actions.push({
        title: `Fix all safely fixable anf-lint problems (${fixed.length})`,
        kind: FIX_ALL_KIND,
        edits,
        diagnostics: fixed,
      });
  }
  return actions;
}

/** The comment syntax a file kind allows, or undefined when it has none (JSON). */
function commentFor(file: ParsedFile, body: string): string | undefined {
  // JSON has no comments; a reStructuredText comment (`..`) is not one the suppression reader knows.
  if (file.kind === 'manifest-json' || file.kind === 'json-options' || file.kind === 'rst') return undefined;
  if (file.kind === 'markdown') return `<!-- ${body} -->`;
  return `# ${body}`;
}

/** The first line of the statement a line belongs to: shell commands continue with a trailing `\`. */
function statementStartLine(file: ParsedFile, line: number): number {
  let start = line;
  while (start > 0 && /\\\s*$/.test(file.source.lineText(start - 1))) start--;
  return start;
}

/**
 * "Disable <CODE> on this line": inserts `# anf-lint disable-next-line CODE -- reason` above the
 * statement with its indentation, or adds the code to a next-line suppression already there.
 */
export function disableOnLineAction(file: ParsedFile, diagnostic: Diagnostic): CoreCodeAction | undefined {
  // An unused suppression is found after suppressions apply: a comment cannot silence it (remove it instead).
  if (diagnostic.code === UNUSED_SUPPRESSION) return undefined;
  const line = statementStartLine(file, diagnostic.range.start.line);
  const title = `Disable ${diagnostic.code} on this line`;
  const existing = parseSuppressions(file.source).find(
    (s) => s.scope === 'next-line' && s.firstLine <= line && line <= s.lastLine && s.codes.length > 0,
  );
  if (existing && !existing.codes.includes(diagnostic.code)) {
    const text = file.source.text.slice(existing.span.start, existing.span.end);
    const codesMatch = /disable-next-line\s+(?=[A-Za-z0-9,])([A-Za-z0-9, ]*[A-Za-z0-9])/.exec(text);
    if (codesMatch) {
      const at = existing.span.start + codesMatch.index + codesMatch[0].length;
      const span = { start: at, end: at };
      return {
        title,
        kind: 'quickfix',
        diagnostics: [diagnostic],
        edits: [{ uri: file.uri, span, range: file.source.rangeOf(span), newText: `,${diagnostic.code}` }],
      };
    }
  }
  const comment = commentFor(file, `anf-lint disable-next-line ${diagnostic.code} -- reason`);
  if (!comment) return undefined;
  const lineText = file.source.lineText(line);
  const indent = /^[ \t]*/.exec(lineText)?.[0] ?? '';
  const at = file.source.lineStart(line);
  const span = { start: at, end: at };
  return {
    title,
    kind: 'quickfix',
    diagnostics: [diagnostic],
    edits: [
      { uri: file.uri, span, range: file.source.rangeOf(span), newText: `${indent}${comment}${file.source.eol}` },
    ],
  };
}
