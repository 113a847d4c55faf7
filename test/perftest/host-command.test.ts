import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../server/src/cli/run';
import { MemoryEnvironment } from '../../server/src/core/project/memoryEnvironment';

/**
 * `anf-lint host` against an in-memory machine: the repository under /repo, the live state under
 * /proc and /etc. The captures are the rule fixtures' (written from the kernel's format).
 */
const FIXTURES = join(__dirname, '..', 'fixtures', 'rules');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

async function host(files: Record<string, string>, args: string[] = []) {
  const environment = new MemoryEnvironment(files);
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c) => (out += String(c)));
  stderr.on('data', (c) => (err += String(c)));
  const code = await runCli(['host', ...args], { stdout, stderr, cwd: '/repo', env: {}, environment });
  return { code, out, err };
}

const REPO = {
  '/repo/estate.anf.yaml': fixture('ANF508-mount-bound/estate.anf.yaml'),
  '/repo/perfhost/etc/fstab': fixture('ANF507-options-in-force-differ/perfhost/etc/fstab'),
  '/repo/perfhost/etc/sysctl.d/90-nfs.conf':
    'sunrpc.tcp_max_slot_table_entries = 128\nnet.core.rmem_max = 16777216\nnet.ipv4.tcp_rmem = 4096 131072 16777216\n',
  '/repo/perfhost/etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=128\n',
  '/repo/otherhost/etc/fstab': '# nothing mounted\n',
};

describe('anf-lint host', () => {
  it('compares the live mounts and kernel settings with the host folder named like the machine', async () => {
    const result = await host({
      ...REPO,
      '/proc/sys/kernel/hostname': 'perfhost.internal.example\n',
      '/proc/self/mountstats': fixture('ANF507-options-in-force-differ/perfhost/mountstats'),
      '/proc/sys/sunrpc/tcp_max_slot_table_entries': '65536\n',
      '/proc/sys/net/core/rmem_max': '16777216\n',
      '/proc/sys/net/ipv4/tcp_rmem': '4096\t131072\t16777216\n',
      '/etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=128\n',
    });
    expect(result.err).toBe('');
    expect(result.code).toBe(1);
    expect(result.out).toContain('Host `perfhost`');
    // The per-mount table: every NFS mount of the capture.
    expect(result.out).toMatch(/\/mnt\/anf\/perf\s+3\s+1\s/);
    expect(result.out).toMatch(/\/tools\s+3\s+4\s/);
    // ANF507 on the live file, by its own path.
    expect(result.out).toContain('/proc/self/mountstats:');
    expect(result.out).toContain('decided the connections of both');
    expect(result.out).toContain('runs NFS 3, the repository declares 4.1');
    // Kernel settings: only the slot table differs (tabs and blanks are the same value).
    expect(result.out).toContain(
      '/proc/sys/sunrpc/tcp_max_slot_table_entries  differs  sunrpc.tcp_max_slot_table_entries: `65536` in force, `128` declared in perfhost/etc/sysctl.d/90-nfs.conf',
    );
    expect(result.out).not.toContain('net.core.rmem_max:');
    expect(result.out).toContain('1 kernel setting not as declared (3 as declared)');
  });

  it('takes --host, and names the host folders when none matches', async () => {
    const files = { ...REPO, '/proc/self/mountstats': fixture('ANF507-options-in-force-differ/perfhost/mountstats') };
    const missing = await host({ ...files, '/proc/sys/kernel/hostname': 'build-agent-7\n' });
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('no host folder named `build-agent-7`');
    expect(missing.err).toContain('otherhost, perfhost');
    const named = await host({ ...files, '/proc/sys/kernel/hostname': 'build-agent-7\n' }, ['--host', 'perfhost']);
    expect(named.out).toContain('Host `perfhost`');
  });

  it('gives one clear finding for a truncated capture, and a usage error without one', async () => {
    const cut = await host({
      ...REPO,
      '/proc/sys/kernel/hostname': 'perfhost\n',
      '/proc/self/mountstats': fixture('ANF506-mountstats-unreadable/hosts/cut/mountstats'),
    });
    expect(cut.out.match(/ANF506/g)).toHaveLength(1);
    expect(cut.out).not.toContain('ANF507');
    const none = await host({ ...REPO, '/proc/sys/kernel/hostname': 'perfhost\n' });
    expect(none.code).toBe(2);
    expect(none.err).toContain('cannot read /proc/self/mountstats');
  });
});

