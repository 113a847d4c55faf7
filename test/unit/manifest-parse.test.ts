import { describe, expect, it, vi } from 'vitest';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import { resolveConfig } from '../../server/src/core/config';
import { SourceText } from '../../server/src/core/text/sourceText';
import { TiB } from '../../server/src/core/units/units';
import { cpuMillisSince, startCpu } from '../support/cpuTime';

const URI = 'file:///estate.anf.yaml';

function parse(text: string, format: 'yaml' | 'json' = 'yaml') {
  return parseManifest(new SourceText(text), URI, format);
}

/** The text a span covers, so expectations read like the file. */
function at(text: string, span: { start: number; end: number }): string {
  return text.slice(span.start, span.end);
}

const GOOD = `# EDA estate
region: eastus
accounts:
  - name: eda-prod
    pools:
      - name: tools-pool
        serviceLevel: Premium
        size: 4 TiB        # whole TiB
        volumes:
          - name: tools
            quota: "2 TiB"
            protocols: [NFSv3]
            workload: eda-tools
            exportPath: /eda-tools
            mountTarget: 10.10.1.4
            mountPath: /tools
            requirements:
              capacity: 1.5 TiB
              throughput: 100 MiB/s
              iops: 10k
              blockSize: 8 KiB
              latency: 1 ms
              clients: 64
`;

describe('parseManifest: the model', () => {
  it('reads accounts, pools and volumes with the span of every value', () => {
    const result = parse(GOOD);
    expect(result.problems).toEqual([]);
    const pool = result.manifest!.accounts[0]!.pools[0]!;
    expect(pool.serviceLevel?.value).toBe('Premium');
    expect(pool.size?.value.bytes).toBe(4 * TiB);
    expect(at(GOOD, pool.size!.span)).toBe('4 TiB');
    expect(at(GOOD, pool.size!.keySpan)).toBe('size');
    const volume = pool.volumes[0]!;
    // Quoted: the span keeps the quotes, the edit span does not.
    expect(at(GOOD, volume.quota!.span)).toBe('"2 TiB"');
    expect(at(GOOD, volume.quota!.editSpan!)).toBe('2 TiB');
    expect(at(GOOD, volume.protocols[0]!.span)).toBe('NFSv3');
    expect(volume.requirements?.iops?.value).toBe(10_000);
    expect(volume.requirements?.latency?.value).toBeCloseTo(0.001);
    expect(at(GOOD, volume.requirements!.latency!.span)).toBe('1 ms');
  });

  it('produces a VolumeSummary the mount rules can link to', () => {
    const [summary] = parse(GOOD).volumes;
    expect(summary).toMatchObject({
      account: 'eda-prod',
      pool: 'tools-pool',
      name: 'tools',
      serviceLevel: 'Premium',
      qos: 'auto',
      quotaGiB: 2048,
      throughputMiBps: 128,
      workload: 'eda-tools',
      nfsVersions: ['3'],
      kerberos: false,
      mountTargets: ['10.10.1.4'],
      exportPath: '/eda-tools',
      mountPath: '/tools',
      clients: 64,
    });
    expect(at(GOOD, summary!.nameSpan)).toBe('tools');
  });

  it("computes figures: throughput limit, budget, IOPS at block size, Little's Law, cost", () => {
    const result = parse(GOOD);
    const figures = computeManifestFigures(result.manifest!, resolveConfig());
    const pool = figures.pools[0]!;
    expect(pool.sizeTiB).toBe(4);
    expect(pool.budgetMiBps).toBe(256);
    expect(pool.usedMiBps).toBe(128);
    expect(pool.allocationPercent).toBe(50);
    expect(pool.monthlyCost?.totalUsd).toBeCloseTo(4096 * 0.000403 * 730, 2);
    const volume = figures.volumes[0]!;
    expect(volume.throughput?.mibps).toBe(128);
    expect(volume.iopsAtBlockSize).toBe(16_384);
    // 10k IOPS at 8 KiB = 78.125 MiB/s; the stated 100 MiB/s is larger.
    expect(volume.requiredThroughputMiBps).toBe(100);
    expect(volume.concurrency).toBeCloseTo(10);
    expect(volume.quotaNeededGiB).toBe(1600);
    expect(volume.meetsThroughput).toBe(true);
  });
});

