import { describe, expect, it } from 'vitest';
import { parseFile, resolveConfig, Workspace, type ParsedFile } from '../../server/src/core';
import {
  effectiveOptions,
  integerOf,
  transportKey,
  transportOf,
  type OptionListQuestion,
} from '../../server/src/core/mounts/catalog';
import type { MountEntry } from '../../server/src/core/mounts/model';
import { nfsMounts, targetOfMount, volumeOfMount, workloadOfMount } from '../../server/src/core/mounts/rules/common';
import type { RuleContext } from '../../server/src/core/rules/rule';

/**
 * What the mount rules share (mounts/catalog.ts, mounts/rules/common.ts): a 10,000-line fstab
 * repeats a few option lists and servers, so their effective options and targets are worked out
 * once per list and per server name. Sharing must never mix up two mounts' options (their spans
 * differ) nor outlive the workspace state an answer was worked out in.
 */

const LIST = 'rw,hard,vers=4.1,rsize=262144,wsize=131072,nconnect=8,_netdev';

describe('effective options per option list', () => {
  it('mounts with the same list share the work, each pointing at its own options', () => {
    const file = parseFile('file:///etc/fstab', `10.1.0.4:/a /a nfs ${LIST} 0 0\n10.1.0.4:/bb /bb nfs ${LIST} 0 0\n`);
    const [a, b] = file.mounts as [MountEntry, MountEntry];
    const ea = effectiveOptions(a);
    const eb = effectiveOptions(b);
    expect(ea.byGroup.get('rsize')).toBe(a.options[3]);
    expect(eb.byGroup.get('rsize')).toBe(b.options[3]);
    expect(eb.byGroup.get('rsize')!.span.start).toBeGreaterThan(ea.byGroup.get('rsize')!.span.start);
    expect(ea.version).toMatchObject({ text: '4.1', pinned: true, option: a.options[2] });
    expect(eb.version).toMatchObject({ text: '4.1', pinned: true, option: b.options[2] });
    expect(integerOf(eb, 'wsize')).toBe(131072);
    expect(ea.specs).toBe(eb.specs);
    // A question about the list alone is answered once for both mounts.
    let asked = 0;
    const count: OptionListQuestion<number> = (options) => {
      asked++;
      return options.length;
    };
    expect(ea.perList(count)).toBe(7);
    expect(eb.perList(count)).toBe(7);
    expect(asked).toBe(1);
  });

  it('the file system type is part of the list: nfs4 with the same options resolves another version', () => {
    const file = parseFile('file:///etc/fstab', '10.1.0.4:/a /a nfs rw,hard 0 0\n10.1.0.4:/b /b nfs4 rw,hard 0 0\n');
    const [a, b] = file.mounts as [MountEntry, MountEntry];
    expect(effectiveOptions(a).version).toBeUndefined();
    expect(effectiveOptions(b).version).toMatchObject({ text: '4', pinned: false });
  });

  it('lists read without their text (a mount command) resolve as the same list in fstab does', () => {
    const fstab = parseFile(
      'file:///etc/fstab',
      '10.1.0.4:/a /a nfs rw,hard,nfsvers=3,proto=udp,vers=4.1,minorversion=1 0 0\n',
    ).mounts[0]!;
    const script = parseFile(
      'file:///opt/mount.sh',
      'mount -t nfs -o rw,hard,nfsvers=3,proto=udp,vers=4.1,minorversion=1 10.1.0.4:/a /a\n',
    ).mounts[0]!;
    expect(fstab.optionListText).toBeDefined();
    expect(script.optionListText).toBeUndefined();
    for (const mount of [fstab, script]) {
      const effective = effectiveOptions(mount);
      expect(effective.version).toMatchObject({ text: '4.1', pinned: true });
      expect(effective.overridden.map(({ option, winner }) => `${option.name}->${winner.name}`)).toEqual([
        'nfsvers->vers',
      ]);
      expect(transportOf(effective)).toBe('udp');
      expect(transportKey(mount)).toBe('10.1.0.4|4.1|udp');
    }
  });

  it('a placeholder in one list keeps it apart from the same list without one', () => {
    const file = parseFile(
      'file:///etc/fstab',
      '10.1.0.4:/a /a nfs rw,{{ opts }} 0 0\n10.1.0.4:/b /b nfs rw,opts 0 0\n',
    );
    const [a, b] = file.mounts as [MountEntry, MountEntry];
    expect(effectiveOptions(a).templated).toBe(true);
    expect(effectiveOptions(b).templated).toBe(false);
  });
});

