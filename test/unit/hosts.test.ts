import { describe, expect, it } from 'vitest';
import {
  buildHostModel,
  hostRootOf,
  lintFile,
  OWN_SCOPE_KINDS,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type AnfLintConfig,
} from '../../server/src/core';
import { cpuMillisSince, startCpu } from '../support/cpuTime';

/** A workspace of files under /repo, as the CLI or the editor would hold it. */
function workspaceOf(files: Record<string, string>, config: AnfLintConfig = {}): Workspace {
  const workspace = new Workspace(resolveConfig(config));
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return workspace;
}

const uri = (path: string) => `file:///repo/${path}`;
const FSTAB = '10.20.4.4:/eda-tools /tools nfs ro,hard,vers=3,nconnect=8,_netdev 0 0\n';

describe('host roots', () => {
  it('is the folder above etc/, or above usr/lib, lib, run holding sysctl.d or modprobe.d', () => {
    expect(hostRootOf(uri('hana-node1/etc/fstab'))).toBe('/repo/hana-node1/');
    expect(hostRootOf(uri('hosts/eda/usr/lib/sysctl.d/50-nfs.conf'))).toBe('/repo/hosts/eda/');
    expect(hostRootOf(uri('hosts/eda/run/modprobe.d/sunrpc.conf'))).toBe('/repo/hosts/eda/');
    expect(hostRootOf(uri('tuning/sysctl.d/90-nfs.conf'))).toBe('/repo/tuning/');
    expect(hostRootOf(uri('scripts/mount-tools.sh'))).toBeUndefined();
  });
});

