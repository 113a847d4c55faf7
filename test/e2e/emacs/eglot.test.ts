import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { documentedBlock } from '../support/editorsDoc';

/**
 * docs/editors.md, as written, in Emacs with eglot (Debian's emacs-nox 28 + elpa-eglot): the elisp
 * block marked `<!-- test: emacs-eglot -->` is the init file, `anf-lint` on PATH is this checkout's
 * bin/anf-lint. Opening the EDA manifest and its fstab must start the server through the
 * documented major modes and hooks, show its findings through Flymake, and hover a manifest key.
 * Skipped (with a message) where Emacs or eglot is missing; not installed in CI (CI time).
 */
const ROOT = join(__dirname, '..', '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const MANIFEST = join(EXAMPLES, 'eda', 'eda.anf.yaml');

const hasEglot = spawnSync('emacs', ['--batch', '--eval', '(require (quote eglot))'], { stdio: 'ignore' }).status === 0;
if (!hasEglot)
  process.stderr.write(
    'test/e2e/emacs: skipped: emacs with eglot is not installed (apt-get install emacs-nox elpa-eglot)\n',
  );

describe.skipIf(!hasEglot)('docs/editors.md: Emacs eglot configuration', () => {
  const home = mkdtempSync(join(tmpdir(), 'anf-emacs-'));
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  function runEmacs(cwd: string, files: { manifest: string; fstab: string; others: string[] }) {
    const init = join(home, 'init.el');
    writeFileSync(init, documentedBlock('emacs-eglot'));
    const bin = join(home, 'bin');
    if (!existsSync(bin)) {
      mkdirSync(bin);
      symlinkSync(join(ROOT, 'bin', 'anf-lint'), join(bin, 'anf-lint'));
    }
    const lines = readFileSync(files.manifest, 'utf8').split('\n');
    const keyLine = lines.findIndex((l) => /^\s+quota:/.test(l));
    const result = join(home, `result-${Date.now()}.json`);
    const run = spawnSync('emacs', ['--batch', '-l', init, '-l', join(__dirname, 'check.el')], {
      cwd,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        ANF_RESULT: result,
        ANF_MANIFEST: files.manifest,
        ANF_FSTAB: files.fstab,
        ANF_OTHERS: files.others.join(':'),
        ANF_KEY_LINE: String(keyLine),
        ANF_KEY_COL: String(lines[keyLine]!.indexOf('quota') + 2),
      },
      timeout: 150_000,
      encoding: 'utf8',
    });
    const context = `emacs exit ${run.status}\nstderr: ${run.stderr.slice(-3000)}`;
    expect(existsSync(result), context).toBe(true);
    const answer = JSON.parse(readFileSync(result, 'utf8')) as {
      ok: boolean;
      error?: string;
      fstab_mode: string;
      fstab_root: string;
      fstab_diagnostics: number;
      manifest_diagnostics: number;
      others: { path: string; mode: string; connected: boolean; diagnostics: number }[];
    };
    expect(answer.error, context).toBeUndefined();
    return answer;
  }

  it('attaches to .tf and .bicep through the documented modes (issue 26)', () => {
    const answer = runEmacs(EXAMPLES, {
      manifest: MANIFEST,
      fstab: join(EXAMPLES, 'eda', 'etc', 'fstab'),
      others: [join(EXAMPLES, 'eda', 'terraform', 'main.tf'), join(EXAMPLES, 'eda', 'bicep', 'main.bicep')],
    });
    const [tf, bicep] = answer.others;
    expect(tf).toMatchObject({ mode: 'terraform-mode', connected: true });
    expect(tf!.diagnostics).toBeGreaterThan(0);
    expect(bicep).toMatchObject({ mode: 'bicep-mode', connected: true });
    expect(bicep!.diagnostics).toBeGreaterThan(0);
  }, 180_000);

  it('outside a git repository the root is the folder with .anf-lint.yaml, not etc/ (issue 26)', () => {
    const loose = mkdtempSync(join(tmpdir(), 'anf-emacs-loose-'));
    cpSync(join(EXAMPLES, 'eda'), join(loose, 'eda'), { recursive: true });
    cpSync(join(EXAMPLES, '.anf-lint.yaml'), join(loose, '.anf-lint.yaml'));
    try {
      const answer = runEmacs(loose, {
        manifest: join(loose, 'eda', 'eda.anf.yaml'),
        fstab: join(loose, 'eda', 'etc', 'fstab'),
        others: [],
      });
      expect(answer.fstab_root.replace(/\/$/, '')).toBe(loose);
      expect(answer.fstab_diagnostics).toBeGreaterThan(0);
    } finally {
      rmSync(loose, { recursive: true, force: true });
    }
  }, 180_000);

  it('starts anf-lint on a manifest and an fstab, with Flymake diagnostics and a key hover', () => {
    const init = join(home, 'init.el');
    writeFileSync(init, documentedBlock('emacs-eglot'));
    const bin = join(home, 'bin');
    if (!existsSync(bin)) {
      mkdirSync(bin);
      symlinkSync(join(ROOT, 'bin', 'anf-lint'), join(bin, 'anf-lint'));
    }
    const lines = readFileSync(MANIFEST, 'utf8').split('\n');
    const keyLine = lines.findIndex((l) => /^\s+quota:/.test(l));
    const result = join(home, 'result.json');
    // Not -Q: that skips the site-start that puts Debian's eglot on the load path.
    const run = spawnSync('emacs', ['--batch', '-l', init, '-l', join(__dirname, 'check.el')], {
      cwd: EXAMPLES,
      env: {
        ...process.env,
        PATH: `${bin}:${process.env.PATH ?? ''}`,
        HOME: home,
        ANF_RESULT: result,
        ANF_MANIFEST: MANIFEST,
        ANF_FSTAB: join(EXAMPLES, 'eda', 'etc', 'fstab'),
        ANF_KEY_LINE: String(keyLine),
        ANF_KEY_COL: String(lines[keyLine]!.indexOf('quota') + 2),
      },
      timeout: 90_000,
      encoding: 'utf8',
    });
    const context = `emacs exit ${run.status}\nstderr: ${run.stderr.slice(-3000)}`;
    expect(existsSync(result), context).toBe(true);
    const answer = JSON.parse(readFileSync(result, 'utf8')) as {
      ok: boolean;
      error?: string;
      manifest_mode: string;
      fstab_mode: string;
      manifest_diagnostics: number;
      fstab_diagnostics: number;
      messages: string[];
      key_hover: string;
    };
    expect(answer.error, context).toBeUndefined();
    expect(answer.ok).toBe(true);
    expect(answer.fstab_mode).toBe('conf-space-mode');
    expect(answer.manifest_diagnostics).toBeGreaterThan(0);
    expect(answer.messages.join('\n')).toMatch(/ANF11\d/);
    expect(answer.fstab_diagnostics).toBeGreaterThan(0);
    expect(answer.key_hover).toContain('**Quota (volume size)**');
  }, 120_000);
});
