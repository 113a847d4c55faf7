import { describe, expect, it } from 'vitest';
import {
  lintFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type AnfLintConfig,
  type Diagnostic,
} from '../../server/src/core';

/** Cross-file behaviour of the kernel rules that the one-folder fixtures do not show (ANF320, "no slot cap on this host", is left out: most of these hosts have none). */
function lint(
  files: Record<string, string>,
  config: AnfLintConfig = {},
  codes = /^ANF3(?!20)/,
): Record<string, Diagnostic[]> {
  const resolved = resolveConfig(config);
  const workspace = new Workspace(resolved);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return Object.fromEntries(
    Object.keys(files).map((path) => [
      path,
      visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, resolved)).filter((d) => codes.test(d.code)),
    ]),
  );
}

const codesOf = (diagnostics: Diagnostic[] | undefined) =>
  (diagnostics ?? []).map((d) => `${d.range.start.line + 1} ${d.code}`);

const MANIFEST = (throughput: string, clients: number) => `accounts:
  - name: prod
    pools:
      - name: ultra
        serviceLevel: Ultra
        size: 40 TiB
        volumes:
          - name: render
            quota: 32 TiB
            protocols: [NFSv3]
            workload: hpc
            mountTarget: 10.10.1.4
            exportPath: /render
            requirements:
              throughput: ${throughput}
              clients: ${clients}
`;

describe('bandwidth-delay product (ANF315)', () => {
  it('takes the per-client need from the manifest and shares it over nconnect', () => {
    const files = {
      'render.anf.yaml': MANIFEST('4000 MiB/s', 1),
      'etc/fstab': '10.10.1.4:/render /render nfs rw,hard,vers=3,nconnect=2,_netdev 0 0\n',
      'etc/sysctl.d/90-nfs.conf': 'net.ipv4.tcp_rmem = 4096 131072 1048576\nnet.ipv4.tcp_wmem = 4096 16384 16777216\n',
    };
    const result = lint(files, { network: { rtt: '2 ms' } });
    expect(codesOf(result['etc/sysctl.d/90-nfs.conf'])).toEqual(['1 ANF315']);
    const message = result['etc/sysctl.d/90-nfs.conf']![0]!.message;
    expect(message).toContain('volume render needs 4,000 MiB/s');
    expect(message).toContain('nconnect=2');
    expect(message).toContain('1.95 GiB/s × 2 ms = 4 MiB');
  });

  it('is quiet when the window covers the product, or nothing declares a bandwidth', () => {
    const sysctl = { 'etc/sysctl.d/90-nfs.conf': 'net.ipv4.tcp_rmem = 4096 131072 16777216\n' };
    expect(
      codesOf(lint(sysctl, { network: { rtt: '2 ms', bandwidth: '1200 MiB/s' } })['etc/sysctl.d/90-nfs.conf']),
    ).toEqual([]);
    expect(
      codesOf(
        lint({ 'etc/sysctl.d/90-nfs.conf': 'net.ipv4.tcp_rmem = 4096 16384 65536\n' })['etc/sysctl.d/90-nfs.conf'],
      ),
    ).toEqual([]);
  });
});

