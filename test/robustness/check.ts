/** Linting helpers shared by the robustness tests: lint a set of files, check where findings point. */
import { expect } from 'vitest';
import {
  lintFile,
  resolveConfig,
  Workspace,
  type Diagnostic,
  type Range,
  type SourceText,
} from '../../server/src/core';

export const config = resolveConfig();

/** Internal faults: a rule that threw (ANF002), a reader that threw (ANF003). Robustness means none. */
export const INTERNAL_FAULTS: ReadonlySet<string> = new Set(['ANF002', 'ANF003']);

export function internalFaults(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.filter((d) => INTERNAL_FAULTS.has(d.code)).map((d) => `${d.code} ${d.message}`);
}

/** Lints the files together; fails the test when any rule or reader reported an internal fault. */
export function lintAll(files: readonly { uri: string; text: string }[]): {
  workspace: Workspace;
  diagnostics: Map<string, Diagnostic[]>;
} {
  const workspace = new Workspace(config);
  for (const file of files) workspace.set(file.uri, file.text);
  const diagnostics = new Map(files.map((f) => [f.uri, lintFile(workspace, f.uri, config)]));
  expect([...diagnostics.values()].flatMap(internalFaults)).toEqual([]);
  return { workspace, diagnostics };
}

function rangeProblems(source: SourceText, range: Range, span: { start: number; end: number }, what: string): string[] {
  const problems: string[] = [];
  const inside = (p: Range['start']) =>
    p.line >= 0 &&
    p.line < source.lineCount &&
    p.character >= 0 &&
    p.character <= source.lineEnd(p.line) - source.lineStart(p.line);
  if (!inside(range.start) || !inside(range.end))
    problems.push(`${what}: range ${JSON.stringify(range)} outside the document (${source.lineCount} lines)`);
  if (
    range.start.line > range.end.line ||
    (range.start.line === range.end.line && range.start.character > range.end.character)
  )
    problems.push(`${what}: range runs backwards`);
  if (!(0 <= span.start && span.start <= span.end && span.end <= source.text.length))
    problems.push(`${what}: span [${span.start}, ${span.end}) outside ${source.text.length}`);
  return problems;
}

/** Everything wrong with where a file's diagnostics point. */
export function placementProblems(workspace: Workspace, diagnostics: readonly Diagnostic[]): string[] {
  const problems: string[] = [];
  for (const d of diagnostics) {
    const source = workspace.file(d.uri)!.source;
    problems.push(...rangeProblems(source, d.range, d.span, `${d.code} ${d.message.slice(0, 60)}`));
    for (const fix of d.fixes) {
      for (const edit of fix.edits) {
        const target = workspace.file(edit.uri)?.source;
        if (!target) {
          problems.push(`${d.code}: fix "${fix.title}" edits ${edit.uri}, which the workspace does not hold`);
          continue;
        }
        problems.push(...rangeProblems(target, edit.range, edit.span, `${d.code} fix "${fix.title}"`));
        const expected = target.rangeOf(edit.span);
        if (JSON.stringify(expected) !== JSON.stringify(edit.range))
          problems.push(
            `${d.code} fix "${fix.title}": range ${JSON.stringify(edit.range)} is not its span's ${JSON.stringify(expected)}`,
          );
      }
    }
    for (const related of d.related) {
      const target = workspace.file(related.uri)?.source;
      if (target) problems.push(...rangeProblems(target, related.range, { start: 0, end: 0 }, `${d.code} related`));
    }
  }
  return problems;
}

/**
 * Lints one document, checks where its findings point, and fails past `boundMs` of CPU time
 * (user + system of this test process): on a shared machine wall time measures the neighbours,
 * while a hang or a blow-up still burns CPU (and the test's own timeout catches a real stall).
 */
export function lintWithin(uri: string, text: string, boundMs: number): Diagnostic[] {
  const started = process.cpuUsage();
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  const diagnostics = lintFile(workspace, uri, config);
  const used = process.cpuUsage(started);
  const elapsed = (used.user + used.system) / 1000;
  expect(elapsed, `${uri}: ${Math.round(elapsed)} ms of CPU for ${text.length} characters`).toBeLessThan(boundMs);
  expect(internalFaults(diagnostics)).toEqual([]);
  expect(placementProblems(workspace, diagnostics)).toEqual([]);
  return diagnostics;
}

/** Repeats lines from `lines` until the text reaches `bytes`. */
export function fill(bytes: number, line: (i: number) => string): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const next = line(i);
    parts.push(next);
    length += next.length;
  }
  return parts.join('');
}
