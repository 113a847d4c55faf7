/**
 * Property tests for the whole pipeline (Workspace + lintFile) and for fixes: on mutated real
 * files no rule or reader throws (no ANF002, no ANF003), every range lies inside its document and matches its span,
 * the same workspace gives the same diagnostics, and the safe fixes do what they promise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyEdits, visibleDiagnostics, type Diagnostic } from '../../server/src/core';
import { internalFaults, lintAll, placementProblems } from './check';
import { combinedFixEdits } from '../../server/src/core/features/codeActions';
import { CORPUS, fingerprint, mutatedFile, RUNS, type CorpusFile } from './corpus';

/** One to four files of any kinds (so cross-file rules run), each mutated. */
const workspaces = fc.uniqueArray(mutatedFile(CORPUS), { minLength: 1, maxLength: 4, selector: (f) => f.uri });

describe('the lint pipeline on mutated real files', () => {
  it('never throws, no rule or reader fails (ANF002, ANF003), every range lies inside its document', () => {
    fc.assert(
      fc.property(workspaces, (files) => {
        const { workspace, diagnostics } = lintAll(files);
        for (const list of diagnostics.values()) {
          expect(internalFaults(list)).toEqual([]);
          expect(placementProblems(workspace, list)).toEqual([]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('the same files give the same diagnostics, whatever order they were added in', () => {
    fc.assert(
      fc.property(workspaces, (files) => {
        const first = lintAll(files).diagnostics;
        const second = lintAll([...files].reverse()).diagnostics;
        for (const file of files) expect(fingerprint(second.get(file.uri))).toBe(fingerprint(first.get(file.uri)));
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

// ---- fixes -------------------------------------------------------------------------------------

/** The offset an offset of the old text moves to once the edits are applied (inside an edit: its start). */
function mapOffset(
  offset: number,
  edits: readonly { span: { start: number; end: number }; newText: string }[],
): number {
  let delta = 0;
  for (const edit of [...edits].sort((a, b) => a.span.start - b.span.start)) {
    if (offset < edit.span.start || (offset === edit.span.start && edit.span.end > edit.span.start)) break;
    if (offset < edit.span.end) return edit.span.start + delta;
    delta += edit.newText.length - (edit.span.end - edit.span.start);
  }
  return offset + delta;
}

interface FixRound {
  readonly before: string;
  readonly after: string;
  readonly fixed: readonly Diagnostic[];
  readonly edits: readonly { span: { start: number; end: number }; newText: string }[];
}

/** One fix-all pass on one file, as `source.fixAll.anf-lint` does it (edits in this file only). */
function fixOnce(files: readonly CorpusFile[], target: CorpusFile): FixRound {
  const { diagnostics } = lintAll(files);
  const own = visibleDiagnostics(diagnostics.get(target.uri) ?? []).filter((d) =>
    d.fixes.some((f) => f.applicability === 'safe' && f.edits.every((e) => e.uri === target.uri)),
  );
  const { edits, fixed } = combinedFixEdits(own, true);
  const applied = applyEdits(target.text, edits);
  expect(applied.skipped).toBe(0);
  return { before: target.text, after: applied.text, fixed, edits };
}

function withText(
  files: readonly CorpusFile[],
  target: CorpusFile,
  text: string,
): { files: CorpusFile[]; target: CorpusFile } {
  const next = { ...target, text };
  return { files: files.map((f) => (f.uri === target.uri ? next : f)), target: next };
}

/** Comments (`# ...`) of a YAML text with their offsets, outside quotes. */
function yamlComments(text: string): { start: number; text: string }[] {
  const comments: { start: number; text: string }[] = [];
  let lineStart = 0;
  for (const line of text.split('\n')) {
    let quote: string | undefined;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quote) {
        if (ch === quote) quote = undefined;
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]!))) {
        comments.push({ start: lineStart + i, text: line.slice(i).replace(/\r$/, '') });
        break;
      }
    }
    lineStart += line.length + 1;
  }
  return comments;
}

const FIXABLE = CORPUS.filter((file) => {
  const { diagnostics } = lintAll([file]);
  return visibleDiagnostics(diagnostics.get(file.uri) ?? []).some((d) =>
    d.fixes.some((f) => f.applicability === 'safe'),
  );
});

/** A corpus file with safe fixes, mutated a little, next to the other files of its fixture. */
const fixCases = mutatedFile(FIXABLE).map((target) => {
  const folder = target.uri.slice(0, target.uri.indexOf('/', 'file:///corpus/'.length) + 1);
  const siblings = CORPUS.filter((f) => f.uri.startsWith(folder) && f.uri !== target.uri);
  return { files: [...siblings, target], target };
});

describe('safe fixes', () => {
  it('the corpus has files with safe fixes in every domain', () => {
    const kinds = new Set(FIXABLE.map((f) => f.kind));
    expect(FIXABLE.length).toBeGreaterThan(10);
    for (const kind of ['fstab', 'manifest-yaml', 'sysctl'] as const) expect(kinds).toContain(kind);
  });

  it('every real file: applying every safe fix and re-linting leaves none of the fixed findings', () => {
    const failures: string[] = [];
    for (const target of FIXABLE) {
      const folder = target.uri.slice(0, target.uri.indexOf('/', 'file:///corpus/'.length) + 1);
      const files = [...CORPUS.filter((f) => f.uri.startsWith(folder) && f.uri !== target.uri), target];
      failures.push(...remaining(files, target));
    }
    expect(failures).toEqual([]);
  });

  it('on mutated files too: the fixed findings are gone, and bytes outside the edits are unchanged', () => {
    fc.assert(
      fc.property(fixCases, ({ files, target }) => {
        expect(remaining(files, target)).toEqual([]);
        const round = fixOnce(files, target);
        // Outside the edits, the text is byte for byte what it was.
        const sorted = [...round.edits].sort((a, b) => a.span.start - b.span.start);
        let cursor = 0;
        let rebuilt = '';
        for (const edit of sorted) {
          rebuilt += round.before.slice(cursor, edit.span.start) + edit.newText;
          cursor = edit.span.end;
        }
        expect(round.after).toBe(rebuilt + round.before.slice(cursor));
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('fix-all is idempotent: it settles within a few passes and then changes nothing', () => {
    fc.assert(
      fc.property(fixCases, ({ files, target }) => {
        let current = { files, target };
        const seen: string[] = [current.target.text];
        for (let pass = 0; pass < 4; pass++) {
          const round = fixOnce(current.files, current.target);
          if (round.after === round.before) return;
          current = withText(current.files, current.target, round.after);
          seen.push(round.after);
        }
        const last = fixOnce(current.files, current.target);
        expect({
          passes: seen.length,
          changesAgain: last.after !== last.before,
          fixing: last.fixed.map((d) => `${d.code} ${d.message}`),
        }).toMatchObject({ changesAgain: false });
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('YAML comments survive the fixes', () => {
    const yamlFiles = FIXABLE.filter((f) =>
      ['manifest-yaml', 'anf-lint-config', 'ansible', 'cloud-init'].includes(f.kind),
    );
    expect(yamlFiles.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fixCases.filter(({ target }) => yamlFiles.some((f) => f.uri === target.uri)),
        ({ files, target }) => {
          const round = fixOnce(files, target);
          const covered = (offset: number) => round.edits.some((e) => e.span.start <= offset && offset < e.span.end);
          const lost = yamlComments(round.before).filter((c) => !covered(c.start) && !round.after.includes(c.text));
          expect(lost).toEqual([]);
        },
      ),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });
});

/** The fixed findings still reported after the fix, at the place they moved to. */
function remaining(files: readonly CorpusFile[], target: CorpusFile): string[] {
  const round = fixOnce(files, target);
  if (round.fixed.length === 0) return [];
  const next = withText(files, target, round.after);
  const after = visibleDiagnostics(lintAll(next.files).diagnostics.get(target.uri) ?? []);
  const failures: string[] = [];
  for (const d of round.fixed) {
    const start = mapOffset(d.span.start, round.edits);
    const still = after.find((a) => a.code === d.code && a.span.start === start);
    if (still)
      failures.push(
        `${target.path}: ${d.code} "${d.message}" is still reported after its fix "${d.fixes.find((f) => f.applicability === 'safe')?.title}"\n--- before\n${round.before}\n--- after\n${round.after}`,
      );
  }
  return failures;
}
