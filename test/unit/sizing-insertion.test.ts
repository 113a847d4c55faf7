/**
 * "ANF: Recommend sizing..." writes the recommended pool where it belongs, whatever line the cursor
 * is on: into the `pools:` list of the account the cursor is in (or the nearest above it), with that
 * list's indentation, in YAML and in JSON. Every example manifest, with the cursor at the start and
 * at the end of every line, must still parse afterwards and hold exactly one more pool, in the
 * right account, with the advisor's figures.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { resolveConfig, Workspace } from '../../server/src/core';
import { adviseSizingRequest } from '../../server/src/core/features/requests';
import { sizingInsertion, type PoolDraft } from '../../server/src/core/features/sizingInsertion';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { SourceText } from '../../server/src/core/text/sourceText';
import { placeStep, runTimeout } from '../support/propertyRuns';

const STEP = placeStep(2);

const ROOT = join(__dirname, '..', '..');

function manifestsUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return manifestsUnder(path);
    return /\.anf\.(ya?ml|json)$/.test(name) ? [path] : [];
  });
}

const POOL: PoolDraft = {
  name: 'premium-pool',
  serviceLevel: 'Premium',
  size: '11 TiB',
  qos: 'auto',
  volumes: [
    {
      name: 'eda-tools',
      quota: '10240 GiB',
      workload: 'eda-tools',
      requirements: { capacity: '10 TiB', throughput: '600 MiB/s' },
    },
  ],
};

interface Pools {
  readonly account: string;
  readonly pools: readonly string[];
}

/** Accounts and pool names, read with the YAML and JSON libraries (fast enough for every line). */
function quickPoolsOf(text: string, format: 'yaml' | 'json', where: string): Pools[] {
  let data: { accounts?: { name: string; pools?: { name: string }[] }[] };
  try {
    data = format === 'json' ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true });
  } catch (error) {
    throw new Error(`does not parse (${String(error)}): ${where}`);
  }
  return (data.accounts ?? []).map((a) => ({ account: a.name, pools: (a.pools ?? []).map((p) => p.name) }));
}

/** The same with anf-lint's manifest parser: no syntax findings. */
function poolsOf(text: string, format: 'yaml' | 'json'): Pools[] {
  const parsed = parseManifest(new SourceText(text), 'file:///check', format);
  expect(
    parsed.problems.filter((p) => p.code === 'ANF100' || p.code === 'ANF101'),
    `parse problems in:\n${text}`,
  ).toEqual([]);
  return (parsed.manifest?.accounts ?? []).map((a) => ({
    account: a.name?.value ?? '',
    pools: a.pools.map((p) => p.name?.value ?? ''),
  }));
}

function apply(text: string, edit: { span: { start: number; end: number }; newText: string }): string {
  return text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end);
}

/** The accounts whose text starts at or above `offset`: the pool goes into the last of them (or the first account). */
function expectedAccount(parsed: ReturnType<typeof parseManifest>, offset: number): string {
  const accounts = parsed.manifest?.accounts ?? [];
  const inside = accounts.find((a) => a.span && offset >= a.span.start && offset <= a.span.end);
  if (inside) return inside.name!.value;
  const above = accounts.filter((a) => a.span && a.span.start <= offset);
  return (above[above.length - 1] ?? accounts[0])!.name!.value;
}

const EXAMPLES = manifestsUnder(join(ROOT, 'examples'));
/** The same estates written as JSON (two-space and four-space indentation), and both in one manifest. */
const both = EXAMPLES.filter((p) => !p.endsWith('.json')).map(
  (p) => parseYaml(readFileSync(p, 'utf8')) as { accounts: unknown[] },
);
const CASES: { name: string; text: string; format: 'yaml' | 'json' }[] = [
  {
    name: 'the example accounts in one manifest',
    text: stringifyYaml({ accounts: both.flatMap((m) => m.accounts) }),
    format: 'yaml',
  },
  {
    name: 'the example accounts in one manifest, as JSON',
    text: JSON.stringify({ accounts: both.flatMap((m) => m.accounts) }, null, 2),
    format: 'json',
  },
  ...EXAMPLES.flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    const name = relative(ROOT, path);
    if (path.endsWith('.json')) return [{ name, text, format: 'json' as const }];
    const data: unknown = parseYaml(text);
    return [
      { name, text, format: 'yaml' as const },
      { name: `${name} as JSON`, text: `${JSON.stringify(data, null, 2)}\n`, format: 'json' as const },
      { name: `${name} as JSON, 4 spaces`, text: `${JSON.stringify(data, null, 4)}\n`, format: 'json' as const },
    ];
  }),
];

