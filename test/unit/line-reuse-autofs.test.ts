/**
 * Re-reading only the edited lines of an autofs map (workspace/lineReuse.ts) must give exactly what
 * a whole read gives: the same mounts, spans and problems, and the same findings with the server's
 * per-document memo as without. Chains of random edits of every autofs map of the fixtures and
 * examples, and of a generated map with continued lines, multi-mount entries and annotations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LintMemo, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { parseFile } from '../../server/src/core/workspace/parseFile';
import { prng } from '../../bench/generate.mjs';
import { CORPUS } from '../robustness/corpus';
import { propertyRuns, runTimeout } from '../support/propertyRuns';
import { applyEdit, lineEdits } from './lineEdits';

/** Runs per property: a quick run in `npm test`; a quarter of ROBUSTNESS_RUNS in `npm run fuzz` (each run lints a dozen edits). */
const RUNS = propertyRuns(30, 0.25);

const URI = 'file:///host/etc/auto.proj';

/** A map of `count` entries as a farm's project map looks: options, replicated servers, continued lines, multi-mounts, annotations. */
function generatedMap(count: number, seed: number): string {
  const random = prng(seed);
  const options = [
    '-fstype=nfs,rw,hard,vers=3,rsize=262144,wsize=262144,tcp',
    '-fstype=nfs4,rw,hard,nconnect=8',
    '-rw,soft,intr,vers=3',
    '-fstype=nfs,vers=4.1,sec=sys,actimeo=600',
    '-rw,hard,proto=udp',
  ];
  const lines = ['# auto.proj: project volumes of the regression farm'];
  for (let i = 0; i < count; i++) {
    const r = random();
    const server = `10.10.${Math.floor(random() * 4)}.4`;
    const option = options[Math.floor(random() * options.length)];
    if (r < 0.1) lines.push(`# anf: workload=${random() < 0.5 ? 'eda-tools' : 'hpc'}`);
    else if (r < 0.15) lines.push('');
    else if (r < 0.22) lines.push(`proj${i} ${option} \\`, `    ${server}:/vol-${i}`);
    else if (r < 0.27) lines.push(`proj${i} ${option} /src ${server}:/src-${i} /obj ${server}:/obj-${i}`);
    else if (r < 0.3) lines.push(`proj${i} ${option} ${server},10.10.9.4:/vol-${i}`);
    else lines.push(`proj${i} ${option} ${server}:/vol-${i}`);
  }
  return `${lines.join('\n')}\n`;
}

const MAPS: readonly string[] = [
  ...CORPUS.filter((f) => f.kind === 'autofs').map((f) => f.text),
  generatedMap(40, 3),
  generatedMap(150, 5),
];

/** What people type into an autofs map, and what joins or breaks its lines. */
const TYPED = [
  'x',
  '0',
  ',',
  '=',
  ' ',
  '\t',
  '\n',
  '\\',
  '\\\n',
  '#',
  '-',
  '-fstype=nfs,',
  ':',
  '# anf: workload=hpc\n',
  'anf: workload=nope',
  'nconnect=8,',
  'vers=4.1',
  ',proto=udp',
  '/lib 10.10.1.4:/lib ',
  'key 10.0.0.4:/vol\n',
  '{{ server }}',
  '+auto.extra\n',
];

const edit = lineEdits(TYPED);

describe('re-reading an edited autofs map', () => {
  it(
    'gives what a whole read gives, edit after edit, and the same findings',
    () => {
      const config = resolveConfig();
      let reread = 0;
      let reusedLints = 0;
      fc.assert(
        fc.property(fc.constantFrom(...MAPS), fc.array(edit, { minLength: 1, maxLength: 12 }), (start, edits) => {
          const workspace = new Workspace(config);
          const fresh = new Workspace(config);
          const memo = new LintMemo();
          let text = start;
          workspace.set(URI, text, 0, 'autofs');
          lintFile(workspace, URI, config, { memo });
          let version = 0;
          for (const e of edits) {
            text = applyEdit(text, e);
            const incremental = workspace.set(URI, text, ++version, 'autofs');
            memo.follow(incremental);
            if (incremental.lineEdit) reread++;
            const whole = parseFile(URI, text, version, 'autofs');
            expect({ mounts: incremental.mounts, problems: incremental.problems }).toEqual({
              mounts: whole.mounts,
              problems: whole.problems,
            });
            if (!e.lint) continue;
            fresh.delete(URI);
            fresh.set(URI, text, version, 'autofs');
            expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
          }
          reusedLints += memo.reused;
        }),
        { numRuns: RUNS },
      );
      // Both paths were taken: most edits re-read a few lines, and lints reused the memo.
      expect(reread).toBeGreaterThan(RUNS);
      expect(reusedLints).toBeGreaterThan(RUNS / 4);
    },
    runTimeout(120_000),
  );

  it('re-reads only the edited entry, continued lines together, keeping the other mounts', () => {
    const text = generatedMap(150, 5);
    const workspace = new Workspace(resolveConfig());
    const before = workspace.set(URI, text, 0, 'autofs');
    const lines = text.split('\n');
    const line = lines.findIndex((l, i) => i > 60 && l.endsWith('\\'));
    const offset = lines.slice(0, line + 1).join('\n').length + 1;
    // A character typed into the continued entry's second line: the entry is read again from its first line.
    const after = workspace.set(URI, `${text.slice(0, offset + 4)}x${text.slice(offset + 4)}`, 1, 'autofs');
    expect(after.lineEdit).toBeDefined();
    expect(after.lineEdit!.itemsTo - after.lineEdit!.itemsFrom).toBe(1);
    expect(after.mounts[after.lineEdit!.itemsFrom]!.mountPoint).toBe(lines[line]!.split(' ')[0]);
    expect(after.mounts.filter((m) => before.mounts.includes(m)).length).toBe(after.mounts.length - 1);
    expect(after.mounts).toEqual(parseFile(URI, after.source.text, 1, 'autofs').mounts);
  });
});
