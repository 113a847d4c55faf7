import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace, type Diagnostic } from '../../server/src/core';
import { WORKLOADS, type WorkloadKind } from '../../server/src/core/facts';
import { recommendedMountOptions, systemdUnitName } from '../../server/src/core/recommend/mountLine';

/**
 * The extension's snippets (snippets/*.json) must never trigger a warning or an error: each one is
 * expanded (placeholders -> their sample values, choices -> the first choice) and linted through the
 * core in a file of the kind VS Code offers it in. A snippet that the extractor does not even see
 * (no mount, no kernel setting, no manifest volume) fails too, so the check cannot pass vacuously.
 *
 * The mount snippets (fstab lines, mount commands, the systemd unit) are generated from
 * core/recommend/mountLine.ts, the same recommendation `anf-lint mount` and the editor's "Insert
 * mount command" give. `UPDATE_SNIPPETS=1 npx vitest run test/unit/snippets.test.ts` rewrites them;
 * review the diff.
 */
const ROOT = join(__dirname, '..', '..');
const SNIPPETS = join(ROOT, 'snippets');
const UPDATE = process.env.UPDATE_SNIPPETS === '1';

interface Snippet {
  readonly prefix: string | readonly string[];
  readonly description: string;
  readonly body: readonly string[];
}
type SnippetFile = Record<string, Snippet>;

// ---------------------------------------------------------------------------------------------
// Generated mount snippets

interface MountSnippetSpec {
  readonly key: string;
  readonly title: string;
  readonly workload: WorkloadKind;
  readonly nfsVersion: '3' | '4.1';
  readonly exportPath: string;
  readonly mountPoint: string;
  /** Written as `# anf: workload=...` above the mount (generic snippets leave it to the manifest). */
  readonly annotate: boolean;
}

function spec(
  key: string,
  workload: WorkloadKind,
  exportPath: string,
  mountPoint: string,
  nfsVersion?: '3' | '4.1',
): MountSnippetSpec {
  const preferred = WORKLOADS[workload].nfsVersion.preferred;
  return {
    key,
    title: WORKLOADS[workload].title,
    workload,
    nfsVersion: nfsVersion ?? (preferred === 'either' ? '3' : preferred),
    exportPath,
    mountPoint,
    annotate: true,
  };
}

const MOUNT_SPECS: readonly MountSnippetSpec[] = [
  spec('eda-tools', 'eda-tools', '/eda-tools', '/tools'),
  spec('eda-scratch', 'eda-scratch', '/eda-scratch', '/scratch'),
  spec('hpc', 'hpc', '/hpc-data', '/data'),
  spec('sap-hana-data', 'sap-hana-data', '/hn1-data-mnt00001', '/hana/data/HN1/mnt00001'),
  spec('sap-hana-log', 'sap-hana-log', '/hn1-log-mnt00001', '/hana/log/HN1/mnt00001'),
  spec('sap-hana-shared', 'sap-hana-shared', '/hn1-shared', '/hana/shared'),
  spec('oracle', 'oracle', '/ora-data', '/u02/oradata'),
  { ...spec('nfsv3', 'general', '/vol1', '/mnt/vol1', '3'), title: 'generic NFSv3', annotate: false },
  { ...spec('nfsv41', 'general', '/vol1', '/mnt/vol1', '4.1'), title: 'generic NFSv4.1', annotate: false },
];

const SERVER = '${1:10.0.0.4}';
const exportOf = (s: MountSnippetSpec) => `\${2:${s.exportPath}}`;
const mountPointOf = (s: MountSnippetSpec) => `\${3:${s.mountPoint}}`;
const annotation = (s: MountSnippetSpec) => (s.annotate ? [`# anf: workload=${s.workload}`] : []);

function notesOf(s: MountSnippetSpec): string {
  return recommendedMountOptions(s.workload, s.nfsVersion).notes.join(' ');
}

function generatedMountCommands(): SnippetFile {
  return Object.fromEntries(
    MOUNT_SPECS.map((s) => {
      const { options } = recommendedMountOptions(s.workload, s.nfsVersion);
      return [
        `ANF mount: ${s.title}`,
        {
          prefix: [`anf-mount-${s.key}`],
          description: `mount command for an Azure NetApp Files volume, ${s.title}. ${notesOf(s)}`,
          body: [
            `sudo mkdir -p ${mountPointOf(s)}`,
            ...annotation(s),
            `sudo mount -t nfs -o ${options.join(',')} ${SERVER}:${exportOf(s)} ${mountPointOf(s)}`,
            '$0',
          ],
        },
      ];
    }),
  );
}

