import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace, type ResolvedConfig } from '../../server/src/core';
import { CATALOG_KEYS, describeKey, findKey, nearMiss } from '../../server/src/core/sysctl/catalog';
import { explainBandwidthDelay, suggestedWindowMax } from '../../server/src/core/sysctl/bandwidthDelay';

/** The seeds' sysctl blocks, as a host would carry them, produce exactly these findings. */
const SEED_001 = readFileSync(
  join(__dirname, '..', 'fixtures', 'rules', 'ANF306-duplicate-sysctl-key', 'etc', 'sysctl.conf'),
  'utf8',
);
const SEED_000 = [
  'net.core.somaxconn = 65536',
  'net.core.netdev_max_backlog = 300000',
  'net.core.rmem_default = 67108864',
  'net.core.wmem_default = 67108864',
  'net.core.rmem_max = 67108864',
  'net.core.wmem_max = 67108864',
  'net.ipv4.tcp_rmem = 8192 87380 16777216',
  'net.ipv4.tcp_wmem = 8192 87380 16777216',
  'net.ipv4.tcp_fin_timeout = 5',
  '',
].join('\n');

function lint(files: Record<string, string>, config: ResolvedConfig = resolveConfig()): string[] {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///host/${path}`, text);
  return Object.keys(files).flatMap((path) =>
    visibleDiagnostics(lintFile(workspace, `file:///host/${path}`, config)).map(
      (d) => `${path}:${d.range.start.line + 1} ${d.code} ${d.severity}`,
    ),
  );
}

describe('seed sysctl blocks', () => {
  it('seed 001 (the verbatim block) produces exactly its known mistakes', () => {
    expect(SEED_001).toContain('net.ipv4.tcp_sack = 0');
    expect(lint({ 'etc/sysctl.conf': SEED_001 })).toEqual([
      'etc/sysctl.conf:23 ANF311 info', // tcp_timestamps = 0 outside HANA behind Azure Load Balancer
      'etc/sysctl.conf:24 ANF306 warning', // tcp_sack = 1, overridden on line 41
      'etc/sysctl.conf:26 ANF310 info', // route.flush in a persistent file
      'etc/sysctl.conf:27 ANF309 info', // tcp_low_latency: no-op since 4.14
      'etc/sysctl.conf:41 ANF307 info', // tcp_sack = 0, in the EDA benchmark block (a note, not a warning)
      'etc/sysctl.conf:42 ANF307 info', // tcp_dsack = 0, likewise
      'etc/sysctl.conf:43 ANF309 info', // tcp_fack: registered but a no-op since 4.15
    ]);
  });

  it('seed 001 as a drop-in on a HANA node behind Azure Load Balancer: tcp_timestamps = 0 is then right', () => {
    const config = resolveConfig({ sapHanaBehindLoadBalancer: true });
    expect(lint({ 'etc/sysctl.d/90-nfs.conf': SEED_001 }, config)).not.toContain(
      'etc/sysctl.d/90-nfs.conf:23 ANF311 info',
    );
  });

  it('seed 000 (the course block) produces only its 64 MiB socket defaults', () => {
    expect(lint({ 'etc/sysctl.conf': SEED_000 })).toEqual([
      'etc/sysctl.conf:3 ANF325 warning', // rmem_default = 64 MiB: every non-TCP socket starts there
      'etc/sysctl.conf:4 ANF325 warning', // wmem_default = 64 MiB
    ]);
  });

  it("seed 001's misspelled slot key is a near miss and nothing else: as written it sets nothing", () => {
    const text = 'sunrpc.tpc_max_slot_table_entries = 512\n';
    expect(lint({ 'etc/sysctl.d/90-nfs.conf': text })).toEqual(['etc/sysctl.d/90-nfs.conf:1 ANF305 warning']);
  });
});

