import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterEach, describe, expect, it } from 'vitest';
import {
  configSchema,
  defineRule,
  DEFAULT_FINDING_LIMITS,
  detectFileKind,
  isLintable,
  lazyFinding,
  lintFile,
  NO_FINDING_LIMITS,
  resolveConfig,
  setEagerFindings,
  Workspace,
  type Diagnostic,
  type Finding,
  type ResolvedConfig,
} from '../../server/src/core';
import { ALL_RULES } from '../../server/src/core/registry';
import { fstab, manifest } from '../../bench/generate.mjs';
import { FIXTURE_ROOT, fixtureDirectories } from '../support/fixtures';

/**
 * Rules make most findings' message, fixes and related notes only when a report lists them
 * (`lazyFinding`, core/diagnostics.ts): a 10,000-line fstab has about 14,000 findings and the report
 * lists 1,000. Made later than the rule ran, the text must still be what the rule would have
 * written at once: every fixture, the examples and a generated estate are linted both ways, with
 * the default limits and with every finding listed, and the diagnostics compared field by field.
 */

const EXAMPLES = join(__dirname, '..', '..', 'examples');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

interface Corpus {
  readonly name: string;
  readonly config: ResolvedConfig;
  /** Paths relative to the corpus, and their text. */
  readonly files: readonly (readonly [string, string])[];
}

function configIn(dir: string): ResolvedConfig {
  const path = join(dir, '.anf-lint.yaml');
  return resolveConfig(existsSync(path) ? configSchema.parse(parseYaml(readFileSync(path, 'utf8')) ?? {}) : {});
}

function corpora(): Corpus[] {
  const fixtures = fixtureDirectories().map((directory) => {
    const dir = join(FIXTURE_ROOT, directory);
    const files = walk(dir)
      .map((path) => relative(dir, path))
      .filter((path) => path !== 'expected.txt' && path !== '.anf-lint.yaml' && !path.startsWith('fixed/'))
      .sort()
      .map((path) => [path, readFileSync(join(dir, path), 'utf8')] as const);
    return { name: directory, config: configIn(dir), files };
  });
  const examples = walk(EXAMPLES)
    .map((path) => [relative(EXAMPLES, path), readFileSync(path, 'utf8')] as const)
    .filter(([path, text]) => isLintable(detectFileKind(path, text)))
    .sort((a, b) => (a[0] < b[0] ? -1 : 1));
  // An estate of the benchmark's kind: mounts of volumes the manifest has and has not, every mount rule busy.
  const generated: Corpus = {
    name: 'generated estate',
    config: resolveConfig(),
    files: [
      ['estate.anf.yaml', manifest(200, 5)],
      ['hosts/node-1/etc/fstab', fstab(3000)],
      ['hosts/node-2/etc/fstab', repeatedMistakes(600)],
    ],
  };
  return [...fixtures, { name: 'examples', config: configIn(EXAMPLES), files: examples }, generated];
}

/** Option lists that each make some mount rule speak (and some that are right). */
const MISTAKES = [
  'rw,soft,vers=3,rsize=65536,wsize=65536,udp',
  'rw,hard,vers=4,sync,noac,intr',
  'rw,hard,nfsvers=4.2,nconnect=16,timeo=10,retrans=0',
  'rw,hard,vers=3,rsize=1048576,wsize=262144,sec=krb5,nolock,local_lock=all',
  'rw,hard,vers=4.1,nocto,actimeo=3600,lookupcache=none,fsc,nconect=8',
  'rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=4,max_connect=16,_netdev',
  'rw,hard,vers=3,rsize=262144,wsize=262144,tcp,_netdev,nofail',
];

/**
 * An fstab whose mistakes repeat and whose mount points come back (each twice in a row, and again
 * 400 lines on), with annotations and fsck passes: findings interleave with the state rules keep
 * while they run (new mount points keep coming after the first duplicates).
 */