const MANIFEST = `accounts:
  - name: hpc
    pools:
      - name: eda
        serviceLevel: Premium
        size: 4 TiB
        volumes:
          - name: tools
            quota: 1 TiB
            protocols: [NFSv3]
            workload: eda-tools
            mountTarget: 10.1.0.4
            exportPath: /tools
`;

function contextOf(workspace: Workspace, file: ParsedFile): RuleContext {
  return { file, workspace, config: resolveConfig({}), report: () => undefined };
}

describe('shared answers per workspace state', () => {
  it('a target, workload and volume follow the manifest when it appears, on the record and on the mount', () => {
    const workspace = new Workspace(resolveConfig({}));
    const file = workspace.set(
      'file:///host/etc/fstab',
      '10.1.0.4:/tools /tools nfs rw,hard,vers=3 0 0\n10.1.0.4:/scratch /scratch nfs rw,hard,vers=3 0 0\n',
    );
    const context = contextOf(workspace, file);
    const [tools, scratch] = nfsMounts(context);
    expect(targetOfMount(context, tools!)).toMatchObject({ kind: 'anf', known: false });
    // Mounts of one server share its answer.
    expect(targetOfMount(context, scratch!)).toBe(targetOfMount(context, tools!));
    expect(workloadOfMount(context, tools!)).toBeUndefined();
    expect(volumeOfMount(context, tools!)).toBeUndefined();

    workspace.set('file:///host/estate.anf.yaml', MANIFEST);
    const after = contextOf(workspace, workspace.file('file:///host/etc/fstab')!);
    expect(targetOfMount(after, tools!)).toMatchObject({ kind: 'anf', known: true });
    expect(targetOfMount(after, tools!.mount).why).toContain('mount target of volume `tools`');
    expect(workloadOfMount(after, tools!)).toEqual({ workload: 'eda-tools', source: 'manifest' });
    expect(volumeOfMount(after, tools!)?.name).toBe('tools');
    // The other mount of the server: the server is named now, its export reaches no volume.
    expect(targetOfMount(after, scratch!)).toMatchObject({ kind: 'anf', known: true });
    expect(volumeOfMount(after, scratch!)).toBeUndefined();

    // And back: the manifest gone, the first state's answers again.
    workspace.delete('file:///host/estate.anf.yaml');
    const gone = contextOf(workspace, workspace.file('file:///host/etc/fstab')!);
    expect(targetOfMount(gone, tools!)).toMatchObject({ kind: 'anf', known: false });
    expect(workloadOfMount(gone, tools!.mount)).toBeUndefined();
  });

  it('another configuration is another state', () => {
    const workspace = new Workspace(resolveConfig({}));
    const file = workspace.set('file:///host/etc/fstab', '10.9.0.4:/a /a nfs rw,hard,vers=3 0 0\n');
    const [judged] = nfsMounts(contextOf(workspace, file));
    expect(targetOfMount(contextOf(workspace, file), judged!).kind).toBe('anf');
    const other = { ...contextOf(workspace, file), config: resolveConfig({ nfsServers: { other: ['10.9.0.0/16'] } }) };
    expect(targetOfMount(other, judged!)).toMatchObject({ kind: 'other', known: true });
  });
});
