import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../cli/helpers';

/**
 * `anf-lint host` against a real NFS mount over loopback: a kernel NFS server exporting a
 * temporary folder to 127.0.0.1, mounted with nconnect, then the built CLI reading the live
 * /proc/self/mountstats. It needs root, the kernel's NFS client and server (`nfs` in
 * /proc/filesystems, /proc/fs/nfsd) and nfs-utils (`exportfs`, `mount.nfs`); where any is
 * missing (containers, CI runners without the modules) it is skipped and says why.
 */
function whyNot(): string | undefined {
  if (process.platform !== 'linux') return 'not Linux';
  if (process.getuid?.() !== 0) return 'not root: mounting and exporting need it';
  const filesystems = existsSync('/proc/filesystems') ? readFileSync('/proc/filesystems', 'utf8') : '';
  if (!/\tnfs4?\n/.test(filesystems))
    return 'the kernel has no NFS client (no `nfs` in /proc/filesystems, and modules cannot be loaded here)';
  if (!existsSync('/proc/fs/nfsd/threads')) return 'no kernel NFS server (/proc/fs/nfsd is not mounted)';
  for (const tool of ['exportfs', 'mount.nfs', 'rpc.nfsd'])
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) return `nfs-utils is not installed (no ${tool})`;
  return undefined;
}

const reason = whyNot();

describe('anf-lint host on a loopback NFS mount', () => {
  it.skipIf(reason !== undefined)(`reads the live mount${reason ? ` (skipped: ${reason})` : ''}`, () => {
    const base = mkdtempSync(join(tmpdir(), 'anf-lint-loop-'));
    const exported = join(base, 'export');
    const mountPoint = join(base, 'mnt');
    const repo = join(base, 'repo');
    mkdirSync(exported);
    mkdirSync(mountPoint);
    mkdirSync(join(repo, 'loop', 'etc'), { recursive: true });
    writeFileSync(
      join(repo, 'loop', 'etc', 'fstab'),
      `127.0.0.1:${exported} ${mountPoint} nfs rw,hard,vers=3,proto=tcp,rsize=262144,wsize=262144,nconnect=4 0 0\n`,
    );
    try {
      execFileSync('rpc.nfsd', ['8']);
      execFileSync('exportfs', ['-o', 'rw,no_root_squash,insecure', `127.0.0.1:${exported}`]);
      execFileSync('mount', ['-t', 'nfs', '-o', 'vers=3,proto=tcp,nconnect=4', `127.0.0.1:${exported}`, mountPoint]);
      writeFileSync(join(mountPoint, 'data'), Buffer.alloc(1 << 20)); // not a fact: 1 MiB of test data
      const result = run(['host', repo, '--host', 'loop'], { cwd: repo });
      expect(result.stdout).toContain('Host `loop`');
      expect(result.stdout).toMatch(new RegExp(`${mountPoint.replace(/[/.]/g, '\\$&')}\\s+3\\s+4\\s`));
      expect(result.stdout).not.toContain('ANF506');
    } finally {
      spawnSync('umount', [mountPoint]);
      spawnSync('exportfs', ['-u', `127.0.0.1:${exported}`]);
      rmSync(base, { recursive: true, force: true });
    }
  });
});
