import { describe, expect, it } from 'vitest';
import { parseFile } from '../../server/src/core';
import type { MountEntry } from '../../server/src/core/mounts/model';

/** Parses `text` as the file at `path` and returns its mounts and problems. */
function parse(path: string, text: string) {
  const file = parseFile(`file:///repo/${path}`, text);
  return {
    file,
    mounts: file.mounts,
    problems: file.problems,
    at: (span: { start: number; end: number } | undefined) => (span ? text.slice(span.start, span.end) : undefined),
  };
}

/** Each option as `text-at-its-span`, so a test shows exact spans at a glance. */
function optionTexts(text: string, mount: MountEntry): string[] {
  return mount.options.map((o) => `${text.slice(o.span.start, o.span.end)}${o.templated ? ' (templated)' : ''}`);
}

describe('fstab', () => {
  const text = [
    '# /etc/fstab',
    'UUID=abc  /  xfs  defaults  0 1',
    '',
    '10.10.1.4:/eda-tools  /opt/eda\\040tools  nfs  ro,hard,vers=3,nconnect=8,_netdev  0  0',
    '\t10.10.1.4:/eda-scratch\t/scratch\tnfs4\trw,hard',
    '{{ anf_ip }}:/eda-home  /home/eda  nfs  {{ nfs_opts }}  0  0',
  ].join('\n');
  const { mounts, problems, at } = parse('etc/fstab', text);

  it('reads every entry, NFS or not', () => {
    expect(mounts.map((m) => [m.source, m.isNfs])).toEqual([
      ['UUID=abc', false],
      ['10.10.1.4:/eda-tools', true],
      ['10.10.1.4:/eda-scratch', true],
      ['{{ anf_ip }}:/eda-home', true],
    ]);
    expect(problems).toEqual([]);
  });

  it('gives exact spans for fields, option names and values', () => {
    const tools = mounts[1]!;
    expect(at(tools.sourceSpan)).toBe('10.10.1.4:/eda-tools');
    expect(at(tools.mountPointSpan)).toBe('/opt/eda\\040tools');
    expect(tools.mountPointDecoded).toBe('/opt/eda tools');
    expect(at(tools.fsTypeSpan)).toBe('nfs');
    expect(at(tools.optionsSpan)).toBe('ro,hard,vers=3,nconnect=8,_netdev');
    expect(optionTexts(text, tools)).toEqual(['ro', 'hard', 'vers=3', 'nconnect=8', '_netdev']);
    const nconnect = tools.options[3]!;
    expect([at(nconnect.nameSpan), at(nconnect.valueSpan)]).toEqual(['nconnect', '8']);
    expect([tools.server, tools.exportPath]).toEqual(['10.10.1.4', '/eda-tools']);
    expect([at(tools.dumpSpan), at(tools.fsckPassSpan)]).toEqual(['0', '0']);
  });

  it('reads tab-separated lines with four fields', () => {
    const scratch = mounts[2]!;
    expect(scratch.fsType).toBe('nfs4');
    expect(scratch.fsckPass).toBeUndefined();
  });

  it('keeps a Jinja placeholder with spaces in one field and marks it templated', () => {
    const home = mounts[3]!;
    expect(home.templated).toBe(true);
    expect(home.options.map((o) => [o.name, o.templated])).toEqual([['{{ nfs_opts }}', true]]);
    expect(home.mountPoint).toBe('/home/eda');
  });

  it('reports missing and extra fields as ANF200', () => {
    const bad = parse('etc/fstab', '10.10.1.4:/a /a\n10.10.1.4:/b /b nfs rw, hard 0 0\n');
    expect(bad.problems.map((p) => [p.code, bad.at(p.span)])).toEqual([
      ['ANF200', '10.10.1.4:/a /a'],
      ['ANF200', '0'],
    ]);
  });

  it('detects fstab by name: fstab, *.fstab, etc/fstab*', () => {
    expect(parse('hosts/node1.fstab', '10.0.0.4:/x /x nfs rw 0 0\n').mounts).toHaveLength(1);
    expect(parse('etc/fstab.eda', '10.0.0.4:/x /x nfs rw 0 0\n').mounts).toHaveLength(1);
  });
});