function generatedFstab(): SnippetFile {
  return Object.fromEntries(
    MOUNT_SPECS.map((s) => {
      const { options } = recommendedMountOptions(s.workload, s.nfsVersion);
      return [
        `ANF fstab: ${s.title}`,
        {
          prefix: [`anf-fstab-${s.key}`],
          description: `/etc/fstab line for an Azure NetApp Files volume, ${s.title}. ${notesOf(s)} _netdev: mount after the network is up.`,
          body: [
            ...annotation(s),
            `${SERVER}:${exportOf(s)}  ${mountPointOf(s)}  nfs  ${[...options, '_netdev'].join(',')}  0  0`,
            '$0',
          ],
        },
      ];
    }),
  );
}

function generatedSystemd(): SnippetFile {
  const { options } = recommendedMountOptions('general', '3');
  return {
    'ANF systemd mount unit': {
      prefix: ['anf-mount-unit'],
      description:
        'A systemd .mount unit for an Azure NetApp Files volume. Name the file after Where= (systemd-escape -p --suffix=mount /mnt/vol1 gives mnt-vol1.mount). Options: the generic NFSv3 recommendation; use "ANF: Insert mount command for volume..." for a workload\'s own.',
      body: [
        '[Unit]',
        'Description=Azure NetApp Files volume ${2:/vol1} on ${3:/mnt/vol1}',
        'After=network-online.target',
        'Wants=network-online.target',
        '',
        '[Mount]',
        'What=${1:10.0.0.4}:${2:/vol1}',
        'Where=${3:/mnt/vol1}',
        'Type=nfs',
        `Options=\${5:${[...options, '_netdev'].join(',')}}`,
        '',
        '[Install]',
        'WantedBy=remote-fs.target',
        '$0',
      ],
    },
  };
}

const GENERATED: Record<string, () => SnippetFile> = {
  'mount-commands.json': generatedMountCommands,
  'fstab.json': generatedFstab,
  'systemd-mount.json': generatedSystemd,
};

// ---------------------------------------------------------------------------------------------
// Expansion and linting

/** Expands a snippet body the way accepting every default does. */
function expandSnippet(body: readonly string[]): string {
  let text = body.join('\n');
  const defaults = new Map<string, string>();
  const references = () =>
    text.replace(
      /\$\{(\d+)\}|\$(\d+)/g,
      (m, a: string | undefined, b: string | undefined) => defaults.get((a ?? b)!) ?? m,
    );
  // Innermost first, so nested placeholders resolve: ${1:a ${2:b}} -> a b, ${3:/mnt/$1} -> /mnt/a.
  for (let guard = 0; guard < 100 && /\$\{\d+[:|]/.test(text); guard++) {
    text = references()
      .replace(/\$\{(\d+)\|([^|}]*)\|\}/g, (_m, n: string, choices: string) => {
        const first = choices.split(',')[0] ?? '';
        if (!defaults.has(n)) defaults.set(n, first);
        return first;
      })
      .replace(/\$\{(\d+):([^${}]*)\}/g, (_m, n: string, value: string) => {
        if (!defaults.has(n)) defaults.set(n, value);
        return value;
      });
  }
  text = references();
  return text.replace(/\$\{?0\}?/g, '').replace(/\\\$/g, '$');
}

/** Where VS Code offers each snippet file, as a file the core lints (the path decides its kind). */
interface Host {
  readonly path: (expanded: string) => string;
  readonly wrap: (expanded: string, snippet: Snippet) => string;
  readonly expects: 'mounts' | 'settings' | 'volumes';
}

const HOSTS: Record<string, readonly Host[]> = {
  'fstab.json': [{ path: () => 'etc/fstab', wrap: (t) => t, expects: 'mounts' }],
  'mount-commands.json': [
    { path: () => 'scripts/mount-anf.sh', wrap: (t) => `#!/bin/bash\nset -euo pipefail\n${t}`, expects: 'mounts' },
    { path: () => 'docs/mounting.md', wrap: (t) => `# Mounting\n\n\`\`\`bash\n${t}\n\`\`\`\n`, expects: 'mounts' },
  ],
  'systemd-mount.json': [
    {
      path: (t) => `etc/systemd/system/${systemdUnitName(/^Where=(.*)$/m.exec(t)?.[1] ?? '/mnt')}`,
      wrap: (t) => t,
      expects: 'mounts',
    },
  ],
  'sysctl.json': [{ path: () => 'etc/sysctl.d/90-anf.conf', wrap: (t) => t, expects: 'settings' }],
  'anf-manifest.json': [
    { path: () => 'infra/estate.anf.yaml', wrap: (t, s) => wrapManifest(t, s), expects: 'volumes' },
  ],
};

