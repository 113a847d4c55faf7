import { describe, expect, it } from 'vitest';
import { parseFile, Workspace, lintFile, resolveConfig, visibleDiagnostics, applyEdits } from '../../server/src/core';
import { NCONNECT, NFS_TRANSFER_SIZE } from '../../server/src/core/facts';
import {
  describeOption,
  effectiveOptions,
  findOption,
  KNOWN_OPTION_NAMES,
  MOUNT_OPTIONS,
} from '../../server/src/core/mounts/catalog';
import { insertOption, removeOption } from '../../server/src/core/mounts/fixes';
import { describeMountTarget } from '../../server/src/core/mounts/rules/target';

const mountOf = (line: string) => parseFile('file:///etc/fstab', `${line}\n`).mounts[0]!;

describe('option catalog', () => {
  it('knows nfs(5) options, aliases, negations and generic options', () => {
    expect(findOption('nfsvers')?.name).toBe('vers');
    expect(findOption('noac')?.negation).toBe('ac');
    expect(findOption('nocto')?.group).toBe(findOption('cto')?.group);
    expect(findOption('nconnect')).toMatchObject({
      kind: 'integer',
      min: 1,
      max: NCONNECT.max.value,
      minKernel: NCONNECT.minKernel.value,
    });
    for (const name of [
      'defaults',
      'rw',
      'ro',
      'noatime',
      '_netdev',
      'nofail',
      'bg',
      'x-systemd.automount',
      'x-systemd.mount-timeout',
      'x-anything',
      'sec',
      'lookupcache',
      'softerr',
      'nosymfollow',
      'X-mount.mkdir',
    ])
      expect(findOption(name), name).toBeDefined();
    expect(findOption('nconect')).toBeUndefined();
    expect(findOption('fsc')?.optionalValue).toBe(true);
    expect(KNOWN_OPTION_NAMES).toContain('nfsvers');
    expect(new Set(MOUNT_OPTIONS.map((o) => o.name)).size).toBe(MOUNT_OPTIONS.length);
  });

  it('describes an option for hover with its default, range and source', () => {
    const text = describeOption('rsize')!;
    expect(text).toContain(String(NFS_TRANSFER_SIZE.recommendedBytes.value));
    expect(describeOption('nconnect')).toContain(`needs kernel ${NCONNECT.minKernel.value}+`);
    expect(describeOption('intr')).toContain('ignored since kernel');
    expect(describeOption('bogus')).toBeUndefined();
  });
});

describe('effective options', () => {
  it('keeps the last of conflicting options, as the kernel does', () => {
    const eff = effectiveOptions(mountOf('s:/a /a nfs soft,vers=4.1,hard,nfsvers=3 0 0'));
    expect(eff.byGroup.get('recovery')?.name).toBe('hard');
    expect(eff.version?.text).toBe('3');
    expect(eff.overridden.map((o) => o.option.name)).toEqual(['soft', 'vers']);
  });

  it('resolves vers=4,minorversion=1 to 4.1, nfs4 without a minor to unpinned 4', () => {
    expect(effectiveOptions(mountOf('s:/a /a nfs vers=4,minorversion=1 0 0')).version).toMatchObject({
      text: '4.1',
      pinned: true,
    });
    expect(effectiveOptions(mountOf('s:/a /a nfs4 rw 0 0')).version).toMatchObject({ text: '4', pinned: false });
    expect(effectiveOptions(mountOf('s:/a /a nfs4 minorversion=1 0 0')).version).toMatchObject({
      text: '4.1',
      pinned: true,
    });
    expect(effectiveOptions(mountOf('s:/a /a nfs rw 0 0')).version).toBeUndefined();
  });
});

