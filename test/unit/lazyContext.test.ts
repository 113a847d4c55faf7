/**
 * Lazy context (issue 17): a run over some files of a repository parses only the estate and the
 * files of their hosts, and knows the others by path and kind. Each file's findings must be those
 * of a run that reads every file (`fullContext`), for every file of a repository with several
 * hosts, manifests that match and do not match its mounts, a script outside the hosts and a runbook.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../server/src/core';
import { MemoryEnvironment, Project } from '../../server/src/core/project';
import { manifestMayHold, planContext } from '../../server/src/core/project/contextSelection';
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
  'hostC/etc/fstab':
    '# node C mounts the DR archive\n10.99.0.4:/dr-archive /archive nfs rw,hard,vers=4.1,_netdev 0 0\n',
  'hostC/etc/modprobe.d/sunrpc.conf': 'options sunrpc tcp_max_slot_table_entries=128\n',
  'scripts/mount-all.sh': '#!/bin/sh\nmount -t nfs -o rw,vers=3,nconnect=16 10.20.1.4:/eda-tools /tools\n',
  // Two `etc/` in one path: the host model puts these two files apart, sysctl loads them together.
  'site/etc/nodes/n1/etc/sysctl.d/90-nfs.conf': 'net.core.rmem_max = 16777216\nsunrpc.tcp_slot_table_entries = 128\n',
  'site/etc/nodes/n1/usr/lib/sysctl.d/50-default.conf': 'net.core.rmem_max = 212992\nnet.ipv4.tcp_timestamps = 0\n',
  // Estate written as az CLI commands in a script: read whole, like infrastructure code (iac/scripts.ts).
  'provision/anf.sh':
    '#!/bin/sh\naz netappfiles volume create -g rg -a anf -p pool-dr -n dr-logs --service-level Standard --usage-threshold 100 --file-path dr-logs --vnet v --subnet s --protocol-types NFSv4.1\n',
  'docs/runbook.md': '# Runbook\n\n```\nmount -t nfs -o soft 10.20.1.4:/eda-scratch /scratch\n```\n',
};

function lines(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`).sort();
}

function repository(): MemoryEnvironment {
  const env = new MemoryEnvironment(
    Object.fromEntries(Object.entries(FILES).map(([path, text]) => [`/repo/${path}`, text])),
  );
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
    expect(workspace.hostOf(env.uriOf('/repo/hostB/etc/fstab'))?.files.map((f) => f.uri)).toEqual([
      env.uriOf('/repo/hostB/bin/mount-results'),
      env.uriOf('/repo/hostB/etc/fstab'),
      env.uriOf('/repo/hostB/etc/sysctl.d/90-nfs.conf'),
    ]);
  });

  it('reads a script that holds estate commands whole, as infrastructure code; a script without any by path and kind', () => {
    const env = repository();
    const run = new Project(env).open([{ path: '/repo/hostB/etc/fstab', named: true }]);
    const workspace = run.workspaceOf(env.uriOf('/repo/hostB/etc/fstab'));
    expect(workspace.file(env.uriOf('/repo/provision/anf.sh'))?.iac?.volumes.map((v) => v.name?.value)).toEqual([
      'dr-logs',
    ]);
    expect(workspace.file(env.uriOf('/repo/scripts/mount-all.sh'))?.source.text).toBe('');
  });

  it('reads everything when a target is a manifest or the configuration', () => {
    const known = Object.keys(FILES).map((path) => ({
      uri: `file:///repo/${path}`,
      kind: parseFile(`file:///repo/${path}`, FILES[path]!).kind,
    }));
    const manifest = known.find((f) => f.uri.endsWith('estate.anf.yaml'))!;
    expect(
      planContext(
        [manifest],
        known.filter((f) => f !== manifest),
      ),
    ).toBeUndefined();
    const config = known.find((f) => f.uri.endsWith('.anf-lint.yaml'))!;
    expect(
      planContext(
        [config],
        known.filter((f) => f !== config),
      ),
    ).toBeUndefined();
  });

  it('may hold a volume when the text has every key as a word, an escape, or a key a folded line can spell', () => {
    expect(manifestMayHold('mounttarget: 10.20.1.4\nexportpath: /eda-tools', ['10.20.1.4', 'eda-tools'])).toBe(true);
    // A path key is the word without its leading and trailing slashes, in lower case, however the value is quoted.
    expect(manifestMayHold('mountPath: "/Tools/"', ['tools'])).toBe(true);
    expect(manifestMayHold('{"exportPath":"/eda-tools","mountTarget":"10.20.1.4"}', ['eda-tools', '10.20.1.4'])).toBe(
      true,
    );
    expect(manifestMayHold('{exportPath: [/eda-tools], mountTarget:10.20.1.4}', ['eda-tools', '10.20.1.4'])).toBe(true);
    expect(manifestMayHold('exportPath: //eda-tools', ['/eda-tools'])).toBe(true);
    // Part of a word is not the word.
    expect(manifestMayHold('exportPath: /eda-tools-old\nname: eda-tools2', ['eda-tools'])).toBe(false);
    // A key with a separator in it is looked for in the text: an IPv6 server.
    expect(manifestMayHold('mountTarget: "[FD00::4]"', ['fd00::4'])).toBe(true);
    expect(manifestMayHold('mounttarget: 10.99.0.4\nexportpath: /eda-tools', ['10.20.1.4', 'eda-tools'])).toBe(false);
    expect(manifestMayHold('{"exportpath": "\\/dr"}', ['eda-tools'])).toBe(true);
    expect(manifestMayHold("exportpath: '/it''s'", ["it's"])).toBe(true);
    expect(manifestMayHold('mountpath: /mnt/project\n  archive', ['mnt/project archive'])).toBe(true);
    // Lower case of a Greek capital sigma depends on what follows it: a text outside ASCII always may.
    expect(manifestMayHold('exportPath: /ΣΑΣ-data', ['σασ'])).toBe(true);
    expect(manifestMayHold('exportPath: /sas-data', ['σασ'])).toBe(false);
    // A mount of / matches anything.
    expect(manifestMayHold('exportpath: /dr', [''])).toBe(true);
  });
});

/**
 * One estate split over several manifests that name the same servers, export paths and mount
 * paths: which volume a mount reaches depends on all of them (the last with its server and export
 * path, a mount path or export path only when one volume has it, the first behind a server), and
 * the lazy context reads only those its answers need. `BROKEN` is put in one of them: a YAML
 * syntax error elsewhere in a manifest that holds a volume the mounts reach.
 */
