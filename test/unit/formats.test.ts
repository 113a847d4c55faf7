import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { asOptionString } from '../../server/src/core/mounts/optionStrings';
import { detectFileKind } from '../../server/src/core/fileKind';

/**
 * Where real repositories keep mount options and kernel settings (issue 14): one realistic fixture
 * folder per format under test/fixtures/formats/, linted as one workspace. Each test lists every
 * finding as `path:line code`, so a new false alarm or a lost finding fails it.
 */
const ROOT = join(__dirname, '../fixtures/formats');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

function lintFolder(folder: string): { findings: string[]; kinds: Record<string, string> } {
  const ws = new Workspace();
  const base = join(ROOT, folder);
  const files = filesUnder(base).sort();
  for (const path of files) ws.set(`file://${path}`, readFileSync(path, 'utf8'));
  const config = resolveConfig({});
  const findings: string[] = [];
  const kinds: Record<string, string> = {};
  for (const path of files) {
    const uri = `file://${path}`;
    kinds[relative(base, path)] = ws.file(uri)!.kind;
    for (const d of visibleDiagnostics(lintFile(ws, uri, config)))
      findings.push(`${relative(base, path)}:${d.range.start.line + 1} ${d.code}`);
  }
  return { findings, kinds };
}

describe('Ansible beyond the mount module', () => {
  const { findings, kinds } = lintFolder('ansible');
  it('reads role defaults/ and vars/, group_vars and tasks as Ansible', () => {
    expect(kinds).toEqual({
      'group_vars/hana.yml': 'ansible-vars',
      'roles/hana_nfs/defaults/main.yml': 'ansible-vars',
      'roles/hana_nfs/tasks/main.yml': 'ansible',
      'roles/hana_nfs/vars/main.yml': 'ansible-vars',
    });
  });
  it('finds option strings in vars, set_fact and loop items, sysctl tasks and written bodies', () => {
    expect(findings).toEqual([
      'group_vars/hana.yml:8 ANF203', // sec=krb5z in a list of mount dicts
      'roles/hana_nfs/defaults/main.yml:8 ANF202', // nconect in a role default
      'roles/hana_nfs/defaults/main.yml:10 ANF240', // 'nfs nfsvers=4.1,sec=sys'
      'roles/hana_nfs/tasks/main.yml:4 ANF241', // set_fact with an extra pair of quotes
      'roles/hana_nfs/tasks/main.yml:15 ANF203', // 'opts': 'vers=4,minorversion=1,sec=syss' in a loop item
      'roles/hana_nfs/tasks/main.yml:22 ANF240', // opts: nfs vers=4.1,...
      'roles/hana_nfs/tasks/main.yml:39 ANF303', // blockinfile into sysctl.d: tcp_wmem with two fields
      'roles/hana_nfs/tasks/main.yml:51 ANF221', // blockinfile into /etc/fstab
    ]);
  });
  it('reads a mount task over a literal loop as one mount per item', () => {
    const path = join(ROOT, 'ansible/roles/hana_nfs/tasks/main.yml');
    const text = readFileSync(path, 'utf8');
    const looped = parseFile(`file://${path}`, text).mounts.filter(
      (m) => m.origin === 'ansible' && m.mountPoint?.startsWith('/hana/'),
    );
    expect(
      looped.map((m) => [
        m.server,
        m.exportPath,
        m.mountPoint,
        m.fsType,
        m.options.map((o) => text.slice(o.span.start, o.span.end)).join(','),
      ]),
    ).toEqual([
      ['10.20.1.4', '/hn1-data-mnt00001', '/hana/data/HN1/mnt00001', 'nfs', 'rw,hard,vers=4,minorversion=1,sec=sys'],
      ['10.20.1.4', '/hn1-log-mnt00001', '/hana/log/HN1/mnt00001', 'nfs', 'vers=4,minorversion=1,sec=syss'],
    ]);
    expect(looped.every((m) => !m.templated && !m.optionsOnly)).toBe(true);
  });
  it('reads mount-shaped maps in variables (src, path, opts) as whole mounts', () => {
    const path = join(ROOT, 'ansible/group_vars/hana.yml');
    const mounts = parseFile(`file://${path}`, readFileSync(path, 'utf8')).mounts;
    expect(mounts.map((m) => [m.server, m.mountPoint, m.isNfs, m.optionsOnly ?? false])).toEqual([
      ['10.20.1.4', '/hana/shared', true, false],
      ['10.20.1.4', '/usr/sap/HN1', true, false],
    ]);
  });
  it('reads ansible.posix.sysctl tasks and bodies with offsets in the YAML', () => {
    const path = join(ROOT, 'ansible/roles/hana_nfs/tasks/main.yml');
    const text = readFileSync(path, 'utf8');
    const file = parseFile(`file://${path}`, text);
    expect(
      file.settings.map(
        (s) => `${text.slice(s.keySpan.start, s.keySpan.end)}=${text.slice(s.valueSpan.start, s.valueSpan.end)}`,
      ),
    ).toEqual([
      'net.ipv4.tcp_rmem=4096 131072 16777216',
      'sunrpc.tcp_slot_table_entries=128',
      'net.ipv4.tcp_sack=1',
      'net.ipv4.tcp_wmem=4096 16384',
      'max_session_slots=180',
    ]);
  });
});

