import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentedBlock } from '../support/editorsDoc';

/**
 * docs/editors.md, as written, in a real Neovim (Debian's 0.7): the Lua block marked
 * `<!-- test: neovim-0.7 -->` becomes init.lua, `anf-lint` on PATH is this checkout's bin/anf-lint,
 * and Neovim opens the EDA example. The config alone must attach the server (file types, root
 * marker), diagnostics must arrive, a manifest key (`quota:`) must hover with its meaning and
 * unit (issue 16 item 4), and fstab, sysctl.d, modprobe.d files, an autofs map and a mount script
 * must get their file types and the server (issue 16 item 7).
 */
const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const MANIFEST = join(EXAMPLES, 'eda', 'eda.anf.yaml');
const CHECK = join(__dirname, 'editors-doc.lua');

const available = spawnSync('nvim', ['--version'], { stdio: 'ignore' }).status === 0;
if (!available && !process.env.CI)
  process.stderr.write('test/e2e/neovim/editors-doc: skipped: `nvim` is not installed (in CI this test must run)\n');

describe.skipIf(!available && !process.env.CI)('docs/editors.md: the Neovim configuration', () => {
  const home = mkdtempSync(join(tmpdir(), 'anf-nvim-doc-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('attaches anf-lint by file type, shows diagnostics and hovers a manifest key', () => {
    expect(existsSync(join(ROOT, 'dist', 'cli', 'anf-lint.js')), 'npm run build first').toBe(true);
    const init = join(home, 'init.lua');
    writeFileSync(init, documentedBlock('neovim-0.7'));
    const bin = join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(join(ROOT, 'bin', 'anf-lint'), join(bin, 'anf-lint'));
    const lines = readFileSync(MANIFEST, 'utf8').split('\n');
    const keyLine = lines.findIndex((l) => /^\s+quota:/.test(l));
    const others = [
      'eda/etc/fstab',
      'eda/etc/sysctl.d/90-nfs-client.conf',
      'eda/etc/modprobe.d/sunrpc.conf',
      'eda/etc/auto.proj',
      'eda/scripts/mount-eda.sh',
      'eda/terraform/main.tf',
      'eda/bicep/main.bicep',
    ].map((p) => join(EXAMPLES, p));
    const result = join(home, 'result.json');
    const run = spawnSync('nvim', ['--headless', '-u', init, '-c', `luafile ${CHECK}`, MANIFEST], {
      cwd: EXAMPLES,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        XDG_CONFIG_HOME: join(home, 'config'),
        XDG_DATA_HOME: join(home, 'data'),
        XDG_STATE_HOME: join(home, 'state'),
        XDG_CACHE_HOME: join(home, 'cache'),
        ANF_RESULT: result,
        ANF_KEY_LINE: String(keyLine),
        ANF_KEY_COL: String(lines[keyLine]!.indexOf('quota') + 2),
        ANF_FILES: others.join(':'),
      },
      timeout: 90_000,
      encoding: 'utf8',
    });
    const log = join(home, 'cache', 'nvim', 'lsp.log');
    const context = `nvim exit ${run.status}\nstderr: ${run.stderr}\nlsp.log: ${existsSync(log) ? readFileSync(log, 'utf8').slice(-3000) : '(none)'}`;
    expect(existsSync(result), context).toBe(true);
    const answer = JSON.parse(readFileSync(result, 'utf8')) as {
      ok: boolean;
      error?: string;
      manifest_filetype: string;
      root: string;
      codes: string[];
      key_hover: string | null;
      files: {
        path: string;
        filetype: string;
        attached: boolean;
        checked: boolean;
        diagnostics: number;
        hover_key: boolean;
      }[];
    };
    expect(answer.error, context).toBeUndefined();
    expect(answer.ok).toBe(true);
    // The root marker: examples/.anf-lint.yaml.
    expect(answer.root).toBe(EXAMPLES);
    expect(answer.codes).toEqual(expect.arrayContaining(['ANF112', 'ANF117']));
    expect(answer.key_hover).toContain('**Quota (volume size)**');
    expect(answer.key_hover).toContain('Unit: a size with its unit');
    const byName = Object.fromEntries(answer.files.map((f) => [f.path.slice(EXAMPLES.length + 1), f]));
    expect(byName['eda/etc/fstab']).toMatchObject({ filetype: 'fstab', attached: true, checked: true });
    expect(byName['eda/etc/sysctl.d/90-nfs-client.conf']).toMatchObject({
      filetype: 'sysctl',
      attached: true,
      checked: true,
    });
    expect(byName['eda/etc/modprobe.d/sunrpc.conf']).toMatchObject({
      filetype: 'modconf',
      attached: true,
      checked: true,
    });
    expect(byName['eda/etc/auto.proj']).toMatchObject({ filetype: 'conf', attached: true, checked: true });
    expect(byName['eda/scripts/mount-eda.sh']).toMatchObject({ filetype: 'sh', attached: true, checked: true });
    // Issue 26: Terraform and Bicep get the server too (Neovim 0.7 takes *.tf for TinyFugue).
    expect(byName['eda/terraform/main.tf']).toMatchObject({ filetype: 'terraform', attached: true, checked: true });
    expect(byName['eda/bicep/main.bicep']).toMatchObject({ filetype: 'bicep', attached: true, checked: true });
    expect(byName['eda/terraform/main.tf']!.diagnostics).toBeGreaterThan(0);
    // `K` hovers in every attached buffer, as the doc says.
    expect(answer.files.filter((f) => !f.hover_key).map((f) => f.path)).toEqual([]);
    // The example files are wrong on purpose: the server's findings reach those buffers too.
    expect(byName['eda/etc/fstab']!.diagnostics).toBeGreaterThan(0);
  }, 120_000);
});