const volume = (name: string, fields: Record<string, string>) => [
  `          - name: ${name}`,
  ...Object.entries(fields).map(([k, v]) => `            ${k}: ${v}`),
];
const manifest = (comment: string, account: string, pools: { name: string; level: string; volumes: string[][] }[]) =>
  [
    `# ${comment}`,
    'region: westeurope',
    'accounts:',
    `  - name: ${account}`,
    '    pools:',
    ...pools.flatMap((p) => [
      `      - name: ${p.name}`,
      `        serviceLevel: ${p.level}`,
      '        size: 8 TiB',
      '        volumes:',
      ...p.volumes.flat(),
    ]),
    '',
  ].join('\n');

const SHARED: Record<string, string> = {
  '.anf-lint.yaml': 'region: westeurope\n',
  // First in URI order: the first volume behind 10.30.0.4, two volumes with export path /tools-share, one of two with /scratch-share.
  'sites/a-first.anf.yaml': manifest('site A', 'site-a', [
    {
      name: 'a-premium',
      level: 'Premium',
      volumes: [
        volume('tools-a', {
          quota: '2 TiB',
          protocols: '[NFSv3]',
          exportPath: '/tools-share',
          mountTarget: '10.30.0.4',
        }),
        volume('tools-a2', {
          quota: '2 TiB',
          protocols: '[NFSv3]',
          exportPath: '/tools-share',
          mountTarget: '10.30.0.5',
        }),
        volume('scratch-a', {
          quota: '1 TiB',
          protocols: '[NFSv3]',
          exportPath: '/scratch-share',
          mountTarget: '10.30.0.5',
        }),
      ],
    },
  ]),
  // The last volume with 10.30.0.4:/tools-share (NFSv4.1 only: a vers=3 mount of it fails), a volume defined twice, a second /scratch-share.
  'sites/b-second.anf.yaml': manifest('site B', 'site-b', [
    {
      name: 'b-standard',
      level: 'Standard',
      volumes: [
        volume('archive', { quota: '4 TiB', protocols: '[NFSv3]', exportPath: '/archive', mountTarget: '10.30.0.6' }),
      ],
    },
    {
      name: 'b-premium',
      level: 'Premium',
      volumes: [
        volume('tools-b', {
          quota: '2 TiB',
          protocols: '[NFSv4.1]',
          exportPath: '/tools-share',
          mountTarget: '10.30.0.4',
          mountPath: '/proj',
        }),
        volume('scratch-b', {
          quota: '1 TiB',
          protocols: '[NFSv4.1]',
          exportPath: '/scratch-share',
          mountTarget: '10.30.0.7',
        }),
        volume('tools-b', {
          quota: '3 TiB',
          protocols: '[NFSv4.1]',
          exportPath: '/proj-share',
          mountTarget: '10.30.0.7',
          mountPath: '/proj',
        }),
      ],
    },
  ]),
  // Names 10.30.0.4:/tools-share only in a comment and in a volume without quota (no summary): read, and it holds no answer.
  'sites/c-third.anf.yaml': manifest('site C: 10.30.0.4:/tools-share moved to site B', 'site-c', [
    {
      name: 'c-ultra',
      level: 'Ultra',
      volumes: [
        volume('tools-c', { protocols: '[NFSv3]', exportPath: '/tools-share', mountTarget: '10.30.0.4' }),
        volume('solo', { quota: '1 TiB', protocols: '[NFSv4.1]', exportPath: '/solo', mountTarget: '10.30.0.8' }),
        volume('results', {
          quota: '1 TiB',
          protocols: '[NFSv3]',
          exportPath: '/results',
          mountTarget: '10.30.0.8',
          mountPath: '/results',
        }),
      ],
    },
  ]),
  // Nothing of the mounts: never read.
  'sites/d-other.anf.yaml': manifest('site D', 'site-d', [
    {
      name: 'd-standard',
      level: 'Standard',
      volumes: [volume('dr', { quota: '1 TiB', protocols: '[NFSv3]', exportPath: '/dr', mountTarget: '10.40.0.4' })],
    },
  ]),
  'hosts/n1/etc/fstab': [
    '# node 1',
    '10.30.0.4:/tools-share  /tools  nfs  ro,hard,vers=3,rsize=262144,wsize=262144,_netdev  0  0',
    'files.example.internal:/scratch-share  /scratch  nfs  rw,hard,vers=3,_netdev  0  0',
    '${NFS_SERVER}:/solo  /solo  nfs  rw,hard,vers=3,_netdev  0  0',
    '10.30.0.7:/proj-share  /proj  nfs  rw,hard,vers=3,_netdev  0  0',
    '10.30.0.6:/archive  /archive  nfs  rw,soft,vers=4.1,_netdev  0  0',
    '',
  ].join('\n'),
  'hosts/n1/etc/sysctl.d/90-nfs.conf': 'sunrpc.tcp_slot_table_entries = 128\nnet.ipv4.tcp_timestamps = 0\n',
  'hosts/n2/etc/fstab':
    '# node 2\n10.30.0.5:/scratch-share  /scratch  nfs  rw,hard,vers=4.1,nconnect=4,_netdev  0  0\n10.30.0.9:/gone  /gone  nfs  rw,hard,vers=3  0  0\n',
  'scripts/mount-tools.sh': '#!/bin/sh\nmount -t nfs -o rw,vers=3,nconnect=16 10.30.0.4:/tools-share /tools\n',
  // Each alone on its host, so that no other mount's question reads the manifest its answer needs:
  // the last volume behind 10.30.0.4:/tools-share is site B's (/tools-share is site A's twice, 10.30.0.4 first site A's);
  'hosts/n3/etc/fstab': '10.30.0.4:/tools-share  /opt/tools  nfs  ro,hard,vers=3,nconnect=8,_netdev  0  0\n',
  // /scratch-share on an unknown server: two volumes have it (sites A and B), so it reaches neither;
  'hosts/n4/etc/fstab': 'files.example.internal:/scratch-share  /data/s  nfs  rw,hard,vers=4.1,_netdev  0  0\n',
  // 10.30.0.6 is named by site B only, as the mount target of another export.
  'hosts/n5/etc/fstab': '10.30.0.6:/elsewhere  /data/e  nfs  rw,hard,nconnect=8,_netdev  0  0\n',
  // Templated server and export: the mount point is site C's `results` (one volume's), and `/proj` two volumes' (site B).
  'hosts/n6/etc/fstab':
    '${NFS_SERVER}:${EXPORT}  /results  nfs  rw,hard,vers=4.1,_netdev  0  0\n${NFS_SERVER}:${EXPORT}  /proj  nfs  rw,hard,vers=3,_netdev  0  0\n',
};

