/**
 * Re-reading only the commands an edit touched in a shell script (workspace/shellReuse.ts) and
 * judging only the re-read mounts and settings (lint.ts, LintMemo) must give exactly what a whole
 * read and a whole lint give. Chains of random edits (each result is the next edit's previous) of
 * every shell script of the fixtures and examples and of generated provisioning scripts, with
 * `\` continuations, here-documents, variables, quotes, `sh -c` and `# anf:` annotations.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LintMemo, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { parseFile } from '../../server/src/core/workspace/parseFile';
import { provisioningScript } from '../../bench/generate.mjs';
import { CORPUS } from '../robustness/corpus';
import { placeStep, propertyRuns, runTimeout } from '../support/propertyRuns';
import { applyEdit, lineEdits } from './lineEdits';

/** Runs per property: a quick run in `npm test`; a quarter of ROBUSTNESS_RUNS in `npm run fuzz` (each run lints a dozen edits). */
const RUNS = propertyRuns(20, 0.25);
const STEP = placeStep(5);

const URI = 'file:///host/opt/provision/mount-volumes.sh';

/** Written for this test: what spans lines in a script, next to what does not. */
const SPANNING = [
  '#!/bin/bash',
  'set -euo pipefail',
  '# anf: workload=eda-tools',
  'OPTS="rw,soft,vers=3,rsize=262144,wsize=262144,nconect=8"',
  'TOOLS_OPTS=rw,hard,vers=4.1',
  'mkdir -p /tools',
  'if ! mountpoint -q /tools; then',
  '  sudo mount -t nfs -o "$OPTS" 10.10.1.4:/eda-tools /tools',
  'fi',
  'sudo mount -t nfs \\',
  '  -o rw,soft,vers=3 \\',
  '  10.10.1.4:/eda-scratch /scratch   # anf: workload=eda-scratch',
  "cat >> /etc/fstab <<'EOF'",
  '# anf: workload=hpc',
  '10.10.1.5:/hpc-home /home nfs rw,hard,vers=3,timeo=600 0 0',
  '10.10.1.5:/hpc-apps /apps nfs ro,vers=4.1,sec=sys',
  'EOF',
  'echo "10.10.1.6:/proj /proj nfs rw,hard,nfsvers=3 0 0" | sudo tee -a /etc/fstab > /dev/null',
  'sudo sh -c "mount -t nfs -o rw,hard,vers=3 10.10.1.7:/data /data && echo \'10.10.1.7:/data /data nfs rw,hard 0 0\' >> /etc/fstab"',
  'logger -t provision "mounted \\"tools\\" with \'$TOOLS_OPTS\'"',
  'cat > /etc/sysctl.d/90-anf.conf <<EOF',
  'net.ipv4.tcp_sack = 0',
  'sunrpc.tcp_slot_table_entries = 128',
  'EOF',
  "echo 'net.core.rmem_max = 16777216' >> /etc/sysctl.conf",
  'sysctl -w net.ipv4.tcp_timestamps=0 vm.dirty_ratio=',
  'echo 128 > /proc/sys/sunrpc/tcp_max_slot_table_entries',
  'VERSION=$(uname -r |',
  '  cut -d. -f1)',
  "printf 'options sunrpc tcp_max_slot_table_entries=128\\n' > /etc/modprobe.d/sunrpc.conf",
  '',
].join('\n');

/**
 * Mounts to one server whose nconnect differs (ANF217: its note on the first mount's `OPTS=` line),
 * and a mount point claimed twice (ANF227): the rules' first mounts and point index update from the
 * script's mount edit (mounts/rules/firstMounts.ts), and an edit above the first mount moves its note.
 */
const FIRSTS = [
  '#!/bin/bash',
  'set -e',
  'FIRST_OPTS="rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=8"',
  'mkdir -p /scratch',
  'mount -t nfs -o "$FIRST_OPTS" 10.10.1.4:/eda-scratch /scratch',
  'LATER_OPTS="rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4"',
  'mount -t nfs -o "$LATER_OPTS" 10.10.1.4:/eda-tools /tools',
  'mount -t nfs -o rw,hard,vers=3,nconnect=16 10.10.1.4:/eda-home /home',
  "cat >> /etc/fstab <<'EOF'",
  '10.10.1.5:/hpc-home /home nfs rw,hard,vers=3,nconnect=8 0 0',
  '10.10.1.6:/hpc-apps /home nfs rw,hard,vers=3 0 0',
  'EOF',
  '',
].join('\n');