describe('Ansible templates of line-based files', () => {
  const { findings, kinds } = lintFolder('templates');
  it('reads `.j2` templates of fstab, sysctl.d and systemd units as those files', () => {
    expect(kinds).toEqual({
      'roles/hpc_nfs/templates/fstab.j2': 'fstab',
      'roles/hpc_nfs/templates/scratch.mount.j2': 'systemd-mount',
      'roles/hpc_nfs/templates/sysctl.d/90-nfs.conf.j2': 'sysctl',
    });
  });
  it('skips `{% %}`, `{# #}` and whole-placeholder lines, and judges the literal lines', () => {
    expect(findings).toEqual([
      'roles/hpc_nfs/templates/fstab.j2:8 ANF205', // rsize=262144 and wsize=65536 differ
      'roles/hpc_nfs/templates/fstab.j2:8 ANF206', // wsize=65536 is small for ANF
      'roles/hpc_nfs/templates/scratch.mount.j2:13 ANF207', // soft
      'roles/hpc_nfs/templates/sysctl.d/90-nfs.conf.j2:3 ANF320', // the role's mounts, and no slot table set
      'roles/hpc_nfs/templates/sysctl.d/90-nfs.conf.j2:6 ANF303', // tcp_wmem with two fields
    ]);
  });
});

describe('Kubernetes and Helm', () => {
  it('reads PersistentVolume and StorageClass mountOptions and Trident nfsMountOptions; Azure Files SMB and other args stay quiet', () => {
    const { findings, kinds } = lintFolder('kubernetes');
    expect(Object.values(kinds)).toEqual(['kubernetes', 'kubernetes', 'kubernetes']);
    expect(findings).toEqual(['hana-pv.yaml:35 ANF203', 'storageclass.yaml:27 ANF202']);
  });
  it("keeps a PV's nfs server and path with its mountOptions", () => {
    const path = join(ROOT, 'kubernetes/hana-pv.yaml');
    const mount = parseFile(`file://${path}`, readFileSync(path, 'utf8')).mounts[0]!;
    expect(mount).toMatchObject({
      server: '10.20.1.4',
      exportPath: '/hn1-shared',
      origin: 'kubernetes',
      host: 'kubernetes',
    });
    expect(mount.optionsOnly).toBeUndefined(); // a PV's mountOptions are its whole option list
    expect(mount.options.map((o) => o.name)).toEqual(['nfsvers', 'hard', 'rsize', 'wsize', 'nconnect']);
  });
  it('reads Helm values and templates (not valid YAML) and judges only literal text', () => {
    const { findings, kinds } = lintFolder('helm');
    expect(kinds).toEqual({ 'anf-nfs/templates/pv.yaml': 'helm', 'anf-nfs/values.yaml': 'helm' });
    expect(findings).toEqual(['anf-nfs/templates/pv.yaml:15 ANF212', 'anf-nfs/values.yaml:11 ANF202']);
  });
});

describe('JSON', () => {
  it('reads option strings in JSON values (a Trident backend.json, Packer variables)', () => {
    const { findings, kinds } = lintFolder('json');
    expect(kinds).toEqual({ 'backend-anf.json': 'json-options', 'packer-vars.json': 'json-options' });
    expect(findings).toEqual(['packer-vars.json:3 ANF212']);
  });
  it('leaves other JSON alone', () => {
    expect(detectFileKind('file:///repo/package.json', '{ "name": "x", "version": "1.0.0" }')).toBe('unknown');
  });
});