describe('mount commands in shell scripts', () => {
  it('reads sudo, -t, -o, quoted options, continuations and a trailing annotation', () => {
    const text =
      '#!/bin/bash\nsudo -E mount -t nfs \\\n  -o "rw,hard,vers=3" \\\n  10.10.1.4:/eda-tools /tools   # anf: workload=eda-tools\n';
    const { mounts, at } = parse('scripts/mount.sh', text);
    expect(mounts).toHaveLength(1);
    const m = mounts[0]!;
    expect(optionTexts(text, m)).toEqual(['rw', 'hard', 'vers=3']);
    expect(at(m.optionsSpan)).toBe('rw,hard,vers=3');
    expect(at(m.sourceSpan)).toBe('10.10.1.4:/eda-tools');
    expect(at(m.mountPointSpan)).toBe('/tools');
    expect(at(m.fsTypeSpan)).toBe('nfs');
    expect(at(m.span)).toBe('mount -t nfs \\\n  -o "rw,hard,vers=3" \\\n  10.10.1.4:/eda-tools /tools');
    expect(m.annotatedWorkload).toBe('eda-tools');
  });

  it('reads -o after the operands, --options=, --types, -oOPTS and redirections', () => {
    const text = [
      'mount 10.0.0.4:/a /a -o rw,hard 2>/dev/null',
      'mount --types nfs4 --options=ro,soft srv:/b /b',
      'mount -t nfs -orw,nconnect=8 srv:/c /c && echo ok',
      'mount.nfs4 srv:/d /d -o vers=4.1',
    ].join('\n');
    const { mounts } = parse('scripts/m.sh', text);
    expect(mounts.map((m) => [m.source, m.mountPoint, m.fsType ?? '', optionTexts(text, m).join(',')])).toEqual([
      ['10.0.0.4:/a', '/a', '', 'rw,hard'],
      ['srv:/b', '/b', 'nfs4', 'ro,soft'],
      ['srv:/c', '/c', 'nfs', 'rw,nconnect=8'],
      ['srv:/d', '/d', 'nfs4', 'vers=4.1'],
    ]);
    expect(mounts.every((m) => m.isNfs)).toBe(true);
  });

  it('marks shell variables as templated and keeps the literal parts', () => {
    const text = 'mount -t nfs -o "rw,hard,${EXTRA}" "$ANF_IP:/eda-home" /home/eda\n';
    const m = parse('scripts/m.sh', text).mounts[0]!;
    expect(m.templated).toBe(true);
    expect(m.options.map((o) => [o.name, o.templated])).toEqual([
      ['rw', false],
      ['hard', false],
      ['${EXTRA}', true],
    ]);
    expect(m.server).toBeUndefined();
    expect(m.exportPath).toBe('/eda-home');
  });

  it('reads fstab lines written by echo/tee and here-documents', () => {
    const text = [
      'echo "10.0.0.4:/a /a nfs rw,hard,vers=3 0 0" | sudo tee -a /etc/fstab',
      "echo '10.0.0.4:/b /b nfs rw 0 0' >> /etc/fstab",
      'cat >> /etc/fstab <<EOF',
      '10.0.0.4:/c /c nfs rw,vers=3 0 0',
      'EOF',
      'mount -a',
    ].join('\n');
    const { mounts, at } = parse('scripts/m.sh', text);
    expect(mounts.map((m) => [m.origin, m.source])).toEqual([
      ['fstab', '10.0.0.4:/a'],
      ['fstab', '10.0.0.4:/b'],
      ['fstab', '10.0.0.4:/c'],
    ]);
    expect(at(mounts[0]!.optionsSpan)).toBe('rw,hard,vers=3');
  });

  it('parses non-NFS mounts but does not mark them NFS, and skips mount -a / mount <dir>', () => {
    const { mounts } = parse(
      'scripts/m.sh',
      'mount /dev/sdb1 /data\nmount -a -t nfs\nmount /scratch\nmount -t xfs -o noatime /dev/sdc /x\n',
    );
    expect(mounts.map((m) => [m.source, m.isNfs])).toEqual([
      ['/dev/sdb1', false],
      ['/dev/sdc', false],
    ]);
  });

  it('reads the script of sh -c / bash -c in place', () => {
    const text = `sudo sh -c 'mount -t nfs -o rw,hard 10.0.0.4:/a /a && echo "10.0.0.4:/a /a nfs rw,hard 0 0" >> /etc/fstab'\n`;
    const { mounts, at } = parse('scripts/m.sh', text);
    expect(mounts.map((m) => [m.origin, at(m.optionsSpan)])).toEqual([
      ['mount-command', 'rw,hard'],
      ['fstab', 'rw,hard'],
    ]);
  });

  it('offers an -o insertion point for a mount without options', () => {
    const text = 'mount 10.0.0.4:/a /a\n';
    const m = parse('scripts/m.sh', text).mounts[0]!;
    expect(m.optionsSpan).toEqual({ start: 6, end: 6 });
    expect(m.optionsInsertion).toEqual({ before: '-o ', after: ' ' });
  });
});