/** A mount that takes its options from a variable three lines up: findings on the assignment move with the mount. */
const VARIABLE = [
  '#!/bin/sh',
  'SCRATCH_OPTS="rw,soft,vers=3,rsize=262144,wsize=262144,nconect=8"',
  'mkdir -p /scratch',
  'if ! mountpoint -q /scratch; then',
  '  mount -t nfs -o "$SCRATCH_OPTS" 10.10.1.4:/eda-scratch /scratch',
  'fi',
  'sysctl -w net.ipv4.tcp_sack=0',
  '',
].join('\n');

/** Option strings found by content above mounts: the mount list holds the commands' mounts first, the rules report in its order. */
const CONTENT = [
  '#!/bin/sh',
  'SCRATCH_OPTS="rw,soft,vers=3,rsize=65536,wsize=65536"',
  'echo "scratch options: $SCRATCH_OPTS"',
  'TOOLS_OPTS=ro,soft,vers=4.1,nconnect=4',
  'mount -t nfs -o rw,soft,vers=3 10.10.1.4:/eda-a /a',
  'mount -t nfs -o rw,soft,vers=3 10.10.1.4:/eda-b /b',
  'mount -t nfs -o rw,soft,vers=3 10.10.1.4:/eda-c /c',
  '',
].join('\n');

/**
 * Slot tables above what the host's nconnect values allow (ANF316 with the largest, ANF317 with the
 * first mount of the smallest) and a key written three times (ANF306): the slot rules' extremes and
 * the settings' scope are reused while the mounts and settings are the same objects (sysctl/rules/
 * slots.ts, scope.ts), and must follow an edit of one of them.
 */
const SLOTS = [
  '#!/bin/bash',
  'set -e',
  'sysctl -w sunrpc.tcp_max_slot_table_entries=512',
  "echo 'sunrpc.tcp_max_slot_table_entries = 512' >> /etc/sysctl.d/90-nfs.conf",
  'sysctl -w sunrpc.tcp_slot_table_entries=256',
  'mount -t nfs -o rw,hard,vers=3,nconnect=8 10.10.1.4:/eda-tools /tools',
  'mount -t nfs -o rw,hard,vers=3,nconnect=4 10.10.1.5:/eda-scratch /scratch',
  'mount -t nfs -o rw,hard,vers=3,nconnect=16 10.10.1.6:/eda-home /home',
  'mount -t nfs -o rw,hard,vers=3,nconnect=4 10.10.1.7:/eda-proj /proj',
  'sysctl -w net.ipv4.tcp_sack=1',
  'sysctl -w net.ipv4.tcp_sack=1',
  'sysctl -w net.ipv4.tcp_sack=0',
  '',
].join('\n');

const FILES: readonly string[] = [
  ...CORPUS.filter((f) => f.kind === 'shell').map((f) => f.text),
  SPANNING,
  VARIABLE,
  CONTENT,
  SLOTS,
  SPANNING.replace(/\n/g, '\r\n'),
  provisioningScript(120, 11),
  provisioningScript(300, 12),
];

/** What people type into a script, and what joins or breaks its lines. */
const TYPED = [
  'x',
  '0',
  '=',
  ' ',
  '\n',
  '\r\n',
  '\\',
  ' \\\n',
  '#',
  '"',
  "'",
  '$',
  '`',
  '$(',
  ')',
  '|',
  ' |\n',
  ' && ',
  ';',
  '{',
  '}',
  '<<EOF\n',
  'EOF\n',
  "<<'EOF'\n",
  '<<-EOF\n',
  'OPTS="rw,hard,vers=3"\n',
  'OPTS=x\n',
  ' -o "$OPTS"',
  '$OPTS',
  '${OPTS}',
  'export OPTS=rw,hard\n',
  'mount -t nfs -o rw,hard 10.0.0.4:/vol /mnt/x\n',
  'echo "10.0.0.4:/v /mnt/v nfs rw,soft 0 0" >> /etc/fstab\n',
  'cat >> /etc/fstab <<EOF\n',
  'sysctl -w net.ipv4.tcp_sack=0\n',
  "echo 'net.core.rmem_max = 1' >> /etc/sysctl.conf\n",
  '# anf: workload=eda-tools\n',
  '# anf: workload=hpx',
  '# anf:',
  'sudo sh -c "',
  'tee -a /etc/fstab',
  'vers=4.1',
  'nconnect=8',
  ',hard',
  'echo 0 > /proc/sys/net/ipv4/tcp_sack\n',
  'mount',
  'fstab',
  'nconnect=2',
  '6',
  'sysctl -w sunrpc.tcp_max_slot_table_entries=1024\n',
];