describe('saptune and tuned', () => {
  it("reads a saptune note's [sysctl] section; [version], [vm] and [reminder] are no errors", () => {
    const { findings, kinds } = lintFolder('saptune');
    expect(kinds).toEqual({ 'etc/saptune/extra/ANF-HANA.conf': 'saptune' });
    expect(findings).toEqual([
      'etc/saptune/extra/ANF-HANA.conf:15 ANF306',
      'etc/saptune/extra/ANF-HANA.conf:16 ANF319',
      'etc/saptune/extra/ANF-HANA.conf:17 ANF303',
    ]);
  });
  it('detects a saptune note by its sections when the path says nothing', () => {
    expect(
      detectFileKind('file:///repo/notes/1680803', '[version]\n# SAP-NOTE=1680803\n[sysctl]\nnet.ipv4.tcp_sack = 1\n'),
    ).toBe('saptune');
    expect(detectFileKind('file:///repo/app.conf', '[main]\nport = 80\n')).toBe('unknown');
  });
  it("reads a tuned profile's [sysctl] section", () => {
    expect(lintFolder('tuned').findings).toEqual(['usr/lib/tuned/sap-anf/tuned.conf:8 ANF304']);
  });
});

describe('shell', () => {
  it('reads options kept in variables, echo/printf/here-documents into sysctl.d and modprobe.d', () => {
    expect(lintFolder('shell').findings).toEqual(['mount-eda.sh:7 ANF202', 'mount-eda.sh:14 ANF303']);
  });
  it('gives `mount -o "$OPTS"` the options of a literal assignment used once', () => {
    const text = '#!/bin/sh\nOPTS="rw,hard,vers=3,nconnect=8"\nmount -t nfs -o "$OPTS" 10.0.0.4:/tools /tools\n';
    const mount = parseFile('file:///repo/m.sh', text).mounts.find((m) => m.origin === 'mount-command')!;
    expect(mount.options.map((o) => text.slice(o.span.start, o.span.end))).toEqual([
      'rw',
      'hard',
      'vers=3',
      'nconnect=8',
    ]);
    expect(mount.templated).toBeUndefined();
    // Used twice: unknown for each mount, and found once by its content.
    const twice = parseFile('file:///repo/m.sh', `${text}mount -t nfs -o "$OPTS" 10.0.0.4:/lib /lib\n`).mounts;
    expect(twice.map((m) => m.origin)).toEqual(['mount-command', 'mount-command', 'option-string']);
  });
  it('reports `-o "\'rw,hard\'"`: mount receives the inner quotes', () => {
    const ws = new Workspace();
    ws.set('file:///repo/m.sh', `mount -t nfs -o "'rw,hard,vers=3'" 10.0.0.4:/tools /tools\n`);
    const found = visibleDiagnostics(lintFile(ws, 'file:///repo/m.sh', resolveConfig({})));
    expect(found.map((d) => `${d.code} ${d.severity}`)).toEqual(['ANF241 error']);
  });
  it('reads printf into modprobe.d', () => {
    const text =
      "printf 'options sunrpc tcp_max_slot_table_entries=128\\noptions nfs max_session_slots=180\\n' > /etc/modprobe.d/anf.conf\n";
    expect(parseFile('file:///repo/t.sh', text).settings.map((s) => `${s.key}=${s.value}`)).toEqual([
      'sunrpc.tcp_max_slot_table_entries=128',
      'nfs.max_session_slots=180',
    ]);
  });
});

describe('documentation', () => {
  it('reads Markdown inline code and YAML/shell blocks, and reStructuredText literal blocks', () => {
    const { findings, kinds } = lintFolder('docs');
    expect(kinds).toEqual({ 'install.rst': 'rst', 'nfs-client.md': 'markdown' });
    expect(findings).toEqual([
      'install.rst:6 ANF202', // `::` literal block with a mount command
      'install.rst:14 ANF203', // ``...`` inline literal
      'nfs-client.md:4 ANF210', // inline code with noac
      'nfs-client.md:5 ANF207', // inline code with soft
      'nfs-client.md:10 ANF202', // ```yaml block
      'nfs-client.md:14 ANF203', // ```bash block: the variable the mount uses
      'nfs-client.md:22 ANF202', // an NFS fstab line in a block without a language
      'nfs-client.md:25 ANF203', // a mount command in inline code
    ]);
  });
  it('reads sysctl blocks of reStructuredText', () => {
    const path = join(ROOT, 'docs/install.rst');
    expect(parseFile(`file://${path}`, readFileSync(path, 'utf8')).settings.map((s) => s.key)).toEqual([
      'net.ipv4.tcp_sack',
      'net.core.rmem_max',
    ]);
  });
});

