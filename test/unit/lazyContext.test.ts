/**
 * Lazy context (issue 17): a run over some files of a repository parses only the estate and the
 * files of their hosts, and knows the others by path and kind. Each file's findings must be those
 * of a run that reads every file (`fullContext`), for every file of a repository with several
 * hosts, manifests that match and do not match its mounts, a script outside the hosts and a runbook.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../server/src/core';
import { MemoryEnvironment, Project } from '../../server/src/core/project';
import { manifestMayMatch, matchKeys, planContext } from '../../server/src/core/project/contextSelection';
import { parseFile } from '../../server/src/core/workspace/parseFile';
import { MULTI_HOST_FILES } from '../support/generatedRepo';

const OTHER_ESTATE = [
  '# another site: no mount of this repository reaches it',
  'region: westeurope',
  'accounts:',
  '  - name: dr',
  '    pools:',
  '      - name: dr-standard',
  '        serviceLevel: Standard',
  '        size: 4 TiB',
  '        volumes:',
  '          - name: dr-archive',
  '            quota: 2 TiB',
  '            protocols: [NFSv4.1]',
  '            workload: general',
  '            exportPath: /dr-archive',
  '            mountTarget: 10.99.0.4',
  '',
].join('\n');

const FILES: Record<string, string> = {
  ...MULTI_HOST_FILES,
  'dr/estate-dr.anf.yaml': OTHER_ESTATE,
  'hostC/etc/fstab': '# node C mounts the DR archive\n10.99.0.4:/dr-archive /archive nfs rw,hard,vers=4.1,_netdev 0 0\n',
  'hostC/etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=128\n',
  'scripts/mount-all.sh': '#!/bin/sh\nmount -t nfs -o rw,vers=3,nconnect=16 10.20.1.4:/eda-tools /tools\n',
  // Two `etc/` in one path: the host model puts these two files apart, sysctl loads them together.
  'site/etc/nodes/n1/etc/sysctl.d/90-nfs.conf': 'net.core.rmem_max = 16777216\nsunrpc.tcp_slot_table_entries = 128\n',
  'site/etc/nodes/n1/usr/lib/sysctl.d/50-default.conf': 'net.core.rmem_max = 212992\nnet.ipv4.tcp_timestamps = 0\n',
  'docs/runbook.md': '# Runbook\n\n```\nmount -t nfs -o soft 10.20.1.4:/eda-scratch /scratch\n```\n',
};

function lines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`).sort();
}

function repository(): MemoryEnvironment {
  const env = new MemoryEnvironment(Object.fromEntries(Object.entries(FILES).map(([path, text]) => [`/repo/${path}`, text])));
  env.repository('/repo', { known: Object.keys(FILES) });
  return env;
}

describe('lazy context', () => {
  it('gives every file, linted alone, the findings of a run that reads every file', () => {
    const env = repository();
    const full = new Project(env, { fullContext: true });
    const found = full.discover('/repo');
    const everything = full.open(found.paths.map((path) => ({ path, root: found.root })));
    let compared = 0;
    for (const path of found.paths) {
      const expected = lines(everything.lint(env.uriOf(path)).diagnostics);
      const alone = new Project(repository()).open([{ path, named: true }]);
      expect(lines(alone.lint(env.uriOf(path)).diagnostics), path).toEqual(expected);
      compared += expected.length;
    }
    // Cross-host and estate findings are among them (nconnect per host, the manifest's volumes).
    expect(compared).toBeGreaterThan(10);
  });

  it('parses the estate and the target host only; the other files are known by path and kind', () => {
    const env = repository();
    const run = new Project(env).open([{ path: '/repo/hostB/etc/fstab', named: true }]);
    const workspace = run.workspaceOf(env.uriOf('/repo/hostB/etc/fstab'));
    const text = (path: string) => workspace.file(env.uriOf(`/repo/${path}`))?.source.text;
    expect(text('estate.anf.yaml')).toBe(FILES['estate.anf.yaml']);
    expect(text('hostA/etc/fstab')).toBe('');
    expect(workspace.file(env.uriOf('/repo/hostA/etc/fstab'))?.kind).toBe('fstab');
    expect(text('scripts/mount-all.sh')).toBe('');
    // No mount of host B reaches 10.99.0.4:/dr-archive.
    expect(text('dr/estate-dr.anf.yaml')).toBe('');
    expect(workspace.hostOf(env.uriOf('/repo/hostB/etc/fstab'))?.files.map((f) => f.uri)).toEqual([env.uriOf('/repo/hostB/bin/mount-results'), env.uriOf('/repo/hostB/etc/fstab'), env.uriOf('/repo/hostB/etc/sysctl.d/90-nfs.conf')]);
  });

  it('reads everything when a target is a manifest or the configuration', () => {
    const known = Object.keys(FILES).map((path) => ({ uri: `file:///repo/${path}`, kind: parseFile(`file:///repo/${path}`, FILES[path]!).kind }));
    const manifest = known.find((f) => f.uri.endsWith('estate.anf.yaml'))!;
    expect(planContext([manifest], known.filter((f) => f !== manifest))).toBeUndefined();
    const config = known.find((f) => f.uri.endsWith('.anf-lint.yaml'))!;
    expect(planContext([config], known.filter((f) => f !== config))).toBeUndefined();
  });

  it('reads a manifest when its text holds a server, export path or mount point of the mounts, or an escape', () => {
    const mounts = parseFile('file:///r/etc/fstab', '10.20.1.4:/eda-tools/ /Tools nfs rw 0 0\n').mounts;
    const keys = matchKeys(mounts);
    expect(keys).toEqual(['10.20.1.4', 'eda-tools', 'tools']);
    expect(manifestMayMatch('exportPath: /EDA-tools', keys)).toBe(true);
    expect(manifestMayMatch('mountTarget: 10.99.0.4\nexportPath: /dr', keys)).toBe(false);
    expect(manifestMayMatch('{"exportPath": "\\/dr"}', keys)).toBe(true);
    // A mount of / matches anything.
    expect(manifestMayMatch('exportPath: /dr', matchKeys(parseFile('file:///r/etc/fstab', '/dev/sda1 / xfs defaults 0 0\n').mounts))).toBe(true);
  });
});
