import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  baseEnv,
  CLI,
  CONFIG_UNKNOWN_REGION,
  FSTAB_UNUSED_SUPPRESSION,
  GOOD_CONFIG,
  run,
  tempProject,
} from './helpers';

describe('anf-lint: files, configuration and exit codes', () => {
  it('prints help and version', () => {
    const dir = tempProject({});
    const help = run(['--help'], { cwd: dir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: anf-lint [options] [PATH|GLOB ...]');
    expect(help.stdout).toContain('--changed-since REF');
    const version = run(['--version'], { cwd: dir });
    expect(version.stdout).toMatch(/^anf-lint \d+\.\d+\.\d+\n$/);
  });

  it('exits 0 with no findings and says so', () => {
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'etc/fstab': FSTAB_UNUSED_SUPPRESSION.split('\n').slice(1).join('\n'),
    });
    const result = run([], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('2 files checked, no problems.\n');
    expect(result.code).toBe(0);
  });

  it('exits 1 on a warning and prints path:line:col  severity  message  CODE with the line and a marker', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    const result = run(['etc'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('etc/fstab\n  etc/fstab:1:1  warning  This suppression of ANF999 silences nothing');
    expect(result.stdout).toMatch(/ANF001\n {4}1 \| # anf-lint disable-next-line ANF999 -- stale\n {4} {2}\| \^+\n/);
    expect(result.stdout).toMatch(/1 problem \(1 warning\) in 1 file; 1 file checked\. 1 fixable with --fix\.\n$/);
  });

  it('--fail-on and --max-warnings decide the exit code', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    expect(run(['--fail-on', 'error'], { cwd: dir }).code).toBe(0);
    expect(run(['--fail-on', 'info'], { cwd: dir }).code).toBe(1);
    expect(run(['--fail-on', 'error', '--max-warnings', '0'], { cwd: dir }).code).toBe(1);
    expect(run(['--fail-on', 'error', '--max-warnings', '1'], { cwd: dir }).code).toBe(0);
    const bad = run(['--fail-on', 'fatal'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fail-on: "fatal" is not a severity');
    expect(run(['--max-warnings', 'many'], { cwd: dir }).stderr).toContain('--max-warnings');
  });

  it('--exit-zero reports findings and exits 0, but a missing file still exits 2', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    const result = run(['--exit-zero', '--fail-on', 'info'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ANF001');
    expect(run(['--exit-zero', 'no-such-file'], { cwd: dir }).code).toBe(2);
  });

  it('--rule changes a severity or turns a rule off', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    const off = run(['--rule', 'ANF001=off'], { cwd: dir });
    expect(off.code).toBe(0);
    expect(off.stdout).not.toContain('ANF001');
    const error = run(['--rule', 'anf001=error', '-f', 'json'], { cwd: dir });
    expect(JSON.parse(error.stdout)[1].diagnostics[0].severity).toBe('error');
    const info = run(['--rule', 'ANF001=info'], { cwd: dir });
    expect(info.code).toBe(0);
    const unknown = run(['--rule', 'ANF777=off'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--rule "ANF777=off": anf-lint has no rule ANF777');
    expect(run(['--rule', 'ANF001=loud'], { cwd: dir }).stderr).toContain('is not a severity');
    expect(run(['--rule', 'ANF001'], { cwd: dir }).stderr).toContain('write it as CODE=off|info|warning|error');
  });

  it('reads .anf-lint.yaml from the linted folder or above (outside git no higher than the current folder), and --config FILE instead', () => {
    const files = {
      '.anf-lint.yaml': 'rules:\n  ANF001: off\n',
      'hosts/etc/fstab': FSTAB_UNUSED_SUPPRESSION,
      'strict.yaml': 'rules:\n  ANF001: error\n',
    };
    // In a repository: up to its root.
    const repo = tempProject(files, { git: true });
    expect(run([], { cwd: join(repo, 'hosts') }).code).toBe(0);
    expect(run(['etc'], { cwd: join(repo, 'hosts') }).code).toBe(0);
    // Outside git: no higher than the folder named or the current folder; a note names the file left out.
    const dir = tempProject(files);
    expect(run(['hosts'], { cwd: dir }).code).toBe(0);
    const below = run([], { cwd: join(dir, 'hosts') });
    expect(below.code).toBe(1);
    expect(below.stderr).toBe(
      `anf-lint: note: ${join(dir, '.anf-lint.yaml')}: not used for the files under ${join(dir, 'hosts')}: outside a git repository the lookup stops at the folder named on the command line (or the current folder), below the home folder and before a shared temporary folder such as /tmp; pass --config ${join(dir, '.anf-lint.yaml')} to use it\n`,
    );
    expect(run(['--config', '../.anf-lint.yaml'], { cwd: join(dir, 'hosts') }).code).toBe(0);
    const strict = run(['--config', 'strict.yaml', '-f', 'json', 'hosts'], { cwd: dir });
    expect(JSON.parse(strict.stdout)[0].diagnostics[0]).toMatchObject({ code: 'ANF001', severity: 'error' });
    const missing = run(['--config', 'nope.yaml'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe('anf-lint: --config: cannot read nope.yaml\n');
  });

  it('exits 2 naming the key when the configuration has errors', () => {
    const dir = tempProject({ '.anf-lint.yaml': 'rulez:\n  ANF001: off\n', 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    const result = run([], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('the configuration file .anf-lint.yaml has errors');
    expect(result.stderr).toContain('.anf-lint.yaml:1:1  error  unknown key "rulez"; did you mean "rules"?');
    expect(result.stderr).toContain('ANF901');
  });

  it('prints configuration warnings on stderr and goes on', () => {
    const dir = tempProject({
      '.anf-lint.yaml': CONFIG_UNKNOWN_REGION,
      'etc/fstab': `${FSTAB_UNUSED_SUPPRESSION.split('\n')[1]}\n`,
    });
    const result = run(['etc'], { cwd: dir });
    expect(result.stderr).toMatch(
      /^anf-lint: configuration: \.anf-lint\.yaml:1:9 {2}warning {2}anf-lint has no list prices for region "mars-north"; .* {2}ANF904\n$/,
    );
    expect(result.code).toBe(0);
    // Linted itself, the file reports the warning in the report instead.
    const all = run(['.'], { cwd: dir });
    expect(all.stderr).toBe('');
    expect(all.stdout).toContain('.anf-lint.yaml:1:9  warning');
  });

  it('lints configuration files like any file', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'team/.anf-lint.yaml': CONFIG_UNKNOWN_REGION });
    const result = run(['-f', 'json', '.'], { cwd: dir });
    const team = JSON.parse(result.stdout).find((f: { file: string }) => f.file === 'team/.anf-lint.yaml');
    expect(team).toMatchObject({
      kind: 'anf-lint-config',
      diagnostics: [{ code: 'ANF904', severity: 'warning', line: 1, column: 9 }],
    });
  });

  it('a missing file is a clear message and exit 2, not a stack trace; the rest is still linted', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    symlinkSync(join(dir, 'gone'), join(dir, 'dangling.fstab'));
    const result = run(['etc/fstab', 'missing.fstab', 'dangling.fstab'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('anf-lint: missing.fstab: no such file or folder\n');
    expect(result.stderr).toContain('anf-lint: dangling.fstab: no such file or folder\n');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toContain('ANF001');
  });

  it('an unreadable file is a clear message', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    chmodSync(join(dir, 'etc/fstab'), 0o000);
    const result = run(['etc/fstab'], { cwd: dir });
    chmodSync(join(dir, 'etc/fstab'), 0o644);
    // root reads anything; elsewhere the file is unreadable.
    if (process.getuid?.() === 0) expect(result.code).toBe(1);
    else {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('etc/fstab: cannot read (permission denied)');
    }
  });

  it('bad flags exit 2 and name the flag', () => {
    const dir = tempProject({});
    const unknown = run(['--frobnicate'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^anf-lint: unknown option '--frobnicate'/);
    expect(run(['--format', 'xml'], { cwd: dir }).stderr).toContain(
      '--format: "xml" is not a format; use text, json, sarif, github',
    );
    expect(run(['--format'], { cwd: dir }).stderr).toContain('--format');
    expect(run(['--stdin'], { cwd: dir }).stderr).toContain('--stdin needs --stdin-filename');
    expect(run(['--fix', '--fix-dry-run'], { cwd: dir }).stderr).toContain('choose one');
    expect(run(['--fix', '--stdin', '--stdin-filename', 'x.fstab'], { cwd: dir }).stderr).toContain(
      '--fix cannot write to standard input',
    );
  });

  it('--stdin --stdin-filename lints standard input as that file', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG });
    const result = run(['--stdin', '--stdin-filename', 'etc/fstab', '-f', 'json'], {
      cwd: dir,
      input: FSTAB_UNUSED_SUPPRESSION,
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        file: 'etc/fstab',
        kind: 'fstab',
        diagnostics: [expect.objectContaining({ code: 'ANF001', line: 1, column: 1 })],
      },
    ]);
    const asConfig = run(['--stdin', '--stdin-filename', 'sub/.anf-lint.yaml', '-f', 'json'], {
      cwd: dir,
      input: CONFIG_UNKNOWN_REGION,
    });
    expect(JSON.parse(asConfig.stdout)[0]).toMatchObject({
      kind: 'anf-lint-config',
      diagnostics: [{ code: 'ANF904' }],
    });
  });

  it('honours suppression comments', () => {
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'team/.anf-lint.yaml': `# anf-lint disable-next-line ANF904 -- region added next quarter\n${CONFIG_UNKNOWN_REGION}`,
    });
    const result = run(['team'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('no problems');
  });

  it('walks folders, detects kinds by name and content, and takes globs', () => {
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'a/etc/fstab': FSTAB_UNUSED_SUPPRESSION,
      'b/mount-data': `#!/bin/bash\n${FSTAB_UNUSED_SUPPRESSION.split('\n')[0]}\nmount -t nfs -o rw,vers=3,hard 10.0.0.4:/vol1 /data\n`,
      'c/notes.txt': FSTAB_UNUSED_SUPPRESSION,
      'node_modules/x/etc/fstab': FSTAB_UNUSED_SUPPRESSION,
    });
    const all = JSON.parse(run(['-f', 'json'], { cwd: dir }).stdout) as { file: string; kind: string }[];
    expect(all.map((f) => [f.file, f.kind])).toEqual([
      ['.anf-lint.yaml', 'anf-lint-config'],
      ['a/etc/fstab', 'fstab'],
      ['b/mount-data', 'shell'],
    ]);
    const globbed = JSON.parse(run(['-f', 'json', '**/fstab'], { cwd: dir }).stdout) as { file: string }[];
    expect(globbed.map((f) => f.file)).toEqual(['a/etc/fstab']);
    const none = run(['**/*.nothing'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('**/*.nothing: no files match');
  });

  it('shows per-volume figures for manifests in text output', () => {
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'eda.anf.yaml': readFileSync(join(__dirname, 'fixtures', 'eda.anf.yaml'), 'utf8'),
    });
    const result = run([], { cwd: dir });
    expect(result.stdout).toMatch(
      /^eda\.anf\.yaml\n {2}pool eda-prod\/eda-premium {2}Premium, 4 TiB, 2,048 GiB allocated \(50%\), 128 MiB\/s of 256 MiB\/s, \$[\d,.]+ a month\n/,
    );
    expect(result.stdout).toMatch(
      /\n {4}eda-tools {2}2,048 GiB, 128 MiB\/s, 16,384 IOPS at 8 KiB \(assumed\), \$[\d,.]+ a month, eda-tools, NFSv3\n/,
    );
  });

  it('writes nothing to stdout but the report (progress and notes go to stderr)', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG });
    for (let i = 0; i < 60; i++) writeFileSync(join(dir, `host${i}.fstab`), FSTAB_UNUSED_SUPPRESSION);
    const result = run(['-f', 'json'], { cwd: dir });
    expect(JSON.parse(result.stdout)).toHaveLength(61);
    expect(result.stderr).toBe('');
  });

  it.skipIf(!existsSync('/usr/bin/script'))(
    'shows progress on stderr when it is a terminal and the run is long',
    () => {
      const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG });
      for (let i = 0; i < 60; i++) writeFileSync(join(dir, `host${i}.fstab`), FSTAB_UNUSED_SUPPRESSION);
      // `script` gives the CLI a pseudo-terminal for stdout and stderr.
      const result = spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" --fail-on error`, '/dev/null'], {
        cwd: dir,
        env: baseEnv({ TERM: 'xterm' }),
        encoding: 'utf8',
      });
      expect(result.stdout).toContain('anf-lint: 61/61 files');
      expect(result.stdout).toContain('\u001b[K');
    },
  );
});