describe('anf-lint on a repository with job files and a committed capture', () => {
  it('discovers .fio, .vdb and mountstats files and makes the same comparisons as the editor', async () => {
    const environment = new MemoryEnvironment({
      '/repo/estate.anf.yaml': fixture('ANF500-latency-floor/estate.anf.yaml'),
      '/repo/perfhost/etc/fstab': fixture('ANF507-options-in-force-differ/perfhost/etc/fstab'),
      '/repo/perfhost/mountstats': fixture('ANF507-options-in-force-differ/perfhost/mountstats'),
      '/repo/perfhost/perf/latency.fio': fixture('ANF500-latency-floor/perfhost/perf/latency.fio'),
      '/repo/perfhost/perf/latency.vdb': fixture('ANF500-latency-floor/perfhost/perf/latency.vdb'),
    });
    const stdout = new PassThrough();
    let out = '';
    stdout.on('data', (c) => (out += String(c)));
    const code = await runCli(['--fail-on', 'error', '.'], {
      stdout,
      stderr: stdout,
      cwd: '/repo',
      env: {},
      environment,
    });
    expect(code).toBe(0);
    expect(out).toContain('perfhost/perf/latency.fio');
    expect(out).toMatch(/latency\.fio:10:1\s+info\s.*ANF500/);
    expect(out).toMatch(/latency\.vdb:4:1\s+info\s.*ANF500/);
    expect(out).toMatch(/perfhost\/mountstats:\d+:\d+\s+warning\s.*decided the connections of both.*ANF507/);
  });
});

describe('anf-lint host and /proc/mounts', () => {
  it('lists declared NFS mounts that are not mounted, or have something else mounted there', async () => {
    const result = await host({
      ...REPO,
      '/proc/sys/kernel/hostname': 'perfhost\n',
      '/proc/self/mountstats': fixture('ANF508-mount-bound/perfhost/mountstats'),
      '/proc/mounts': [
        '/dev/sda1 / xfs rw,relatime 0 0',
        '10.20.1.4:/perf-data /mnt/anf/perf nfs rw,vers=3,nconnect=8 0 0',
        '10.20.1.4:/perf-small /mnt/anf/small nfs rw,vers=3,nconnect=8 0 0',
        '/dev/sdc1 /hana/data xfs rw,relatime 0 0',
        '',
      ].join('\n'),
    });
    expect(result.out).toContain(
      '/proc/mounts  not mounted  /hana/data: declared in perfhost/etc/fstab, but xfs /dev/sdc1 is mounted there',
    );
    expect(result.out).toContain(
      '/proc/mounts  not mounted  /hana/log: declared in perfhost/etc/fstab, but nothing is mounted there',
    );
    expect(result.out).toContain('/tools: declared');
    expect(result.out).not.toContain('/mnt/anf/perf: declared');
    expect(result.out).toContain('3 declared NFS mounts not mounted');
    expect(result.code).toBe(1);
  });
});

describe('anf-lint host --format json', () => {
  it('gives the same comparison as one JSON object, with null where the capture says nothing', async () => {
    const result = await host(
      {
        ...REPO,
        '/proc/sys/kernel/hostname': 'perfhost\n',
        '/proc/self/mountstats': fixture('ANF507-options-in-force-differ/perfhost/mountstats'),
        '/proc/sys/sunrpc/tcp_max_slot_table_entries': '65536\n',
        '/proc/sys/net/core/rmem_max': '16777216\n',
        '/proc/mounts': '10.20.1.4:/perf-data /mnt/anf/perf nfs rw,vers=3 0 0\n',
      },
      ['--format', 'json'],
    );
    expect(result.err).toBe('');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out);
    expect(report.host).toBe('perfhost');
    expect(report.folder).toBe('perfhost');
    const perf = report.mounts.find((m: { mountPoint: string }) => m.mountPoint === '/mnt/anf/perf');
    expect(perf).toMatchObject({ version: '3', nconnect: 1 });
    expect(report.diagnostics.some((d: { code: string }) => d.code === 'ANF507')).toBe(true);
    expect(report.diagnostics[0].file).toBe('/proc/self/mountstats');
    expect(report.diagnostics[0].line).toBeGreaterThan(0);
    const slots = report.kernel.find((k: { key: string }) => k.key === 'sunrpc.tcp_max_slot_table_entries');
    expect(slots).toEqual({
      key: 'sunrpc.tcp_max_slot_table_entries',
      declared: '128',
      declaredIn: 'perfhost/etc/sysctl.d/90-nfs.conf',
      live: '65536',
      where: '/proc/sys/sunrpc/tcp_max_slot_table_entries',
      differs: true,
    });
    // tcp_rmem is declared but /proc/sys does not give it here: unknown, not 0 or "".
    const rmem = report.kernel.find((k: { key: string }) => k.key === 'net.ipv4.tcp_rmem');
    expect(rmem.live).toBeNull();
    expect(report.notMounted.map((m: { mountPoint: string }) => m.mountPoint)).toContain('/tools');
    expect(result.out).not.toContain('Host `perfhost`');
  });

  it('says which declared mounts are missing is unknown when /proc/mounts cannot be read', async () => {
    const files = {
      ...REPO,
      '/proc/sys/kernel/hostname': 'perfhost\n',
      '/proc/self/mountstats': fixture('ANF507-options-in-force-differ/perfhost/mountstats'),
    };
    const json = await host(files, ['--format', 'json']);
    expect(JSON.parse(json.out).notMounted).toBeNull();
    const text = await host(files);
    expect(text.out).toContain('declared NFS mounts not compared (/proc/mounts could not be read)');
  });

  it('refuses a format it does not write', async () => {
    const result = await host({ ...REPO, '/proc/sys/kernel/hostname': 'perfhost\n' }, ['--format', 'sarif']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--format: "sarif" is not a format of anf-lint host');
  });
});
