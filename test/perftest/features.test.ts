import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig, Workspace } from '../../server/src/core';
import { computeCompletions } from '../../server/src/core/features/completion';
import { computeHover } from '../../server/src/core/features/hover';
import { computeInlayHints } from '../../server/src/core/features/outline';

const FIXTURE = join(__dirname, '..', 'fixtures', 'rules', 'ANF500-latency-floor');
const read = (path: string) => readFileSync(join(FIXTURE, path), 'utf8');

function workspace(extra: Record<string, string> = {}): Workspace {
  const ws = new Workspace(resolveConfig({}));
  const files: Record<string, string> = {
    'estate.anf.yaml': read('estate.anf.yaml'),
    'perfhost/etc/fstab': read('perfhost/etc/fstab'),
    'perfhost/perf/latency.fio': read('perfhost/perf/latency.fio'),
    ...extra,
  };
  for (const [path, text] of Object.entries(files)) ws.set(`file:///repo/${path}`, text);
  return ws;
}

const URI = 'file:///repo/perfhost/perf/latency.fio';

describe('job files in the editor', () => {
  it('hovers a job with its pattern, outstanding I/O, mount, volume and ceiling', () => {
    const ws = workspace();
    const text = read('perfhost/perf/latency.fio');
    const hover = computeHover(ws, URI, text.indexOf('[rate-randread-8k]') + 2, resolveConfig({}));
    expect(hover?.markdown).toContain('fio job `[rate-randread-8k]`');
    expect(hover?.markdown).toContain('Outstanding I/O: 8 (iodepth=4 x numjobs=2)');
    expect(hover?.markdown).toContain('volume `perf-data` (Premium, 128 MiB/s)');
    expect(hover?.markdown).toContain('**16,384 IOPS, 128 MiB/s**');
  });
  it('hovers a key with what it does', () => {
    const ws = workspace();
    const text = read('perfhost/perf/latency.fio');
    const hover = computeHover(ws, URI, text.indexOf('ramp_time') + 1, resolveConfig({}));
    expect(hover?.markdown).toMatch(/^\*\*ramp_time\*\* \(fio\)/);
  });
  it('shows the ceiling at each job header as an inlay hint', () => {
    const ws = workspace();
    const file = ws.file(URI)!;
    const labels = computeInlayHints(file, resolveConfig({}), undefined, ws).map((h) => h.label);
    expect(labels).toEqual([
      '→ perf-data: 128 MiB/s · 16,384 IOPS at 8 KiB',
      '→ perf-data: 128 MiB/s · 16,384 IOPS at 8 KiB',
      '→ perf-data: 128 MiB/s · 2,048 IOPS at 64 KiB',
      '→ perf-data: 128 MiB/s · 2,048 IOPS at 64 KiB',
      '→ perf-data: 128 MiB/s · 16,384 IOPS at 8 KiB',
    ]);
  });
  it('links nothing when the job file belongs to another host than the mount', () => {
    const ws = workspace({
      'otherhost/etc/fstab': '# no NFS\n',
      'otherhost/perf/t.fio': '[t]\ndirectory=/mnt/anf/perf\nrw=read\n',
    });
    const file = ws.file('file:///repo/otherhost/perf/t.fio')!;
    expect(computeInlayHints(file, resolveConfig({}), undefined, ws)).toEqual([]);
  });
  it('completes fio keys and rw values, vdbench parameters', () => {
    const ws = workspace({ 'perfhost/perf/new.fio': '[j]\nrw=rand', 'perfhost/perf/new.vdb': 'wd=wd1,sd=sd1,seek' });
    const fio = ws.file('file:///repo/perfhost/perf/new.fio')!;
    const values = computeCompletions(fio, fio.source.text.length).map((c) => c.label);
    expect(values).toContain('randread');
    const keys = computeCompletions(fio, 4).map((c) => c.label);
    expect(keys).toContain('iodepth');
    const vdb = ws.file('file:///repo/perfhost/perf/new.vdb')!;
    expect(computeCompletions(vdb, vdb.source.text.length).map((c) => c.label)).toContain('seekpct');
  });
});

describe('vdbench in the editor', () => {
  it('hovers a definition keyword and a parameter, and a run with its model', () => {
    const text = read('perfhost/perf/latency.vdb');
    const ws = workspace({ 'perfhost/perf/latency.vdb': text });
    const uri = 'file:///repo/perfhost/perf/latency.vdb';
    const config = resolveConfig({});
    expect(computeHover(ws, uri, text.indexOf('sd=sd1') + 1, config)?.markdown).toMatch(/^\*\*sd\*\* \(vdbench: sd\)/);
    expect(computeHover(ws, uri, text.indexOf('seekpct') + 1, config)?.markdown).toMatch(/^\*\*seekpct\*\*/);
    const run = computeHover(ws, uri, text.indexOf('rd=qd-8k') + 4, config)?.markdown ?? '';
    expect(run).toContain('vdbench run `rd=qd-8k`');
    expect(run).toContain('Outstanding I/O: 8 (threads=8 for each of 1 storage definition)');
    expect(run).toContain('volume `perf-small`');
  });
});
