import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { serverTarget, describeServer } from '../../server/src/core/mounts/rules/target';

/** Lints one fstab (with an optional manifest and configuration) and returns `line CODE severity` rows of mount findings. */
function lintFstab(fstab: string, options: { config?: unknown; manifest?: string } = {}): string[] {
  const config = resolveConfig(configSchema.parse(options.config ?? {}));
  const workspace = new Workspace(config);
  workspace.set('file:///host/etc/fstab', fstab);
  if (options.manifest) workspace.set('file:///host/estate.anf.yaml', options.manifest);
  return visibleDiagnostics(lintFile(workspace, 'file:///host/etc/fstab', config))
    .filter((d) => /^ANF2/.test(String(d.code)))
    .map((d) => `${d.range.start.line + 1} ${d.code} ${d.severity}`);
}

describe('vendor-prescribed mount lines stay clean', () => {
  it("Microsoft's SAP HANA lines on ANF (NFSv4.1, data, log, shared)", () => {
    const fstab = [
      '10.9.0.4:/HN1-data-mnt00001 /hana/data/HN1/mnt00001 nfs rw,nfsvers=4.1,hard,timeo=600,rsize=262144,wsize=262144,noatime,lock,_netdev,sec=sys 0 0',
      '10.9.0.4:/HN1-log-mnt00001 /hana/log/HN1/mnt00001 nfs rw,nfsvers=4.1,hard,timeo=600,rsize=262144,wsize=262144,noatime,lock,_netdev,sec=sys 0 0',
      '10.9.0.5:/HN1-shared/shared /hana/shared nfs rw,nfsvers=4.1,hard,timeo=600,rsize=262144,wsize=262144,noatime,lock,_netdev,sec=sys 0 0',
      '',
    ].join('\n');
    expect(lintFstab(fstab)).toEqual([]);
  });

  it("Microsoft's SAP NetWeaver lines on ANF (NFSv3, 64 KiB)", () => {
    const fstab = [
      '192.168.24.5:/sapQAS/sapmntQAS /sapmnt/QAS nfs rw,hard,rsize=65536,wsize=65536,vers=3,tcp,_netdev 0 0',
      '192.168.24.5:/sapQAS/usrsapQASsys /usr/sap/QAS/SYS nfs rw,hard,rsize=65536,wsize=65536,vers=3,tcp,_netdev 0 0',
      '',
    ].join('\n');
    expect(lintFstab(fstab)).toEqual([]);
  });

  it("Oracle's kNFS options, and RAC clusterware's noac/actimeo=0", () => {
    const fstab = [
      '10.60.1.4:/ora-data  /u02/oradata  nfs  rw,bg,hard,nointr,rsize=32768,wsize=32768,tcp,actimeo=0,vers=3,timeo=600,_netdev  0  0',
      '# anf: workload=oracle',
      '10.60.1.4:/ora-crs   /u01/crs     nfs  rw,bg,hard,nointr,rsize=32768,wsize=32768,tcp,noac,actimeo=0,vers=3,timeo=600,_netdev  0  0',
      '',
    ].join('\n');
    expect(lintFstab(fstab)).toEqual([]);
  });

  it('Azure Files NFS and Azure Blob NFS mounts', () => {
    const fstab = [
      'contosofiles.file.core.windows.net:/contosofiles/share1 /mnt/share1 nfs vers=4,minorversion=1,sec=sys,nconnect=4,_netdev 0 0',
      'contosoblob.blob.core.windows.net:/contosoblob/container1 /mnt/blob1 aznfs vers=3,proto=tcp,nolock,sec=sys,_netdev 0 0',
      'contosoblob.blob.core.windows.net:/contosoblob/container2 /mnt/blob2 nfs vers=3,proto=tcp,nolock,sec=sys,rsize=1048576,wsize=1048576,_netdev 0 0',
      '',
    ].join('\n');
    expect(lintFstab(fstab)).toEqual([]);
  });

  it('SAS GRID: 64 KiB with nconnect', () => {
    expect(
      lintFstab('10.70.1.4:/sasgrid /sasdata nfs rw,hard,vers=3,rsize=65536,wsize=65536,nconnect=8,_netdev 0 0\n'),
    ).toEqual([]);
  });
});