/** YAML syntax errors elsewhere in site B's manifest: an unclosed quote (runs to the end), an unclosed flow sequence, a bad indentation, a tab. */
const BROKEN: Record<string, (text: string) => string> = {
  'no error': (text) => text,
  'unclosed quote': (text) => text.replace('name: archive', 'name: "archive'),
  'unclosed flow sequence': (text) => text.replace('protocols: [NFSv3]', 'protocols: [NFSv3'),
  'bad indentation': (text) => text.replace('            exportPath: /archive', '           exportPath: /archive'),
  'a tab': (text) => text.replace('            quota: 4 TiB', '\t quota: 4 TiB'),
};

function sharedRepository(broken: (text: string) => string): { env: MemoryEnvironment; files: Record<string, string> } {
  const files = { ...SHARED, 'sites/b-second.anf.yaml': broken(SHARED['sites/b-second.anf.yaml']!) };
  const env = new MemoryEnvironment(
    Object.fromEntries(Object.entries(files).map(([path, text]) => [`/repo/${path}`, text])),
  );
  env.repository('/repo', { known: Object.keys(files) });
  return { env, files };
}

describe('lazy context: manifests that share servers, export paths and mount paths', () => {
  for (const [name, broken] of Object.entries(BROKEN)) {
    it(`gives every file alone the findings of a full read (site B: ${name})`, () => {
      const { env, files } = sharedRepository(broken);
      const full = new Project(env, { fullContext: true });
      const found = full.discover('/repo');
      const everything = full.open(found.paths.map((path) => ({ path, root: found.root })));
      const all: string[] = [];
      for (const path of found.paths) {
        const expected = lines(everything.lint(env.uriOf(path)).diagnostics);
        const alone = new Project(sharedRepository(broken).env).open([{ path, named: true }]);
        expect(lines(alone.lint(env.uriOf(path)).diagnostics), path).toEqual(expected);
        all.push(...expected.map((line) => `${path} ${line}`));
      }
      expect(files['sites/b-second.anf.yaml']).toBe(broken(SHARED['sites/b-second.anf.yaml']!));
      if (name === 'no error') {
        // The answers that make the comparison able to fail: the last volume behind 10.30.0.4:/tools-share is site B's
        // (NFSv4.1 only); /scratch-share on an unknown server is two volumes' (none); /solo on a templated server is one volume's.
        const n1 = all
          .filter((l) => l.startsWith('/repo/hosts/n1/etc/fstab ANF224'))
          .map((l) => l.slice('/repo/hosts/n1/etc/fstab '.length, l.indexOf(' (')));
        expect(n1).toEqual([
          'ANF224 1:45 `vers=3`, but volume `tools-b`',
          'ANF224 3:41 `vers=3`, but volume `solo`',
          'ANF224 4:43 `vers=3`, but volume `tools-b`',
          'ANF224 5:43 `vers=4.1`, but volume `archive`',
        ]);
        expect(all.filter((l) => l.startsWith('/repo/hosts/n2/etc/fstab ANF224'))[0]).toContain(
          'volume `scratch-a` (a-first.anf.yaml)',
        );
        expect(all.filter((l) => l.startsWith('/repo/hosts/n3/etc/fstab ANF224'))[0]).toContain(
          'volume `tools-b` (b-second.anf.yaml)',
        );
        expect(all.filter((l) => l.startsWith('/repo/hosts/n4/etc/fstab'))).toEqual([]);
        const n5 = all.filter((l) => l.startsWith('/repo/hosts/n5/etc/fstab ANF211'));
        expect(n5).toHaveLength(1);
        expect(n5[0]).not.toContain('taken to be ANF');
        const n6 = all.filter((l) => l.startsWith('/repo/hosts/n6/etc/fstab ANF224'));
        expect(n6).toHaveLength(1);
        expect(n6[0]).toContain('volume `results` (c-third.anf.yaml)');
      }
    });
  }

  it('reads only the manifests the answers need', () => {
    const { files } = sharedRepository((text) => text);
    const read = (target: string) => {
      const { env } = sharedRepository((text) => text);
      const run = new Project(env).open([{ path: `/repo/${target}`, named: true }]);
      const workspace = run.workspaceOf(env.uriOf(`/repo/${target}`));
      return Object.keys(files).filter(
        (path) => path.endsWith('.anf.yaml') && workspace.file(env.uriOf(`/repo/${path}`))?.source.text === files[path],
      );
    };
    // 10.30.0.5:/scratch-share is site A's (the last: site B names 10.30.0.5 nowhere), so its export path alone is not
    // looked up; site A has the first volume behind 10.30.0.5; /scratch is a word of no text (`scratch-a` is another word).
    expect(read('hosts/n2/etc/fstab')).toEqual(['sites/a-first.anf.yaml']);
    // Only site B names 10.30.0.6; no text holds /elsewhere or /data/e.
    expect(read('hosts/n5/etc/fstab')).toEqual(['sites/b-second.anf.yaml']);
    // Site C names 10.30.0.4:/tools-share (a comment, a volume without quota): read, then site B, which has the volume;
    // site A has the first volume behind 10.30.0.4.
    expect(read('hosts/n3/etc/fstab')).toEqual([
      'sites/a-first.anf.yaml',
      'sites/b-second.anf.yaml',
      'sites/c-third.anf.yaml',
    ]);
  });
});