describe('the host model', () => {
  it('groups the files under one host folder, and scripts below it, into one host', () => {
    const workspace = workspaceOf({
      'hana-node1/etc/fstab': FSTAB,
      'hana-node1/etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=128\n',
      'hana-node1/scripts/mount-backup.sh': '#!/bin/sh\nmount -t nfs -o rw,hard,vers=3 10.20.4.5:/backup /backup\n',
      'hana-node2/etc/fstab': FSTAB,
    });
    const model = workspace.hosts();
    expect(model.machines.map((h) => h.name)).toEqual(['hana-node1', 'hana-node2']);
    expect(model.several).toBe(true);
    const node1 = workspace.hostOf(uri('hana-node1/scripts/mount-backup.sh'))!;
    expect(node1.name).toBe('hana-node1');
    expect(node1.files.map((f) => f.uri)).toEqual([
      uri('hana-node1/etc/fstab'),
      uri('hana-node1/etc/modprobe.d/sunrpc.conf'),
      uri('hana-node1/scripts/mount-backup.sh'),
    ]);
    expect(node1.nfsMounts).toHaveLength(2);
    expect(node1.settings.map((s) => s.key)).toEqual(['sunrpc.tcp_max_slot_table_entries']);
  });

  it('gives cloud-init, Ansible and Kubernetes files a scope of their own, wherever they sit', () => {
    expect([...OWN_SCOPE_KINDS]).toEqual([
      'cloud-init',
      'ansible',
      'ansible-vars',
      'kubernetes',
      'helm',
      'yaml-options',
      'json-options',
      'salt',
      'puppet',
      'chef',
      'terraform',
    ]);
    const workspace = workspaceOf({
      'etc/fstab': FSTAB,
      'cloud-init/render-node.yaml': `#cloud-config\nmounts:\n  - [ "10.20.4.4:/eda-tools", /tools, nfs, "ro,hard,vers=3,nconnect=16,_netdev", "0", "0" ]\n`,
      'etc/ansible/mounts.yml':
        '- hosts: eda\n  tasks:\n    - name: tools\n      ansible.posix.mount:\n        src: 10.20.4.4:/eda-tools\n        path: /tools\n        fstype: nfs\n        opts: ro,hard,vers=3,nconnect=4\n        state: mounted\n',
    });
    const cloudInit = workspace.hostOf(uri('cloud-init/render-node.yaml'))!;
    expect(cloudInit.kind).toBe('file');
    expect(cloudInit.files).toHaveLength(1);
    const play = workspace.hostOf(uri('etc/ansible/mounts.yml'))!;
    expect(play.kind).toBe('file');
    expect(workspace.hostOf(uri('etc/fstab'))!.files.map((f) => f.uri)).toEqual([uri('etc/fstab')]);
  });

  it('keeps Markdown out of every host: a document is its own scope', () => {
    const workspace = workspaceOf({
      'hana-node1/etc/fstab': FSTAB,
      'hana-node1/README.md': '# Mounts\n\n```sh\nmount -t nfs -o vers=3,nconnect=2 10.20.4.4:/eda-tools /tools\n```\n',
    });
    const doc = workspace.hostOf(uri('hana-node1/README.md'))!;
    expect(doc.kind).toBe('documentation');
    expect(workspace.hostOf(uri('hana-node1/etc/fstab'))!.files).toHaveLength(1);
    expect(workspace.hosts().machines).toHaveLength(1);
  });

  it('reads a repository without host layout as one machine', () => {
    const workspace = workspaceOf({
      'mounts/tools.fstab': FSTAB,
      'scripts/tune.sh': '#!/bin/sh\nsysctl -w sunrpc.tcp_max_slot_table_entries=128\n',
      'sizing.anf.yaml': 'accounts: []\n',
    });
    const host = workspace.hostOf(uri('scripts/tune.sh'))!;
    expect(host.kind).toBe('repository');
    expect(host.files).toHaveLength(3);
    expect(workspace.hosts().several).toBe(false);
  });

  it('with one host folder, files outside it belong to it; with several, a file outside all is its own scope', () => {
    const one = workspaceOf({ 'hana/etc/fstab': FSTAB, 'scripts/tune.sh': '#!/bin/sh\nsysctl -w vm.dirty_ratio=20\n' });
    expect(one.hostOf(uri('scripts/tune.sh'))!.name).toBe('hana');
    const two = workspaceOf({
      'hana/etc/fstab': FSTAB,
      'eda/etc/fstab': FSTAB,
      'scripts/tune.sh': '#!/bin/sh\nsysctl -w vm.dirty_ratio=20\n',
    });
    const script = two.hostOf(uri('scripts/tune.sh'))!;
    expect(script.kind).toBe('file');
    expect(script.files).toHaveLength(1);
  });

  it('names hosts by their folder below the folder they share, so two sites can both have a `hana`', () => {
    const model = buildHostModel(
      workspaceOf({ 'site-a/hana/etc/fstab': FSTAB, 'site-b/hana/etc/fstab': FSTAB }).files(),
    );
    expect(model.machines.map((h) => h.name)).toEqual(['site-a/hana', 'site-b/hana']);
  });

  it('is built once per workspace state and again after a change', () => {
    const workspace = workspaceOf({ 'a/etc/fstab': FSTAB });
    const first = workspace.hosts();
    expect(workspace.hosts()).toBe(first);
    workspace.set(uri('b/etc/fstab'), FSTAB);
    expect(workspace.hosts()).not.toBe(first);
    expect(workspace.hosts().machines).toHaveLength(2);
  });

  it('after an edit, is made from the last state: the same scopes as a model built anew, the untouched hosts kept', () => {
    const workspace = workspaceOf({
      'hana-node1/etc/fstab': FSTAB,
      'hana-node1/scripts/mount-backup.sh': '#!/bin/sh\nmount -t nfs -o rw,hard,vers=3 10.20.4.5:/backup /backup\n',
      'hana-node2/etc/fstab': FSTAB,
      'hana-node2/etc/sysctl.d/90-nfs.conf': 'sunrpc.tcp_max_slot_table_entries = 128\n',
      'docs/runbook.md': '```sh\nmount -t nfs -o vers=3 10.20.4.4:/eda-tools /tools\n```\n',
    });
    const first = workspace.hosts();
    workspace.set(
      uri('hana-node2/etc/fstab'),
      `${FSTAB}10.20.4.6:/eda-scratch /scratch nfs rw,hard,vers=3,_netdev 0 0\n`,
    );
    const edited = workspace.hosts();
    const shape = (model: typeof first) =>
      model.scopes.map((h) => ({
        id: h.id,
        kind: h.kind,
        name: h.name,
        root: h.root,
        files: h.files,
        mounts: h.mounts,
        nfsMounts: h.nfsMounts,
        settings: h.settings,
      }));
    expect(shape(edited)).toEqual(shape(buildHostModel(workspace.files())));
    expect(edited.hostOf(uri('hana-node1/etc/fstab'))).toBe(first.hostOf(uri('hana-node1/etc/fstab')));
    expect(edited.hostOf(uri('hana-node2/etc/fstab'))).not.toBe(first.hostOf(uri('hana-node2/etc/fstab')));
    expect(edited.hostOf(uri('hana-node2/etc/fstab'))!.mounts).toHaveLength(2);
    // A new file can change every scope (a first host folder, a repository root): built anew.
    workspace.set(uri('hana-node3/etc/fstab'), FSTAB);
    expect(shape(workspace.hosts())).toEqual(shape(buildHostModel(workspace.files())));
  });

  it('stays linear on many hosts with many files (no per-host scans of the workspace)', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 2500; i++) {
      files[`hosts/node${i}/etc/fstab`] = FSTAB;
      files[`hosts/node${i}/scripts/mount.sh`] = '#!/bin/sh\nmount -t nfs -o vers=3 10.20.4.4:/eda-tools /tools\n';
    }
    const workspace = workspaceOf(files);
    const started = startCpu();
    const model = workspace.hosts();
    for (const path of Object.keys(files)) workspace.hostOf(uri(path));
    expect(model.machines).toHaveLength(2500);
    expect(cpuMillisSince(started)).toBeLessThan(5000); // not a fact: a generous bound for a loaded CI machine
  });
});

