import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * Mounts carried by other commands and tools (issue 28 §2): remote and sub-shell scripts, cloud-init
 * scripts, configuration management, Kubernetes. Each folder under test/fixtures/formats/carriers/
 * is linted as one workspace; every finding is listed as `path:line code`, so a lost finding or a
 * new false alarm fails.
 */
const ROOT = join(__dirname, '../fixtures/formats');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function lintFolder(folder: string): string[] {
  const ws = new Workspace();
  const base = join(ROOT, folder);
  const files = filesUnder(base).sort();
  for (const path of files) ws.set(`file://${path}`, readFileSync(path, 'utf8'));
  const findings: string[] = [];
  for (const path of files) {
    for (const d of visibleDiagnostics(lintFile(ws, `file://${path}`, resolveConfig({})))) findings.push(`${relative(base, path)}:${d.range.start.line + 1} ${d.code}`);
  }
  return findings;
}

/** The mounts of one text, each as `server:export mountPoint options` with the options cut from the document by their spans. */
function mountsOf(uri: string, text: string): string[] {
  return parseFile(uri, text).mounts
    .filter((m) => m.origin !== 'option-string')
    .map((m) => `${m.server ?? '?'}:${m.exportPath ?? '?'} ${m.mountPoint ?? '?'} ${m.options.map((o) => text.slice(o.span.start, o.span.end)).join(',')}`);
}

describe('mounts in commands that carry a script', () => {
  it('reads ssh, sh -c, su -c and bash -c scripts, with offsets through escaped quotes', () => {
    const text = [
      `ssh -o StrictHostKeyChecking=no "$node" "sudo mount -t nfs -o rw,hard,vers=3 10.0.0.4:/a /a"`,
      `ssh -i key node1 'sudo mount -t nfs -o rw,soft 10.0.0.4:/b /b'`,
      `ssh node1 sudo mount -t nfs -o rw,hard 10.0.0.4:/c /c`,
      `sudo sh -c 'mount -t nfs -o vers=3 10.0.0.4:/d /d'`,
      `su - root -c "mount -t nfs -o \\"rw,nconnect=8\\" 10.0.0.4:/e /e"`,
      `runuser -l root --command='mount -t nfs -o hard 10.0.0.4:/f /f'`,
      `bash -ec "mount -t nfs 10.0.0.4:/g /g \\`,
      `  -o rw,vers=3 -o hard"`,
      `ssh node1 uptime`,
      '',
    ].join('\n');
    expect(mountsOf('file:///scripts/remote.sh', text)).toEqual([
      '10.0.0.4:/a /a rw,hard,vers=3',
      '10.0.0.4:/b /b rw,soft',
      '10.0.0.4:/c /c rw,hard',
      '10.0.0.4:/d /d vers=3',
      '10.0.0.4:/e /e rw,nconnect=8',
      '10.0.0.4:/f /f hard',
      '10.0.0.4:/g /g rw,vers=3,hard',
    ]);
  });

  it('reads untagged Markdown blocks from their `$ ` prompt lines only', () => {
    const text = '```\n$ ssh n1 "sudo mount -t nfs -o rw,soft 10.0.0.4:/x /x"\n10.0.0.4:/x  4T  1T  3T  25% /x\n```\n';
    expect(mountsOf('file:///docs/x.md', text)).toEqual(['10.0.0.4:/x /x rw,soft']);
  });

  it('reads cloud-init scripts: write_files shell bodies (here-documents included), bootcmd and argument lists', () => {
    const path = join(ROOT, 'carriers/cloud-init/user-data.yaml');
    expect(mountsOf(`file://${path}`, readFileSync(path, 'utf8'))).toEqual([
      '10.30.2.4:/scratch /mnt/anf-scratch rw,hard,vers=3,sync', // a script in write_files (path ends .sh)
      '10.30.2.4:/tools /mnt/anf-tools rw,hard,vers=3,rsize=1048576,wsize=1048576,timeo=5,_netdev', // its here-document into /etc/fstab
      '10.30.2.4:/scratch /mnt/anf-scratch rw,soft,vers=3', // a file starting #!/bin/sh
      '10.30.2.4:/home /mnt/anf-home rw,hard,vers=3,lookupcache=nonee', // bootcmd [sh, -c, ...]
      '10.30.2.4:/apps /mnt/anf-apps rw,hard,vers=3,actimeo=abc', // runcmd [su, -, root, -c, ...]
    ]);
  });

  it('finds the problems of those mounts', () => {
    expect([...lintFolder('carriers/shell'), ...lintFolder('carriers/cloud-init').map((f) => `ci/${f}`)]).toEqual([
      'README.md:7 ANF210', // noac, in a command continued with `\`
      'README.md:14 ANF211', // vers=4.0 in ssh "...", in an untagged block with a `$ ` prompt
      'mount-cluster.sh:8 ANF211', // nfsvers=4.2 in ssh "..."
      'mount-cluster.sh:9 ANF207', // soft in ssh '...'
      'mount-cluster.sh:10 ANF203', // sec=syss in ssh host sudo mount ... (several words)
      'mount-cluster.sh:14 ANF202', // nconect in sudo sh -c '...'
      'mount-cluster.sh:14 ANF202', // and in the fstab line it echoes
      'mount-cluster.sh:15 ANF206', // rsize=65536 in su -c "... \"...\" ..."
      'mount-cluster.sh:15 ANF206', // wsize=65536
      'mount-cluster.sh:17 ANF212', // udp in a second -o after the mount point, on a continued line
      'mount-cluster.sh:18 ANF208', // intr in -o after the mount point
      'ci/user-data.yaml:13 ANF209', // sync in a write_files script
      'ci/user-data.yaml:15 ANF206', // rsize=1048576 in its here-document
      'ci/user-data.yaml:15 ANF206', // wsize=1048576
      'ci/user-data.yaml:15 ANF213', // timeo=5
      'ci/user-data.yaml:22 ANF207', // soft in a #!/bin/sh write_files body
      'ci/user-data.yaml:25 ANF203', // lookupcache=nonee in bootcmd
      'ci/user-data.yaml:28 ANF203', // actimeo=abc in runcmd [su, -c, ...]
    ]);
  });

  it('keeps remote Azure Files and Blob NFS mounts clean, though it reads them', () => {
    for (const name of ['remote-azure-storage.sh', 'cloud-init-azure-files.yaml']) {
      const path = join(ROOT, 'negatives', name);
      expect(parseFile(`file://${path}`, readFileSync(path, 'utf8')).mounts.filter((m) => m.origin === 'mount-command').length).toBeGreaterThanOrEqual(2);
    }
  });
});
