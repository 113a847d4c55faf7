import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import {
  ATTRIBUTE_CACHE,
  NCONNECT,
  NFS_TIMEOUTS,
  NFS_TRANSFER_SIZE,
  WORKLOAD_KINDS,
  type WorkloadKind,
} from '../../server/src/core/facts';
import {
  MOUNT_STYLES,
  recommendMount,
  recommendedMountText,
  renderMount,
  systemdUnitName,
  type MountStyle,
  type MountVolume,
} from '../../server/src/core/recommend/mountLine';

const volume = (workload: WorkloadKind | undefined, nfsVersions: ('3' | '4.1')[] = ['3', '4.1']): MountVolume => ({
  account: 'acct',
  pool: 'pool',
  name: 'vol1',
  ...(workload ? { workload } : {}),
  nfsVersions,
  mountTargets: ['10.0.0.4'],
  exportPath: '/vol1',
  mountPath: '/data/vol1',
  kerberos: false,
});

const FILE_FOR_STYLE: Record<MountStyle, string> = {
  fstab: 'file:///host/etc/fstab',
  command: 'file:///host/mount-volumes.sh',
  systemd: 'file:///host/etc/systemd/system/data-vol1.mount',
};

/** The recommendation placed in the file kind it is written for, with the workload annotated. */
function hostText(style: MountStyle, workload: WorkloadKind, text: string): string {
  const note = `# anf: workload=${workload}`;
  if (style === 'command') return `#!/bin/sh\n${note}\n${text}\n`;
  return `${note}\n${text}${text.endsWith('\n') ? '' : '\n'}`;
}

describe('recommended mount lines', () => {
  it('EDA tools: NFSv3, nocto, actimeo, nconnect, 256 KiB transfers, all from the facts', () => {
    const { options } = recommendMount(volume('eda-tools'));
    expect(options).toEqual(
      expect.arrayContaining([
        'vers=3',
        'hard',
        'nocto',
        `actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value}`,
        `nconnect=${NCONNECT.bestTested.value}`,
        `rsize=${NFS_TRANSFER_SIZE.recommendedBytes.value}`,
        `wsize=${NFS_TRANSFER_SIZE.recommendedBytes.value}`,
        'noatime',
      ]),
    );
  });

  it('SAP HANA data and log: NFSv4.1 with the published options', () => {
    for (const workload of ['sap-hana-data', 'sap-hana-log'] as const) {
      const { options, nfsVersion } = recommendMount(volume(workload));
      expect(nfsVersion).toBe('4.1');
      expect(options).toEqual(
        expect.arrayContaining([
          'vers=4.1',
          'hard',
          `timeo=${NFS_TIMEOUTS.tcpTimeoDeciseconds.value}`,
          'rsize=262144',
          'wsize=262144',
          'noatime',
          'lock',
          'sec=sys',
        ]),
      );
      expect(options.some((o) => o.startsWith('nocto') || o.startsWith('actimeo'))).toBe(false);
    }
  });

  it('shared-write workloads keep close-to-open consistency', () => {
    for (const workload of ['eda-scratch', 'hpc', 'oracle', 'database'] as const) {
      expect(recommendMount(volume(workload)).options).not.toContain('nocto');
    }
  });

  it('follows the volume when it offers only one version, and says why', () => {
    const rec = recommendMount(volume('eda-tools', ['4.1']));
    expect(rec.nfsVersion).toBe('4.1');
    expect(rec.notes.join(' ')).toContain('only offers NFSv4.1');
  });

  it('uses Kerberos when the volume does', () => {
    expect(recommendMount({ ...volume('general', ['4.1']), kerberos: true }).options).toContain('sec=krb5');
  });

  it('renders the three styles', () => {
    const rec = recommendMount(volume('eda-tools'));
    expect(renderMount(rec, 'fstab')).toMatch(/^10\.0\.0\.4:\/vol1 \/data\/vol1 nfs rw,vers=3,.*,_netdev 0 0$/);
    expect(renderMount(rec, 'command')).toMatch(/^mount -t nfs -o rw,vers=3,\S+ 10\.0\.0\.4:\/vol1 \/data\/vol1$/);
    const unit = renderMount(rec, 'systemd', 'acct/pool/vol1');
    expect(unit).toContain('# /etc/systemd/system/data-vol1.mount');
    expect(unit).toContain('What=10.0.0.4:/vol1\nWhere=/data/vol1\nType=nfs\nOptions=rw,vers=3,');
  });

  it('uses a placeholder when the manifest has no mount target', () => {
    const { text, recommendation } = recommendedMountText({ name: 'v', nfsVersions: [], mountTargets: [] }, 'fstab');
    expect(recommendation.placeholders).toBe(true);
    expect(text).toMatch(/^<mount-target-ip>:\/v \/mnt\/v nfs /);
  });

  it('escapes systemd unit names like systemd-escape --path', () => {
    expect(systemdUnitName('/hana/data')).toBe('hana-data.mount');
    expect(systemdUnitName('/mnt/eda-tools/')).toBe('mnt-eda\\x2dtools.mount');
    expect(systemdUnitName('/')).toBe('-.mount');
  });

  describe('every recommendation passes the mount rules without a warning', () => {
    const cases = WORKLOAD_KINDS.flatMap((workload) => MOUNT_STYLES.map((style) => [workload, style] as const));
    it.each(cases)('%s as %s', (workload, style) => {
      const { text } = recommendedMountText(volume(workload), style);
      const config = resolveConfig({});
      const workspace = new Workspace(config);
      const uri = FILE_FOR_STYLE[style];
      const file = workspace.set(uri, hostText(style, workload, text));
      // The rules must see the mount and its workload, or the test proves nothing.
      expect(file.mounts).toHaveLength(1);
      expect(workspace.workloadOf(file.mounts[0]!)?.workload).toBe(workload);
      const findings = visibleDiagnostics(lintFile(workspace, uri, config))
        .filter((d) => d.severity === 'error' || d.severity === 'warning')
        .map((d) => `${d.code} ${d.message}`);
      expect(findings, text).toEqual([]);
    });
  });
});
