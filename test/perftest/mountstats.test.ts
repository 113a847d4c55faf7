import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { activityOf, parseMountstats } from '../../server/src/core/mountstats/parse';
import { MiB } from '../../server/src/core/units/units';

const capture = (path: string) => readFileSync(join(__dirname, '..', 'fixtures', 'rules', path), 'utf8');

describe('mountstats (statvers 1.1)', () => {
  const parsed = parseMountstats(capture('ANF507-options-in-force-differ/perfhost/mountstats'));

  it('reads every device, and NFSv3 and NFSv4.1 mounts with their options in force', () => {
    expect(parsed.unreadable).toBeUndefined();
    expect(parsed.devices.length).toBe(11);
    expect(parsed.nfs.map((d) => `${d.mountPoint} ${d.fsType} ${d.options.get('vers')?.value}`)).toEqual([
      '/mnt/scratch nfs 3',
      '/mnt/anf/perf nfs 3',
      '/mnt/anf/small nfs 3',
      '/hana/data nfs4 4.1',
      '/hana/log nfs 3',
      '/tools nfs 3',
    ]);
    const hana = parsed.nfs[3]!;
    expect(hana.server).toBe('10.20.1.5');
    expect(hana.exportPath).toBe('/hana-data');
    expect(hana.ops.has('SEQUENCE')).toBe(true);
  });

  it('counts one transport per connection with nconnect', () => {
    const tools = parsed.nfs.find((d) => d.mountPoint === '/tools')!;
    expect(tools.options.get('nconnect')?.value).toBe('4');
    expect(tools.transports).toHaveLength(4);
    expect(tools.transports[0]!.maxSlots).toBe(64);
    expect(parsed.nfs[0]!.transports).toHaveLength(1);
  });

  it('works out throughput, IOPS, latency per op and concurrency since the mount was made', () => {
    const perf = parsed.nfs.find((d) => d.mountPoint === '/mnt/anf/perf')!;
    const activity = activityOf(perf, MiB)!;
    // 400,000 64 KiB READs (plus RPC headers) and 200,000 WRITEs over 86,400 s.
    expect(activity.readIops).toBeCloseTo(400000 / 86400, 6);
    expect(activity.readMiBps).toBeCloseTo((400000 * 65536 + 400000 * 116) / MiB / 86400, 6);
    expect(activity.writeMiBps).toBeCloseTo((200000 * 65536 + 200000 * 136) / MiB / 86400, 6);
    expect(activity.readRttMs).toBeCloseTo(0.75, 6);
    expect(activity.readExecuteMs).toBeCloseTo(1.05, 6);
    expect(activity.writeExecuteMs).toBeCloseTo(1.55, 6);
    // Little's Law: every op's execute time over the age.
    const execute = [...perf.ops.values()].reduce((sum, op) => sum + op.executeMs, 0);
    expect(activity.concurrency).toBeCloseTo(execute / 1000 / 86400, 9);
  });

  it('gives one reason for a truncated or foreign capture, never a throw', () => {
    const cut = parseMountstats(capture('ANF506-mountstats-unreadable/hosts/cut/mountstats'));
    expect(cut.unreadable?.reason).toMatch(/cut short/);
    expect(parseMountstats('').unreadable?.reason).toMatch(/no `device/);
    expect(parseMountstats('\u0000\u0001 binary junk').unreadable).toBeDefined();
    const v2 = parseMountstats('device a:/b mounted on /b with fstype nfs statvers=2.0\n\topts:\trw\n');
    expect(v2.unreadable?.reason).toMatch(/statistics version 2.0/);
    // Every prefix of a whole capture reads without throwing.
    const whole = capture('ANF506-mountstats-unreadable/hosts/whole/mountstats');
    for (let end = 0; end < whole.length; end += 97) expect(() => parseMountstats(whole.slice(0, end))).not.toThrow();
  });
});

describe('a capture in the editor', () => {
  it('hovers a device line with what the mount did', async () => {
    const { resolveConfig, Workspace } = await import('../../server/src/core');
    const { computeHover } = await import('../../server/src/core/features/hover');
    const text = capture('ANF507-options-in-force-differ/perfhost/mountstats');
    const ws = new Workspace(resolveConfig({}));
    ws.set('file:///repo/perfhost/mountstats', text);
    const hover = computeHover(
      ws,
      'file:///repo/perfhost/mountstats',
      text.indexOf('device 10.20.1.6') + 3,
      resolveConfig({}),
    );
    expect(hover?.markdown).toContain('**/tools** (10.20.1.6:/tools, NFS 3, 4 connections)');
    expect(hover?.markdown).toMatch(/RPCs in flight on average/);
  });
});