describe('parseManifest: problems are findings with precise spans', () => {
  it('reports a syntax error as ANF100 without throwing', () => {
    const text = 'accounts:\n  - name: [unclosed\n';
    const result = parse(text);
    expect(result.problems.map((p) => p.code)).toContain('ANF100');
  });

  it('reports duplicate keys as ANF101 on the second key', () => {
    const text =
      'accounts:\n  - name: a\n    pools:\n      - name: p\n        serviceLevel: Premium\n        size: 4 TiB\n        size: 8 TiB\n';
    const problem = parse(text).problems.find((p) => p.code === 'ANF101')!;
    expect(at(text, problem.span)).toBe('size');
    expect(problem.span.start).toBe(text.lastIndexOf('size'));
  });

  it('reports unknown keys as ANF102 with a did-you-mean fix on the key', () => {
    const text =
      'accounts:\n  - name: a\n    pools:\n      - name: p\n        serviceLvl: Premium\n        size: 4 TiB\n';
    const problem = parse(text).problems.find((p) => p.code === 'ANF102')!;
    expect(at(text, problem.span)).toBe('serviceLvl');
    expect(problem.message).toContain('Did you mean `serviceLevel`?');
    expect(problem.fixes?.[0]?.edits[0]?.newText).toBe('serviceLevel');
  });

  it('a list that a slip in the indentation turns into a key gets its syntax error only, not an ANF102 naming the whole list', () => {
    // `0` typed into a volume line's indentation, left of the pool's column: the line joins the
    // account's mapping, and yaml reads the volumes after it as one list used as a key.
    const volume = (n: number) =>
      `          - name: v${n}\n            quota: 1 TiB\n            protocols: [NFSv3]\n            workload: hpc\n`;
    const slipped =
      '          - name: v9\n            quota: 1 TiB\n     0       protocols: [NFSv3]\n            workload: hpc\n';
    const text = `accounts:\n  - name: a\n    pools:\n      - name: p\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n${volume(1)}${slipped}${volume(2)}${volume(3)}`;
    const problems = parse(text).problems;
    const listKey = problems.find(
      (p) => p.code === 'ANF100' && p.message.includes('block sequence may not be used as an implicit map key'),
    );
    expect(listKey?.span.start).toBe(text.indexOf('          - name: v2'));
    expect(problems.filter((p) => p.code === 'ANF102').map((p) => [at(text, p.span), p.message])).toEqual([
      ['0       protocols', 'Unknown key `0       protocols` in a NetApp account. Known keys: name, pools.'],
      [
        'workload',
        'Unknown key `workload` in a NetApp account. `workload` belongs to a volume. Known keys: name, pools.',
      ],
    ]);
  });

  it('a list written as a key in well-formed YAML is an ANF102 on its first line', () => {
    const text = 'accounts:\n  - name: a\n    ? [p1, p2]\n    : shared\n    pools: []\n';
    const problems = parse(text).problems.filter((p) => p.code === 'ANF102');
    expect(problems.map((p) => [at(text, p.span), p.message])).toEqual([
      ['[p1, p2]', 'A list is used as a key in a NetApp account: keys here are names. Known keys: name, pools.'],
    ]);
  });
  it('reports a size without unit and a misspelled enum as ANF103 on the value', () => {
    const text =
      'accounts:\n  - name: a\n    pools:\n      - name: p\n        serviceLevel: premium\n        size: 4\n';
    const problems = parse(text).problems.filter((p) => p.code === 'ANF103');
    expect(problems.map((p) => at(text, p.span)).sort()).toEqual(['4', 'premium']);
    const level = problems.find((p) => at(text, p.span) === 'premium')!;
    expect(level.fixes?.[0]?.edits[0]?.newText).toBe('Premium');
  });

  it('reports a missing required key as ANF104 on the item that lacks it', () => {
    const text = 'accounts:\n  - name: a\n    pools:\n      - name: p\n        size: 4 TiB\n';
    const problem = parse(text).problems.find((p) => p.code === 'ANF104')!;
    expect(problem.message).toContain('`serviceLevel`');
    expect(at(text, problem.span)).toBe('name: p');
  });

  it('reports an empty document instead of throwing', () => {
    expect(parse('').problems.map((p) => p.code)).toEqual(['ANF104']);
    expect(parse('# only a comment\n').problems.map((p) => p.code)).toEqual(['ANF104']);
  });

  it('prints nothing to the process (yaml warnings stay inside): a collection key is a finding', () => {
    const spy = vi.spyOn(process, 'emitWarning');
    const result = parse('accounts:\n  ? [ { name: eda-scratch } ]\n  : 1\n');
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
    expect(result.problems.map((p) => p.code)).toEqual(['ANF103']);
  });

  it('never throws on odd input', () => {
    for (const text of [
      '- a\n- b\n',
      '42',
      'accounts: 3',
      'accounts: [null, 3, "x"]',
      'accounts:\n  - pools: [{volumes: [{}]}]',
      '\t\tbad',
      '---\na: 1\n---\nb: 2\n',
    ]) {
      expect(() => parse(text)).not.toThrow();
      expect(parse(text).problems.length, text).toBeGreaterThan(0);
    }
  });
});

