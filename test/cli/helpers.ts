import { spawnSync, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

/** Runs the built CLI as a process, the way users and hooks do. */
export const ROOT = join(__dirname, '..', '..');
export const CLI = join(ROOT, 'dist', 'cli', 'anf-lint.js');

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A clean environment: no CI or GitHub variables, no colors unless a test asks. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  for (const [key, value] of Object.entries(extra)) if (value !== undefined) env[key] = value;
  return env;
}

export function run(
  args: readonly string[],
  options: { cwd: string; input?: string; env?: Record<string, string | undefined>; cli?: string },
): RunResult {
  const result = spawnSync(process.execPath, [options.cli ?? CLI, ...args], {
    cwd: options.cwd,
    input: options.input ?? '',
    env: baseEnv(options.env),
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A temporary folder with the given files; removed after the test file. */
export function tempProject(files: Record<string, string>, options: { git?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'anf-lint-cli-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  if (options.git) {
    git(dir, 'init', '-q', '-b', 'main');
    git(dir, 'config', 'user.email', 'test@example.com');
    git(dir, 'config', 'user.name', 'Test');
    git(dir, 'config', 'commit.gpgsign', 'false');
  }
  created.push(dir);
  return dir;
}

export function copyInto(dir: string, from: string, to: string): void {
  cpSync(join(ROOT, from), join(dir, to), { recursive: true });
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: baseEnv() });
}

const created: string[] = [];
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * Files whose findings come from rules that are stable while other rules land: the engine's
 * ANF001 (unused suppression, safe fix) and the configuration rules ANF900–ANF904.
 */
export const GOOD_CONFIG = '# test configuration\nregion: eastus\n';
/** A valid fstab line with a suppression that silences nothing: one ANF001 warning (fixable). */
export const FSTAB_UNUSED_SUPPRESSION =
  '# anf-lint disable-next-line ANF999 -- stale\n10.0.0.4:/vol1 /data nfs rw,vers=3,hard,tcp,timeo=600,rsize=262144,wsize=262144,noatime,_netdev 0 0\n';
/** A configuration file (not the active one) with an unknown region: one ANF904 warning. */
export const CONFIG_UNKNOWN_REGION = 'region: mars-north\n';