describe('Markdown', () => {
  it('reads bash/sh/shell/console blocks, fstab blocks and inline code (not python), with document offsets', () => {
    const text = [
      '# Mounting',
      'Run `mount -t nfs -o soft a:/b /c` (inline code is read too).',
      '```bash',
      'sudo mount -t nfs -o rw,hard 10.0.0.4:/a /a',
      '```',
      '```console',
      '$ sudo mount -t nfs -o ro 10.0.0.4:/b /b',
      '```',
      '```python',
      'os.system("mount -t nfs -o soft 10.0.0.4:/x /x")',
      '```',
      '```fstab',
      '10.0.0.4:/c /c nfs rw 0 0',
      '```',
    ].join('\n');
    const { mounts, at } = parse('docs/README.md', text);
    expect(mounts.map((m) => m.source).sort()).toEqual(['10.0.0.4:/a', '10.0.0.4:/b', '10.0.0.4:/c', 'a:/b']);
    for (const m of mounts) expect(at(m.sourceSpan)).toBe(m.source);
    expect(mounts.every((m) => m.host === 'markdown')).toBe(true);
  });
});

describe('systemd mount units', () => {
  it('reads What/Where/Type/Options with spans and an insertion point when Options= is missing', () => {
    const text =
      '[Unit]\nDescription=x\n\n[Mount]\nWhat=10.0.0.4:/tools\nWhere=/tools\nType=nfs\nOptions=ro,hard,vers=3\n';
    const { mounts, at } = parse('systemd/tools.mount', text);
    expect(mounts).toHaveLength(1);
    expect(at(mounts[0]!.optionsSpan)).toBe('ro,hard,vers=3');
    expect(at(mounts[0]!.mountPointSpan)).toBe('/tools');
    const bare = parse('systemd/tools.mount', '[Mount]\nWhat=10.0.0.4:/tools\nWhere=/tools\nType=nfs\n').mounts[0]!;
    expect(bare.optionsInsertion?.before).toBe('\nOptions=');
  });

  it('reports a missing Where= as ANF200 and applies an annotation anywhere in the unit', () => {
    const { mounts, problems } = parse(
      'x.mount',
      '# anf: workload=sap-hana-shared\n[Unit]\n[Mount]\nWhat=10.0.0.4:/s\nType=nfs\n',
    );
    expect(problems.map((p) => p.code)).toEqual(['ANF200']);
    expect(mounts[0]!.annotatedWorkload).toBe('sap-hana-shared');
  });
});

