import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** The kernel-tuning misses of real repositories (ANF321–ANF325), and the vendor files that must stay clean. */
function lint(files: Record<string, string>): string[] {
  const config = resolveConfig();
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return Object.keys(files).flatMap((path) =>
    visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config))
      .filter((d) => /^ANF3/.test(d.code) && d.code !== 'ANF320')
      .map((d) => `${path}:${d.range.start.line + 1} ${d.code} ${d.severity}`),
  );
}

describe('vendor-prescribed kernel tuning stays clean', () => {
  it("the SAP HANA on ANF sysctl and modprobe files (written from Microsoft's guidance)", () => {
    const hana = [
      'net.core.rmem_max = 16777216',
      'net.core.wmem_max = 16777216',
      'net.ipv4.tcp_rmem = 4096 131072 16777216',
      'net.ipv4.tcp_wmem = 4096 16384 16777216',
      'net.core.netdev_max_backlog = 300000',
      'net.ipv4.tcp_slow_start_after_idle = 0',
      'net.ipv4.tcp_no_metrics_save = 1',
      'net.ipv4.tcp_moderate_rcvbuf = 1',
      'net.ipv4.tcp_window_scaling = 1',
      'net.ipv4.tcp_timestamps = 1',
      'net.ipv4.tcp_sack = 1',
      '',
    ].join('\n');
    const msAz =
      'sunrpc.tcp_slot_table_entries = 128\nvm.swappiness = 10\nnet.ipv4.tcp_max_syn_backlog = 16348\nnet.ipv4.conf.all.rp_filter = 0\n';
    expect(
      lint({
        'etc/sysctl.d/91-NetApp-HANA.conf': hana,
        'etc/sysctl.d/ms-az.conf': msAz,
        'etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=128\n',
      }),
    ).toEqual([]);
  });

  it('the ANF concurrency guidance: slot tables and session slots in modprobe.d', () => {
    expect(
      lint({
        'etc/modprobe.d/nfs.conf': 'options sunrpc tcp_max_slot_table_entries=128\noptions nfs max_session_slots=180\n',
      }),
    ).toEqual([]);
  });

  it("the ANF client block's socket defaults and tcp_mem in pages", () => {
    const text =
      'net.core.rmem_default = 1048576\nnet.core.wmem_default = 1048576\nnet.ipv4.tcp_mem = 4096 89600 4194304\n';
    expect(lint({ 'etc/sysctl.d/90-anf.conf': text })).toEqual([]);
  });
});

describe('kernel settings that set nothing', () => {
  it('a swapped-words sunrpc key is an error, also as a module parameter; a near miss stays ANF305', () => {
    expect(
      lint({
        'etc/sysctl.d/90-nfs.conf':
          'sunrpc.max_tcp_slot_table_entries = 128\nsunrpc.tpc_max_slot_table_entries = 128\n',
        'etc/modprobe.d/sunrpc.conf': 'options sunrpc max_tcp_slot_table_entries=128\n',
      }),
    ).toEqual([
      'etc/sysctl.d/90-nfs.conf:1 ANF321 error',
      'etc/sysctl.d/90-nfs.conf:2 ANF305 warning',
      'etc/modprobe.d/sunrpc.conf:1 ANF321 error',
    ]);
  });

  it('a key without its namespace, in sysctl.conf and in a sysctl -w command', () => {
    expect(
      lint({
        'etc/sysctl.conf': 'tcp_max_slot_table_entries=128\n',
        'scripts/tune.sh': '#!/bin/sh\nsysctl -w tcp_max_slot_table_entries=128\n',
      }),
    ).toEqual(['etc/sysctl.conf:1 ANF322 error', 'scripts/tune.sh:2 ANF322 error']);
  });

  it('typographic quotes around a line are an error and hide the setting from the other rules', () => {
    expect(lint({ 'etc/sysctl.d/90-nfs.conf': '“net.ipv4.tcp_sack = 0”\n' })).toEqual([
      'etc/sysctl.d/90-nfs.conf:1 ANF323 error',
    ]);
  });
});
