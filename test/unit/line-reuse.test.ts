/**
 * Re-reading only the edited lines of an fstab (workspace/lineReuse.ts) must give exactly what a
 * whole read gives: the same mounts, spans and problems, and the same findings. Chains of random
 * edits of every real fstab (each result is the next edit's previous) are read both ways.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LintMemo, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { parseFile } from '../../server/src/core/workspace/parseFile';
import type { KeyedContext } from '../../server/src/core/rules/rule';
import { fstab as generatedFstab, manifest as generatedManifest, prng } from '../../bench/generate.mjs';
import { CORPUS } from '../robustness/corpus';
import { propertyRuns, runTimeout } from '../support/propertyRuns';
import { applyEdit, lineEdits } from './lineEdits';

/** Runs per property: a quick run in `npm test`; a quarter of ROBUSTNESS_RUNS in `npm run fuzz` (each run lints a dozen edits). */
const RUNS = propertyRuns(20, 0.25);

const URI = 'file:///host/etc/fstab';

/** The findings of a whole read and lint of `text` in a fresh workspace: what every kept lint must equal. */
function wholeLintOf(config: ReturnType<typeof resolveConfig>, text: string, version: number) {
  const fresh = new Workspace(config);
  fresh.set(URI, text, version, 'fstab');
  return lintFile(fresh, URI, config);
}
const FSTABS: readonly string[] = [
  ...CORPUS.filter((f) => f.kind === 'fstab').map((f) => f.text),
  generatedFstab(60, 5),
  generatedFstab(200, 7),
];

/** What people type into an fstab, and what breaks its lines apart. */
const TYPED = [
  'x',
  '0',
  ',',
  '=',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '#',
  '# anf: workload=hpc\n',
  '# anf: workload=sap-hana-log',
  'anf: workload=nope',
  'nconnect=8,',
  'vers=4.1',
  ',soft',
  ' nfs ',
  '10.0.0.4:/vol /mnt/v nfs rw,hard 0 0\n',
  '\\040',
  '{{ opts }}',
  '"',
  'noauto,',
  '/mnt/v/',
];

const edit = lineEdits(TYPED);

/** The parsed file without what says how it was read. */
function model(file: ReturnType<typeof parseFile>) {
  return { mounts: file.mounts, problems: file.problems };
}

/** The files around the edited fstab: none, an example estate, or a generated manifest its mounts reach. */
const SURROUNDINGS: readonly (readonly { uri: string; text: string }[])[] = [
  [],
  CORPUS.filter((f) => f.path.startsWith('examples/eda/') && f.kind !== 'fstab').map((f) => ({
    uri: f.uri,
    text: f.text,
  })),
  [{ uri: 'file:///estate.anf.yaml', text: generatedManifest(50, 25, 4) }],
];

