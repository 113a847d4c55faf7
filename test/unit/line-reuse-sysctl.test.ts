/**
 * Re-reading only the edited lines of a sysctl file (workspace/lineReuse.ts) and judging only the
 * edited settings with `checkSetting` rules (rules/engine.ts, LintMemo) must give exactly what a whole read and
 * a whole lint give. Chains of random edits of every sysctl file of the fixtures and examples (each
 * result is the next edit's previous) are read and linted both ways.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LintMemo, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { ALL_RULES } from '../../server/src/core/registry';
import { parseFile } from '../../server/src/core/workspace/parseFile';
import { sysctlSet, prng } from '../../bench/generate.mjs';
import { CORPUS } from '../robustness/corpus';
import { propertyRuns, runTimeout } from '../support/propertyRuns';
import { applyEdit, lineEdits, type LineEdit } from './lineEdits';

/** Runs per property: a quick run in `npm test`; a quarter of ROBUSTNESS_RUNS in `npm run fuzz` (each run lints a dozen edits). */
const RUNS = propertyRuns(30, 0.25);

const URI = 'file:///host/etc/sysctl.d/90-anf.conf';
const generated = (lines: number, seed: number) => Object.values(sysctlSet(lines, lines, seed))[0]!;
const FILES: readonly string[] = [
  ...CORPUS.filter((f) => f.kind === 'sysctl').map((f) => f.text),
  generated(60, 5),
  generated(200, 7),
];

/** What people type into a sysctl file, and what breaks its lines apart. */
const TYPED = [
  'x',
  '0',
  '1',
  '.',
  '=',
  ' ',
  '\t',
  '\n',
  '\r\n',
  '#',
  ';',
  '-',
  '/',
  '“',
  '”',
  'net.ipv4.tcp_sack = 0\n',
  'net.ipv4.tcp_rmem = 4096 87380 16777216\n',
  'sunrpc.tcp_slot_table_entries = 128\n',
  'tcp_sack = 1\n',
  'net.ipv4.tcp_timestamps = 1\n',
  'vm.dirty_ratio = 40\n',
  '{{ value }}',
  ' # note',
  'net.core.rmem_max = 2147483648\n',
  'fs.nfs.nfs_callback_tcpport = 0\n',
];

const edit = lineEdits(TYPED);

function model(file: ReturnType<typeof parseFile>) {
  return { settings: file.settings, problems: file.problems, mounts: file.mounts };
}

/** The files around the edited one: none, an example estate, or another sysctl file of the same host (ANF306 reads across). */
const SURROUNDINGS: readonly (readonly { uri: string; text: string }[])[] = [
  [],
  CORPUS.filter((f) => f.path.startsWith('examples/eda/') && f.kind !== 'sysctl').map((f) => ({
    uri: f.uri,
    text: f.text,
  })),
  [
    {
      uri: 'file:///host/etc/sysctl.d/10-base.conf',
      text: 'net.ipv4.tcp_sack = 1\nnet.core.rmem_max = 16777216\nsunrpc.tcp_max_slot_table_entries = 128\n',
    },
    {
      uri: 'file:///host/etc/fstab',
      text: '10.0.0.4:/vol1 /mnt/vol1 nfs rw,hard,vers=4.1,nconnect=8,rsize=262144,wsize=262144,_netdev 0 0\n',
    },
  ],
  // Loaded after the edited file: its values win over the edited file's (ANF306 points there).
  [
    {
      uri: 'file:///host/etc/sysctl.d/99-late.conf',
      text: 'net.ipv4.tcp_sack = 0\nnet.ipv4.tcp_rmem = 4096 87380 16777216\nvm.dirty_ratio = 20\nnet.core.rmem_max = 2147483648\n',
    },
    { uri: 'file:///host/etc/modprobe.d/sunrpc.conf', text: 'options sunrpc tcp_max_slot_table_entries=128\n' },
  ],
];