describe('cross-file rules ask the host model', () => {
  const codes = (workspace: Workspace, path: string, code: string, config: AnfLintConfig = {}) =>
    visibleDiagnostics(lintFile(workspace, uri(path), resolveConfig(config))).filter((d) => d.code === code);

  it('ANF217: two hosts mounting one address with different nconnect report nothing; its fix is not safe', () => {
    const workspace = workspaceOf({
      'hostA/etc/fstab': FSTAB,
      'hostB/etc/fstab': FSTAB.replace('nconnect=8', 'nconnect=4'),
    });
    expect(codes(workspace, 'hostB/etc/fstab', 'ANF217')).toEqual([]);
    const sameHost = workspaceOf({
      'hostA/etc/fstab': FSTAB + FSTAB.replace('/tools', '/tools2').replace('nconnect=8', 'nconnect=4'),
    });
    const [finding] = codes(sameHost, 'hostA/etc/fstab', 'ANF217');
    expect(finding?.fixes[0]?.applicability).toBe('unsafe');
  });

  it('ANF317 and ANF319 name one value for one line, also when ANF318 asks for less than 128', () => {
    const manifest = [
      'accounts:',
      '  - name: eda',
      '    pools:',
      '      - name: ultra',
      '        serviceLevel: Ultra',
      '        size: 40 TiB',
      '        volumes:',
      '          - name: eda-scratch',
      '            quota: 32 TiB',
      '            protocols: [NFSv3]',
      '            mountTarget: 10.10.1.5',
      '            exportPath: /eda-scratch',
      '            requirements:',
      '              clients: 64',
      '',
    ].join('\n');
    const workspace = workspaceOf({
      'eda.anf.yaml': manifest,
      'etc/fstab': '10.10.1.5:/eda-scratch /scratch nfs rw,hard,vers=3,nconnect=2,_netdev 0 0\n',
      'etc/sysctl.d/90-nfs.conf': 'sunrpc.tcp_max_slot_table_entries = 1024\n',
    });
    const [anf317] = codes(workspace, 'etc/sysctl.d/90-nfs.conf', 'ANF317');
    const [anf319] = codes(workspace, 'etc/sysctl.d/90-nfs.conf', 'ANF319');
    const [anf318] = codes(workspace, 'etc/sysctl.d/90-nfs.conf', 'ANF318');
    // 64 clients × nconnect=2: at most 78 slots per connection keep the endpoint within 10,000.
    expect(anf318?.message).toContain('At most 78 per connection');
    expect(anf317?.message).toContain('Use 78');
    expect(anf317?.fixes[0]?.edits[0]?.newText).toBe('78');
    expect(anf319?.message).toContain('options sunrpc tcp_max_slot_table_entries=78');
  });
});