describe('re-reading an edited fstab', () => {
  it(
    'gives what a whole read gives, edit after edit',
    () => {
      const config = resolveConfig();
      let reusedLints = 0;
      fc.assert(
        fc.property(
          fc.constantFrom(...FSTABS),
          fc.constantFrom(...SURROUNDINGS),
          fc.array(edit, { minLength: 1, maxLength: 12 }),
          (start, around, edits) => {
            const workspace = new Workspace(config);
            for (const file of around) workspace.set(file.uri, file.text);
            const memo = new LintMemo();
            // The same surroundings, with the fstab read whole each time (deleted first: no previous version).
            const fresh = new Workspace(config);
            for (const file of around) fresh.set(file.uri, file.text);
            let text = start;
            workspace.set(URI, text, 0, 'fstab');
            lintFile(workspace, URI, config, { memo });
            let version = 0;
            for (const e of edits) {
              text = applyEdit(text, e);
              const incremental = workspace.set(URI, text, ++version, 'fstab');
              memo.follow(incremental);
              const whole = parseFile(URI, text, version, 'fstab');
              expect(model(incremental)).toEqual(model(whole));
              if (!e.lint) continue;
              fresh.delete(URI);
              fresh.set(URI, text, version, 'fstab');
              expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
            }
            reusedLints += memo.reused;
          },
        ),
        { numRuns: RUNS },
      );
      // The memo was used (not every run: an edit can make a line that no rule can pin to one mount).
      expect(reusedLints).toBeGreaterThan(RUNS);
    },
    runTimeout(120_000),
  );

  it(
    'keeps the per-rule and per-file bounds of a large fstab, with and without suppression comments',
    () => {
      const config = resolveConfig();
      const large = generatedFstab(1200, 9);
      const suppressed = large.replace(/\n(?=10\.)/, '\n# anf-lint disable-next-line ANF206 -- tuned by hand\n');
      for (const start of [large, suppressed]) {
        fc.assert(
          fc.property(fc.array(edit, { minLength: 1, maxLength: 6 }), (edits) => {
            const workspace = new Workspace(config);
            const memo = new LintMemo();
            const fresh = new Workspace(config);
            let text = start;
            workspace.set(URI, text, 0, 'fstab');
            lintFile(workspace, URI, config, { memo });
            for (const e of edits) {
              text = applyEdit(text, e);
              workspace.set(URI, text, 1, 'fstab');
              fresh.delete(URI);
              fresh.set(URI, text, 1, 'fstab');
              const whole = lintFile(fresh, URI, config);
              expect(whole.some((d) => d.code === 'ANF010')).toBe(true);
              expect(lintFile(workspace, URI, config, { memo })).toEqual(whole);
            }
            expect(memo.reused).toBeGreaterThan(0);
          }),
          { numRuns: propertyRuns(2, 0.01) },
        );
      }
    },
    runTimeout(120_000),
  );

  it(
    'gives the same findings as a whole lint while typing as the benchmark does (a character in, then out)',
    () => {
      // Found a related note (ANF217's first mount, above the edit) moved with the mount below it.
      const config = resolveConfig();
      const start = generatedFstab(200, 7);
      const lines = start.split('\n');
      const candidates = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.trim().length > 0);
      const random = prng(21);
      const workspace = new Workspace(config);
      const memo = new LintMemo();
      const fresh = new Workspace(config);
      workspace.set(URI, start, 0, 'fstab');
      lintFile(workspace, URI, config, { memo });
      for (let i = 0; i < 60; i++) {
        const { line, index } = candidates[Math.floor(random() * candidates.length)]!;
        const at = Math.floor(random() * (line.length + 1));
        const typed = 'x0,= 9a'[Math.floor(random() * 7)]!;
        for (const text of [line.slice(0, at) + typed + line.slice(at), line]) {
          lines[index] = text;
          const full = lines.join('\n');
          workspace.set(URI, full, 1, 'fstab');
          fresh.delete(URI);
          fresh.set(URI, full, 1, 'fstab');
          expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
        }
      }
      expect(memo.reused).toBe(120);
    },
    runTimeout(120_000),
  );

  it('keeps a related note on an earlier mount in place when an edit above both moves them further than the gap between them', () => {
    // ANF217's note points at the first mount's nconnect. With 26 characters typed above both mounts, the
    // finding on the second mount is filed as of that mount's older start; reused, its note was once moved
    // with the mount, because the note's span now lay where that mount had been.
    const config = resolveConfig();
    const start = [
      '# EDA node: every volume comes through mount target 10.10.1.4',
      '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev   0  0',
      '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=16,_netdev  0  0',
      '10.10.1.4:/eda-home     /home/eda nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev              0  0',
      '# A second mount target: its own connections',
      '10.10.1.5:/eda-results  /results  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4,_netdev   0  0',
      '',
    ].join('\n');
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    workspace.set(URI, start, 0, 'fstab');
    expect(lintFile(workspace, URI, config, { memo }).map((d) => d.code)).toContain('ANF217');
    let text = start;
    let version = 0;
    for (const typed of ['x', 'anf: workload=nope', 'noauto,'])
      memo.follow(workspace.set(URI, (text = typed + text), ++version, 'fstab'));
    const whole = wholeLintOf(config, text, version);
    expect(whole.find((d) => d.code === 'ANF217')?.related[0]?.range.start).toEqual({ line: 1, character: 80 });
    expect(lintFile(workspace, URI, config, { memo })).toEqual(whole);
    // The same text again (an edit undone before the lint): the kept findings are filed as of their mounts' older starts.
    memo.follow(workspace.set(URI, text, ++version, 'fstab'));
    expect(lintFile(workspace, URI, config, { memo })).toEqual(whole);
  });

  it('keeps ANF217 findings, their notes moved with the first mount, when an edit lands above the first mount', () => {
    // The first mount to a server is named by identity and line in ANF217's fingerprint, not by offsets: a
    // character typed on the comment above it moves it, and the kept findings' notes move with it.
    const config = resolveConfig();
    const start = [
      '# EDA node: every volume comes through mount target 10.10.1.4',
      '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev   0  0',
      '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=16,_netdev  0  0',
      '10.10.1.4:/eda-home     /home/eda nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4,_netdev   0  0',
      '',
    ].join('\n');
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    workspace.set(URI, start, 0, 'fstab');
    const before = lintFile(workspace, URI, config, { memo });
    expect(before.filter((d) => d.code === 'ANF217')).toHaveLength(2);
    const contexts = [...memo.contexts];
    let text = start;
    let version = 0;
    for (const [at, typed] of [
      [10, 'x'],
      [0, '  '],
      [11, ''],
    ] as const) {
      text = typed ? text.slice(0, at) + typed + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      memo.follow(workspace.set(URI, text, ++version, 'fstab'));
      const whole = wholeLintOf(config, text, version);
      const kept = lintFile(workspace, URI, config, { memo });
      expect(kept).toEqual(whole);
      expect(kept.filter((d) => d.code === 'ANF217').map((d) => d.related[0]?.range.start)).toEqual([
        { line: 1, character: 80 },
        { line: 1, character: 80 },
      ]);
      // The same fingerprints: ANF217 and ANF214 did not run whole.
      expect(memo.contexts).toEqual(contexts);
    }
  });

  it('keeps ANF214 and ANF217 findings when the first mount to a server is re-read and is still the first, its note where it was', () => {
    // A character typed at the end of the first mount's line re-reads that mount (a new object); the other
    // mounts' answers (not first; nconnect against the first's) are the same, and so are the fingerprints.
    const config = resolveConfig();
    const lines = [
      '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev   0  0',
      '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=16,_netdev  0  0',
      '10.10.1.4:/eda-home     /home/eda nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev              0  0',
      '',
    ];
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    let text = lines.join('\n');
    workspace.set(URI, text, 0, 'fstab');
    lintFile(workspace, URI, config, { memo });
    const codes = (memo.rules ?? []).map((r) => r.code);
    const contextOf = (code: string) => memo.contexts[codes.indexOf(code)];
    const before = { ANF214: contextOf('ANF214'), ANF217: contextOf('ANF217') };
    expect([...(before.ANF217 as KeyedContext).byKey.keys()].join('\n')).toContain('10.10.1.4');
    let version = 0;
    for (const typed of [' ', '  ', '']) {
      text = [lines[0] + typed, ...lines.slice(1)].join('\n');
      memo.follow(workspace.set(URI, text, ++version, 'fstab'));
      const whole = wholeLintOf(config, text, version);
      expect(lintFile(workspace, URI, config, { memo })).toEqual(whole);
      expect(whole.find((d) => d.code === 'ANF217')?.related[0]?.range.start).toEqual({ line: 0, character: 80 });
      expect({ ANF214: contextOf('ANF214'), ANF217: contextOf('ANF217') }).toEqual(before);
    }
  });

  it('judges again only the mounts of a server whose first mount changed (ANF214 and ANF217 keyed by server)', () => {
    // Two servers, three mounts each. Typing into the first mount to 10.10.1.4 (before its nconnect,
    // into its value, into its address) changes that server's part of the fingerprints only: its
    // mounts are judged again, the other server's findings are kept, and no rule runs whole.
    const config = resolveConfig();
    const lines = [
      '# anf: workload=eda-scratch',
      '10.10.1.4:/eda-tools    /tools     nfs  ro,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev   0  0',
      '10.10.2.4:/eda-proj     /proj      nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev              0  0',
      '10.10.1.4:/eda-scratch  /scratch   nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=16,_netdev  0  0',
      '10.10.2.4:/eda-libs     /libs      nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4,_netdev   0  0',
      '10.10.1.4:/eda-home     /home/eda  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=2,_netdev   0  0',
      '10.10.2.4:/eda-out      /out       nfs  rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev   0  0',
      '',
    ];
    const first = lines[1]!;
    const at = (needle: string) => first.indexOf(needle);
    const typings = [
      // A space before `nconnect=8`: the note on the first mount moves (ANF217's part of 10.10.1.4).
      `${first.slice(0, at('nconnect'))} ${first.slice(at('nconnect'))}`,
      first,
      // nconnect=8 -> nconnect=18: the value every later mount to 10.10.1.4 is compared with.
      `${first.slice(0, at('=8') + 1)}1${first.slice(at('=8') + 1)}`,
      first,
      // 10.10.1.4 -> 10.10.1.44: a new server; the first mount to 10.10.1.4 is now /scratch (ANF214 and ANF217).
      `${first.slice(0, at(':/'))}4${first.slice(at(':/'))}`,
      first,
    ];
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    workspace.set(URI, lines.join('\n'), 0, 'fstab');
    lintFile(workspace, URI, config, { memo });
    let version = 0;
    for (const line of typings) {
      const text = [lines[0], line, ...lines.slice(2)].join('\n');
      memo.follow(workspace.set(URI, text, ++version, 'fstab'));
      const whole = wholeLintOf(config, text, version);
      const rejudged = memo.contextRejudged;
      expect(lintFile(workspace, URI, config, { memo })).toEqual(whole);
      // Judged again: the mounts to 10.10.1.4 (or 10.10.1.44), never the three to 10.10.2.4.
      expect(memo.contextRejudged - rejudged).toBeLessThanOrEqual(2 * 3);
    }
    expect(memo.contextWhole).toBe(0);
    expect(memo.contextRejudged).toBeGreaterThan(0);
    expect(memo.reused).toBe(typings.length);
  });

  it("hands out a kept finding's diagnostic again only while its place is the same (a character replaced by a line break moves later lines, not offsets)", () => {
    const config = resolveConfig();
    const lines = [
      '# scratch volumes of the EDA farm',
      '10.10.1.4:/eda-scratch  /scratch  nfs  rw,soft,vers=3,rsize=65536,wsize=65536,_netdev  0  0',
      '10.10.1.4:/eda-proj     /proj     nfs  rw,soft,vers=3,rsize=65536,wsize=65536,_netdev  0  0',
      '',
    ];
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    let text = lines.join('\n');
    workspace.set(URI, text, 0, 'fstab');
    lintFile(workspace, URI, config, { memo });
    // The same length each time: a space of the comment becomes a line break, then a space again.
    const at = text.indexOf(' of ');
    const versions = [
      `${text.slice(0, at)}\n${text.slice(at + 1)}`,
      text,
      `${text.slice(0, at)}x${text.slice(at + 1)}`,
    ];
    let version = 0;
    for (text of versions) {
      memo.follow(workspace.set(URI, text, ++version, 'fstab'));
      expect(lintFile(workspace, URI, config, { memo })).toEqual(wholeLintOf(config, text, version));
    }
    // Typing on the last line keeps the diagnostics above it: the same objects, not placed again.
    const before = lintFile(workspace, URI, config, { memo });
    const last = text.lastIndexOf('_netdev');
    text = `${text.slice(0, last)}x${text.slice(last)}`;
    memo.follow(workspace.set(URI, text, ++version, 'fstab'));
    const after = lintFile(workspace, URI, config, { memo });
    expect(after).toEqual(wholeLintOf(config, text, version));
    const above = before.filter((d) => d.range.start.line === 1);
    expect(above.length).toBeGreaterThan(0);
    for (const diagnostic of above) expect(after).toContain(diagnostic);
  });

  it('judges the kept mounts again when the configuration changes (a server listed as not ANF)', () => {
    const workspace = new Workspace(resolveConfig());
    const memo = new LintMemo();
    const text = '10.0.0.9:/data /data nfs rw,hard,vers=3,rsize=65536,wsize=262144,_netdev 0 0\n';
    workspace.set(URI, text, 0, 'fstab');
    const codes = (config: ReturnType<typeof resolveConfig>) =>
      lintFile(workspace, URI, config, { memo }).map((d) => d.code);
    // ANF205 (rsize and wsize differ) is ANF's advice: not for a server listed under `nfsServers.other`.
    expect(codes(resolveConfig())).toContain('ANF205');
    expect(codes(resolveConfig({ nfsServers: { other: ['10.0.0.9'] } }))).not.toContain('ANF205');
  });

  it('re-reads only the edited lines, keeping the other mounts', () => {
    const text = generatedFstab(200, 7);
    const workspace = new Workspace(resolveConfig());
    const before = workspace.set(URI, text, 0, 'fstab');
    const line = text.split('\n').findIndex((l, i) => i > 100 && l.includes(':/vol-'));
    const offset = text.split('\n').slice(0, line).join('\n').length + 1;
    const after = workspace.set(URI, `${text.slice(0, offset)}x${text.slice(offset)}`, 1, 'fstab');
    expect(after.lineEdit).toBeDefined();
    expect(after.lineEdit!.itemsTo - after.lineEdit!.itemsFrom).toBe(1);
    const kept = after.mounts.filter((m) => before.mounts.includes(m));
    expect(kept.length).toBe(after.mounts.length - 1);
  });
});
