/**
 * Issue 18, items 1–4: never lose a byte, never leave the repository, never hang. The CLI runs as
 * a process (or in-process with an environment whose writes fail) over real files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../server/src/cli/run';
import { EnvironmentError } from '../../server/src/core/project';
import { NodeEnvironment } from '../../server/src/node/nodeEnvironment';
import { baseEnv, CLI, git, GOOD_CONFIG, run, tempProject } from './helpers';

const SYSCTL_LATIN1 = Buffer.concat([
  Buffer.from('# NFS client tuning, caf'),
  Buffer.from([0xe9]), // "é" in Latin-1: not valid UTF-8
  Buffer.from('\nnet.core.rmem_max = 16777216\nnet.core.rmem_max = 4194304\n'),
]);
const SYSCTL_DUPLICATE = '# NFS client tuning\nnet.core.rmem_max = 16777216\nnet.core.rmem_max = 4194304\n';
const SECRET = 'net.ipv4.tcp_timestamps = 2 # SECRET-TOKEN-abc123';

const outside: string[] = [];
afterAll(() => {
  for (const dir of outside.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function outsideFolder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'anf-lint-outside-'));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  outside.push(dir);
  return dir;
}

describe('18.1: --fix keeps every byte it does not edit', () => {
  it('refuses to fix a file that is not valid UTF-8, says why, and leaves its bytes', () => {
    const dir = tempProject(
      { '.anf-lint.yaml': GOOD_CONFIG, 'etc/sysctl.d/90-nfs.conf': SYSCTL_DUPLICATE },
      { git: true },
    );
    writeFileSync(join(dir, 'etc/sysctl.conf'), SYSCTL_LATIN1);
    for (const flag of ['--fix', '--fix-dry-run']) {
      const result = run([flag, 'etc/sysctl.conf'], { cwd: dir });
      expect(result.stderr).toContain(
        'anf-lint: note: etc/sysctl.conf: not fixed: the file is not valid UTF-8, and a fix would rewrite bytes it does not mean to edit (1 fix not applied)',
      );
      expect(result.stderr).not.toContain('fixed 1 file');
      expect(readFileSync(join(dir, 'etc/sysctl.conf')).equals(SYSCTL_LATIN1)).toBe(true);
    }
    // A valid file next to it is fixed as before.
    const fixed = run(['--fix', 'etc/sysctl.d/90-nfs.conf'], { cwd: dir });
    expect(fixed.stderr).toContain('fixed 1 file: etc/sysctl.d/90-nfs.conf');
    expect(readFileSync(join(dir, 'etc/sysctl.d/90-nfs.conf'), 'utf8')).not.toBe(SYSCTL_DUPLICATE);
  });
});

describe('18.2: an atomic write', () => {
  it('keeps the mode of the file it replaces', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/sysctl.conf': SYSCTL_DUPLICATE });
    chmodSync(join(dir, 'etc/sysctl.conf'), 0o640);
    expect(run(['--fix', 'etc/sysctl.conf'], { cwd: dir }).stderr).toContain('fixed 1 file');
    expect(statSync(join(dir, 'etc/sysctl.conf')).mode & 0o777).toBe(0o640);
  });

  it('a write that fails leaves the original intact, says so, exits 2 and claims no fix', async () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/sysctl.conf': SYSCTL_DUPLICATE });
    class FullDisk extends NodeEnvironment {
      override writeFile(): void {
        throw new EnvironmentError('ENOSPC', 'no space left');
      }
    }
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (c) => (out += String(c)));
    stderr.on('data', (c) => (err += String(c)));
    const code = await runCli(['--fix', 'etc/sysctl.conf'], {
      stdout,
      stderr,
      cwd: dir,
      env: baseEnv(),
      environment: new FullDisk(),
    });
    expect(code).toBe(2);
    expect(err).toContain(
      'anf-lint: etc/sysctl.conf: cannot write the fixed file (no space left on the device); the file is unchanged',
    );
    expect(err).not.toContain('fixed 1 file');
    // The report shows what the file still holds: the duplicate is still there.
    expect(out).toContain('ANF306');
    expect(readFileSync(join(dir, 'etc/sysctl.conf'), 'utf8')).toBe(SYSCTL_DUPLICATE);
  });
});

describe('18.3: never leave the repository', () => {
  it('a tracked link to a file outside is not read, not reported, not written; noted once', () => {
    const secret = outsideFolder({ shadow: `${SECRET}\n` });
    const dir = tempProject(
      { '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': '10.0.0.4:/vol1 /data nfs rw,vers=3,hard,_netdev 0 0\n' },
      { git: true },
    );
    symlinkSync(join(secret, 'shadow'), join(dir, 'etc/sysctl.conf'));
    mkdirSync(join(dir, 'etc/sysctl.d'));
    symlinkSync(join(dir, '.git', 'config'), join(dir, 'etc/sysctl.d/99-git.conf'));
    git(dir, 'add', '-A');
    for (const format of ['text', 'json', 'sarif', 'github']) {
      const result = run(['--format', format, '.'], { cwd: dir });
      expect(result.stdout).not.toContain('SECRET');
      expect(result.stdout).not.toContain('tcp_timestamps = 2');
      expect(result.stdout).not.toContain('[core]');
      expect(
        result.stderr.match(/note: etc\/sysctl\.conf: not read: a symbolic link that leads outside/g),
      ).toHaveLength(1);
      expect(
        result.stderr.match(
          /note: etc\/sysctl\.d\/99-git\.conf: not read: a symbolic link into the version control folder/g,
        ),
      ).toHaveLength(1);
    }
    // Named explicitly, and with --fix: still not read, and the target is never written.
    const fixed = run(['--fix', '--unsafe-fixes', 'etc/sysctl.conf', '.'], { cwd: dir });
    expect(fixed.stdout).not.toContain('SECRET');
    expect(readFileSync(join(secret, 'shadow'), 'utf8')).toBe(`${SECRET}\n`);
  });
});

describe('18.4: special files never hang a run', () => {
  function mkfifo(path: string): void {
    execFileSync('mkfifo', [path]);
  }

  it('a FIFO named .anf-lint.yaml (in the folder or above it) or etc/fstab is skipped, not opened', () => {
    const parent = mkdtempSync(join(tmpdir(), 'anf-lint-fifo-'));
    outside.push(parent);
    mkfifo(join(parent, '.anf-lint.yaml'));
    const dir = join(parent, 'infra');
    mkdirSync(join(dir, 'etc'), { recursive: true });
    writeFileSync(join(dir, 'etc/sysctl.conf'), SYSCTL_DUPLICATE);
    mkfifo(join(dir, 'etc/fstab'));
    mkfifo(join(dir, '.anf-lint.yaml'));
    for (const args of [['.'], ['etc/fstab', 'etc/sysctl.conf'], ['--fix-dry-run', '.']]) {
      // The timeout is the test process's: a hang ends the child, and `status` is then null.
      const result = spawnSync(process.execPath, [CLI, ...args], {
        cwd: dir,
        env: baseEnv(),
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(result.status, `${args.join(' ')}: ${result.stderr}`).not.toBeNull();
      // The regular file next to them is linted (or fixed) as usual.
      expect(result.stdout + result.stderr).toMatch(
        args[0] === '--fix-dry-run' ? /\+\+\+ b\/etc\/sysctl\.conf/ : /ANF306/,
      );
    }
    const named = spawnSync(process.execPath, [CLI, 'etc/fstab'], {
      cwd: dir,
      env: baseEnv(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(named.stderr).toContain(
      'anf-lint: note: etc/fstab: not read: not a regular file (a FIFO, socket, device or broken link)',
    );
  });

  it('a tracked link to /dev/zero is not read', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG }, { git: true });
    mkdirSync(join(dir, 'etc'));
    symlinkSync('/dev/zero', join(dir, 'etc/fstab'));
    git(dir, 'add', '-A');
    const result = spawnSync(process.execPath, [CLI, '.'], {
      cwd: dir,
      env: baseEnv(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).not.toBeNull();
    expect(result.stderr).toContain('note: etc/fstab: not read');
  });
});

describe('--unsafe-fixes', () => {
  const SOFT =
    '# anf-lint disable-next-line ANF999 -- stale\n10.0.0.4:/vol1 /data nfs rw,vers=3,soft,tcp,timeo=600,rsize=262144,wsize=262144,noatime,_netdev 0 0\n';

  it('--fix applies safe fixes only; --unsafe-fixes adds the unsafe ones; the dry run marks each', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'etc/fstab': SOFT });
    const dry = run(['--fix-dry-run', '--unsafe-fixes'], { cwd: dir });
    expect(dry.stderr).toContain('anf-lint: etc/fstab:1: ANF001 Remove the unused suppression comment [safe]');
    expect(dry.stderr).toMatch(/anf-lint: etc\/fstab:2: ANF207 Change to `hard` \[unsafe\]/);
    expect(dry.stderr).toContain('1 file would change with --fix --unsafe-fixes.');
    expect(readFileSync(join(dir, 'etc/fstab'), 'utf8')).toBe(SOFT);

    run(['--fix'], { cwd: dir });
    expect(readFileSync(join(dir, 'etc/fstab'), 'utf8')).toBe(SOFT.split('\n').slice(1).join('\n'));
    run(['--fix', '--unsafe-fixes'], { cwd: dir });
    expect(readFileSync(join(dir, 'etc/fstab'), 'utf8')).toBe(
      SOFT.split('\n').slice(1).join('\n').replace('soft', 'hard'),
    );
    expect(run(['--unsafe-fixes'], { cwd: dir }).stderr).toContain('--unsafe-fixes goes with --fix or --fix-dry-run');
  });
});

describe('18.1 for standard input', () => {
  it('--stdin --fix-dry-run shows no fix for input that is not valid UTF-8, and says why', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG });
    const result = spawnSync(
      process.execPath,
      [CLI, '--stdin', '--stdin-filename', 'etc/sysctl.conf', '--fix-dry-run'],
      { cwd: dir, env: baseEnv(), input: SYSCTL_LATIN1, encoding: 'utf8', timeout: 20_000 },
    );
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('etc/sysctl.conf: not fixed: the file is not valid UTF-8');
  });
});