const MODPROBE_URI = 'file:///host/etc/modprobe.d/sunrpc.conf';
const MODPROBE_FILES: readonly string[] = [
  ...CORPUS.filter((f) => f.kind === 'modprobe').map((f) => f.text),
  '# sunrpc slots for ANF\noptions sunrpc tcp_max_slot_table_entries=128 \\\n  udp_slot_table_entries=64\noptions nfs max_session_slots=180\ninstall nfs /sbin/modprobe --ignore-install nfs\noptions sunrpc.tcp_slot_table_entries=128\n',
];
const MODPROBE_TYPED = [
  'x',
  '0',
  '=',
  ' ',
  '\n',
  '\\',
  ' \\\n',
  '#',
  '-',
  '_',
  '“',
  'options sunrpc tcp_max_slot_table_entries=128\n',
  'options nfs max_session_slots=1024 \\\n',
  'options',
  ' sunrpc ',
  'tcp_slot_table_entries=16',
  'nfs.enable_ino64=1',
  '"180"',
  '{{ slots }}',
];

describe('re-reading an edited modprobe.d file', () => {
  it(
    'gives what a whole read and a whole lint give, edit after edit (lines joined by a trailing backslash)',
    () => {
      const config = resolveConfig();
      let lineReads = 0;
      let reusedLints = 0;
      const typed: fc.Arbitrary<LineEdit> = fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
        remove: fc.oneof(
          { weight: 3, arbitrary: fc.constant(0) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: 40 }) },
        ),
        insert: fc.oneof(fc.constantFrom(...MODPROBE_TYPED), fc.constant('')),
        lint: fc.boolean(),
      });
      fc.assert(
        fc.property(
          fc.constantFrom(...MODPROBE_FILES),
          fc.constantFrom(...SURROUNDINGS),
          fc.array(typed, { minLength: 1, maxLength: 12 }),
          (start, around, edits) => {
            const workspace = new Workspace(config);
            for (const file of around) workspace.set(file.uri, file.text);
            const memo = new LintMemo();
            const fresh = new Workspace(config);
            for (const file of around) fresh.set(file.uri, file.text);
            let text = start;
            workspace.set(MODPROBE_URI, text, 0, 'modprobe');
            lintFile(workspace, MODPROBE_URI, config, { memo });
            let version = 0;
            for (const e of edits) {
              text = applyEdit(text, e);
              const incremental = workspace.set(MODPROBE_URI, text, ++version, 'modprobe');
              if (incremental.lineEdit) lineReads++;
              memo.follow(incremental);
              expect(model(incremental)).toEqual(model(parseFile(MODPROBE_URI, text, version, 'modprobe')));
              if (!e.lint) continue;
              fresh.delete(MODPROBE_URI);
              fresh.set(MODPROBE_URI, text, version, 'modprobe');
              expect(lintFile(workspace, MODPROBE_URI, config, { memo })).toEqual(
                lintFile(fresh, MODPROBE_URI, config),
              );
            }
            reusedLints += memo.reused;
          },
        ),
        { numRuns: RUNS },
      );
      expect(lineReads).toBeGreaterThan(RUNS);
      expect(reusedLints).toBeGreaterThan(0);
    },
    runTimeout(120_000),
  );
  it(
    'reads a joined line whole wherever it is edited: a character typed, then deleted, at every place of a file',
    () => {
      const config = resolveConfig();
      const start = MODPROBE_FILES[MODPROBE_FILES.length - 1]!;
      const workspace = new Workspace(config);
      const memo = new LintMemo();
      const fresh = new Workspace(config);
      workspace.set(MODPROBE_URI, start, 0, 'modprobe');
      lintFile(workspace, MODPROBE_URI, config, { memo });
      let lineReads = 0;
      for (let at = 0; at <= start.length; at++) {
        for (const typed of ['x', '\\', '\n']) {
          for (const text of [start.slice(0, at) + typed + start.slice(at), start]) {
            const incremental = workspace.set(MODPROBE_URI, text, 1, 'modprobe');
            if (incremental.lineEdit) lineReads++;
            expect(model(incremental)).toEqual(model(parseFile(MODPROBE_URI, text, 1, 'modprobe')));
            fresh.delete(MODPROBE_URI);
            fresh.set(MODPROBE_URI, text, 1, 'modprobe');
            expect(lintFile(workspace, MODPROBE_URI, config, { memo })).toEqual(lintFile(fresh, MODPROBE_URI, config));
          }
        }
      }
      expect(lineReads).toBe(6 * (start.length + 1));
    },
    runTimeout(120_000),
  );
});

