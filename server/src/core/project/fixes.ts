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
  /** Fixes backed out because, applied together with others, they made a new error or warning. */
  readonly dropped: readonly DroppedFix[];
  /** At level `safe`: how many findings still offer a fix, but only an unsafe one. */
  readonly unsafeLeft: number;
}

/** Two edits clash when they overlap, or an insertion touches the other edit (their order would be a guess). */
export function editsClash(a: Pick<TextEdit, 'uri' | 'span'>, b: Pick<TextEdit, 'uri' | 'span'>): boolean {
  if (a.uri !== b.uri) return false;
  const insertion = a.span.start === a.span.end || b.span.start === b.span.end;
  return insertion
    ? a.span.start <= b.span.end && b.span.start <= a.span.end
    : a.span.start < b.span.end && b.span.start < a.span.end;
}

/** The fix a diagnostic contributes at this level: its first safe fix, or (unsafe) its first fix. */
export function fixAtLevel(diagnostic: Diagnostic, level: FixLevel): ResolvedFix | undefined {
  return diagnostic.fixes.find((f) => f.edits.length > 0 && (level === 'unsafe' || f.applicability === 'safe'));
}

/**
 * Picks whole fixes from diagnostics: each visible diagnostic's fix at `level`, unless one of its
 * edits clashes with an edit already taken or lies in a file `writable` refuses.
 */
export function selectFixes(
  diagnostics: readonly Diagnostic[],
  level: FixLevel,
  writable: (uri: string) => boolean = () => true,
): { edits: TextEdit[]; chosen: { diagnostic: Diagnostic; fix: ResolvedFix }[] } {
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

/** A fix the engine backed out: applied with the others of its pass, it made a finding none of them made alone. */
export interface DroppedFix extends AppliedFix {
  /** The new findings (`CODE message`) it made together with the fixes kept. */
  readonly newFindings: readonly string[];
}

/** Findings at these levels count when the engine checks that fixes compose. */
const COMPOSE_SEVERITIES = new Set(['error', 'warning']);

/** What makes a finding the same after an edit: its file and code (lines and message figures move with the fixes). */
function findingKey(diagnostic: Diagnostic): string {
  return `${diagnostic.uri}\u0000${diagnostic.code}`;
}

/** The error and warning findings of `after` that `before` did not have (by file and code, counted). */
function newFindings(before: readonly Diagnostic[], after: readonly Diagnostic[]): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const d of before)
    if (COMPOSE_SEVERITIES.has(d.severity)) counts.set(findingKey(d), (counts.get(findingKey(d)) ?? 0) + 1);
  const found: Diagnostic[] = [];
  for (const d of after) {
    if (!COMPOSE_SEVERITIES.has(d.severity)) continue;
    const left = counts.get(findingKey(d)) ?? 0;
    if (left > 0) counts.set(findingKey(d), left - 1);
    else found.push(d);
  }
  return found;
}

/** A fix's identity across passes (its offsets move): file, code, title. */
function fixKey(diagnostic: Diagnostic, fix: ResolvedFix): string {
  return `${diagnostic.uri}\u0000${diagnostic.code}\u0000${fix.title}`;
}

/**
 * Applies fixes to the files `uris` of `workspace` until nothing changes. The workspace holds the
 * fixed texts afterwards; `texts` has each file's final text.
 *
 * Fixes must compose (as ruff re-checks after each pass): after a pass the engine re-lints, and
 * when the pass made an error or warning that was not there before, it goes back and applies that
 * pass's fixes one at a time, keeping each only when the findings it makes together with the fixes
 * kept so far are ones it makes alone or they make alone (a pool shrink and a throughput raise can
 * each be right, and together overrun the pool's throughput). A backed-out fix is `dropped` and
 * not offered again in this run. Bounded: at most MAX_FIX_PASSES passes, and a pass that does not
 * compose costs two lints per fix.
 */
