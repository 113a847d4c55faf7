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
    for (const d of visibleDiagnostics(lintFile(ws, `file://${path}`, resolveConfig({}))))
      findings.push(`${relative(base, path)}:${d.range.start.line + 1} ${d.code}`);
  }
  return findings;
}

/** The mounts of one text, each as `server:export mountPoint options` with the options cut from the document by their spans. */
function mountsOf(uri: string, text: string): string[] {
  return parseFile(uri, text)
    .mounts.filter((m) => m.origin !== 'option-string')
    .map(
      (m) =>
        `${m.server ?? '?'}:${m.exportPath ?? '?'} ${m.mountPoint ?? '?'} ${m.options.map((o) => text.slice(o.span.start, o.span.end)).join(',')}`,
    );
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
    for (const name of [
      'remote-azure-storage.sh',
      'cloud-init-azure-files.yaml',
      'azure-files.sls',
      'azure-files.pp',
    ]) {
      const path = join(ROOT, 'negatives', name);
      expect(
        parseFile(`file://${path}`, readFileSync(path, 'utf8')).mounts.filter((m) => m.origin !== 'option-string')
          .length,
        name,
      ).toBeGreaterThanOrEqual(2);
    }
  });
});

describe('configuration management and cluster resources', () => {
  it('reads Pacemaker Filesystem resources (pcs, crm) in scripts, Markdown and Ansible command tasks', () => {
    const path = join(ROOT, 'carriers/cluster/hana-cluster.sh');
    expect(mountsOf(`file://${path}`, readFileSync(path, 'utf8'))).toEqual([
      '10.32.2.4:/hn1-data-mnt00001 /hana/data/HN1/mnt00001 rw,nfsvers=4.1,hard,timeo=600,rsize=262144,wsize=262144,noatime,lock,_netdev,sec=sys',
      '10.32.2.4:/hn1-log-mnt00001 /hana/log/HN1/mnt00001 rw,nfsvers=4.2,hard,timeo=600,sec=sys',
      '10.32.2.4:/hn1-shared-s1 /hana/shared rw,soft,nfsvers=4.1,sec=sys',
      '10.32.2.4:/sapmnt-nw1/usrsapNW1ascs /usr/sap/NW1/ASCS00 sec=sys,vers=4.1,nconect=4',
    ]);
    expect(lintFolder('carriers/cluster')).toEqual([
      'README.md:5 ANF209', // sync in crm configure primitive … params …, continued with `\`
      'hana-cluster.sh:8 ANF211', // nfsvers=4.2 in pcs resource create … Filesystem (no ocf: prefix)
      'hana-cluster.sh:9 ANF207', // soft in pcs -f … options="…"
      'hana-cluster.sh:11 ANF202', // nconect in crm configure primitive
    ]);
  });

  it('reads Salt mount states: ID or name, opts as a string or a list, Jinja skipped', () => {
    const path = join(ROOT, 'carriers/salt/srv/salt/hana/nfs.sls');
    const text = readFileSync(path, 'utf8');
    expect(parseFile(`file://${path}`, text).kind).toBe('salt');
    expect(mountsOf(`file://${path}`, text)).toEqual([
      '10.20.1.4:/hn1-shared /hana/shared rw,hard,vers=4.2,rsize=262144,wsize=262144,sec=sys',
      '?:/hn1-backup /hana/backup rw,soft,vers=4.1', // the server is a Jinja value: unknown
      '10.20.1.4:/trans /usr/sap/trans rw,hard,sec=syss', // `mount: [mounted, …]`
      '10.20.1.4:? /sapmnt/{{ sid }} rw,hard,vers=4.1,sec=sys,nconect=4', // inside a Jinja loop
    ]);
    expect(lintFolder('carriers/salt')).toEqual([
      'srv/salt/hana/nfs.sls:7 ANF221', // persisted (persist: True): fstab's _netdev
      'srv/salt/hana/nfs.sls:8 ANF211', // vers=4.2
      'srv/salt/hana/nfs.sls:15 ANF221',
      'srv/salt/hana/nfs.sls:18 ANF207', // soft, in an opts list
      'srv/salt/hana/nfs.sls:26 ANF211', // nfs4 without a minor version
      'srv/salt/hana/nfs.sls:26 ANF221',
      'srv/salt/hana/nfs.sls:27 ANF203', // sec=syss
      'srv/salt/hana/nfs.sls:32 ANF221',
      'srv/salt/hana/nfs.sls:33 ANF202', // nconect
    ]);
  });

  it('reads Puppet mount resources: title or name, virtual resources, several bodies, ensure => absent skipped', () => {
    const path = join(ROOT, 'carriers/puppet/modules/sap_nfs/manifests/init.pp');
    const text = readFileSync(path, 'utf8');
    expect(parseFile(`file://${path}`, text).kind).toBe('puppet');
    expect(mountsOf(`file://${path}`, text)).toEqual([
      '10.20.1.4:/hn1-shared /hana/shared rw,hard,vers=4.1,rsize=262144,wsize=262144,sec=sys,soft',
      '?:? /sapmnt/HN1 rw,hard,nfsvers=4.2,sec=sys', // "${anf_ip}:/sapmnt-hn1": interpolated, unknown
      '10.20.1.4:/trans /usr/sap/trans rw,hard,vers=3,lookupcache=nonee',
    ]);
    expect(lintFolder('carriers/puppet')).toEqual([
      'modules/sap_nfs/manifests/init.pp:12 ANF221', // ensure => mounted writes fstab: _netdev
      'modules/sap_nfs/manifests/init.pp:13 ANF204', // hard, then soft
      'modules/sap_nfs/manifests/init.pp:13 ANF207', // soft
      'modules/sap_nfs/manifests/init.pp:22 ANF221',
      'modules/sap_nfs/manifests/init.pp:23 ANF211', // nfsvers=4.2
      'modules/sap_nfs/manifests/init.pp:29 ANF221',
      'modules/sap_nfs/manifests/init.pp:30 ANF203', // lookupcache=nonee
    ]);
  });
});

