import { beforeAll, describe, expect, it } from 'vitest';
import { git, run, tempProject } from './helpers';

/**
 * Issue 26: on a 2,888-file repository the CLI stopped at 2,000 files and exited 2, even with
 * --exit-zero. The CLI now reads every file; --max-files is an explicit bound that only adds a note.
 */
const FILES = 2_050; // above the old 2,000-file cap

function repository(options: { git: boolean }): string {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) files[`hosts/h${String(i).padStart(4, '0')}/etc/fstab`] = '# no mounts\n';
  // The last host, in sort order, holds the one finding: it is read only when every file is.
  files[`hosts/h${String(FILES - 1).padStart(4, '0')}/etc/fstab`] = '10.0.0.4:/vol /mnt nfs soft,vers=3 0 0\n';
  const dir = tempProject(files, options);
  if (options.git) {
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'hosts');
  }
  return dir;
}

describe('no silent file cap', () => {
  // One repository for every case: writing and committing two thousand files is slow on a busy machine.
  let dir = '';
  beforeAll(() => {
    dir = repository({ git: true });
  }, 240_000);
  it(`reads all ${FILES} files of a git repository and --exit-zero exits 0`, () => {
    const json = run(['--format', 'json', '.'], { cwd: dir });
    expect(json.stderr).not.toMatch(/stopped reading/);
    const results = JSON.parse(json.stdout) as { file: string; diagnostics: { code: string }[] }[];
    expect(results).toHaveLength(FILES);
    expect(results.find((r) => r.file.endsWith(`h${FILES - 1}/etc/fstab`))?.diagnostics.length ?? 0).toBeGreaterThan(0);
    expect(json.code).toBe(1);
    expect(run(['--exit-zero', '.'], { cwd: dir }).code).toBe(0);
  }, 120_000);

  it('outside git too: the walk has no entry or file cap', () => {
    const loose = tempProject(
      Object.fromEntries(
        Array.from({ length: FILES }, (_, i) => [`h${String(i).padStart(4, '0')}/etc/fstab`, '# no mounts\n']),
      ),
    );
    const json = run(['--format', 'json', '.'], { cwd: loose });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toHaveLength(FILES);
  }, 120_000);

  it('--max-files bounds the read with a note and never fails the run by itself', () => {
    const bounded = run(['--max-files', '100', '--format', 'json', '.'], { cwd: dir });
    expect(bounded.stderr).toMatch(/read the first files only, because it reached 100 files \(--max-files\)/);
    expect(JSON.parse(bounded.stdout)).toHaveLength(100);
    expect(bounded.code).toBe(0);
    expect(run(['--max-files', '0', '.'], { cwd: dir }).code).toBe(2);
  }, 120_000);
});