describe('fix edits are minimal', () => {
  const apply = (line: string, edit: ReturnType<typeof removeOption> | undefined) =>
    applyEdits(line, edit ? [edit] : []).text;
  it('removes an option with one comma, wherever it is', () => {
    for (const [line, name, expected] of [
      ['s:/a /a nfs rw,intr,hard 0 0', 'intr', 's:/a /a nfs rw,hard 0 0'],
      ['s:/a /a nfs rw,hard,intr 0 0', 'intr', 's:/a /a nfs rw,hard 0 0'],
      ['s:/a /a nfs intr,hard 0 0', 'intr', 's:/a /a nfs hard 0 0'],
      ['s:/a /a nfs intr 0 0', 'intr', 's:/a /a nfs defaults 0 0'],
    ] as const) {
      const mount = mountOf(line);
      expect(apply(line, removeOption(line, mount, mount.options.find((o) => o.name === name)!))).toBe(expected);
    }
  });

  it('inserts after the last option, or writes -o / Options= where there are none', () => {
    const line = 's:/a /a nfs rw,hard 0 0';
    expect(apply(line, insertOption(mountOf(line), 'nconnect=8'))).toBe('s:/a /a nfs rw,hard,nconnect=8 0 0');
    const cmd = 'mount 10.0.0.4:/a /a\n';
    expect(apply(cmd, insertOption(parseFile('file:///m.sh', cmd).mounts[0]!, 'vers=3'))).toBe(
      'mount -o vers=3 10.0.0.4:/a /a\n',
    );
    const unit = '[Mount]\nWhat=10.0.0.4:/a\nWhere=/a\nType=nfs\n';
    expect(apply(unit, insertOption(parseFile('file:///a.mount', unit).mounts[0]!, 'vers=3'))).toBe(
      '[Mount]\nWhat=10.0.0.4:/a\nWhere=/a\nType=nfs\nOptions=vers=3\n',
    );
    const play =
      '- hosts: all\n  tasks:\n    - name: m\n      mount:\n        src: 10.0.0.4:/a\n        path: /a\n        fstype: nfs\n';
    expect(apply(play, insertOption(parseFile('file:///site.yml', play).mounts[0]!, 'vers=3'))).toBe(
      `${play.trimEnd()}\n        opts: vers=3\n`,
    );
  });
});

describe('templated lines never raise a false alarm', () => {
  it('produces no diagnostics at all for placeholders in any host format', () => {
    const files: Record<string, string> = {
      'file:///t/etc/fstab':
        '{{ anf_ip }}:{{ export }}  {{ path }}  nfs  {{ nfs_opts }}  0  0\n${ANF_IP}:/eda-tools  /tools  nfs  ${TOOLS_OPTS}  0  0\n',
      'file:///t/scripts/m.sh':
        '#!/bin/sh\nmount -t nfs -o "$OPTS" "$SRV:$EXPORT" "$DIR"\nmount -t "$FSTYPE" -o "rw,$(cat /etc/nfs-opts)" $SRC $DST\n',
      'file:///t/site.yml':
        '- hosts: all\n  tasks:\n    - name: m\n      ansible.posix.mount:\n        src: "{{ item.src }}"\n        path: "{{ item.path }}"\n        fstype: "{{ item.fstype | default(\'nfs\') }}"\n        opts: "{{ item.opts }}"\n        state: mounted\n      loop: "{{ anf_mounts }}"\n',
    };
    const ws = new Workspace();
    for (const [uri, text] of Object.entries(files)) ws.set(uri, text);
    const config = resolveConfig({});
    for (const uri of Object.keys(files))
      expect(
        visibleDiagnostics(lintFile(ws, uri, config)).map((d) => `${d.code} ${d.message}`),
        uri,
      ).toEqual([]);
  });
});

describe('describeMountTarget', () => {
  it('returns undefined when no manifest volume matches', () => {
    const ws = new Workspace();
    ws.set('file:///etc/fstab', '10.0.0.4:/a /a nfs rw 0 0\n');
    expect(describeMountTarget(ws.file('file:///etc/fstab')!.mounts[0]!, ws)).toBeUndefined();
  });

  it('describes the volume a mount reaches', () => {
    const mount = mountOf('10.10.1.4:/eda-tools /tools nfs ro,vers=4.1 0 0');
    const view = {
      volumeForMount: () => ({
        uri: 'file:///m.anf.yaml',
        account: 'a',
        pool: 'p',
        name: 'tools',
        nameSpan: { start: 0, end: 0 },
        serviceLevel: 'Premium' as const,
        qos: 'auto' as const,
        quotaGiB: 2048,
        largeVolume: false,
        coolAccess: false,
        throughputMiBps: 128,
        nfsVersions: ['3' as const],
        kerberos: false,
        mountTargets: ['10.10.1.4'],
        exportPath: '/eda-tools',
      }),
      workloadOf: () => ({ workload: 'eda-tools' as const, source: 'manifest' as const }),
    };
    const target = describeMountTarget(mount, view as never)!;
    expect(target.summary).toBe('this mount reaches volume `tools`: Premium, 2 TiB, 128 MiB/s');
    expect(target.markdown).toContain('this mount asks for NFSv4.1');
  });
});
