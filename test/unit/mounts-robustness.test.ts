import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, Workspace } from '../../server/src/core';
import { cpuMillisSince, startCpu } from '../support/cpuTime';
import { propertyRuns } from '../support/propertyRuns';

const PATHS = [
  'etc/fstab',
  'scripts/mount.sh',
  'docs/README.md',
  'systemd/x.mount',
  'etc/auto.eda',
  'site.yml',
  'user-data.yaml',
  'roles/r/defaults/main.yml',
  'k8s/pv.yaml',
  'chart/templates/pv.yaml',
  'docs/install.rst',
  'backend.json',
];
const PREFIX: Record<string, string> = {
  'site.yml': '- hosts: all\n  tasks:\n    - mount:\n',
  'user-data.yaml': '#cloud-config\n',
  'docs/README.md': '```bash\n',
  'k8s/pv.yaml': 'apiVersion: v1\nkind: PersistentVolume\nspec:\n  mountOptions:\n',
  'chart/templates/pv.yaml': 'apiVersion: v1\n{{- if .Values.x }}\n  mountOptions:\n',
  'docs/install.rst': 'Mount it::\n\n    ',
  'backend.json': '{ "nfsMountOptions": ',
};

/** Fragments that stress the scanners: quotes, continuations, heredocs, templates, YAML. */
const FRAGMENT = fc.constantFrom(
  'mount',
  ' -t nfs',
  ' -o ',
  'rw,hard',
  ',',
  '=',
  '"',
  "'",
  '\\\n',
  '\n',
  '$(',
  ')',
  '${',
  '}',
  '{{',
  '}}',
  '`',
  '#',
  '# anf: workload=',
  '<<EOF\n',
  'EOF\n',
  '| tee -a /etc/fstab',
  '>> /etc/fstab',
  '10.0.0.4:/vol',
  ' /mnt',
  ' nfs ',
  ' 0 0',
  '[Mount]\n',
  'What=',
  'Options=',
  '-fstype=nfs,',
  '  src: ',
  '  opts: ',
  '- [',
  ']',
  'runcmd:\n  - ',
  'mounts:\n  - [',
  '\t',
  '\r\n',
  '\\040',
  'nconnect=',
  'vers=4,minorversion=',
  '```\n',
  '&&',
  ';',
  'nfs ',
  'OPTS=',
  '"$OPTS"',
  '`',
  '``',
  '::\n\n    ',
  '    - ',
  'nconect=8',
  'sec=syss',
  '%s',
  '<x>',
);

describe('mount extraction never throws', () => {
  it.each(PATHS)('%s: random text', (path) => {
    fc.assert(
      fc.property(fc.array(FRAGMENT, { maxLength: 60 }), fc.string({ maxLength: 40 }), (parts, noise) => {
        const text = (PREFIX[path] ?? '') + parts.join('') + noise;
        const ws = new Workspace();
        ws.set(`file:///r/${path}`, text);
        const file = ws.file(`file:///r/${path}`)!;
        for (const m of file.mounts) {
          for (const o of m.options) {
            expect(o.span.start).toBeGreaterThanOrEqual(0);
            expect(o.span.end).toBeLessThanOrEqual(text.length);
          }
        }
        lintFile(ws, `file:///r/${path}`, resolveConfig({}));
      }),
      { numRuns: propertyRuns(150) },
    );
  });

  it('option spans always hold the option text', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom('rw', 'hard', 'vers=3', 'nconnect=8', '{{ x }}', '${Y}', 'rsize=262144', 'sec=krb5p'),
          { minLength: 1, maxLength: 8 },
        ),
        (opts) => {
          const line = `10.0.0.4:/v /v nfs ${opts.join(',')} 0 0`;
          const mount = parseFile('file:///etc/fstab', line).mounts[0]!;
          expect(mount.options.map((o) => line.slice(o.span.start, o.span.end))).toEqual(opts);
        },
      ),
    );
  });
});

describe('speed', () => {
  it('handles a 1 MB single line in every format quickly', () => {
    const long = `rw,${'hard,'.repeat(200_000)}vers=3`; // not a fact: test size
    for (const [path, text] of [
      ['etc/fstab', `10.0.0.4:/v /v nfs ${long} 0 0`],
      ['scripts/m.sh', `mount -t nfs -o ${long} 10.0.0.4:/v /v`],
      ['scripts/x.sh', 'x'.repeat(1_000_000)],
      ['scripts/q.sh', '"'.repeat(1_000_000)],
      ['scripts/d.sh', '$('.repeat(500_000)],
      ['etc/auto.eda', `k -${long} 10.0.0.4:/v`],
      ['systemd/a.mount', `[Mount]\nWhat=10.0.0.4:/v\nWhere=/v\nType=nfs\nOptions=${long}\n`],
      ['docs/a.md', `\`\`\`bash\n${'mount '.repeat(170_000)}\n\`\`\`\n`],
      ['docs/b.md', `Use \`${long}\` and \`vers=3,${'x,'.repeat(300_000)}\`.`],
      ['docs/c.rst', `Mount::\n\n    mount -t nfs -o ${long} 10.0.0.4:/v /v\n`],
      ['roles/r/defaults/main.yml', `opts: "${long}"\nother: "vers=3,${'a,'.repeat(300_000)}"\n`],
      ['chart/templates/pv.yaml', `apiVersion: v1\n{{ x }}\nmountOptions:\n${'  - hard\n'.repeat(100_000)}`],
      ['scripts/v.sh', `${'A=rw,hard\n'.repeat(50_000)}${'echo $A\n'.repeat(50_000)}`],
    ] as const) {
      const started = startCpu();
      const ws = new Workspace();
      ws.set(`file:///r/${path}`, text);
      lintFile(ws, `file:///r/${path}`, resolveConfig({}));
      expect(cpuMillisSince(started), path).toBeLessThan(10_000); // generous: the CI machine is shared
      if (text.includes('10.0.0.4:/v')) expect(ws.file(`file:///r/${path}`)!.mounts, path).toHaveLength(1);
    }
  });
});