describe('autofs', () => {
  it('knows autofs-only options (nobind, strictexpire, symlink, use-weight-only): a valid map stays clean', () => {
    const { findings, kinds } = lintFolder('autofs');
    expect(kinds).toEqual({ 'auto.eda': 'autofs', 'roles/eda_autofs/templates/auto.eda.j2': 'autofs' });
    // A map written from a Jinja template: `{% for %}` lines and placeholders are not judged; the typo `nobnid` is.
    expect(findings).toEqual(['roles/eda_autofs/templates/auto.eda.j2:7 ANF202']);
  });
  it('reports an autofs-only option where mount.nfs reads it directly', () => {
    const ws = new Workspace();
    ws.set('file:///etc/fstab', '10.10.1.4:/eda-tools /tools nfs ro,hard,vers=3,nobind,_netdev 0 0\n');
    expect(visibleDiagnostics(lintFile(ws, 'file:///etc/fstab', resolveConfig({}))).map((d) => d.code)).toEqual([
      'ANF202',
    ]);
  });
});

describe('no false alarms', () => {
  it('stays silent on CSV strings, URLs, docker and k8s args, Azure Files SMB and Blob NFS', () => {
    const { findings, kinds } = lintFolder('negatives');
    expect(kinds['app-config.yml']).toBe('yaml-options');
    expect(findings).toEqual([]);
  });
  it('keeps vendor-prescribed files clean (SAP HANA on ANF, Oracle, Azure Files NFS, Blob NFS, the ANF PV example)', () => {
    expect(lintFolder('vendor').findings).toEqual([]);
  });
});

describe('the option-string heuristic', () => {
  const reads = (text: string) =>
    asOptionString(text, 0)?.options.map((o) => `${o.name}${o.templated ? ' (templated)' : ''}`);
  it('takes one unmistakable option, or known options with an NFS value', () => {
    expect(reads('vers=3')).toEqual(['vers']);
    expect(reads('nconnect=8')).toEqual(['nconnect']);
    expect(reads('rw,hard,sec=sys')).toEqual(['rw', 'hard', 'sec']);
    expect(reads('rw,hard,nolock')).toEqual(['rw', 'hard', 'nolock']);
    expect(reads('vers=4,minorversion=1,sec=syss')).toEqual(['vers', 'minorversion', 'sec']);
    expect(reads('rw,hard,nconect=8,vers=3')).toEqual(['rw', 'hard', 'nconect', 'vers']);
  });
  it('treats placeholders as unknown parts and still reads the literal ones', () => {
    expect(reads('{{ base_opts }},vers=4.1,rsize=262144')).toEqual(['{{ base_opts }} (templated)', 'vers', 'rsize']);
    expect(reads('rw,hard,vers=%s,rsize=262144')).toEqual(['rw', 'hard', 'vers (templated)', 'rsize']);
    expect(reads('rw,hard,vers=<version>,rsize=262144')).toEqual(['rw', 'hard', 'vers (templated)', 'rsize']);
  });
  it('reads a file system type and an extra pair of quotes through', () => {
    expect(asOptionString('nfs nfsvers=4.1,sec=sys', 0)).toMatchObject({
      fsType: { text: 'nfs', span: { start: 0, end: 3 } },
    });
    expect(asOptionString("'rw,vers=4,minorversion=1'", 0)).toMatchObject({
      quotes: { open: { start: 0, end: 1 }, close: { start: 25, end: 26 } },
    });
  });
  it('leaves other strings alone', () => {
    for (const text of [
      'tcp,udp',
      'hard,soft',
      'name,size,rw,ro',
      'defaults,noatime,nofail',
      'defaults,_netdev',
      'https://x.example.com/?vers=3&nconnect=4',
      'vers=3.0,credentials=/etc/smb.cred,dir_mode=0777',
      'vers=3.1.1',
      'type=volume,source=data,target=/data',
      'tier=web,env=prod',
      'cifs vers=3.0,serverino',
      '-o rw,hard,vers=3',
      'rw, hard, vers=3',
      'port=5432,user=postgres',
      'host=db,port=5432,proto=tcp',
      'reconnect,ServerAliveInterval=15',
    ])
      expect(reads(text), text).toBeUndefined();
  });
});