const edit = lineEdits(TYPED);

function model(file: ReturnType<typeof parseFile>) {
  return { mounts: file.mounts, settings: file.settings, problems: file.problems };
}

/** The files around the edited script: none, or an estate whose volumes the mounts match. */
const SURROUNDINGS: readonly (readonly { uri: string; text: string }[])[] = [
  [],
  CORPUS.filter((f) => f.path.startsWith('examples/eda/') && f.kind !== 'shell').map((f) => ({
    uri: f.uri,
    text: f.text,
  })),
  [
    { uri: 'file:///host/etc/fstab', text: '10.10.1.4:/eda-tools /tools nfs rw,hard,vers=3,nconnect=4 0 0\n' },
    { uri: 'file:///host/etc/sysctl.d/10-base.conf', text: 'net.ipv4.tcp_sack = 1\n' },
  ],
];

describe('re-reading an edited shell script', () => {
  it(
    'gives what a whole read and a whole lint give, edit after edit',
    () => {
      const config = resolveConfig();
      let regionReads = 0;
      let reusedLints = 0;
      fc.assert(
        // With small bounds too: the findings listed are each rule's first ones in the order it reports them.
        fc.property(
          fc.constantFrom(...FILES),
          fc.constantFrom(...SURROUNDINGS),
          fc.array(edit, { minLength: 1, maxLength: 12 }),
          fc.boolean(),
          (start, around, edits, bounded) => {
            const limits = bounded ? { limits: { perRule: 2, perFile: 12 } } : {};
            const workspace = new Workspace(config);
            for (const file of around) workspace.set(file.uri, file.text);
            const fresh = new Workspace(config);
            for (const file of around) fresh.set(file.uri, file.text);
            const memo = new LintMemo();
            let text = start;
            let version = 1;
            memo.follow(workspace.set(URI, text, version, 'shell'));
            lintFile(workspace, URI, config, { memo, ...limits });
            for (const e of edits) {
              text = applyEdit(text, e);
              const incremental = workspace.set(URI, text, ++version, 'shell');
              if (incremental.lineEdit) regionReads++;
              memo.follow(incremental);
              expect(model(incremental)).toEqual(model(parseFile(URI, text, 0, 'shell')));
              if (!e.lint) continue;
              fresh.delete(URI);
              fresh.set(URI, text, 0, 'shell');
              expect(lintFile(workspace, URI, config, { memo, ...limits })).toEqual(
                lintFile(fresh, URI, config, limits),
              );
            }
            reusedLints += memo.reused;
          },
        ),
        { numRuns: RUNS },
      );
      expect(regionReads).toBeGreaterThan(RUNS);
      expect(reusedLints).toBeGreaterThan(0);
    },
    runTimeout(180_000),
  );

  it('lists the findings a whole lint lists when a rule has more than its bound: a mount typed into another command', () => {
    const config = resolveConfig();
    const limits = { limits: { perRule: 2, perFile: 12 } };
    const script = CONTENT.split('\n')
      .filter((line) => !line.includes('_OPTS'))
      .join('\n');
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    memo.follow(workspace.set(URI, script, 1, 'shell'));
    lintFile(workspace, URI, config, { memo, ...limits });
    // `mount` becomes `mountx`: its options are then an option string found by content, last in the mount list.
    const text = script.replace(
      'mount -t nfs -o rw,soft,vers=3 10.10.1.4:/eda-a',
      'mountx -t nfs -o rw,soft,vers=3 10.10.1.4:/eda-a',
    );
    const incremental = workspace.set(URI, text, 2, 'shell');
    memo.follow(incremental);
    expect(incremental.lineEdit).toBeDefined();
    const fresh = new Workspace(config);
    fresh.set(URI, text, 0, 'shell');
    const whole = lintFile(fresh, URI, config, limits);
    expect(lintFile(workspace, URI, config, { memo, ...limits })).toEqual(whole);
    expect(memo.reused).toBe(1);
    // ANF207 (soft) on the two mounts left, not on the option string above them.
    expect(whole.filter((d) => d.code === 'ANF207').map((d) => d.range.start.line)).toEqual([2, 3]);
  });

  it.each([
    // The share of the script a letter reads again, on average: the assignment, the lines after it and the mount go together.
    ['a script with continuations, here-documents, variables and annotations', SPANNING, 1 / 3],
    ['a mount whose options come from a variable', VARIABLE, 0.8],
    ['mounts to one server with different nconnect and a mount point claimed twice', FIRSTS, 0.8],
  ] as const)(
    'reads only the touched commands: a character typed, then deleted, at every place of %s',
    (_, script, share) => {
      const config = resolveConfig();
      const workspace = new Workspace(config);
      const memo = new LintMemo();
      const fresh = new Workspace(config);
      let version = 1;
      memo.follow(workspace.set(URI, script, version, 'shell'));
      lintFile(workspace, URI, config, { memo });
      let edits = 0;
      let regionReads = 0;
      // How much of the script a letter typed (and deleted) has read again, in characters.
      let letterReads = 0;
      let letterRead = 0;
      // Edits whose re-read mounts are one run of the mount list (the mount rules' indexes update from it).
      let mountEdits = 0;
      // Every fifth place in `npm test` (5 is coprime with the 4 and 2 below: each kind of character
      // is still typed all over the script), every place in `npm run fuzz`.
      for (let at = 0; at <= script.length; at += STEP) {
        for (const typed of at % 4 === 0 ? ['x', '\n', '"', '\\', '$'] : at % 2 === 0 ? ['x', '"'] : ['x']) {
          for (const text of [script.slice(0, at) + typed + script.slice(at), script]) {
            edits++;
            const incremental = workspace.set(URI, text, ++version, 'shell');
            memo.follow(incremental);
            if (incremental.lineEdit) {
              regionReads++;
              if (incremental.lineEdit.mounts) mountEdits++;
              if (typed === 'x') {
                letterReads++;
                letterRead += incremental.lineEdit.changed.end - incremental.lineEdit.changed.start;
              }
            }
            expect(model(incremental)).toEqual(model(parseFile(URI, text, 0, 'shell')));
            fresh.delete(URI);
            fresh.set(URI, text, 0, 'shell');
            expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
          }
        }
      }
      // Most edits are read from the previous version, and a letter reads far less than the script.
      expect(regionReads).toBeGreaterThan(0.9 * edits);
      expect(mountEdits).toBeGreaterThan(0.5 * edits);
      expect(letterReads).toBeGreaterThan(0);
      expect(letterRead / letterReads).toBeLessThan(script.length * share);
      expect(memo.reused).toBeGreaterThan(0);
    },
    runTimeout(180_000),
  );

  it("follows the slot rules' smallest and largest nconnect and the repeated keys' winners through edits of one mount or setting", () => {
    // Each edit re-reads one line: the other mounts and settings are kept objects, so the slot
    // rules' extremes and the settings' scope would be reused if the lists were compared loosely.
    const config = resolveConfig();
    const lines = SLOTS.split('\n');
    const replaced = (line: number, from: string, to: string) =>
      lines.map((text, i) => (i === line ? text.replace(from, to) : text));
    const typings = [
      replaced(7, 'nconnect=16', 'nconnect=2'), // /home: now the smallest (ANF317's mount) and no longer the largest (ANF316's figure)
      lines,
      replaced(8, 'nconnect=4', 'nconnect=32'), // /proj: the largest
      lines,
      replaced(11, 'tcp_sack=0', 'tcp_sack=1'), // the winner now repeats the value: ANF306's findings become information
      lines,
      replaced(1, 'set -e', 'set -eu'), // no mount or setting read again: everything reused
      replaced(3, '= 512', '= 64'), // the persisted slot line below ANF317's maximum
    ];
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    memo.follow(workspace.set(URI, SLOTS, 1, 'shell'));
    const first = lintFile(workspace, URI, config, { memo });
    expect(first.map((d) => d.code).filter((code) => ['ANF306', 'ANF316', 'ANF317'].includes(code))).toEqual([
      'ANF317',
      'ANF317',
      'ANF316',
      'ANF306',
      'ANF306',
    ]);
    let version = 1;
    const seen = new Set<string>();
    for (const typed of typings) {
      const text = typed.join('\n');
      memo.follow(workspace.set(URI, text, ++version, 'shell'));
      expect(workspace.file(URI)!.lineEdit).toBeDefined();
      const fresh = new Workspace(config);
      fresh.set(URI, text, version, 'shell');
      const found = lintFile(workspace, URI, config, { memo });
      expect(found).toEqual(lintFile(fresh, URI, config));
      for (const d of found)
        if (['ANF306', 'ANF316', 'ANF317'].includes(d.code)) seen.add(`${d.code} ${d.severity} ${d.message}`);
    }
    // The edits changed what the rules say (else the test would not tell a stale answer from a fresh one).
    expect(
      [...seen].filter(
        (m) => m.startsWith('ANF317') && m.includes('mount at mount-volumes.sh:8') && m.includes('uses nconnect=2'),
      ),
    ).toHaveLength(1);
    expect([...seen].filter((m) => m.startsWith('ANF316') && m.includes('With nconnect=32'))).toHaveLength(1);
    expect([...seen].filter((m) => m.startsWith('ANF306 info'))).not.toHaveLength(0);
    expect(memo.reused).toBe(typings.length);
  });

  it('judges a kept mount again when an edit listing it as read again makes it stop being first to its server', () => {
    // `${OPTS}` typed above the script: OPTS is used twice, so the mount that read it has no
    // literal options (no transport key) and /scratch becomes first to 10.10.1.4 (ANF214 on it).
    // Undone (`$` -> `x`): both parts of the mount list change (the OPTS value was an option string
    // found by content), and the run read again lists /scratch, a kept object. It is no longer
    // first: its kept ANF214 finding must go, so its server's token changes (firstMounts.ts).
    const config = resolveConfig();
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    const versions = [SPANNING, `\${OPTS}${SPANNING}`, `x{OPTS}${SPANNING}`];
    memo.follow(workspace.set(URI, versions[0]!, 1, 'shell'));
    lintFile(workspace, URI, config, { memo });
    let version = 1;
    for (const text of versions.slice(1)) {
      memo.follow(workspace.set(URI, text, ++version, 'shell'));
      expect(workspace.file(URI)!.lineEdit).toBeDefined();
      const fresh = new Workspace(config);
      fresh.set(URI, text, 0, 'shell');
      expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
    }
    expect(memo.reused).toBe(versions.length - 1);
  });

  it('judges no mount again when an edit above moves a first mount that takes nconnect from `OPTS=`, nor when a command becomes an option string', () => {
    // The first mount to 10.10.1.4 reads nconnect=8 from OPTS: ANF217 reports the later mounts
    // with other values, with a note on the OPTS line. Typing above it moves that note's offset,
    // not its line and column (ANF217's fingerprint holds those): nothing is judged again. Typing
    // into a later command's `mount` makes its options an option string found by content and back:
    // both parts of the mount list change, the first mounts stay (firstMounts.ts keeps their tokens).
    const config = resolveConfig();
    const lines = [
      '#!/bin/bash',
      '# provision the EDA farm mounts',
      'echo "mounting volumes"',
      'OPTS="rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=8"',
      'sudo mount -t nfs -o "$OPTS" 10.10.1.4:/eda-tools /tools',
      'sudo mount -t nfs -o rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=16 10.10.1.4:/eda-scratch /scratch',
      'sudo mount -t nfs -o rw,hard,vers=3,nconnect=4 10.10.2.4:/eda-proj /proj',
      'sudo mount -t nfs -o rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=2 10.10.1.4:/eda-home /home/eda',
      'sudo mount -t nfs -o rw,hard,vers=3,nconnect=8 10.10.2.4:/eda-libs /libs',
      'MORE_OPTS="rw,soft,vers=3,rsize=65536"',
      'sudo mount -t nfs -o rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4 10.10.1.4:/eda-out /out',
      '',
    ];
    const edited = (line: number, at: number, typed: string) =>
      lines.map((text, i) => (i === line ? text.slice(0, at) + typed + text.slice(at) : text));
    const mountAt = lines[7]!.indexOf('mount') + 'mou'.length;
    const typings = [edited(2, 5, 'x'), lines, edited(1, 0, '#'), lines, edited(7, mountAt, 'x'), lines];
    const workspace = new Workspace(config);
    const memo = new LintMemo();
    memo.follow(workspace.set(URI, lines.join('\n'), 1, 'shell'));
    const first = lintFile(workspace, URI, config, { memo });
    // The case this test is about: ANF217 notes on the OPTS line.
    expect(
      first.filter((d) => d.code === 'ANF217' && d.related.some((r) => r.range.start.line === 3)).length,
    ).toBeGreaterThanOrEqual(2);
    let version = 1;
    for (const typed of typings) {
      const text = typed.join('\n');
      memo.follow(workspace.set(URI, text, ++version, 'shell'));
      expect(workspace.file(URI)!.lineEdit).toBeDefined();
      const fresh = new Workspace(config);
      fresh.set(URI, text, version, 'shell');
      const rejudged = memo.contextRejudged;
      expect(lintFile(workspace, URI, config, { memo })).toEqual(lintFile(fresh, URI, config));
      expect(memo.contextRejudged - rejudged).toBe(0);
    }
    expect(memo.contextWhole).toBe(0);
    expect(memo.reused).toBe(typings.length);
  });
});
