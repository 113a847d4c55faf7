/**
 * Re-reading only the edited volume (manifest/incremental.ts) must give exactly what a whole parse
 * gives: the same model, spans, figures and problems. Random edits of every real manifest, one at
 * a time and in chains (each result is the next edit's previous), are read both ways and compared.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reparseManifest, type PreviousManifest } from '../../server/src/core/manifest/incremental';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { SourceText } from '../../server/src/core/text/sourceText';
import { manifest as generatedManifest } from '../../bench/generate.mjs';
import { CORPUS, RUNS } from '../robustness/corpus';

const URI = 'file:///estate.anf.yaml';

const MANIFESTS: readonly string[] = [...CORPUS.filter((f) => f.kind === 'manifest-yaml').map((f) => f.text), generatedManifest(40, 3)];

function whole(text: string): PreviousManifest {
  const source = new SourceText(text);
  return { source, ...parseManifest(source, URI, 'yaml') };
}

/** JSON with sorted keys: the two readings may build objects with keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

function comparable(result: Pick<PreviousManifest, 'manifest' | 'volumes' | 'problems'>): string {
  return canonical({ manifest: result.manifest, volumes: result.volumes, problems: result.problems });
}

interface Edit {
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
}

const INSERTS = ['x', '1', ' ', '  ', ':', ': ', '-', '- ', '\n', '\n  ', '#', ' # note', '"', "'", '{', '}', ',', '[', ']', '\t', '&a', '*a', 'TiB', ' GiB', 'quota: 3 TiB', '\n            quota: 1 TiB', '\n            qouta: 1 TiB', 'NFSv4.1', 'eda-tools', 'name: x'];

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }).map((f) => f),
  remove: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) }),
  insert: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...INSERTS) }, { weight: 1, arbitrary: fc.constant('') }),
});

function apply(text: string, change: Edit): string {
  const at = Math.floor(change.at * (text.length + 1));
  return text.slice(0, at) + change.insert + text.slice(at + change.remove);
}

describe('incremental manifest reading gives what a whole parse gives', () => {
  it('one random edit of a real manifest', () => {
    let taken = 0;
    fc.assert(
      fc.property(fc.constantFrom(...MANIFESTS), edit, (text, change) => {
        const previous = whole(text);
        const next = new SourceText(apply(text, change));
        const incremental = reparseManifest(previous, next, URI);
        if (!incremental) return;
        taken++;
        expect(comparable(incremental)).toBe(comparable(parseManifest(next, URI, 'yaml')));
      }),
      { numRuns: RUNS * 5 },
    );
    // The comparison means something only if the shortcut was taken often.
    expect(taken).toBeGreaterThan(RUNS / 2);
  });

  it('a chain of edits, each read from the previous incremental result', () => {
    fc.assert(
      fc.property(fc.constantFrom(...MANIFESTS), fc.array(edit, { minLength: 2, maxLength: 12 }), (text, changes) => {
        let previous = whole(text);
        for (const change of changes) {
          const next = new SourceText(apply(previous.source.text, change));
          const full = parseManifest(next, URI, 'yaml');
          const incremental = reparseManifest(previous, next, URI);
          if (incremental) expect(comparable(incremental)).toBe(comparable(full));
          previous = { source: next, ...(incremental ?? full) };
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('typing a value in the middle of a 40-volume manifest takes the shortcut', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const at = text.indexOf('quota:', text.length / 2) + 'quota: '.length;
    const next = new SourceText(`${text.slice(0, at)}1${text.slice(at)}`);
    const incremental = reparseManifest(whole(text), next, URI);
    expect(incremental).toBeDefined();
    expect(comparable(incremental!)).toBe(comparable(parseManifest(next, URI, 'yaml')));
  });

  it('typing at the end of a pool\'s last volume moves the ends of the pool and account with it', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const lastOfPool = text.indexOf('\n      # Pool 1:');
    for (const typed of ['x', '  x', '\n            workload: hpc']) {
      const next = new SourceText(`${text.slice(0, lastOfPool)}${typed}${text.slice(lastOfPool)}`);
      const incremental = reparseManifest(whole(text), next, URI);
      expect(incremental, typed).toBeDefined();
      expect(comparable(incremental!)).toBe(comparable(parseManifest(next, URI, 'yaml')));
    }
  });

  it('edits that tie the volume to the rest of the document take the whole parse', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const at = text.indexOf('quota:', text.length / 2);
    for (const insert of ['&q ', '*q ', '!!str ', '<<: *d\n            ']) {
      expect(reparseManifest(whole(text), new SourceText(`${text.slice(0, at)}${insert}${text.slice(at)}`), URI), insert).toBeUndefined();
    }
    const broken = `${text}\n  - [unclosed\n`;
    const next = `${broken.slice(0, at)}1${broken.slice(at)}`;
    expect(reparseManifest(whole(broken), new SourceText(next), URI)).toBeUndefined();
  });
});
