import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * A real editor we did not write: headless Neovim (Debian's `neovim`, 0.7) starts the bundled
 * server with its own LSP client, opens an example manifest, and checks diagnostics, a hover and a
 * quick fix applied through Neovim's workspace-edit code (test/e2e/neovim/check.lua).
 *
 * Runs in CI (`.ci/install-system-packages` installs Neovim). Skipped, with a message, only when
 * `nvim` is missing and CI is unset.
 */
const ROOT = join(__dirname, '..', '..', '..');
const SERVER = join(ROOT, 'dist', 'server', 'server.js');
const EXAMPLES = join(ROOT, 'examples');
const MANIFEST = join(EXAMPLES, 'eda', 'eda.anf.yaml');
const CHECK = join(__dirname, 'check.lua');

function hasNvim(): boolean {
  return spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;
}

const available = hasNvim();
if (!available && !process.env.CI) {
  process.stderr.write(
    "test/e2e/neovim: skipped: `nvim` is not installed (install Debian's neovim; in CI this test must run)\n",
  );
}

interface NeovimResult {
  ok: boolean;
  error?: string;
  steps: string[];
  diagnostics: { lnum: number; source: string; message: string; code: string; href: string | null }[];
  hover: string | null;
  action: { title: string; code: string; line: number };
  changed_line: string;
  after: { line: number; code: string }[];
}

describe.skipIf(!available && !process.env.CI)('Neovim drives the language server', () => {
  const home = mkdtempSync(join(tmpdir(), 'anf-nvim-home-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('shows diagnostics, a hover and applies a quick fix on an example manifest', () => {
    expect(available, '`nvim` must be installed in CI (.ci/install-system-packages)').toBe(true);
    expect(existsSync(SERVER), `${SERVER} is missing: npm run build`).toBe(true);
    const lines = readFileSync(MANIFEST, 'utf8').split('\n');
    const hoverLine = lines.findIndex((l) => /^\s+- name: eda-tools\s*$/.test(l));
    expect(hoverLine).toBeGreaterThan(0);
    const result = join(home, 'result.json');
    const run = spawnSync('nvim', ['--headless', '--clean', '-c', `luafile ${CHECK}`, MANIFEST], {
      cwd: EXAMPLES,
      // Its own HOME and XDG folders: Neovim writes its log and state there, never into ours.
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_DATA_HOME: join(home, 'data'),
        XDG_STATE_HOME: join(home, 'state'),
        XDG_CACHE_HOME: join(home, 'cache'),
        ANF_SERVER: SERVER,
        ANF_ROOT: EXAMPLES,
        ANF_RESULT: result,
        ANF_HOVER_LINE: String(hoverLine),
        ANF_HOVER_COL: String(lines[hoverLine]!.indexOf('eda-tools') + 2),
      },
      timeout: 80_000,
      encoding: 'utf8',
    });
    const log = join(home, 'cache', 'nvim', 'lsp.log');
    const context = `nvim exit ${run.status} ${run.signal ?? ''}\nstderr: ${run.stderr}\nlsp.log: ${existsSync(log) ? readFileSync(log, 'utf8').slice(-4000) : '(none)'}`;
    expect(existsSync(result), context).toBe(true);
    const answer = JSON.parse(readFileSync(result, 'utf8')) as NeovimResult;
    expect(answer.error, context).toBeUndefined();
    expect(answer.ok).toBe(true);
    expect(answer.steps).toEqual(['diagnostics', 'hover', 'code action', 'diagnostics after fix']);

    // Diagnostics as Neovim shows them: our source, our codes, with links to the rule pages.
    expect(answer.diagnostics.length).toBeGreaterThan(0);
    for (const d of answer.diagnostics) {
      expect(d.source).toBe('anf-lint');
      expect(d.code).toMatch(/^ANF\d{3}$/);
    }
    expect(answer.diagnostics.map((d) => d.code)).toEqual(expect.arrayContaining(['ANF112', 'ANF117', 'ANF119']));

    // The hover on a volume name gives its figures.
    expect(answer.hover).toContain('**Volume eda-prod/eda-premium/eda-tools**');
    expect(answer.hover).toContain('Throughput limit: **256 MiB/s**');

    // The quick fix changed the text and the finding it fixed is gone.
    expect(answer.action.title.length).toBeGreaterThan(0);
    expect(answer.after.some((d) => d.code === answer.action.code && d.line === answer.action.line)).toBe(false);
  }, 90_000);
});