/** Pool and volume snippets are list items: put them where they belong in a minimal manifest. */
function wrapManifest(text: string, snippet: Snippet): string {
  const prefixes = [snippet.prefix].flat();
  const indent = (t: string, n: number) =>
    t
      .split('\n')
      .map((line) => (line ? ' '.repeat(n) + line : line))
      .join('\n');
  if (prefixes.includes('anf-pool')) return `accounts:\n  - name: eda-prod\n    pools:\n${indent(text, 6)}\n`;
  if (prefixes.includes('anf-volume')) {
    return `accounts:\n  - name: eda-prod\n    pools:\n      - name: eda-premium\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n${indent(text, 10)}\n`;
  }
  return text;
}

function readSnippets(file: string): SnippetFile {
  return JSON.parse(readFileSync(join(SNIPPETS, file), 'utf8')) as SnippetFile;
}

function problems(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics
    .filter((d) => d.severity === 'error' || d.severity === 'warning')
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code} ${d.message}`);
}

describe('snippets', () => {
  it.each(Object.keys(GENERATED))('%s is generated from core/recommend/mountLine.ts', (file) => {
    const expected = `${JSON.stringify(GENERATED[file]!(), null, 2)}\n`;
    const path = join(SNIPPETS, file);
    if (UPDATE) writeFileSync(path, expected);
    const actual = existsSync(path) ? readFileSync(path, 'utf8') : '(missing)';
    expect(
      actual,
      `snippets/${file} drifted from the mount recommendation: run UPDATE_SNIPPETS=1 npx vitest run test/unit/snippets.test.ts and review the diff`,
    ).toBe(expected);
  });

  it('every snippet file the package contributes exists and is tested here', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      contributes?: { snippets?: { path: string }[] };
    };
    const contributed = [
      ...new Set((pkg.contributes?.snippets ?? []).map((s) => s.path.replace(/^\.\/snippets\//, ''))),
    ].sort();
    expect(contributed.length).toBeGreaterThan(0);
    for (const file of contributed) expect(existsSync(join(SNIPPETS, file)), `snippets/${file}`).toBe(true);
    expect(contributed).toEqual(Object.keys(HOSTS).sort());
  });

  it('covers every workload the issue names', () => {
    const prefixes = Object.keys(HOSTS).flatMap((file) =>
      Object.values(readSnippets(file)).flatMap((s) => [s.prefix].flat()),
    );
    for (const key of [
      'eda-tools',
      'eda-scratch',
      'hpc',
      'sap-hana-data',
      'sap-hana-log',
      'sap-hana-shared',
      'oracle',
      'nfsv3',
      'nfsv41',
    ]) {
      expect(prefixes, `fstab line for ${key}`).toContain(`anf-fstab-${key}`);
      expect(prefixes, `mount command for ${key}`).toContain(`anf-mount-${key}`);
    }
    for (const prefix of [
      'anf-mount-unit',
      'anf-sysctl-nfs-client',
      'anf-sysctl-sap-hana',
      'anf-account',
      'anf-pool',
      'anf-volume',
    ])
      expect(prefixes).toContain(prefix);
  });

  it('gives each snippet one name in its file (no `anf-eda-tools` beside `anf-fstab-eda-tools`)', () => {
    for (const file of Object.keys(HOSTS)) {
      const prefixes = Object.values(readSnippets(file)).flatMap((s) => [s.prefix].flat());
      expect(
        prefixes.filter((p, i) => prefixes.indexOf(p) !== i),
        file,
      ).toEqual([]);
      const fstabAliases = prefixes.filter((p) => file === 'fstab.json' && !p.startsWith('anf-fstab-'));
      expect(fstabAliases, file).toEqual([]);
    }
  });

  const cases = Object.entries(HOSTS).flatMap(([file, hosts]) =>
    existsSync(join(SNIPPETS, file))
      ? Object.entries(readSnippets(file)).flatMap(([name, snippet]) =>
          hosts.map(
            (host) => [`${file}: ${name} in ${host.path(expandSnippet(snippet.body))}`, snippet, host] as const,
          ),
        )
      : [],
  );

  it.each(cases)('%s lints clean', (_label, snippet, host) => {
    const expanded = expandSnippet(snippet.body);
    expect(expanded, 'an unexpanded placeholder is left').not.toMatch(/\$\{?\d/);
    const uri = `file:///snippet/${host.path(expanded)}`;
    const config = resolveConfig({});
    const workspace = new Workspace(config);
    const file = workspace.set(uri, host.wrap(expanded, snippet));
    expect(file[host.expects].length, `the core sees no ${host.expects} in:\n${file.source.text}`).toBeGreaterThan(0);
    const found = problems(visibleDiagnostics(lintFile(workspace, uri, config)));
    expect(found, `the snippet triggers findings:\n${file.source.text}`).toEqual([]);
  });
});
