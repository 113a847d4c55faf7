/**
 * Huge inputs (run in their own file so they overlap with the other tests): each ends in bounded
 * time with its findings inside the document. The bounds are generous for a shared 2-core machine;
 * `npm run bench` measures the real speed.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_FINDING_LIMITS, omittedFindings } from '../../server/src/core';
import { fill, lintWithin } from './check';

const MB = 1024 * 1024;
const MOUNT = (i: number) =>
  `10.0.${i % 250}.4:/vol${i} /mnt/vol${i} nfs rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,_netdev 0 0\n`;

describe('huge inputs finish in bounded time', () => {
  it('a 10 MB fstab (a runbook-sized file: comments, blank lines and a mount every tenth line)', () => {
    const text = fill(10 * MB, (i) =>
      i % 10 === 0
        ? MOUNT(i)
        : i % 10 === 5
          ? '\n'
          : `# host group ${i}: mounted by the job scheduler before the nightly run\n`,
    );
    const diagnostics = lintWithin('file:///big/etc/fstab', text, 60_000);
    expect(diagnostics.length).toBeGreaterThanOrEqual(0);
  }, 600_000);

  it('a 2 MB sysctl.d file of settings (every fourth line)', () => {
    const keys = [
      'net.core.rmem_max',
      'net.core.wmem_max',
      'net.ipv4.tcp_rmem',
      'vm.dirty_ratio',
      'sunrpc.tcp_slot_table_entries',
    ];
    const text = fill(2 * MB, (i) =>
      i % 4 === 0
        ? `${keys[i % keys.length]} = ${i % 2 === 0 ? '16777216' : '4096 87380 16777216'}\n`
        : `# tuning note ${i}\n`,
    );
    lintWithin('file:///big/etc/sysctl.d/90-nfs.conf', text, 60_000);
  }, 600_000);

  it('150,000 malformed fstab lines: one finding each (the first listed, the rest counted), no stack overflow from spreading them', () => {
    const text = 'garbage\n'.repeat(150_000);
    const diagnostics = lintWithin('file:///big/etc/fstab', text, 60_000);
    const listed = diagnostics.filter((d) => d.code === 'ANF200').length;
    expect(listed).toBe(DEFAULT_FINDING_LIMITS.perRule);
    expect(listed + (omittedFindings(diagnostics)?.byCode.ANF200 ?? 0)).toBe(150_000);
  }, 600_000);

  it('a manifest with 100,000 volumes: bounded time, and the resource limits are reported', () => {
    const lines = ['accounts:', '  - name: estate', '    pools:'];
    for (let p = 0; p < 200; p++) {
      lines.push(
        `      - name: pool${p}`,
        '        serviceLevel: Premium',
        '        size: 500 TiB',
        '        volumes:',
      );
      for (let v = 0; v < 500; v++) lines.push(`          - {name: v${v}, quota: 1 TiB, exportPath: /p${p}v${v}}`);
    }
    const diagnostics = lintWithin('file:///big/estate.anf.yaml', `${lines.join('\n')}\n`, 120_000);
    expect(diagnostics.some((d) => d.code === 'ANF113')).toBe(true);
  }, 600_000);
});
