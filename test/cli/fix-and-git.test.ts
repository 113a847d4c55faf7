import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { HANA_AVG_ESTATE as HANA_ESTATE } from '../support/hanaEstate';
import {
  baseEnv,
  CONFIG_UNKNOWN_REGION,
  FSTAB_UNUSED_SUPPRESSION,
  git,
  GOOD_CONFIG,
  ROOT,
  run,
  tempProject,
} from './helpers';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const VALID_FSTAB_LINE = FSTAB_UNUSED_SUPPRESSION.split('\n')[1]!;
/** The same line for another mount point: one fstab mounting /data twice is ANF227. */
const OTHER_FSTAB_LINE = VALID_FSTAB_LINE.replace(' /data ', ' /data2 ');
const unused = (code: string) => `# anf-lint disable-next-line ${code} -- stale`;

/** A folder with an `anf-lint` command on PATH, as an installed anf-lint would be. */
function pathWithAnfLint(): string {
  const dir = tempProject({});
  mkdirSync(join(dir, 'bin'));
  symlinkSync(join(ROOT, 'bin', 'anf-lint'), join(dir, 'bin', 'anf-lint'));
  return `${join(dir, 'bin')}:${process.env.PATH}`;
}

describe('--fix and --fix-dry-run', () => {
  it('--fix applies safe fixes in place and re-lints until nothing changes', () => {
    const fstab = `${unused('ANF998')}\n${unused('ANF999')}\n${VALID_FSTAB_LINE}\n`;
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'etc/fstab': fstab,
      'etc/clean.fstab': `${VALID_FSTAB_LINE}\n`,
    });
    const result = run(['--fix'], { cwd: dir });
    expect(result.stderr).toContain('anf-lint: fixed 1 file: etc/fstab');
    expect(readFileSync(join(dir, 'etc/fstab'), 'utf8')).toBe(`${VALID_FSTAB_LINE}\n`);
    expect(readFileSync(join(dir, 'etc/clean.fstab'), 'utf8')).toBe(`${VALID_FSTAB_LINE}\n`);
    expect(result.stdout).toContain('no problems');
    expect(result.code).toBe(0);
  });

  it('--fix leaves findings without a safe fix and still reports them', () => {
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'team/.anf-lint.yaml': `${unused('ANF998')}\n${CONFIG_UNKNOWN_REGION}`,
    });
    const result = run(['--fix', '-f', 'json', 'team'], { cwd: dir });
    expect(readFileSync(join(dir, 'team/.anf-lint.yaml'), 'utf8')).toBe(CONFIG_UNKNOWN_REGION);
    expect(JSON.parse(result.stdout)[0].diagnostics.map((d: { code: string }) => d.code)).toEqual(['ANF904']);
    expect(result.code).toBe(1);
  });

  it('--fix-dry-run prints a unified diff and changes nothing', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    const result = run(['--fix-dry-run'], { cwd: dir });
    expect(result.stdout).toBe(
      [
        '--- a/etc/fstab',
        '+++ b/etc/fstab',
        '@@ -1,2 +1,1 @@',
        `-${unused('ANF999')}`,
        ` ${VALID_FSTAB_LINE}`,
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('anf-lint: 1 file would change with --fix.\n');
    expect(readFileSync(join(dir, 'etc/fstab'), 'utf8')).toBe(FSTAB_UNUSED_SUPPRESSION);
    expect(result.code).toBe(1);
  });

  // Issue 26.8: an estate whose findings offer only unsafe fixes (the editor shows three quick fixes).

  it('--fix-dry-run says how many unsafe fixes it left out and how to apply them', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'infra/main.tf': HANA_ESTATE });
    const result = run(['--fix-dry-run'], { cwd: dir });
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('anf-lint: 0 files would change with --fix.\n');
    expect(result.stderr).toContain('anf-lint: 3 unsafe fixes left out');
    expect(result.stderr).toContain('--fix-dry-run --unsafe-fixes');
    expect(result.stderr).toContain("the editor's quick-fix menu");
  });

  it('--fix with JSON output keeps stdout valid and says on stderr what it left out', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'infra/main.tf': HANA_ESTATE });
    const result = run(['--fix', '-f', 'json'], { cwd: dir });
    expect(() => JSON.parse(result.stdout)).not.toThrow();
    expect(result.stderr).toContain('anf-lint: 3 unsafe fixes left out');
    expect(result.stderr).toContain('--fix --unsafe-fixes');
    expect(readFileSync(join(dir, 'infra/main.tf'), 'utf8')).toBe(HANA_ESTATE);
  });

  it('--fix-dry-run --unsafe-fixes names the fixes it backed out because together they make a new error', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'infra/main.tf': HANA_ESTATE });
    const result = run(['--fix-dry-run', '--unsafe-fixes'], { cwd: dir });
    expect(result.stdout).toContain('+  size_in_tb          = 4');
    expect(result.stderr).toMatch(
      /infra\/main\.tf:\d+: ANF408 Assign 382 MiB\/s: not applied: together with the other fixes it makes ANF114 /,
    );
    expect(result.stderr).not.toContain('unsafe fixes left out');
  });

  it('--stdin --fix-dry-run shows the fix for standard input', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG });
    const result = run(['--stdin', '--stdin-filename', 'etc/fstab', '--fix-dry-run'], {
      cwd: dir,
      input: FSTAB_UNUSED_SUPPRESSION,
    });
    expect(result.stdout).toContain(`-${unused('ANF999')}`);
  });
});

