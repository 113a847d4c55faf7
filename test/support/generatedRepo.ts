/**
 * A generated repository with several hosts, for tests that compare what anf-lint finds from
 * different places (CLI inside the repository, from another folder, from inside another
 * repository, the language server's workspace diagnostics) and, later, cross-host assertions:
 * hostA and hostB mount the same ANF address with different nconnect values (two VMs never share
 * TCP connections), a manifest names the volumes, each host has its own sysctl.d and a mount
 * script without an extension.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const MULTI_HOST_FILES: Readonly<Record<string, string>> = {
  '.anf-lint.yaml': '# shared settings for the estate\nregion: eastus\n',
  'estate.anf.yaml': [
    '# EDA estate: one account, one Premium pool',
    'region: eastus',
    'accounts:',
    '  - name: eda-prod',
    '    pools:',
    '      - name: eda-premium',
    '        serviceLevel: Premium',
    '        size: 8 TiB',
    '        volumes:',
    '          - name: eda-tools',
    '            quota: 4 TiB',
    '            protocols: [NFSv3]',
    '            workload: eda-tools',
    '            exportPath: /eda-tools',
    '            mountTarget: 10.20.1.4',
    '            mountPath: /tools',
    '          - name: eda-scratch',
    '            quota: 4 TiB',
    '            protocols: [NFSv3]',
    '            workload: eda-scratch',
    '            exportPath: /eda-scratch',
    '            mountTarget: 10.20.1.4',
    '            mountPath: /scratch',
    '',
  ].join('\n'),
  'hostA/etc/fstab': [
    '# build node A',
    '10.20.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev  0  0',
    '10.20.1.4:/eda-scratch  /scratch  nfs  rw,soft,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev  0  0',
    '',
  ].join('\n'),
  'hostB/etc/fstab': [
    '# build node B: another VM, its own connections',
    '10.20.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,rsize=65536,wsize=65536,nconnect=4,_netdev  0  0',
    '',
  ].join('\n'),
  'hostA/etc/sysctl.d/90-nfs.conf': [
    '# NFS client tuning, node A',
    'net.core.rmem_max = 16777216',
    'net.core.wmem_max = 16777216',
    'net.ipv4.tcp_timestamps = 0',
    'sunrpc.tcp_slot_table_entries = 128',
    '',
  ].join('\n'),
  'hostB/etc/sysctl.d/90-nfs.conf': [
    '# NFS client tuning, node B',
    'net.ipv4.tcp_timestamps = 1',
    'net.core.rmem_max = 16777216',
    'net.core.rmem_max = 4194304',
    '',
  ].join('\n'),
  'hostB/bin/mount-results': [
    '#!/bin/sh',
    '# mounts the results volume on node B',
    'mount -t nfs -o rw,vers=3,soft 10.20.1.5:/eda-results /results',
    '',
  ].join('\n'),
  'docs/notes.txt': 'not a file anf-lint reads\n',
};

function git(cwd: string, ...args: string[]): void {
  execFileSync('git', args, {
    cwd,
    stdio: 'ignore',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, GIT_CONFIG_NOSYSTEM: '1' },
  });
}

/** Writes files into a new temporary folder; `git` makes it a repository with everything committed. */
export function writeRepository(
  files: Readonly<Record<string, string>>,
  options: { git?: boolean; prefix?: string } = {},
): string {
  const dir = mkdtempSync(join(tmpdir(), options.prefix ?? 'anf-lint-repo-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    if (text.startsWith('#!')) chmodSync(join(dir, path), 0o755);
  }
  if (options.git ?? true) commitAll(dir);
  return dir;
}

export function commitAll(dir: string): void {
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'test@example.com');
  git(dir, 'config', 'user.name', 'Test');
  git(dir, 'config', 'commit.gpgsign', 'false');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'estate');
}

/** The generated multi-host repository, committed. */
export function multiHostRepository(): string {
  return writeRepository(MULTI_HOST_FILES, { prefix: 'anf-lint-hosts-' });
}

/** A copy of a folder of this repository (e.g. examples/) as a repository of its own. */
export function repositoryFrom(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'anf-lint-copy-'));
  cpSync(source, dir, { recursive: true });
  commitAll(dir);
  return dir;
}