describe('Kubernetes NFS volumes', () => {
  /** The rule codes of one option list written as an fstab line and as a PersistentVolume's mountOptions (fstab's own fields aside). */
  function codesBoth(options: string): { fstab: string[]; pv: string[] } {
    const codes = (uri: string, text: string) => {
      const ws = new Workspace();
      ws.set(uri, text);
      return visibleDiagnostics(lintFile(ws, uri, resolveConfig({})))
        .map((d) => String(d.code))
        .filter((c) => !FSTAB_FIELDS_ONLY.has(c))
        .sort();
    };
    const items = options
      .split(',')
      .map((o) => `    - ${o}`)
      .join('\n');
    return {
      fstab: codes('file:///repo/etc/fstab', `10.0.0.4:/vol1 /mnt/vol1 nfs ${options} 0 0\n`),
      pv: codes(
        'file:///repo/k8s/pv.yaml',
        `apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: vol1\nspec:\n  mountOptions:\n${items}\n  nfs:\n    server: 10.0.0.4\n    path: /vol1\n`,
      ),
    };
  }
  /** ANF221 (`_netdev`) and ANF222 (fsck pass) judge fstab's own fields, which a PV does not have. */
  const FSTAB_FIELDS_ONLY = new Set(['ANF221', 'ANF222']);

  it("gives a PV's mountOptions every check the same options get in fstab", () => {
    for (const options of [
      'nfsvers=4.2',
      'rw,soft,nfsvers=4.2',
      'rw,hard',
      'rw,hard,vers=4.0',
      'rw,hard,vers=3,sec=krb5p',
      'rw,hard,vers=3,rsize=65536,wsize=65536,nconnect=16,udp',
      'rw,hard,vers=4.1,nconect=4,timeo=5,sync,intr',
      'vers=4,minorversion=1,hard,lookupcache=nonee',
    ]) {
      const { fstab, pv } = codesBoth(options);
      expect(pv, options).toEqual(fstab);
      expect(fstab.length, options).toBeGreaterThan(0);
    }
  });

  it('reads PV nfs sources, StorageClass lists and inline Pod volumes, with the mount point from volumeMounts', () => {
    const uri = (name: string) => `file://${join(ROOT, 'carriers/kubernetes', name)}`;
    const read = (name: string) =>
      parseFile(uri(name), readFileSync(join(ROOT, 'carriers/kubernetes', name), 'utf8')).mounts.filter(
        (m) => m.origin === 'kubernetes',
      );
    expect(
      read('hana-pv.yaml').map((m) => [
        m.source,
        m.mountPoint,
        m.options.map((o) => o.name).join(','),
        m.optionsOnly ?? false,
        m.serverKind?.kind,
      ]),
    ).toEqual([
      ['10.20.1.4:/hn1-log', undefined, 'rw,hard,nfsvers,rsize,wsize', false, undefined],
      // Trident may add its backend's nfsMountOptions: only what is written is judged.
      [undefined, undefined, 'nfsvers,hard', true, 'anf'],
    ]);
    const inline = read('tools-deployment.yaml');
    expect(inline.map((m) => [m.source, m.mountPoint, m.options.length])).toEqual([
      ['10.10.1.4:/eda-tools', '/tools', 0],
      ['10.20.1.4:/hn1-data-mnt00001', '/hana/data/HN1', 0],
    ]);
    expect(inline[0]!.optionsNote).toMatch(/kernel's defaults/);
    expect(lintFolder('carriers/kubernetes')).toEqual([
      'hana-pv.yaml:14 ANF211', // nfsvers=4.2 in a PV (silent before)
      'hana-pv.yaml:28 ANF211', // nfsvers=4.0 in a Trident StorageClass
      'tools-deployment.yaml:27 ANF211', // an inline NFS volume: no options, the version is negotiated
      'tools-deployment.yaml:32 ANF211', // the same, on /hana/data (SAP HANA data by its mount path)
    ]);
  });

  it('keeps Azure Files and Blob NFS volumes clean, though it reads them', () => {
    const path = join(ROOT, 'negatives/k8s-azure-files.yaml');
    const mounts = parseFile(`file://${path}`, readFileSync(path, 'utf8')).mounts;
    expect(mounts.map((m) => m.serverKind?.kind ?? m.server)).toEqual([
      'azure-files',
      'azure-blob',
      'stacctdata01.file.core.windows.net',
    ]);
  });
});
