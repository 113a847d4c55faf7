import type { ResolvedConfig } from '../config';
import type { Diagnostic, FixApplicability, ResolvedFix, TextEdit } from '../diagnostics';
import { applyEdits } from '../edits';
import { lintFile, visibleDiagnostics, type LintOptions } from '../lint';
import { NO_FINDING_LIMITS } from '../rules/findingLimits';
import type { Workspace } from '../workspace/workspace';

/**
 * The one fix engine (as ruff's): `--fix`, `--fix-dry-run` and the project's fix-all use it.
 * A fix is applied whole or not at all: when one of its edits overlaps an edit already taken, or
 * edits a file that may not be written, the whole fix waits for the next pass. Passes repeat,
 * re-parsing and re-linting, until nothing changes (bounded).
 */

/** Which fixes to apply: `safe` ones only (--fix, the editor's fix-all), or unsafe ones too (--unsafe-fixes). */
export type FixLevel = 'safe' | 'unsafe';

/** How many passes at most; fixes that keep producing new fixes stop here. */
export const MAX_FIX_PASSES = 10; // not a fact: loop bound

export interface AppliedFix {
  readonly uri: string;
  readonly code: string;
  readonly title: string;
  readonly applicability: FixApplicability;
  /** 0-based line of the finding when its fix was applied. */
  readonly line: number;
}

export interface FixRun {
  /** Every fixable file's text after the run (unchanged ones too). */
  readonly texts: ReadonlyMap<string, string>;
  readonly applied: readonly AppliedFix[];
  /** The loop stopped at MAX_FIX_PASSES with fixes still coming. */
  readonly unfinished: boolean;
}

/** Two edits clash when they overlap, or an insertion touches the other edit (their order would be a guess). */
export function editsClash(a: Pick<TextEdit, 'uri' | 'span'>, b: Pick<TextEdit, 'uri' | 'span'>): boolean {
  if (a.uri !== b.uri) return false;
  const insertion = a.span.start === a.span.end || b.span.start === b.span.end;
  return insertion ? a.span.start <= b.span.end && b.span.start <= a.span.end : a.span.start < b.span.end && b.span.start < a.span.end;
}

/** The fix a diagnostic contributes at this level: its first safe fix, or (unsafe) its first fix. */
export function fixAtLevel(diagnostic: Diagnostic, level: FixLevel): ResolvedFix | undefined {
  return diagnostic.fixes.find((f) => f.edits.length > 0 && (level === 'unsafe' || f.applicability === 'safe'));
}

/**
 * Picks whole fixes from diagnostics: each visible diagnostic's fix at `level`, unless one of its
 * edits clashes with an edit already taken or lies in a file `writable` refuses.
 */
export function selectFixes(diagnostics: readonly Diagnostic[], level: FixLevel, writable: (uri: string) => boolean = () => true): { edits: TextEdit[]; chosen: { diagnostic: Diagnostic; fix: ResolvedFix }[] } {
  const edits: TextEdit[] = [];
  const chosen: { diagnostic: Diagnostic; fix: ResolvedFix }[] = [];
  const seen = new Set<string>();
  for (const diagnostic of diagnostics) {
    if (diagnostic.suppressed) continue;
    const fix = fixAtLevel(diagnostic, level);
    if (!fix || !fix.edits.every((e) => writable(e.uri))) continue;
    // Two findings that offer the very same fix (e.g. both ends of a cross-file pair) apply it once.
    const key = JSON.stringify(fix.edits.map((e) => [e.uri, e.span.start, e.span.end, e.newText]));
    if (seen.has(key)) continue;
    if (fix.edits.some((e) => edits.some((taken) => editsClash(e, taken)))) continue;
    seen.add(key);
    edits.push(...fix.edits);
    chosen.push({ diagnostic, fix });
  }
  return { edits, chosen };
}

/**
 * Applies fixes to the files `uris` of `workspace` until nothing changes. The workspace holds the
 * fixed texts afterwards; `texts` has each file's final text.
 */
export function fixFiles(workspace: Workspace, uris: readonly string[], configFor: (uri: string) => ResolvedConfig, level: FixLevel, options: LintOptions = {}): FixRun {
  const fixable = new Set(uris.filter((uri) => workspace.file(uri) !== undefined));
  const applied: AppliedFix[] = [];
  let unfinished = false;
  for (let pass = 0; ; pass++) {
    // Every fix, not the first findings a report lists (ANF010).
    const diagnostics = [...fixable].flatMap((uri) => visibleDiagnostics(lintFile(workspace, uri, configFor(uri), { limits: NO_FINDING_LIMITS, ...options })));
    const { edits, chosen } = selectFixes(diagnostics, level, (uri) => fixable.has(uri));
    if (edits.length === 0) break;
    if (pass === MAX_FIX_PASSES) {
      unfinished = true;
      break;
    }
    let changed = false;
    const byUri = new Map<string, TextEdit[]>();
    for (const edit of edits) byUri.set(edit.uri, [...(byUri.get(edit.uri) ?? []), edit]);
    for (const [uri, fileEdits] of byUri) {
      const file = workspace.file(uri)!;
      const after = applyEdits(file.source.text, fileEdits).text;
      if (after === file.source.text) continue;
      workspace.set(uri, after, file.version, file.kind);
      changed = true;
    }
    if (!changed) break;
    for (const { diagnostic, fix } of chosen) applied.push({ uri: diagnostic.uri, code: diagnostic.code, title: fix.title, applicability: fix.applicability, line: diagnostic.range.start.line });
  }
  return { texts: new Map([...fixable].map((uri) => [uri, workspace.file(uri)!.source.text])), applied, unfinished };
}