describe('slot tables (ANF316, ANF317, ANF318)', () => {
  const modprobe = (value: number) => ({
    'etc/modprobe.d/sunrpc.conf': `options sunrpc tcp_max_slot_table_entries=${value}\n`,
  });

  it('the seed table decides with the smallest nconnect of the host; above 8 it asks for nothing more', () => {
    const fstab = (n: number) => ({
      'etc/fstab': `10.10.1.4:/render /render nfs rw,hard,vers=3,nconnect=${n},_netdev 0 0\n`,
    });
    expect(codesOf(lint({ ...modprobe(512), ...fstab(1) })['etc/modprobe.d/sunrpc.conf'])).toEqual(['1 ANF317']);
    expect(codesOf(lint({ ...modprobe(512), ...fstab(8) })['etc/modprobe.d/sunrpc.conf'])).toEqual(['1 ANF316']);
    expect(codesOf(lint({ ...modprobe(512), ...fstab(16) })['etc/modprobe.d/sunrpc.conf'])).toEqual(['1 ANF316']);
    expect(codesOf(lint({ ...modprobe(128), ...fstab(1) })['etc/modprobe.d/sunrpc.conf'])).toEqual([]);
  });

  it('reads mounts of the same host only', () => {
    const files = {
      ...{ 'hosts/a/etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=512\n' },
      'hosts/a/etc/fstab': '10.10.1.4:/render /render nfs rw,hard,vers=3,nconnect=8,_netdev 0 0\n',
      'hosts/b/etc/fstab': '10.10.1.4:/render /render nfs rw,hard,vers=3,_netdev 0 0\n',
    };
    expect(codesOf(lint(files)['hosts/a/etc/modprobe.d/sunrpc.conf'])).toEqual(['1 ANF316']);
  });

  it('multiplies clients x nconnect x slots from the manifest and suggests what fits', () => {
    const files = {
      'render.anf.yaml': MANIFEST('1000 MiB/s', 100),
      'etc/fstab': '10.10.1.4:/render /render nfs rw,hard,vers=3,nconnect=4,_netdev 0 0\n',
      ...modprobe(64),
    };
    const [finding] = lint(files)['etc/modprobe.d/sunrpc.conf']!;
    expect(finding?.code).toBe('ANF318');
    expect(finding?.message).toContain('100 × 4 × 64 = 25,600');
    expect(finding?.fixes[0]?.edits[0]?.newText).toBe('25');
  });
});

describe('timestamps by workload (ANF311)', () => {
  const hana = {
    'etc/fstab': '# anf: workload=sap-hana-data\n10.20.1.4:/hana-data /hana/data nfs rw,nfsvers=4.1,hard,_netdev 0 0\n',
    'etc/sysctl.d/91-NetApp-HANA.conf': 'net.ipv4.tcp_timestamps = 1\n',
  };
  it('wants 0 on HANA nodes behind Azure Load Balancer, and 1 elsewhere', () => {
    expect(codesOf(lint(hana, { sapHanaBehindLoadBalancer: true })['etc/sysctl.d/91-NetApp-HANA.conf'])).toEqual([
      '1 ANF311',
    ]);
    expect(codesOf(lint(hana)['etc/sysctl.d/91-NetApp-HANA.conf'])).toEqual([]);
    const eda = {
      'etc/fstab': '# anf: workload=eda-tools\n10.10.1.4:/tools /tools nfs ro,hard,vers=3,_netdev 0 0\n',
      'etc/sysctl.d/90-nfs.conf': 'net.ipv4.tcp_timestamps = 1\n',
    };
    expect(codesOf(lint(eda, { sapHanaBehindLoadBalancer: true })['etc/sysctl.d/90-nfs.conf'])).toEqual([]);
  });
  it('wants 0 on any VM behind Azure Load Balancer (behindAzureLoadBalancer), HANA or not', () => {
    const ascs = {
      'etc/fstab': '10.40.1.4:/sapmnt-S4P /sapmnt/S4P nfs rw,hard,vers=3,_netdev 0 0\n',
      'etc/sysctl.d/91-sap.conf': 'net.ipv4.tcp_timestamps = 0\n',
    };
    expect(codesOf(lint(ascs, { behindAzureLoadBalancer: true })['etc/sysctl.d/91-sap.conf'])).toEqual([]);
    expect(codesOf(lint(ascs)['etc/sysctl.d/91-sap.conf'])).toEqual(['1 ANF311']);
    const timestampsOn = { ...ascs, 'etc/sysctl.d/91-sap.conf': 'net.ipv4.tcp_timestamps = 1\n' };
    expect(codesOf(lint(timestampsOn, { behindAzureLoadBalancer: true })['etc/sysctl.d/91-sap.conf'])).toEqual([
      '1 ANF311',
    ]);
    // The old key keeps its meaning: SAP HANA hosts only.
    expect(
      codesOf(
        lint(
          {
            ...timestampsOn,
            'etc/fstab': '# anf: workload=eda-tools\n10.10.1.4:/tools /tools nfs ro,hard,vers=3,_netdev 0 0\n',
          },
          { sapHanaBehindLoadBalancer: true },
        )['etc/sysctl.d/91-sap.conf'],
      ),
    ).toEqual([]);
  });
});