describe('what a mount talks to', () => {
  const mount = (server: string, fsType = 'nfs') => {
    const workspace = new Workspace();
    workspace.set('file:///h/etc/fstab', `${server}:/vol /mnt/vol ${fsType} rw,hard,vers=3 0 0\n`);
    return { m: workspace.mounts()[0]!, workspace };
  };

  it('recognizes Azure Files, Blob NFS and the aznfs type', () => {
    const files = mount('acct.file.core.windows.net');
    expect(serverTarget(files.m, files.workspace, {}).kind).toBe('azure-files');
    const blob = mount('acct.blob.core.windows.net');
    expect(serverTarget(blob.m, blob.workspace, {}).kind).toBe('azure-blob');
    const aznfs = mount('10.1.1.1', 'aznfs');
    expect(serverTarget(aznfs.m, aznfs.workspace, {}).kind).toBe('azure-blob');
  });

  it('takes configured names, patterns and ranges, and the default', () => {
    const servers = { nfsServers: { anf: ['10.20.0.0/16'], other: ['*.corp.example'], default: 'unknown' as const } };
    const a = mount('10.20.3.4');
    expect(serverTarget(a.m, a.workspace, servers)).toMatchObject({ kind: 'anf', known: true });
    const o = mount('filer01.corp.example');
    expect(serverTarget(o.m, o.workspace, servers)).toMatchObject({ kind: 'other', known: true });
    const u = mount('10.99.0.1');
    expect(serverTarget(u.m, u.workspace, servers)).toMatchObject({ kind: 'unknown', known: false });
    expect(serverTarget(u.m, u.workspace, {})).toMatchObject({ kind: 'anf', known: false });
    expect(describeServer(u.m, u.workspace, {})).toContain('taken to be ANF');
  });
});

describe('workload from the mount point', () => {
  it('SAP HANA log on NFSv3 is reported without a manifest or annotation, and says where the workload came from', () => {
    const workspace = new Workspace(resolveConfig({}));
    workspace.set(
      'file:///h/etc/fstab',
      '10.0.0.11:/hana-log /hana/log/HN1/mnt00001 nfs rw,hard,vers=3,rsize=262144,wsize=262144,_netdev 0 0\n',
    );
    const found = visibleDiagnostics(lintFile(workspace, 'file:///h/etc/fstab', resolveConfig({}))).filter(
      (d) => d.code === 'ANF220',
    );
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toContain('from its mount point');
    expect(found[0]!.message).toContain('# anf: workload=');
  });

  it('an annotation overrides the convention', () => {
    const fstab =
      '# anf: workload=general\n10.0.0.11:/hana-log /hana/log/HN1/mnt00001 nfs rw,hard,vers=3,rsize=262144,wsize=262144,_netdev 0 0\n';
    expect(lintFstab(fstab).filter((f) => f.includes('ANF220'))).toEqual([]);
  });

  it('on a server listed as not ANF, ANF-only advice is silent and NFSv4.2 is never an error', () => {
    const fstab =
      'filer01.corp.example:/vol/hana_log /hana/log/HN1 nfs rw,hard,vers=4.2,rsize=65536,wsize=65536,_netdev 0 0\n';
    expect(lintFstab(fstab, { config: { nfsServers: { other: ['filer01.corp.example'] } } })).toEqual([]);
    // Unknown to the estate (assumed ANF): a warning, not an error.
    expect(lintFstab(fstab).filter((f) => f.includes('ANF211'))).toEqual(['1 ANF211 warning']);
  });
});

describe('hover on a mount source says what the server was taken to be', () => {
  it('names Azure Files and why', async () => {
    const { computeHover } = await import('../../server/src/core/features/hover');
    const workspace = new Workspace(resolveConfig({}));
    const text = 'acct.file.core.windows.net:/acct/share /mnt/share nfs vers=4.1,sec=sys,_netdev 0 0\n';
    workspace.set('file:///h/etc/fstab', text);
    const hover = computeHover(workspace, 'file:///h/etc/fstab', 3, resolveConfig({}));
    expect(hover?.markdown).toContain('Azure Files');
    expect(hover?.markdown).toContain('*.file.core.windows.net');
  });
});