describe('autofs maps', () => {
  it('reads key, -fstype and options, and the location', () => {
    const text =
      '# map\ntools  -fstype=nfs,ro,hard,vers=3  10.10.1.4:/eda-tools\n+auto.other\nhome -rw,hard srv:/home/&\n';
    const { mounts, at } = parse('etc/auto.eda', text);
    expect(mounts.map((m) => [m.mountPoint, m.source, m.isNfs])).toEqual([
      ['tools', '10.10.1.4:/eda-tools', true],
      ['home', 'srv:/home/&', true],
    ]);
    expect(optionTexts(text, mounts[0]!)).toEqual(['fstype=nfs', 'ro', 'hard', 'vers=3']);
    expect(at(mounts[0]!.fsTypeSpan)).toBe('nfs');
  });

  it('does not judge non-NFS entries and skips master maps', () => {
    expect(parse('etc/auto.cd', 'cd -fstype=iso9660,ro :/dev/cdrom\n').mounts[0]!.isNfs).toBe(false);
    expect(parse('etc/auto.master', '/eda /etc/auto.eda --timeout=300\n').mounts).toEqual([]);
  });
});

describe('Ansible', () => {
  const text = [
    '- hosts: eda',
    '  tasks:',
    '    # anf: workload=eda-tools',
    '    - name: tools',
    '      ansible.posix.mount:',
    '        src: "10.10.1.4:/eda-tools"',
    '        path: /tools',
    '        fstype: nfs',
    "        opts: 'ro,hard,{{ extra }}'",
    '        state: mounted',
    '    - name: data disk',
    '      mount: src=/dev/sdb1 path=/data fstype=xfs opts=noatime state=mounted',
    '    - name: old-style NFS',
    '      mount: src=10.10.1.4:/eda-home path=/home/eda fstype=nfs opts=rw,soft state=mounted',
  ].join('\n');
  const { mounts, at } = parse('playbooks/site.yml', text);

  it('reads module arguments with spans inside quotes, the annotation above the task, and the free form', () => {
    expect(mounts.map((m) => [m.source, m.isNfs])).toEqual([
      ['10.10.1.4:/eda-tools', true],
      ['/dev/sdb1', false],
      ['10.10.1.4:/eda-home', true],
    ]);
    const tools = mounts[0]!;
    expect(at(tools.sourceSpan)).toBe('10.10.1.4:/eda-tools');
    expect(optionTexts(text, tools)).toEqual(['ro', 'hard', '{{ extra }} (templated)']);
    expect(tools.annotatedWorkload).toBe('eda-tools');
    expect(optionTexts(text, mounts[2]!)).toEqual(['rw', 'soft']);
  });
});

describe('Ansible shell, command and lineinfile tasks', () => {
  it('reads mount commands in shell/command tasks and fstab lines written by lineinfile', () => {
    const text = [
      '- hosts: hana',
      '  tasks:',
      '    # anf: workload=sap-hana-log',
      '    - name: Mount the log volume by hand',
      '      ansible.builtin.shell: mount -t nfs -o rw,hard,vers=4.1 10.20.1.4:/hana-log /hana/log',
      '    - name: Persist it',
      '      ansible.builtin.lineinfile:',
      '        path: /etc/fstab',
      '        line: "10.20.1.4:/hana-log /hana/log nfs rw,hard,vers=4.1,_netdev 0 0"',
    ].join('\n');
    const { file, mounts, at } = parse('playbooks/hana.yml', text);
    expect(file.kind).toBe('ansible');
    expect(mounts.map((m) => [m.origin, at(m.optionsSpan), m.annotatedWorkload])).toEqual([
      ['mount-command', 'rw,hard,vers=4.1', 'sap-hana-log'],
      ['fstab', 'rw,hard,vers=4.1,_netdev', undefined],
    ]);
  });
});