describe('parseManifest: anchors, aliases, merge keys', () => {
  it('resolves aliases and merge keys; values through them carry no edit span', () => {
    const text = [
      'x-premium: &premium',
      '  serviceLevel: Premium',
      '  size: 4 TiB',
      'accounts:',
      '  - name: a',
      '    pools:',
      '      - name: p',
      '        <<: *premium',
      '        volumes:',
      '          - name: v',
      '            quota: &q 1 TiB',
      '          - name: w',
      '            quota: *q',
      '',
    ].join('\n');
    const result = parse(text);
    expect(result.problems).toEqual([]);
    const pool = result.manifest!.accounts[0]!.pools[0]!;
    expect(pool.serviceLevel?.value).toBe('Premium');
    expect(pool.size?.editSpan).toBeUndefined();
    expect(at(text, pool.size!.span)).toBe('*premium');
    const [v, w] = pool.volumes;
    expect(at(text, v!.quota!.span)).toBe('&q 1 TiB'.slice(3));
    expect(v!.quota!.editSpan).toBeDefined();
    expect(at(text, w!.quota!.span)).toBe('*q');
    expect(w!.quota!.editSpan).toBeUndefined();
    expect(result.volumes).toHaveLength(2);
  });

  it('stops an alias bomb in bounded time with ANF100', () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'];
    let previous = 'a';
    for (const name of names) {
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
      previous = name;
    }
    const started = startCpu();
    const result = parse(`${lines.join('\n')}\n`);
    expect(cpuMillisSince(started)).toBeLessThan(2000);
    expect(result.problems.map((p) => p.code)).toEqual(['ANF100']);
    expect(result.problems[0]!.message).toContain('aliases');
  });
});

describe('parseManifest: JSON', () => {
  const json = `{
  "$schema": "../schemas/anf-manifest.schema.json",
  "accounts": [
    {
      "name": "hana",
      "pools": [
        { "name": "p", "serviceLevel": "Ultra", "size": "10 TiB", "qos": "manual",
          "volumes": [ { "name": "data", "quota": "4 TiB", "throughput": "704 MiB/s", "protocols": ["NFSv4.1"], "unknown": 1 } ] }
      ]
    }
  ]
}
`;

  it('reads JSON with the same spans and problems', () => {
    const result = parse(json, 'json');
    expect(result.problems.map((p) => [p.code, at(json, p.span)])).toEqual([['ANF102', '"unknown"']]);
    const volume = result.manifest!.accounts[0]!.pools[0]!.volumes[0]!;
    expect(at(json, volume.throughput!.span)).toBe('"704 MiB/s"');
    expect(at(json, volume.throughput!.editSpan!)).toBe('704 MiB/s');
    expect(result.volumes[0]?.throughputMiBps).toBe(704);
  });

  it('reports a JSON syntax error as ANF100', () => {
    const result = parse('{ "accounts": [ }', 'json');
    expect(result.problems[0]?.code).toBe('ANF100');
    expect(result.problems[0]?.message).toMatch(/^JSON syntax/);
  });
});