describe('Recommend sizing: where the pool goes', () => {
  it('finds the example manifests, and a case with several accounts', () => {
    expect(EXAMPLES.length).toBeGreaterThanOrEqual(2);
    expect(poolsOf(CASES[0]!.text, 'yaml').length).toBeGreaterThanOrEqual(2);
  });

  for (const { name, text, format } of CASES) {
    it(`${name}: the cursor on every line gives a manifest that parses, with the pool in the account there`, {
      timeout: runTimeout(180_000),
    }, () => {
      const kind = format === 'json' ? 'manifest-json' : 'manifest-yaml';
      const before = poolsOf(text, format);
      const parsed = parseManifest(new SourceText(text), 'file:///check', format);
      const source = new SourceText(text);
      // Every other line in `npm test`, every line in `npm run fuzz` (test/support/propertyRuns.ts).
      for (let line = 0; line < source.lineCount; line += STEP) {
        const start = source.lineStart(line);
        const end = start + source.lineText(line).length;
        for (const offset of new Set([start, end])) {
          const edit = sizingInsertion(kind, text, offset, POOL);
          if ('error' in edit) throw new Error(`line ${line + 1}: ${edit.error}`);
          const after = apply(text, edit);
          const account = expectedAccount(parsed, offset);
          const where = `cursor at line ${line + 1}, column ${offset - start + 1}:\n${after}`;
          // anf-lint's own parser on every tenth line (it is slower), the libraries' on every line.
          const pools = line % 10 === 0 ? poolsOf(after, format) : quickPoolsOf(after, format, where);
          expect(
            pools.map((p) => p.account),
            where,
          ).toEqual(before.map((p) => p.account));
          for (const [i, { account: name, pools: names }] of pools.entries()) {
            if (name === account) {
              expect(names.slice(0, -1), where).toEqual(before[i]!.pools);
              expect(names[names.length - 1], where).toMatch(/^premium-pool(-\d+)?$/);
            } else {
              expect(names, where).toEqual(before[i]!.pools);
            }
          }
        }
      }
    });
  }

  it('YAML: the pool item takes the indentation of the list it joins', () => {
    const text = [
      'region: eastus',
      'accounts:',
      '- name: a',
      '  pools:',
      '    - name: p',
      '      serviceLevel: Standard',
      '      size: 1 TiB',
      '      volumes: []',
      '- name: b',
      '',
    ].join('\n');
    const edit = sizingInsertion('manifest-yaml', text, text.indexOf('volumes'), POOL);
    if ('error' in edit) throw new Error(edit.error);
    expect(apply(text, edit)).toBe(
      [
        'region: eastus',
        'accounts:',
        '- name: a',
        '  pools:',
        '    - name: p',
        '      serviceLevel: Standard',
        '      size: 1 TiB',
        '      volumes: []',
        '    - name: premium-pool',
        '      serviceLevel: Premium',
        '      size: 11 TiB',
        '      qos: auto',
        '      volumes:',
        '        - name: eda-tools',
        '          quota: 10240 GiB',
        '          workload: eda-tools',
        '          requirements:',
        '            capacity: 10 TiB',
        '            throughput: 600 MiB/s',
        '- name: b',
        '',
      ].join('\n'),
    );
    expect(edit.where).toBe('the pools of account a');
  });

  it('YAML: an account without pools gets a `pools:` key; a file without accounts gets a new account', () => {
    const noPools = 'accounts:\n  - name: a\n    location: eastus\n';
    const edit = sizingInsertion('manifest-yaml', noPools, 0, POOL);
    if ('error' in edit) throw new Error(edit.error);
    expect(apply(noPools, edit)).toMatch(
      /^accounts:\n {2}- name: a\n {4}location: eastus\n {4}pools:\n {6}- name: premium-pool\n/,
    );
    const empty = '# a new estate\nregion: westeurope\n';
    const created = sizingInsertion('manifest-yaml', empty, empty.length, POOL);
    if ('error' in created) throw new Error(created.error);
    expect(apply(empty, created)).toMatch(
      /^# a new estate\nregion: westeurope\naccounts:\n {2}- name: account1\n {4}pools:\n {6}- name: premium-pool\n/,
    );
    expect(created.where).toBe('a new account account1');
  });

  it('an empty list (`pools: []`, `"pools": []`) becomes a list with the pool', () => {
    const yaml = 'accounts:\n  - name: a\n    pools: []\n  - name: b\n';
    const edit = sizingInsertion('manifest-yaml', yaml, 12, POOL);
    if ('error' in edit) throw new Error(edit.error);
    expect(apply(yaml, edit)).toMatch(
      /^accounts:\n {2}- name: a\n {4}pools:\n {6}- name: premium-pool\n[\s\S]*\n {2}- name: b\n$/,
    );
    const json = '{\n  "accounts": [\n    { "name": "a", "pools": [] }\n  ]\n}\n';
    const jsonEdit = sizingInsertion('manifest-json', json, 30, POOL);
    if ('error' in jsonEdit) throw new Error(jsonEdit.error);
    expect(quickPoolsOf(apply(json, jsonEdit), 'json', 'json')).toEqual([{ account: 'a', pools: ['premium-pool'] }]);
  });

  it('names the pool and volume apart from those the account already has', () => {
    const text =
      'accounts:\n  - name: a\n    pools:\n      - name: premium-pool\n        volumes:\n          - name: eda-tools\n            quota: 1 TiB\n';
    const edit = sizingInsertion('manifest-yaml', text, 0, POOL);
    if ('error' in edit) throw new Error(edit.error);
    expect(edit.newText).toContain('- name: premium-pool-2');
    expect(edit.newText).toContain('- name: eda-tools-2');
  });

  it('refuses, with a reason, to edit a file that does not parse', () => {
    for (const [kind, text] of [
      ['manifest-yaml', 'accounts:\n  - name: a\n   pools: [\n'],
      ['manifest-json', '{ "accounts": [ { "name": "a", } '],
    ] as const) {
      const edit = sizingInsertion(kind, text, 0, POOL);
      expect(edit).toEqual({ error: expect.stringMatching(/errors .*fix them first/) });
    }
  });

  it('the server answers with the edit for the file and cursor it is given', () => {
    const config = resolveConfig();
    const workspace = new Workspace(config);
    const uri = 'file:///repo/eda.anf.yaml';
    const text = readFileSync(join(ROOT, 'examples', 'eda', 'eda.anf.yaml'), 'utf8');
    workspace.set(uri, text);
    const line = text.split('\n').findIndex((l) => l.includes('mountPath: /home'));
    const position = { line, character: text.split('\n')[line]!.length };
    const result = adviseSizingRequest(
      workspace,
      { uri, position, capacity: '10 TiB', throughput: '1600 MiB/s', workload: 'eda-tools' },
      config,
    );
    expect(result.options.length).toBeGreaterThan(0);
    for (const option of result.options) {
      expect(option.editError).toBeUndefined();
      const source = new SourceText(text);
      const edit = option.edit!;
      const after = apply(text, {
        span: { start: source.offsetAt(edit.range.start), end: source.offsetAt(edit.range.end) },
        newText: edit.newText,
      });
      const pools = poolsOf(after, 'yaml');
      expect(pools.find((p) => p.account === 'eda-prod')!.pools).toContain(`${option.serviceLevel.toLowerCase()}-pool`);
      expect(after).not.toMatch(/mountPath: \/home\S/);
    }
    // Without a file: a whole manifest to open.
    const alone = adviseSizingRequest(
      workspace,
      { capacity: '10 TiB', throughput: '1600 MiB/s', workload: 'eda-tools' },
      config,
    );
    expect(poolsOf(alone.options[0]!.newManifest!, 'yaml')).toEqual([
      { account: 'account1', pools: [`${alone.options[0]!.serviceLevel.toLowerCase()}-pool`] },
    ]);
  });
});