describe('cloud-init', () => {
  it('reads runcmd strings, runcmd argument lists and mounts:', () => {
    const text = [
      '#cloud-config',
      'runcmd:',
      '  - mount -t nfs -o rw,hard 10.0.0.4:/a /a',
      '  - [ mount, -t, nfs, -o, "ro,vers=3", "10.0.0.4:/b", /b ]',
      '  - [ sh, -c, "mount -t nfs -o rw,vers=3 10.0.0.4:/e /e" ]',
      '  - |',
      '    mkdir -p /c',
      '    mount -t nfs -o rw 10.0.0.4:/c /c',
      'mounts:',
      '  - [ "10.0.0.4:/d", /d, nfs, "rw,hard,_netdev", "0", "0" ]',
    ].join('\n');
    const { mounts, at } = parse('cloud/user-data.yaml', text);
    expect(mounts.map((m) => [m.source, at(m.optionsSpan)])).toEqual([
      ['10.0.0.4:/a', 'rw,hard'],
      ['10.0.0.4:/b', 'ro,vers=3'],
      ['10.0.0.4:/e', 'rw,vers=3'],
      ['10.0.0.4:/c', 'rw'],
      ['10.0.0.4:/d', 'rw,hard,_netdev'],
    ]);
    expect(mounts.every((m) => m.host === 'cloud-init')).toBe(true);
  });

  it('reads write_files bodies that write fstab, an autofs map or a systemd mount unit, and skips encoded ones', () => {
    const text = [
      '#cloud-config',
      'write_files:',
      '  - path: /etc/fstab',
      '    append: true',
      '    content: |',
      '      # scratch for the regression farm',
      '      10.0.0.4:/scratch /scratch nfs rw,hard,vers=3,nconnect=8 0 0',
      '  - path: /etc/auto.tools',
      '    content: |',
      '      tools -rw,hard,vers=3 10.0.0.4:/tools',
      '  - path: /etc/systemd/system/data.mount',
      '    content: |',
      '      [Mount]',
      '      What=10.0.0.4:/data',
      '      Where=/data',
      '      Type=nfs',
      '      Options=rw,hard,vers=4.1',
      '  - path: /etc/fstab',
      '    encoding: b64',
      '    content: MTAuMC4wLjQ6L2IgL2IgbmZzIHJ3IDAgMAo=',
      '  - path: /etc/motd',
      '    content: |',
      '      10.0.0.4:/not-a-mount /x nfs rw 0 0',
    ].join('\n');
    const { mounts, at } = parse('cloud/user-data.yaml', text);
    expect(mounts.map((m) => [m.source, at(m.optionsSpan)])).toEqual([
      ['10.0.0.4:/scratch', 'rw,hard,vers=3,nconnect=8'],
      ['10.0.0.4:/tools', 'rw,hard,vers=3'],
      ['10.0.0.4:/data', 'rw,hard,vers=4.1'],
    ]);
    expect(mounts.every((m) => m.host === 'cloud-init')).toBe(true);
  });
});

describe('workload annotation', () => {
  it('applies to the next mount through a block of comments, not across other lines', () => {
    const text =
      '# anf: workload=eda-scratch\n# scratch for the regression farm\n10.0.0.4:/s /s nfs rw 0 0\n10.0.0.4:/t /t nfs rw 0 0\n';
    const { mounts, at } = parse('etc/fstab', text);
    expect(mounts.map((m) => m.annotatedWorkload)).toEqual(['eda-scratch', undefined]);
    expect(at(mounts[0]!.annotationSpan)).toBe('# anf: workload=eda-scratch');
  });

  it('reports unknown workloads and keys as ANF201 with a did-you-mean fix', () => {
    const { problems, mounts } = parse('etc/fstab', '# anf: workload=sap-hana-dat\n10.0.0.4:/s /s nfs rw 0 0\n');
    expect(problems.map((p) => p.code)).toEqual(['ANF201']);
    expect(problems[0]!.fixes?.[0]?.edits[0]?.newText).toBe('sap-hana-data');
    expect(mounts[0]!.annotatedWorkload).toBeUndefined();
  });
});