export function fixFiles(
  workspace: Workspace,
  uris: readonly string[],
  configFor: (uri: string) => ResolvedConfig,
  level: FixLevel,
  options: LintOptions = {},
): FixRun {
  const fixable = new Set(uris.filter((uri) => workspace.file(uri) !== undefined));
  const applied: AppliedFix[] = [];
  const dropped: DroppedFix[] = [];
  const droppedKeys = new Set<string>();
  let unfinished = false;
  // Every fix, not the first findings a report lists (ANF010).
  const lintAll = () =>
    [...fixable].flatMap((uri) =>
      visibleDiagnostics(lintFile(workspace, uri, configFor(uri), { limits: NO_FINDING_LIMITS, ...options })),
    );
  const textsNow = () => new Map([...fixable].map((uri) => [uri, workspace.file(uri)!.source.text]));
  const restore = (texts: ReadonlyMap<string, string>) => {
    for (const [uri, text] of texts) {
      const file = workspace.file(uri)!;
      if (file.source.text !== text) workspace.set(uri, text, file.version, file.kind);
    }
  };
  const apply = (edits: readonly TextEdit[]): boolean => {
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
    return changed;
  };
  const record = (list: AppliedFix[], { diagnostic, fix }: { diagnostic: Diagnostic; fix: ResolvedFix }) =>
    list.push({
      uri: diagnostic.uri,
      code: diagnostic.code,
      title: fix.title,
      applicability: fix.applicability,
      line: diagnostic.range.start.line,
    });

  let diagnostics = lintAll();
  for (let pass = 0; ; pass++) {
    const offered = diagnostics.filter((d) => !d.suppressed && !d.fixes.some((f) => droppedKeys.has(fixKey(d, f))));
    const { edits, chosen } = selectFixes(offered, level, (uri) => fixable.has(uri));
    if (edits.length === 0) break;
    if (pass === MAX_FIX_PASSES) {
      unfinished = true;
      break;
    }
    const start = textsNow();
    if (!apply(edits)) break;
    const after = lintAll();
    if (chosen.length === 1 || newFindings(diagnostics, after).length === 0) {
      for (const one of chosen) record(applied, one);
      diagnostics = after;
      continue;
    }
    // The pass made a finding that was not there: apply its fixes one at a time, each time from the
    // pass's start (the edits' offsets are the start's), with the fixes kept so far.
    const allowed = new Set<string>();
    const keptEdits: TextEdit[] = [];
    let current = diagnostics;
    for (const one of chosen) {
      restore(start);
      apply(one.fix.edits);
      const alone = new Set(newFindings(diagnostics, lintAll()).map(findingKey));
      restore(start);
      if (!apply([...keptEdits, ...one.fix.edits])) continue;
      const now = lintAll();
      const made = newFindings(diagnostics, now).filter(
        (d) => !allowed.has(findingKey(d)) && !alone.has(findingKey(d)),
      );
      if (made.length > 0) {
        droppedKeys.add(fixKey(one.diagnostic, one.fix));
        const list: AppliedFix[] = [];
        record(list, one);
        dropped.push({ ...list[0]!, newFindings: made.map((d) => `${d.code} ${d.message}`) });
        continue;
      }
      for (const key of alone) allowed.add(key);
      keptEdits.push(...one.fix.edits);
      record(applied, one);
      current = now;
    }
    restore(start);
    apply(keptEdits);
    diagnostics = keptEdits.length > 0 ? current : diagnostics;
  }
  // With --fix alone: the fixes it left out because they are unsafe (`--unsafe-fixes` or the editor's quick fixes apply them).
  const unsafeLeft =
    level === 'safe'
      ? diagnostics.filter(
          (d) => !d.suppressed && fixAtLevel(d, 'safe') === undefined && fixAtLevel(d, 'unsafe') !== undefined,
        ).length
      : 0;
  return { texts: textsNow(), applied, unfinished, dropped, unsafeLeft };
}