describe('load order across drop-ins', () => {
  it('sysctl.conf loads after sysctl.d; drop-ins load by file name, not by directory', () => {
    const files = {
      'etc/sysctl.conf': 'vm.swappiness = 10\n',
      'etc/sysctl.d/99-late.conf': 'vm.swappiness = 30\nnet.ipv4.tcp_sack = 1\n',
      'usr/lib/sysctl.d/10-vendor.conf': 'net.ipv4.tcp_sack = 0\n',
    };
    const result = lint(files);
    expect(codesOf(result['etc/sysctl.d/99-late.conf'])).toEqual(['1 ANF306']);
    expect(codesOf(result['usr/lib/sysctl.d/10-vendor.conf'])).toEqual(['1 ANF306']);
    expect(codesOf(result['etc/sysctl.conf'])).toEqual([]);
    expect(result['etc/sysctl.d/99-late.conf']![0]!.related[0]?.uri).toBe('file:///repo/etc/sysctl.conf');
  });

  it('templated values are never judged, but still overwrite earlier ones', () => {
    const result = lint({
      'etc/sysctl.d/90-nfs.conf':
        'net.ipv4.tcp_sack = 0\nnet.ipv4.tcp_sack = {{ tcp_sack }}\nnet.ipv4.tcp_rmem = {{ rmem }}\n',
    });
    expect(codesOf(result['etc/sysctl.d/90-nfs.conf'])).toEqual(['1 ANF306']);
  });

  it('keys outside the catalog that are not near misses produce nothing', () => {
    const text =
      'kernel.pid_max = 4194304\nfs.file-max = 2097152\nnet.ipv4.conf.all.arp_filter = 1\nnet.ipv4.tcp_ecn = 1\nvm.min_free_kbytes = 1048576\nnet.ipv4.tcp_keepalive_time = 600\n';
    expect(codesOf(lint({ 'etc/sysctl.d/90-other.conf': text })['etc/sysctl.d/90-other.conf'])).toEqual([]);
  });
});

describe('obsolete keys and kernelVersion (ANF309)', () => {
  const text = 'net.ipv4.tcp_fack = 0\nnet.ipv4.tcp_tw_recycle = 1\nnet.ipv4.tcp_low_latency = 1\n';
  it('on current kernels reports all three, with safe fixes that delete the line; keys the kernel still registers are information', () => {
    const result = lint({ 'etc/sysctl.d/90-nfs.conf': text })['etc/sysctl.d/90-nfs.conf']!;
    expect(codesOf(result)).toEqual(['1 ANF309', '2 ANF309', '3 ANF309']);
    // net/ipv4/sysctl_net_ipv4.c still lists tcp_fack and tcp_low_latency; tcp_tw_recycle is gone.
    expect(result.map((d) => d.tags)).toEqual([['unnecessary'], ['deprecated'], ['unnecessary']]);
    expect(result.map((d) => d.severity)).toEqual(['info', 'warning', 'info']);
    expect(result[0]?.message).not.toContain('fails');
    expect(result.every((d) => d.fixes[0]?.applicability === 'safe')).toBe(true);
  });

  it('on an older kernel keeps only tcp_tw_recycle, whose removal then needs review', () => {
    const result = lint({ 'etc/sysctl.d/90-nfs.conf': text }, { kernelVersion: '4.9' })['etc/sysctl.d/90-nfs.conf']!;
    expect(codesOf(result)).toEqual(['2 ANF309']);
    expect(result[0]?.message).toContain('NAT');
    expect(result[0]?.fixes[0]?.applicability).toBe('unsafe');
  });
});

describe('writes that are not duplicates', () => {
  it('a script that persists a value and applies it now writes the key twice on purpose', () => {
    const script =
      '#!/bin/bash\necho "net.ipv4.tcp_sack = 1" >> /etc/sysctl.d/90-nfs.conf\nsysctl -w net.ipv4.tcp_sack=1\n';
    expect(codesOf(lint({ 'scripts/tune.sh': script })['scripts/tune.sh'])).toEqual([]);
  });

  it('Markdown shows alternatives side by side', () => {
    const doc =
      '# Tuning\n\n```\nnet.ipv4.tcp_sack = 1\n```\n\nApply it now:\n\n```bash\nsudo sysctl -w net.ipv4.tcp_sack=1\n```\n\nOr in one block:\n\n```\nnet.ipv4.tcp_sack = 1\n```\n';
    expect(codesOf(lint({ 'docs/tuning.md': doc })['docs/tuning.md'])).toEqual([]);
  });
});
