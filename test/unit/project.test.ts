/**
 * The project model over an in-memory environment: discovery, configuration, context, safe reads
 * and the fix engine, without touching the disk.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, visibleDiagnostics, type Diagnostic, type FixApplicability } from '../../server/src/core';
import { MemoryEnvironment, Project, SKIPPED_DIRECTORIES, fixFiles, selectFixes } from '../../server/src/core/project';
import { Workspace } from '../../server/src/core';

const UNUSED = '# anf-lint disable-next-line ANF999 -- stale\n';
const GOOD_LINE =
  '10.0.0.4:/vol1 /data nfs rw,vers=3,hard,tcp,timeo=600,rsize=262144,wsize=262144,noatime,_netdev 0 0\n';
const MANIFEST = [
  'region: eastus',
  'accounts:',
  '  - name: a',
  '    pools:',
  '      - name: p',
  '        serviceLevel: Premium',
  '        size: 4 TiB',
  '        volumes:',
  '          - name: v',
  '            quota: 1 TiB',
  '            protocols: [NFSv3]',
  '            workload: eda-tools',
  '            exportPath: /vol1',
  '            mountTarget: 10.0.0.4',
  '',
].join('\n');

function codes(diagnostics: readonly Diagnostic[]): string[] {
  return visibleDiagnostics(diagnostics).map((d) => d.code);
}

describe('discovery', () => {
  it('inside git takes the files git knows, leaves out the skip list, and keeps extension-less scripts for their text to decide', () => {
    const env = new MemoryEnvironment({
      '/repo/etc/fstab': GOOD_LINE,
      '/repo/bin/mount-data': '#!/bin/sh\nmount -t nfs -o soft 10.0.0.4:/vol1 /data\n',
      '/repo/README.txt': 'notes\n',
      '/repo/node_modules/x/etc/fstab': GOOD_LINE,
      '/repo/ignored/etc/fstab': GOOD_LINE,
    });
    env.repository('/repo', { known: ['etc/fstab', 'bin/mount-data', 'README.txt', 'node_modules/x/etc/fstab'] });
    const project = new Project(env);
    const found = project.discover('/repo');
    expect(found.root).toMatchObject({ path: '/repo', gitRoot: '/repo', context: true });
    expect(found.paths).toEqual(['/repo/bin/mount-data', '/repo/etc/fstab']);
    const run = project.open(found.paths.map((path) => ({ path, root: found.root })));
    expect(run.targets.map((t) => t.path)).toEqual(['/repo/bin/mount-data', '/repo/etc/fstab']);
    expect(codes(run.lint(env.uriOf('/repo/bin/mount-data')).diagnostics)).toContain('ANF207');
  });

  it('outside git walks the folder with the same skip list', () => {
    expect(SKIPPED_DIRECTORIES.has('node_modules')).toBe(true);
    const env = new MemoryEnvironment({
      '/srv/a/etc/fstab': GOOD_LINE,
      '/srv/a/dist/etc/fstab': GOOD_LINE,
      '/srv/a/.venv/fstab': GOOD_LINE,
      '/srv/a/notes.md5': 'x',
    });
    const found = new Project(env).discover('/srv/a');
    expect(found.root.context).toBe(false);
    expect(found.paths).toEqual(['/srv/a/etc/fstab']);
  });

  it('reads no special file and no link that leads outside the root, and says so once', () => {
    const env = new MemoryEnvironment({
      '/secret/shadow': 'net.ipv4.tcp_timestamps = 2 # SECRET\n',
      '/repo/etc/fstab': GOOD_LINE,
      '/repo/etc/inside.conf': 'net.core.rmem_max = 16777216\n',
    });
    env.symlink('/repo/etc/sysctl.conf', '/secret/shadow');
    env.symlink('/repo/etc/sysctl.d/90-in.conf', '/repo/etc/inside.conf');
    env.special('/repo/hosts/b/etc/fstab');
    env.repository('/repo', {
      known: ['etc/fstab', 'etc/sysctl.conf', 'etc/sysctl.d/90-in.conf', 'hosts/b/etc/fstab'],
    });
    const project = new Project(env);
    const found = project.discover('/repo');
    const run = project.open(found.paths.map((path) => ({ path, root: found.root })));
    expect(run.targets.map((t) => t.path)).toEqual(['/repo/etc/fstab', '/repo/etc/sysctl.d/90-in.conf']);
    expect(env.reads).not.toContain('/secret/shadow');
    expect(env.reads).not.toContain('/repo/etc/sysctl.conf');
    expect(env.reads).not.toContain('/repo/hosts/b/etc/fstab');
    expect(project.notes.map((n) => `${n.path}: ${n.message}`)).toEqual([
      '/repo/etc/sysctl.conf: not read: a symbolic link that leads outside the repository or workspace folder',
      '/repo/hosts/b/etc/fstab: not read: not a regular file (a FIFO, socket, device or broken link)',
    ]);
    expect(project.errors).toEqual([]);
  });

  it('skips a discovered file over the size limit with a note; a named one may be larger', () => {
    const big = `${'#'.repeat(2000)}\n${GOOD_LINE}`;
    const env = new MemoryEnvironment({ '/repo/etc/fstab': big });
    env.repository('/repo');
    const project = new Project(env, {
      limits: { maxFiles: 100, maxEntries: 1000, maxFileBytes: 1000 },
      namedMaxBytes: 10_000,
    });
    expect(project.open([{ path: '/repo/etc/fstab' }]).targets).toEqual([]);
    expect(project.notes[0]?.message).toMatch(/more than the 1000-byte limit/);
    expect(project.open([{ path: '/repo/etc/fstab', named: true }]).targets).toHaveLength(1);
  });
});

describe('configuration', () => {
  it('takes the nearest .anf-lint.yaml above the file, never above its repository', () => {
    const env = new MemoryEnvironment({
      '/.anf-lint.yaml': 'rules:\n  ANF001: error\n',
      '/repo/.anf-lint.yaml': 'rules:\n  ANF001: info\n',
      '/repo/team/.anf-lint.yml': 'rules:\n  ANF001: off\n',
      '/repo/team/etc/fstab': UNUSED + GOOD_LINE,
      '/repo/etc/fstab': UNUSED + GOOD_LINE,
      '/repo/sub/etc/fstab': UNUSED + GOOD_LINE,
      '/norepo/.anf-lint.yaml': 'rules:\n  ANF001: hint\n',
      '/norepo/x/etc/fstab': UNUSED + GOOD_LINE,
    });
    env.repository('/repo');
    const project = new Project(env);
    expect(project.configFor('/repo/team/etc/fstab').path).toBe('/repo/team/.anf-lint.yml');
    expect(project.configFor('/repo/sub/etc/fstab').path).toBe('/repo/.anf-lint.yaml');
    const run = project.open([{ path: '/repo/etc/fstab' }, { path: '/repo/team/etc/fstab' }]);
    expect(run.lint(env.uriOf('/repo/etc/fstab')).diagnostics.map((d) => d.severity)).toEqual(['info']);
    expect(run.lint(env.uriOf('/repo/team/etc/fstab')).diagnostics).toEqual([]);
    // Outside git (and without a current folder above it) the file's folder is its root: no lookup above it.
    expect(project.configFor('/norepo/x/etc/fstab').path).toBeUndefined();
    // From a current folder above it, the lookup reaches up to the current folder.
    expect(new Project(env, { cwd: '/norepo' }).configFor('/norepo/x/etc/fstab').path).toBe('/norepo/.anf-lint.yaml');
  });

  it('outside git stops at the folder named or the current folder, below the home folder and before a shared /tmp, and says which file it left out', () => {
    const env = new MemoryEnvironment({
      '/.anf-lint.yaml': 'rules:\n  ANF001: error\n',
      '/home/.anf-lint.yaml': 'rules:\n  ANF001: error\n',
      '/home/user/.anf-lint.yaml': 'rules:\n  ANF001: hint\n',
      '/home/user/estate/.anf-lint.yaml': 'rules:\n  ANF001: info\n',
      '/home/user/estate/hosts/a/etc/fstab': UNUSED + GOOD_LINE,
      '/tmp/.anf-lint.yaml': 'rules:\n  ANF001: off\n',
      '/tmp/work/hosts/a/etc/fstab': UNUSED + GOOD_LINE,
      '/srv/hosts/a/etc/fstab': UNUSED + GOOD_LINE,
    });
    // Run from the estate folder: its .anf-lint.yaml applies, nothing above it is read.
    const inEstate = new Project(env, { cwd: '/home/user/estate' });
    expect(inEstate.configFor('/home/user/estate/hosts/a/etc/fstab').path).toBe('/home/user/estate/.anf-lint.yaml');
    // Run from the hosts folder: the estate's file is above the current folder, not used, and a note says so.
    const inHosts = new Project(env, { cwd: '/home/user/estate/hosts' });
    expect(inHosts.configFor('/home/user/estate/hosts/a/etc/fstab').path).toBeUndefined();
    expect(inHosts.notes).toEqual([
      {
        path: '/home/user/estate/.anf-lint.yaml',
        message: expect.stringContaining(
          'not used for the files under /home/user/estate/hosts: outside a git repository',
        ),
      },
    ]);
    expect(inHosts.notes[0]!.message).toContain('pass --config /home/user/estate/.anf-lint.yaml');
    // Run from `/`: the lookup still stops at the home folder (its own file applies), never /home or /.
    const fromTop = new Project(env, { cwd: '/' });
    expect(fromTop.configFor('/home/user/estate/hosts/a/etc/fstab').path).toBe('/home/user/estate/.anf-lint.yaml');
    const withoutEstate = new MemoryEnvironment({
      '/home/.anf-lint.yaml': 'x: 1\n',
      '/home/user/.anf-lint.yaml': 'rules:\n  ANF001: hint\n',
      '/home/user/p/etc/fstab': GOOD_LINE,
    });
    expect(new Project(withoutEstate, { cwd: '/' }).configFor('/home/user/p/etc/fstab').path).toBe(
      '/home/user/.anf-lint.yaml',
    );
    withoutEstate.home = '/home/other';
    // A file outside the home folder: the current folder bounds it (here /), /home is read.
    expect(new Project(withoutEstate, { cwd: '/' }).configFor('/home/user/p/etc/fstab').path).toBe(
      '/home/user/.anf-lint.yaml',
    );
    // In a shared /tmp: never /tmp/.anf-lint.yaml, even from `/` or from /tmp itself; a note names it.
    for (const cwd of ['/', '/tmp']) {
      const inTmp = new Project(env, { cwd });
      expect(inTmp.configFor('/tmp/work/hosts/a/etc/fstab').path).toBeUndefined();
      expect(inTmp.notes.map((n) => n.path)).toEqual(['/tmp/.anf-lint.yaml']);
    }
    expect(env.reads).not.toContain('/tmp/.anf-lint.yaml');
    // Elsewhere, from `/`: up to `/`, as the user asked by running there.
    expect(new Project(env, { cwd: '/' }).configFor('/srv/hosts/a/etc/fstab').path).toBe('/.anf-lint.yaml');
    // Named from elsewhere: the file's folder is its root.
    expect(new Project(env, { cwd: '/home/user' }).configFor('/srv/hosts/a/etc/fstab').path).toBeUndefined();
  });

  it('stops at the repository root: a configuration above it is not read', () => {
    const env = new MemoryEnvironment({
      '/shared/.anf-lint.yaml': 'rules:\n  ANF001: off\n',
      '/shared/repo/etc/fstab': UNUSED + GOOD_LINE,
    });
    env.repository('/shared/repo');
    const project = new Project(env);
    expect(project.configFor('/shared/repo/etc/fstab').path).toBeUndefined();
    expect(env.reads).not.toContain('/shared/.anf-lint.yaml');
  });

  it('never opens a FIFO named .anf-lint.yaml, in the folder or above it', () => {
    const env = new MemoryEnvironment({
      '/tmp/x/.anf-lint.yaml': 'rules:\n  ANF001: off\n',
      '/tmp/x/y/etc/fstab': UNUSED + GOOD_LINE,
    });
    env.special('/tmp/x/y/.anf-lint.yaml');
    env.special('/tmp/.anf-lint.yaml');
    const project = new Project(env, { cwd: '/tmp/x' });
    // MemoryEnvironment throws on reading a special file: a read would fail this test.
    expect(project.configFor('/tmp/x/y/etc/fstab').path).toBe('/tmp/x/.anf-lint.yaml');
    // With nothing to find, the FIFO above is looked at for the note, never opened.
    env.writeText('/tmp/x/.anf-lint.yaml', '');
    env.special('/tmp/x/.anf-lint.yaml');
    expect(new Project(env, { cwd: '/tmp/x/y' }).configFor('/tmp/x/y/etc/fstab').path).toBeUndefined();
  });

  it('multi-root: each workspace folder is its own root, with its own configuration and context', () => {
    const env = new MemoryEnvironment({
      '/ws/hana/.anf-lint.yaml': 'workload: sap-hana-data\n',
      '/ws/hana/etc/fstab': GOOD_LINE,
      '/ws/eda/etc/fstab': GOOD_LINE,
      '/ws/eda/eda.anf.yaml': MANIFEST,
    });
    const project = new Project(env, { folders: ['/ws/hana', '/ws/eda'] });
    expect(project.rootOf('/ws/hana/etc/fstab')).toMatchObject({ path: '/ws/hana', context: true });
    expect(project.configFor('/ws/eda/etc/fstab').path).toBeUndefined();
    expect(project.configFor('/ws/hana/etc/fstab').resolved.defaultWorkload).toBe('sap-hana-data');
    expect(project.context(project.rootOf('/ws/hana/etc/fstab')).map((f) => f.path)).toEqual([
      '/ws/hana/.anf-lint.yaml',
      '/ws/hana/etc/fstab',
    ]);
  });
});

describe('context', () => {
  it("comes from the linted file's own repository, not from the current folder's", () => {
    const env = new MemoryEnvironment({
      '/srv/infra/etc/fstab': GOOD_LINE,
      '/srv/infra/estate.anf.yaml': MANIFEST,
      '/home/me/other/etc/fstab': GOOD_LINE,
      '/home/me/other/other.anf.yaml': MANIFEST.replace('workload: eda-tools', 'workload: sap-hana-log'),
    });
    env.repository('/srv/infra');
    env.repository('/home/me/other');
    const project = new Project(env, { cwd: '/home/me/other' });
    const run = project.open([{ path: '/srv/infra/etc/fstab', named: true }]);
    const workspace = run.workspaceOf(env.uriOf('/srv/infra/etc/fstab'));
    expect(
      workspace
        .files()
        .map((f) => f.uri)
        .sort(),
    ).toEqual([env.uriOf('/srv/infra/estate.anf.yaml'), env.uriOf('/srv/infra/etc/fstab')]);
    const mount = workspace.file(env.uriOf('/srv/infra/etc/fstab'))!.mounts[0]!;
    expect(workspace.workloadOf(mount)).toEqual({ workload: 'eda-tools', source: 'manifest' });
  });
});

describe('the fix engine', () => {
  const config = resolveConfig();

  it('applies a fix whole or not at all, and loops until nothing changes', () => {
    const workspace = new Workspace(config);
    const uri = 'file:///r/etc/fstab';
    workspace.set(uri, `${UNUSED}${UNUSED}${GOOD_LINE}`);
    const run = fixFiles(workspace, [uri], () => config, 'safe');
    expect(run.texts.get(uri)).toBe(GOOD_LINE);
    expect(run.applied.map((a) => [a.code, a.applicability])).toEqual([
      ['ANF001', 'safe'],
      ['ANF001', 'safe'],
    ]);
    expect(run.unfinished).toBe(false);
  });

  it('skips a whole fix when one of its edits overlaps an edit already taken', () => {
    const diagnostic = (
      code: string,
      edits: [number, number, string][],
      applicability: FixApplicability = 'safe',
    ): Diagnostic => ({
      uri: 'u',
      code,
      severity: 'warning',
      message: code,
      span: { start: 0, end: 0 },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      fixes: [
        {
          title: code,
          applicability,
          edits: edits.map(([start, end, newText]) => ({
            uri: 'u',
            span: { start, end },
            newText,
            range: { start: { line: 0, character: start }, end: { line: 0, character: end } },
          })),
        },
      ],
      related: [],
      tags: [],
    });
    const chosen = selectFixes(
      [
        diagnostic('A', [[0, 2, 'x']]),
        diagnostic('B', [
          [10, 12, 'y'],
          [1, 3, 'z'],
        ]),
        diagnostic('C', [[20, 21, 'w']]),
        diagnostic('D', [[30, 31, 'v']], 'unsafe'),
      ],
      'safe',
    );
    expect(chosen.chosen.map((c) => c.diagnostic.code)).toEqual(['A', 'C']);
    expect(chosen.edits.map((e) => e.newText)).toEqual(['x', 'w']);
    expect(
      selectFixes([diagnostic('D', [[30, 31, 'v']], 'unsafe')], 'unsafe').chosen.map((c) => c.fix.applicability),
    ).toEqual(['unsafe']);
  });

  it('never fixes a file that is not valid UTF-8 and says why', () => {
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('# caf'),
      0xe9,
      ...new TextEncoder().encode(`\n${UNUSED}${GOOD_LINE}`),
    ]);
    const env = new MemoryEnvironment({ '/repo/etc/fstab': latin1 });
    env.repository('/repo');
    const project = new Project(env);
    const run = project.open([{ path: '/repo/etc/fstab' }]);
    const fixed = run.fix('safe');
    expect(fixed.after.size).toBe(0);
    expect(project.notes.map((n) => n.message)).toEqual([
      'not fixed: the file is not valid UTF-8, and a fix would rewrite bytes it does not mean to edit (1 fix not applied)',
    ]);
    expect(env.bytes('/repo/etc/fstab')).toEqual(latin1);
  });

  it('writes through the environment, atomically; a failed write leaves the file and says why', () => {
    const env = new MemoryEnvironment({
      '/repo/etc/fstab': UNUSED + GOOD_LINE,
      '/repo/b/etc/fstab': UNUSED + GOOD_LINE,
    });
    env.repository('/repo');
    env.failWrites.set('/repo/b/etc/fstab', 'ENOSPC');
    const project = new Project(env);
    const run = project.open([{ path: '/repo/etc/fstab' }, { path: '/repo/b/etc/fstab' }]);
    const fixed = run.fix('safe');
    expect(project.write('/repo/etc/fstab', fixed.after.get(env.uriOf('/repo/etc/fstab'))!)).toBeUndefined();
    expect(env.text('/repo/etc/fstab')).toBe(GOOD_LINE);
    expect(project.write('/repo/b/etc/fstab', fixed.after.get(env.uriOf('/repo/b/etc/fstab'))!)).toBe(
      'cannot write the fixed file (no space left on the device); the file is unchanged',
    );
    expect(env.text('/repo/b/etc/fstab')).toBe(UNUSED + GOOD_LINE);
  });

  it('never writes through a link that leads outside the repository', () => {
    const env = new MemoryEnvironment({ '/etc/fstab': UNUSED + GOOD_LINE, '/repo/README.md': '# x\n' });
    env.symlink('/repo/etc/fstab', '/etc/fstab');
    env.repository('/repo');
    const project = new Project(env);
    expect(project.write('/repo/etc/fstab', GOOD_LINE)).toBe(
      'not written: it leads outside the repository or workspace folder',
    );
    expect(env.text('/etc/fstab')).toBe(UNUSED + GOOD_LINE);
  });
});
