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
import { parseFile } from '../../server/src/core/workspace/parseFile';
import { manifest as generatedManifest } from '../../bench/generate.mjs';
import { CORPUS } from '../robustness/corpus';
import { placeStep, propertyRuns, runTimeout } from '../support/propertyRuns';

/** Runs per property: a quick run in `npm test`, ROBUSTNESS_RUNS in `npm run fuzz` (test/support/propertyRuns.ts). */
const RUNS = propertyRuns(20);
/** Every STEP-th line of the exhaustive tests in `npm test`, every line in `npm run fuzz`. */
const STEP = placeStep(5);

const URI = 'file:///estate.anf.yaml';

const MANIFESTS: readonly string[] = [
  ...CORPUS.filter((f) => f.kind === 'manifest-yaml').map((f) => f.text),
  generatedManifest(40, 3),
];

/** A real manifest; the generated 40-volume one a quarter of the time (many volumes to edit in). */
const manifestText = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...MANIFESTS) },
  { weight: 1, arbitrary: fc.constant(MANIFESTS[MANIFESTS.length - 1]!) },
);

function whole(text: string): PreviousManifest {
  const source = new SourceText(text);
  return { source, ...parseManifest(source, URI, 'yaml') };
}

/** JSON with sorted keys: the two readings may build objects with keys in another order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function comparable(result: Pick<PreviousManifest, 'manifest' | 'volumes' | 'problems'>): string {
  return canonical({ manifest: result.manifest, volumes: result.volumes, problems: result.problems });
}

interface Edit {
  readonly at: number;
  /** Move to the end of the line: where people type new keys. */
  readonly atLineEnd: boolean;
  readonly remove: number;
  readonly insert: string;
}

/** Stands for a line break and the current line's indentation (a new key as an editor starts it). */
const NEW_LINE = '\u0000';

const INSERTS = [
  'x',
  '1',
  ' ',
  '  ',
  ':',
  ': ',
  '-',
  '- ',
  '\n',
  '\n  ',
  '#',
  ' # note',
  '"',
  "'",
  '{',
  '}',
  ',',
  '[',
  ']',
  '\t',
  '&a',
  '*a',
  'TiB',
  ' GiB',
  'quota: 3 TiB',
  '\n            quota: 1 TiB',
  '\n            qouta: 1 TiB',
  'NFSv4.1',
  'eda-tools',
  'name: x',
  `${NEW_LINE}q`,
  `${NEW_LINE}quota`,
  `${NEW_LINE}a: b: c`,
  ': :',
];

const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
  atLineEnd: fc.boolean(),
  remove: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 12 }) }),
  insert: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...INSERTS) }, { weight: 1, arbitrary: fc.constant('') }),
});

function apply(text: string, change: Edit): string {
  let at = Math.floor(change.at * (text.length + 1));
  if (change.atLineEnd) at = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  return text.slice(0, at) + change.insert.replace(NEW_LINE, `\n${indent}`) + text.slice(at + change.remove);
}