describe('git: known files, --staged, --changed-since, hooks', () => {
  it('inside a git work tree lints only the files git knows', () => {
    const dir = tempProject(
      {
        '.anf-lint.yaml': GOOD_CONFIG,
        '.gitignore': 'build/\n',
        'etc/fstab': FSTAB_UNUSED_SUPPRESSION,
        'build/etc/fstab': FSTAB_UNUSED_SUPPRESSION,
      },
      { git: true },
    );
    const files = JSON.parse(run(['-f', 'json'], { cwd: dir }).stdout).map((f: { file: string }) => f.file);
    expect(files).toEqual(['.anf-lint.yaml', 'etc/fstab']);
    // A file deleted from the work tree but still in the index is skipped quietly.
    git(dir, 'add', 'etc/fstab');
    writeFileSync(join(dir, 'etc/gone.fstab'), FSTAB_UNUSED_SUPPRESSION);
    git(dir, 'add', 'etc/gone.fstab');
    rmSync(join(dir, 'etc/gone.fstab'));
    const afterDelete = run(['-f', 'json'], { cwd: dir });
    expect(afterDelete.stderr).toBe('');
    expect(JSON.parse(afterDelete.stdout).map((f: { file: string }) => f.file)).toEqual([
      '.anf-lint.yaml',
      'etc/fstab',
    ]);
    // Named explicitly, an ignored file is still linted.
    expect(JSON.parse(run(['-f', 'json', 'build/etc/fstab'], { cwd: dir }).stdout)).toHaveLength(1);
  });

  it('--staged lints the staged content and reports only changed lines', () => {
    const dir = tempProject(
      {
        '.anf-lint.yaml': GOOD_CONFIG,
        'etc/fstab': FSTAB_UNUSED_SUPPRESSION,
        'etc/other.fstab': FSTAB_UNUSED_SUPPRESSION,
      },
      { git: true },
    );
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'old findings');
    expect(run(['--staged'], { cwd: dir }).code).toBe(0);

    // Stage a new finding at the end, then take it out of the work tree again.
    writeFileSync(join(dir, 'etc/fstab'), `${FSTAB_UNUSED_SUPPRESSION}${unused('ANF997')}\n${OTHER_FSTAB_LINE}\n`);
    git(dir, 'add', 'etc/fstab');
    writeFileSync(join(dir, 'etc/fstab'), FSTAB_UNUSED_SUPPRESSION);

    const result = run(['--staged', '-f', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      {
        file: 'etc/fstab',
        kind: 'fstab',
        diagnostics: [expect.objectContaining({ code: 'ANF001', line: 3, message: expect.stringContaining('ANF997') })],
      },
    ]);
    // Paths narrow the staged files.
    expect(JSON.parse(run(['--staged', '-f', 'json', 'elsewhere'], { cwd: dir }).stdout)).toEqual([]);
    expect(run(['--staged', '--fix'], { cwd: dir }).code).toBe(2);
  });

  it('--changed-since REF reports only findings on lines changed since REF', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION }, { git: true });
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    git(dir, 'tag', 'base');
    writeFileSync(join(dir, 'etc/fstab'), `${FSTAB_UNUSED_SUPPRESSION}${unused('ANF996')}\n${OTHER_FSTAB_LINE}\n`);
    writeFileSync(join(dir, 'etc/new.fstab'), FSTAB_UNUSED_SUPPRESSION);
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'change');
    // A new file nobody has added yet counts as changed, every line of it.
    writeFileSync(join(dir, 'etc/untracked.fstab'), FSTAB_UNUSED_SUPPRESSION);
    const result = JSON.parse(run(['--changed-since', 'base', '-f', 'json'], { cwd: dir }).stdout) as {
      file: string;
      diagnostics: { line: number }[];
    }[];
    expect(result.map((f) => [f.file, f.diagnostics.map((d) => d.line)])).toEqual([
      ['etc/fstab', [3]],
      ['etc/new.fstab', [1]],
      ['etc/untracked.fstab', [1]],
    ]);
    const bad = run(['--changed-since', 'no-such-ref'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--changed-since: "no-such-ref" is not a commit, branch or tag');
    const outside = tempProject({});
    expect(run(['--staged'], { cwd: outside }).stderr).toContain('--staged needs a git work tree');
  });

  it('examples/hooks/pre-commit blocks a commit with a finding on a changed line', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': `${VALID_FSTAB_LINE}\n` }, { git: true });
    copyFileSync(join(ROOT, 'examples', 'hooks', 'pre-commit'), join(dir, '.git', 'hooks', 'pre-commit'));
    chmodSync(join(dir, '.git', 'hooks', 'pre-commit'), 0o755);
    const env = baseEnv({ PATH: pathWithAnfLint() });
    const commit = (message: string) =>
      spawnSync('git', ['commit', '-q', '-m', message], { cwd: dir, env, encoding: 'utf8' });
    git(dir, 'add', '.');
    expect(commit('clean').status).toBe(0);
    writeFileSync(join(dir, 'etc/fstab'), FSTAB_UNUSED_SUPPRESSION);
    git(dir, 'add', '.');
    const blocked = commit('finding');
    expect(blocked.status).not.toBe(0);
    expect(blocked.stdout + blocked.stderr).toContain('etc/fstab:1:1  warning');
    expect(git(dir, 'log', '--oneline').trim().split('\n')).toHaveLength(1);
  });

  it('.pre-commit-hooks.yaml: its entry, given the staged files as pre-commit does, reports them', () => {
    const hooks = parseYaml(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as {
      id: string;
      entry: string;
      language: string;
      types?: string[];
    }[];
    expect(hooks).toHaveLength(1);
    const hook = hooks[0]!;
    expect(hook).toMatchObject({ id: 'anf-lint', entry: 'anf-lint', language: 'node' });
    const dir = tempProject(
      { '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION, 'README.txt': 'notes\n' },
      { git: true },
    );
    const [command, ...args] = hook.entry.split(' ');
    const result = spawnSync(command!, [...args, 'etc/fstab', 'README.txt', '.anf-lint.yaml'], {
      cwd: dir,
      env: baseEnv({ PATH: pathWithAnfLint() }),
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('etc/fstab:1:1  warning');
    expect(result.stdout).toContain('3 files checked');
  });

  it('.pre-commit-hooks.yaml (language: node): the packed package ships the built CLI', () => {
    // pre-commit installs a node hook with `npm install` + `npm pack` + `npm install -g <tarball>`.
    const pkg = JSON.parse(read('package.json')) as { bin: Record<string, string>; scripts: Record<string, string> };
    expect(pkg.bin['anf-lint']).toBe('./bin/anf-lint');
    expect(pkg.scripts.prepack).toContain('scripts/build.mjs');
    const packed = spawnSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_loglevel: 'silent' },
    });
    const files = (JSON.parse(packed.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/anf-lint',
        'dist/cli/anf-lint.js',
        'dist/cli/anf-lint-bundle.js',
        'dist/cli/anf-lint-bundle.js.cache',
        'dist/cli/web-tree-sitter.js',
        'dist/server/server.js',
        'dist/server/server-bundle.js',
        'dist/server/server-bundle.js.cache',
        'dist/server/web-tree-sitter.js',
      ]),
    );
  });

  it('docs/github-workflow.yml: its anf-lint steps give annotations and valid SARIF', () => {
    const workflow = parseYaml(readFileSync(join(ROOT, 'docs', 'github-workflow.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { run?: string; uses?: string; with?: Record<string, string> }[] }>;
    };
    const steps = Object.values(workflow.jobs)[0]!.steps;
    const anfSteps = steps.filter((s) => s.run?.startsWith('anf-lint'));
    expect(anfSteps).toHaveLength(2);
    expect(
      steps.some(
        (s) => s.uses?.startsWith('github/codeql-action/upload-sarif') && s.with?.sarif_file === 'anf-lint.sarif',
      ),
    ).toBe(true);
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': FSTAB_UNUSED_SUPPRESSION }, { git: true });
    const env = baseEnv({ PATH: pathWithAnfLint(), GITHUB_ACTIONS: 'true' });
    const lint = spawnSync('bash', ['-e', '-c', anfSteps[0]!.run!], { cwd: dir, env, encoding: 'utf8' });
    expect(lint.status).toBe(1);
    expect(lint.stdout).toMatch(/^::warning file=etc\/fstab,line=1,col=1,/);
    const sarifStep = spawnSync('bash', ['-e', '-c', anfSteps[1]!.run!], { cwd: dir, env, encoding: 'utf8' });
    expect(sarifStep.status).toBe(0);
    const schema = JSON.parse(readFileSync(join(__dirname, 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'));
    const validate = new Ajv({ strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema);
    const sarif = JSON.parse(readFileSync(join(dir, 'anf-lint.sarif'), 'utf8'));
    expect(validate(sarif)).toBe(true);
    expect(sarif.runs[0].results).toHaveLength(1);
  });
});
