/**
 * ANF003: a reader that throws leaves a finding on the file, never a silently clean file. The
 * mount extractor is replaced by one that throws on a marker line.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('../../server/src/core/mounts/extract', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../server/src/core/mounts/extract')>();
  return {
    ...original,
    extractMounts: (...args: Parameters<typeof original.extractMounts>) => {
      if (args[0].text.includes('# explode')) throw new Error('index out of range');
      return original.extractMounts(...args);
    },
  };
});

const { lintFile, resolveConfig, Workspace } = await import('../../server/src/core');

describe('ANF003 parser-failure', () => {
  const config = resolveConfig();

  it('reports a reader that throws on the file it could not read', () => {
    const workspace = new Workspace(config);
    workspace.set('file:///srv/etc/fstab', '# explode\n10.0.0.4:/vol1 /data nfs rw,soft 0 0\n');
    const diagnostics = lintFile(workspace, 'file:///srv/etc/fstab', config);
    expect(diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.message])).toEqual([
      [
        'ANF003',
        'warning',
        0,
        "anf-lint's mount reader failed on this file, so it was not checked for mount problems: index out of range",
      ],
    ]);
  });

  it('leaves the other readers of the file working (a shell script keeps its kernel settings)', () => {
    const workspace = new Workspace(config);
    const text = '#!/bin/sh\n# explode\nsysctl -w net.ipv4.tcp_timestamps=2\n';
    workspace.set('file:///srv/setup.sh', text);
    const file = workspace.file('file:///srv/setup.sh')!;
    expect(file.settings.map((s) => s.key)).toEqual(['net.ipv4.tcp_timestamps']);
    expect(lintFile(workspace, 'file:///srv/setup.sh', config).filter((d) => d.code === 'ANF003')).toHaveLength(1);
  });

  it('can be turned off like any rule', () => {
    const off = resolveConfig({ rules: { ANF003: 'off' } });
    const workspace = new Workspace(off);
    workspace.set('file:///srv/etc/fstab', '# explode\n');
    expect(lintFile(workspace, 'file:///srv/etc/fstab', off)).toEqual([]);
  });
});