function repeatedMistakes(count: number): string {
  const workloads = ['eda-tools', 'hpc', 'oracle', 'sap-hana-shared'];
  const lines = ['# /etc/fstab: the same mistakes, again and again'];
  for (let i = 0; i < count; i++) {
    if (i % 9 === 0) lines.push(`# anf: workload=${workloads[(i / 9) % workloads.length]}`);
    lines.push(
      `10.10.${i % 7}.4:/vol-${i % 13} /mnt/shared-${Math.floor(i / 2) % 200} nfs ${MISTAKES[i % MISTAKES.length]} 0 ${i % 3}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Every diagnostic of every file, suppressed ones too, with the default limits and with none. */
function lintCorpus(corpus: Corpus): { limited: Diagnostic[]; all: Diagnostic[] } {
  const workspace = new Workspace(corpus.config);
  const uriOf = (path: string) => `file:///corpus/${path}`;
  for (const [path, text] of corpus.files) workspace.set(uriOf(path), text);
  const limited: Diagnostic[] = [];
  const all: Diagnostic[] = [];
  for (const [path] of corpus.files) {
    limited.push(...lintFile(workspace, uriOf(path), corpus.config, { limits: DEFAULT_FINDING_LIMITS }));
    all.push(...lintFile(workspace, uriOf(path), corpus.config, { limits: NO_FINDING_LIMITS }));
  }
  return { limited, all };
}

afterEach(() => setEagerFindings(false));

describe('lazy findings', () => {
  it('say the same as findings described at once, over every fixture, the examples and a generated estate', () => {
    let compared = 0;
    for (const corpus of corpora()) {
      setEagerFindings(true);
      const eager = lintCorpus(corpus);
      setEagerFindings(false);
      const lazy = lintCorpus(corpus);
      // Plain copies on both sides: a lazy finding's fields are getters, and the comparison must read them.
      expect(JSON.parse(JSON.stringify(lazy.limited)), corpus.name).toEqual(JSON.parse(JSON.stringify(eager.limited)));
      expect(JSON.parse(JSON.stringify(lazy.all)), corpus.name).toEqual(JSON.parse(JSON.stringify(eager.all)));
      compared += eager.all.length;
    }
    expect(compared, 'findings compared').toBeGreaterThan(4000);
  });

  it('are described only when the report lists them; the counts stay exact', () => {
    let described = 0;
    const everyLine = defineRule({
      code: 'ANF950',
      name: 'every-line',
      domain: 'mount',
      defaultSeverity: 'warning',
      fixes: [],
      doc: { title: 't', what: 'w', why: 'y', instead: 'i' },
      appliesTo: () => true,
      check(context) {
        const source = context.file.source;
        for (let line = 0; line < source.lineCount - 1; line++) {
          context.report(
            lazyFinding(
              {
                span: { start: source.lineStart(line), end: source.lineEnd(line) },
                severity: line % 2 === 0 ? 'warning' : 'info',
              },
              () => {
                described++;
                return { message: `line ${line + 1}` };
              },
            ),
          );
        }
      },
    });
    const workspace = new Workspace();
    const lines = DEFAULT_FINDING_LIMITS.perRule * 5;
    workspace.set('file:///etc/fstab', '10.0.0.4:/vol /mnt/vol nfs hard 0 0\n'.repeat(lines));
    const diagnostics = lintFile(workspace, 'file:///etc/fstab', resolveConfig(), { rules: [everyLine] });
    const listed = diagnostics.filter((d) => d.code === 'ANF950');
    expect(listed).toHaveLength(DEFAULT_FINDING_LIMITS.perRule);
    expect(listed.map((d) => d.message).slice(0, 2)).toEqual(['line 1', 'line 2']);
    expect(described).toBe(DEFAULT_FINDING_LIMITS.perRule);
    const omitted = diagnostics.find((d) => d.code === 'ANF010')!.omitted!;
    const rest = lines - DEFAULT_FINDING_LIMITS.perRule;
    expect(omitted.bySeverity).toEqual({ error: 0, warning: rest / 2, info: rest / 2, hint: 0 });
  });

  it('is how every mount rule reports, so that a large fstab builds only the text it lists', () => {
    const workspace = new Workspace();
    workspace.set('file:///corpus/estate.anf.yaml', manifest(200, 5));
    workspace.set('file:///corpus/etc/fstab', fstab(2000));
    const file = workspace.file('file:///corpus/etc/fstab')!;
    const eager = new Set<string>();
    let found = 0;
    for (const rule of ALL_RULES.filter((r) => r.domain === 'mount')) {
      if (!rule.appliesTo(file)) continue;
      rule.check({
        file,
        workspace,
        config: resolveConfig(),
        report(finding: Finding) {
          found++;
          // A lazy finding's message is a getter on its prototype, not a field written when it was made.
          if (Object.getOwnPropertyDescriptor(finding, 'message')) eager.add(rule.code);
        },
      });
    }
    expect(found).toBeGreaterThan(2000);
    expect([...eager]).toEqual([]);
  });
});