describe('key catalog', () => {
  it('finds exact keys and glob keys', () => {
    expect(findKey('net.ipv4.tcp_rmem')?.shape.kind).toBe('triple');
    expect(findKey('net.ipv4.conf.eth0.rp_filter')?.key).toBe('net.ipv4.conf.*.rp_filter');
    expect(findKey('net.ipv4.conf.*.rp_filter')?.key).toBe('net.ipv4.conf.*.rp_filter');
    expect(findKey('kernel.pid_max')).toBeUndefined();
  });

  it('knows when keys were removed or stopped working', () => {
    expect(findKey('net.ipv4.tcp_fack')?.noOpSince?.value).toBe('4.15');
    expect(findKey('net.ipv4.tcp_fack')?.removedIn).toBeUndefined();
    expect(findKey('net.ipv4.tcp_tw_recycle')?.removedIn?.value).toBe('4.12');
    expect(findKey('net.ipv4.tcp_low_latency')?.noOpSince?.value).toBe('4.14');
  });

  it('suggests catalog keys for near misses, and nothing for real keys nearby or far away', () => {
    expect(nearMiss('sunrpc.tpc_max_slot_table_entries')?.suggestion).toBe('sunrpc.tcp_max_slot_table_entries');
    expect(nearMiss('net.ipv4.conf.eth0.rp_filtr')?.suggestion).toBe('net.ipv4.conf.eth0.rp_filter');
    expect(nearMiss('net.ipv6.tcp_rmem')?.suggestion).toBe('net.ipv4.tcp_rmem');
    for (const real of [
      'net.ipv4.conf.all.arp_filter',
      'net.ipv4.udp_mem',
      'net.ipv4.tcp_ecn',
      'kernel.pid_max',
      'fs.file-max',
      'net.ipv6.route.flush',
      'nfs.max_session_cb_slots',
      'nfsd.nfs4_disable_idmapping',
      'vm.dirtytime_expire_seconds',
      'net.ipv4.tcp_mtu_probe_floor',
      'net.ipv4.tcp_sack',
    ]) {
      expect(nearMiss(real), real).toBeUndefined();
    }
  });

  it('describes every key with its default, history and sourced recommendations', () => {
    for (const entry of CATALOG_KEYS)
      expect(describeKey(entry.key.replace('*', 'all')), entry.key).toContain(entry.key);
    const slots = describeKey('sunrpc.tcp_max_slot_table_entries')!;
    expect(slots).toContain('65536');
    expect(slots).toContain('options sunrpc tcp_max_slot_table_entries');
    expect(slots).toContain('128');
    expect(describeKey('net.ipv4.tcp_fack')).toContain('No effect since kernel 4.15');
    expect(describeKey('net.ipv4.tcp_timestamps')).toContain('Azure Load Balancer');
    expect(describeKey('kernel.pid_max')).toBeUndefined();
  });

  it('puts the written window into a hover with the round-trip time', () => {
    expect(describeKey('net.ipv4.tcp_rmem', { value: '4096 87380 262144', rttSeconds: 0.002 })).toContain(
      '262,144 B ÷ 2 ms = 125 MiB/s',
    );
    expect(describeKey('net.ipv4.tcp_sack', { value: '1', rttSeconds: 0.002 })).not.toContain('÷');
  });
});

describe('bandwidth-delay explanation', () => {
  it('shows the formula with the numbers filled in (seed 003: 131,400 B at 2 ms is about 64 MB/s)', () => {
    const lines = explainBandwidthDelay(1200 * 1024 * 1024, 0.002, 131400);
    expect(lines.join('\n')).toContain('1.17 GiB/s × 2 ms = 2.4 MiB');
    expect(lines.join('\n')).toContain('131,400 B ÷ 2 ms = 62.66 MiB/s');
    expect(lines.join('\n')).toContain('too small');
  });

  it('suggests a power of two of at least 16 MiB', () => {
    expect(suggestedWindowMax(2_516_583)).toBe(16_777_216);
    expect(suggestedWindowMax(20_000_000)).toBe(33_554_432);
  });
});