describe('incremental manifest reading gives what a whole parse gives', () => {
  it('one random edit of a real manifest', () => {
    let taken = 0;
    fc.assert(
      fc.property(manifestText, edit, (text, change) => {
        const previous = whole(text);
        const next = new SourceText(apply(text, change));
        const incremental = reparseManifest(previous, next, URI);
        if (!incremental) return;
        taken++;
        expect(comparable(incremental)).toBe(comparable(parseManifest(next, URI, 'yaml')));
      }),
      { numRuns: RUNS * 3 },
    );
    // The comparison means something only if the shortcut was taken often.
    expect(taken).toBeGreaterThan(RUNS / 3);
  });

  it('characters typed into the indentation (and deleted again) read as a whole parse does, mostly without one', () => {
    // The benchmark's edits: one of `x0,= 9a` at a random place of a random line, then undone.
    // In the indentation, the line may leave its volume: the pool or the account is read again.
    const text = generatedManifest(60, 25, 9);
    const lines = text.split('\n');
    const indented = lines.map((line, index) => ({ line, index })).filter(({ line }) => /^ {6,}\S/.test(line));
    let taken = 0;
    let beyondVolume = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...indented),
        fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        fc.constantFrom(...'x0,= 9a'),
        ({ line, index }, where, ch) => {
          const indent = line.length - line.trimStart().length;
          const column = Math.floor(where * indent);
          const typed = [
            ...lines.slice(0, index),
            line.slice(0, column) + ch + line.slice(column),
            ...lines.slice(index + 1),
          ].join('\n');
          const before = parseFile(URI, text, 0, 'manifest-yaml');
          const read = parseFile(URI, typed, 1, 'manifest-yaml', before);
          expect(comparable(read)).toBe(comparable(parseFile(URI, typed, 1, 'manifest-yaml')));
          const incremental = reparseManifest(before, new SourceText(typed), URI);
          if (incremental) {
            taken++;
            if (column < indent - 2) beyondVolume++;
          }
          const undone = parseFile(URI, text, 2, 'manifest-yaml', read);
          expect(comparable(undone)).toBe(comparable(before));
        },
      ),
      { numRuns: RUNS },
    );
    // Typed left of the pools' column, the text often no longer closes the account (an unclosed
    // flow list runs to the end): those need the whole parse. The rest stay short.
    expect(taken).toBeGreaterThan(RUNS / 6);
    expect(beyondVolume).toBeGreaterThan(RUNS / 12);
  });

  it(
    'a character typed into the indentation inside a pool reads its account alone, as a whole parse does',
    () => {
      // Accounts of 40%, 40% and 20% of the text (the benchmark's shape). A character typed at
      // offset 4-6 of a line (editor columns 5-7, left of the pools' dash) moves the line out of its
      // pool but not out of its account: the account is read again, with a sibling after it (at
      // offset 3 the line splits the account in two: a whole parse). The last account is the
      // document's last content: it is read to the end of the text, its syntax errors included.
      const text = generatedManifest(75, 25, 9);
      const lines = text.split('\n');
      const before = parseFile(URI, text, 0, 'manifest-yaml');
      const lastAccount = before.manifest!.accounts.at(-1)!.span.start;
      let inEarlierAccount = 0;
      let accountRead = 0;
      let inLastAccount = 0;
      let lastAccountRead = 0;
      let checked = 0;
      let offset = 0;
      for (const [index, line] of lines.entries()) {
        const lineStart = offset;
        offset += line.length + 1;
        if (index % (11 * STEP) !== 0 || !/^ {8,}\S/.test(line) || line.trimStart().startsWith('#')) continue;
        for (let column = 2; column < 8; column++) {
          for (const ch of index % 2 ? 'x' : ',') {
            const typed = [
              ...lines.slice(0, index),
              line.slice(0, column) + ch + line.slice(column),
              ...lines.slice(index + 1),
            ].join('\n');
            const read = parseFile(URI, typed, 1, 'manifest-yaml', before);
            expect(comparable(read), `line ${index + 1}, column ${column + 1}, ${ch}`).toBe(
              comparable(parseFile(URI, typed, 1, 'manifest-yaml')),
            );
            checked++;
            if (column < 4 || column > 6) continue;
            const shortcut = reparseManifest(before, new SourceText(typed), URI) !== undefined;
            if (lineStart > lastAccount) {
              inLastAccount++;
              if (shortcut) lastAccountRead++;
            } else {
              inEarlierAccount++;
              if (shortcut) accountRead++;
            }
          }
        }
      }
      expect(checked).toBeGreaterThan(250 / STEP);
      expect(inEarlierAccount).toBeGreaterThan(90 / STEP);
      expect(accountRead).toBeGreaterThan(inEarlierAccount * 0.9);
      expect(inLastAccount).toBeGreaterThan(20 / STEP);
      expect(lastAccountRead).toBeGreaterThan(inLastAccount * 0.9);
    },
    runTimeout(60_000),
  );

  it('a chain of edits, as the workspace reads them (each from the one before, or the last well-formed one)', () => {
    fc.assert(
      fc.property(manifestText, fc.array(edit, { minLength: 2, maxLength: 12 }), (text, changes) => {
        let previous = parseFile(URI, text, 0, 'manifest-yaml');
        for (const change of changes) {
          const next = apply(previous.source.text, change);
          const read = parseFile(URI, next, 0, 'manifest-yaml', previous);
          expect(comparable(read)).toBe(comparable(parseFile(URI, next, 0, 'manifest-yaml')));
          previous = read;
        }
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it('typing through a broken line of one volume, and undoing a slip, stay on the short path', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const at = text.indexOf('\n', text.indexOf('mountPath:', text.length / 2));
    let previous = parseFile(URI, text, 0, 'manifest-yaml');
    let typed = '\n            ';
    let broken = 0;
    for (const ch of 'quota: 3 TiB') {
      typed += ch;
      const next = new SourceText(`${text.slice(0, at)}${typed}${text.slice(at)}`);
      const full = parseManifest(next, URI, 'yaml');
      const incremental = reparseManifest(previous, next, URI);
      expect(incremental, typed).toBeDefined();
      expect(comparable(incremental!)).toBe(comparable(full));
      if (full.manifest?.syntaxErrors) broken++;
      previous = parseFile(URI, next.text, 0, 'manifest-yaml', previous);
    }
    // `q` ... `quota` alone are keys without values: syntax errors, read on the short path too.
    expect(broken).toBeGreaterThan(3);
    const slip = `${text.slice(0, at)}\n      x${text.slice(at)}`;
    const slipped = parseFile(URI, slip, 0, 'manifest-yaml', parseFile(URI, text, 0, 'manifest-yaml'));
    expect(slipped.manifest?.syntaxErrors).toBe(true);
    expect(reparseManifest(slipped, new SourceText(text), URI)).toBeDefined();
  });

  it('a new line typed at the end of every line of an 8-volume manifest, well-formed or not, reads as a whole parse does', () => {
    const text = generatedManifest(8, 2, 5);
    const previous = whole(text);
    let taken = 0;
    let broken = 0;
    let line = 0;
    for (let at = text.indexOf('\n'); at > 0; at = text.indexOf('\n', at + 1)) {
      if (line++ % STEP !== 0) continue;
      const indent = /^ */.exec(text.slice(text.lastIndexOf('\n', at - 1) + 1))![0];
      for (const typed of ['q', 'quota', 'quota:', 'a: b: c', '- x', '"open', 'x: [1,', ' deeper: 1']) {
        const next = new SourceText(`${text.slice(0, at)}\n${indent}${typed}${text.slice(at)}`);
        const incremental = reparseManifest(previous, next, URI);
        if (!incremental) continue;
        taken++;
        if (incremental.manifest?.syntaxErrors) broken++;
        expect(comparable(incremental), JSON.stringify(typed)).toBe(comparable(parseManifest(next, URI, 'yaml')));
      }
    }
    expect(taken).toBeGreaterThan(200 / STEP);
    expect(broken).toBeGreaterThan(100 / STEP);
  });

  it('typing a value in the middle of a 40-volume manifest takes the shortcut', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const at = text.indexOf('quota:', text.length / 2) + 'quota: '.length;
    const next = new SourceText(`${text.slice(0, at)}1${text.slice(at)}`);
    const incremental = reparseManifest(whole(text), next, URI);
    expect(incremental).toBeDefined();
    expect(comparable(incremental!)).toBe(comparable(parseManifest(next, URI, 'yaml')));
  });

  it("typing at the end of a pool's last volume moves the ends of the pool and account with it", () => {
    // Without the comment lines between pools: after a pool's last item yaml may count them into the pool.
    const text = MANIFESTS[MANIFESTS.length - 1]!.replace(/^ *# Pool .*\n/gm, '');
    const lastOfPool = text.indexOf('\n      - name: pool-1');
    for (const typed of ['x', '  x', '\n            workload: hpc']) {
      const next = new SourceText(`${text.slice(0, lastOfPool)}${typed}${text.slice(lastOfPool)}`);
      const incremental = reparseManifest(whole(text), next, URI);
      expect(incremental, typed).toBeDefined();
      expect(comparable(incremental!)).toBe(comparable(parseManifest(next, URI, 'yaml')));
    }
  });

  it('typing in a comment line between pools keeps everything, moved, without a whole parse', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const comment = text.indexOf('# Pool 1:');
    expect(comment).toBeGreaterThan(0);
    // In the comment's text, at its end, and a space in its indentation.
    for (const at of [comment + 4, text.indexOf('\n', comment), comment - 2]) {
      for (const typed of at < comment ? [' ', '  '] : ['x', ' ', '=']) {
        const next = new SourceText(`${text.slice(0, at)}${typed}${text.slice(at)}`);
        const incremental = reparseManifest(whole(text), next, URI);
        expect(incremental, `${typed} at ${at}`).toBeDefined();
        expect(comparable(incremental!)).toBe(comparable(parseManifest(next, URI, 'yaml')));
      }
    }
    // A character typed left of the `#` makes the line content: not a comment edit.
    const content = `${text.slice(0, comment)}x ${text.slice(comment)}`;
    const read = reparseManifest(whole(text), new SourceText(content), URI);
    if (read) expect(comparable(read)).toBe(comparable(parseManifest(new SourceText(content), URI, 'yaml')));
  });

  it('a line starting with # that may not be a comment (block scalar, quoted or flow value over several lines) is read again', () => {
    const base = MANIFESTS[MANIFESTS.length - 1]!;
    // After the first line of pool-1's first volume: values of that volume that run over a line starting with `#`.
    const volumeLine = base.indexOf('\n', base.indexOf('          - name: ', base.indexOf('- name: pool-1'))) + 1;
    const values = [
      'exportPath: |\n              # not a comment',
      'exportPath: >-\n              # not a comment',
      'mountPath: "/mnt/two\n              # lines"',
      "mountPath: '/mnt/two\n              # lines'",
      'protocols: [NFSv3,\n              # SMB\n              NFSv4.1]',
    ];
    for (const value of values) {
      // The volume's own line for that key goes: a duplicate key would hide the value.
      const key = value.slice(0, value.indexOf(':'));
      const text = `${base.slice(0, volumeLine)}            ${value}\n${base.slice(volumeLine).replace(new RegExp(`^ *${key}:.*\n`, 'm'), '')}`;
      const hash = text.indexOf('# ', volumeLine) + 2;
      const next = new SourceText(`${text.slice(0, hash)}x${text.slice(hash)}`);
      const read = reparseManifest(whole(text), next, URI);
      expect(read, value).toBeDefined();
      expect(comparable(read!), value).toBe(comparable(parseManifest(next, URI, 'yaml')));
    }
  });

  it('a volume whose block scalar keeps its trailing blank lines (`|+`) reads as a whole parse does', () => {
    const base = MANIFESTS[MANIFESTS.length - 1]!;
    // pool-1's first volume, not its pool's last: its item is read without the lines after it.
    const volumeLine = base.indexOf('\n', base.indexOf('          - name: ', base.indexOf('- name: pool-1'))) + 1;
    for (const header of ['|+', '>+', '|2+', '|+2']) {
      const note = `            mountPath: ${header}\n              /mnt/tape-out\n\n\n`;
      // The value goes in place of the volume's own mountPath line (a duplicate key would hide it).
      const text = `${base.slice(0, volumeLine)}${base
        .slice(volumeLine)
        .replace(/^ *mountPath:.*\n/m, '')
        .replace(/^( {10}- name: )/m, `${note}$1`)}`;
      const at = text.indexOf('tape-out', volumeLine);
      expect(at, header).toBeGreaterThan(0);
      const next = new SourceText(`${text.slice(0, at)}x${text.slice(at)}`);
      const read = reparseManifest(whole(text), next, URI);
      if (read) expect(comparable(read), header).toBe(comparable(parseManifest(next, URI, 'yaml')));
    }
  });

  it('edits that tie the volume to the rest of the document take the whole parse', () => {
    const text = MANIFESTS[MANIFESTS.length - 1]!;
    const at = text.indexOf('quota:', text.length / 2);
    for (const insert of ['&q ', '*q ', '!!str ', '<<: *d\n            ']) {
      expect(
        reparseManifest(whole(text), new SourceText(`${text.slice(0, at)}${insert}${text.slice(at)}`), URI),
        insert,
      ).toBeUndefined();
    }
    const broken = `${text}\n  - [unclosed\n`;
    const next = `${broken.slice(0, at)}1${broken.slice(at)}`;
    expect(reparseManifest(whole(broken), new SourceText(next), URI)).toBeUndefined();
  });
});
