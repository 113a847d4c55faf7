import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The README's Install section works as written (issue 16 item 6): its commands from `npm pack` to
 * `anf-lint --version` run here, with `npm install --global` pointed at a temporary prefix (so the
 * machine's global packages stay untouched). The clone and `npm ci` are this checkout already; the
 * `.vsix` lines are the VS Code test's (test/e2e/vscode.test.ts packages and installs it).
 */
const ROOT = join(__dirname, '..', '..');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

function installSection(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = /^## Install\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

describe('README install section', () => {
  const prefix = mkdtempSync(join(tmpdir(), 'anf-install-'));
  afterAll(() => {
    rmSync(prefix, { recursive: true, force: true });
    for (const f of readdirSync(ROOT)) if (/^anf-lint-.*\.tgz$/.test(f)) rmSync(join(ROOT, f), { force: true });
  });

  it('says that nothing is published and installs the packed tarball', () => {
    const lines = installSection();
    expect(lines).toContain('npm pack');
    expect(lines.some((l) => /^npm install --global \.\/anf-lint-\*\.tgz$/.test(l))).toBe(true);
    expect(lines).toContain('anf-lint --version');
    expect(lines.some((l) => l === 'npm install --global anf-lint' || l === 'npm install -g anf-lint')).toBe(false);
  });

  it('the tarball carries what users run: no tests, sources, fixtures or source maps (issue 26.9)', () => {
    const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(pack.status, pack.stderr).toBe(0);
    const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
    expect(files).toContain('bin/anf-lint');
    expect(files).toContain('dist/cli/anf-lint.js');
    expect(files).toContain('dist/wasm/tree-sitter-terraform.wasm');
    const unwanted = files.filter(
      (f) =>
        /^(test|server|client\/src|bench|scripts|\.ci|examples)\//.test(f) ||
        f.endsWith('.map') ||
        /\.test\.ts$/.test(f),
    );
    expect(unwanted).toEqual([]);
  }, 130_000);

  it('npm pack, npm install --global ./anf-lint-*.tgz, anf-lint --version: as written', () => {
    const lines = installSection();
    const from = lines.indexOf('npm pack');
    const to = lines.indexOf('anf-lint --version');
    expect(from).toBeGreaterThanOrEqual(0);
    expect(to).toBeGreaterThan(from);
    const script = ['set -e', ...lines.slice(from, to + 1)].join('\n');
    const run = spawnSync('bash', ['-c', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
      env: {
        ...process.env,
        // The global install goes to the temporary prefix; its bin/ comes first on PATH.
        npm_config_prefix: prefix,
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_update_notifier: 'false',
        PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`,
      },
    });
    expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stdout.trim().split('\n').pop()).toContain(VERSION);
    const installed = spawnSync(join(prefix, 'bin', 'anf-lint'), ['--version'], { encoding: 'utf8' });
    expect(installed.status).toBe(0);
  }, 320_000);
});