describe('re-reading an edited sysctl file', () => {
  it(
    'gives what a whole read and a whole lint give, edit after edit',
    () => {
      const config = resolveConfig();
      let reusedLints = 0;
      let lineReads = 0;
      fc.assert(
        fc.property(
          fc.constantFrom(...FILES),
          fc.constantFrom(...SURROUNDINGS),
          fc.array(edit, { minLength: 1, maxLength: 12 }),
          (start, around, edits) => {
            const workspace = new Workspace(config);
            for (const file of around) workspace.set(file.uri, file.text);
            const memo = new LintMemo();
            const fresh = new Workspace(config);
            for (const file of around) fresh.set(file.uri, file.text);
            let text = start;
            workspace.set(URI, text, 0, 'sysctl');
            lintFile(workspace, URI, config, { memo });
            let version = 0;
            for (const e of edits) {
              text = applyEdit(text, e);
              const incremental = workspace.set(URI, text, ++version, 'sysctl');
              if (incremental.lineEdit) lineReads++;
              memo.follow(incremental);
              const whole = parseFile(URI, text, version, 'sysctl');
              expect(model(incremental)).toEqual(model(whole));
              if (!e.lint) continue;
              fresh.delete(URI);
              fresh.set(URI, text, version, 'sysctl');
              expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
            }
            reusedLints += memo.reused;
          },
        ),
        { numRuns: RUNS },
      );
      expect(lineReads).toBeGreaterThan(RUNS);
      expect(reusedLints).toBeGreaterThan(RUNS / 2);
    },
    runTimeout(120_000),
  );

  it(
    'gives the same findings as a whole lint while typing as the benchmark does (a character in, then out)',
    () => {
      const config = resolveConfig();
      const start = generated(200, 7);
      const lines = start.split('\n');
      const candidates = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.trim().length > 0);
      const random = prng(21);
      const workspace = new Workspace(config);
      const memo = new LintMemo();
      const fresh = new Workspace(config);
      workspace.set(URI, start, 0, 'sysctl');
      lintFile(workspace, URI, config, { memo });
      for (let i = 0; i < 60; i++) {
        const { line, index } = candidates[Math.floor(random() * candidates.length)]!;
        const at = Math.floor(random() * (line.length + 1));
        const typed = 'x0,= 9a'[Math.floor(random() * 7)]!;
        for (const text of [line.slice(0, at) + typed + line.slice(at), line]) {
          lines[index] = text;
          const full = lines.join('\n');
          workspace.set(URI, full, 1, 'sysctl');
          fresh.delete(URI);
          fresh.set(URI, full, 1, 'sysctl');
          expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
        }
      }
      expect(memo.reused).toBe(120);
    },
    runTimeout(120_000),
  );

  it('re-reads only the edited line, keeping the other settings', () => {
    const text = generated(200, 7);
    const workspace = new Workspace(resolveConfig());
    const before = workspace.set(URI, text, 0, 'sysctl');
    const line = text.split('\n').findIndex((l, i) => i > 100 && /^[a-z]/.test(l));
    const offset = text.split('\n').slice(0, line).join('\n').length + 1;
    const after = workspace.set(URI, `${text.slice(0, offset)}x${text.slice(offset)}`, 1, 'sysctl');
    expect(after.lineEdit).toBeDefined();
    expect(after.lineEdit!.itemsTo - after.lineEdit!.itemsFrom).toBe(1);
    const kept = after.settings.filter((s) => before.settings.includes(s));
    expect(kept.length).toBe(after.settings.length - 1);
  });

  it('marks as per-setting only rules of the kernel domain', () => {
    const perSetting = ALL_RULES.filter((r) => r.checkSetting).map((r) => r.code);
    expect(perSetting).toEqual(['ANF303', 'ANF304', 'ANF305', 'ANF321', 'ANF322']);
  });
});
