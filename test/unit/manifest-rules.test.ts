import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyEdits,
  lintFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type Diagnostic,
} from '../../server/src/core';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { SourceText } from '../../server/src/core/text/sourceText';
import { cpuMillisSince, startCpu } from '../support/cpuTime';
import { propertyRuns } from '../support/propertyRuns';

const config = resolveConfig();

function lint(text: string, name = 'estate.anf.yaml'): Diagnostic[] {
  const workspace = new Workspace(config);
  const uri = `file:///repo/${name}`;
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config));
}

function codes(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.code).sort();
}

const ALONE = `accounts:
  - name: eda-prod
    pools:
      - name: eda-tools-pool
        serviceLevel: Ultra
        size: 4 TiB
        volumes:
          - name: eda-tools
            quota: 2 TiB
            requirements:
              capacity: 3 TiB
              throughput: 390 MiB/s
`;

describe('ANF116: both fixes', () => {
  it('offers "raise the quota" first and the advisor\'s cheaper configuration second, keeping comments and layout', () => {
    const finding = lint(ALONE).find((d) => d.code === 'ANF116' && d.message.includes('390 MiB/s (it delivers'))!;
    expect(finding.message).toContain(
      'needs 3 TiB of capacity (its quota is 2 TiB), and 390 MiB/s (it delivers 256 MiB/s',
    );
    expect(finding.fixes.map((f) => f.title)).toEqual([
      expect.stringMatching(/^Raise the quota to 3,120 GiB/),
      expect.stringMatching(/^Move to Flexible/),
    ]);
    const raised = applyEdits(ALONE, finding.fixes[0]!.edits).text;
    expect(raised).toBe(ALONE.replace('quota: 2 TiB', 'quota: 3120 GiB'));
    const moved = applyEdits(ALONE, finding.fixes[1]!.edits).text;
    expect(moved).toBe(
      ALONE.replace('serviceLevel: Ultra\n', 'serviceLevel: Flexible\n        throughput: 390 MiB/s\n')
        .replace('size: 4 TiB', 'size: 3 TiB')
        .replace('quota: 2 TiB\n', 'quota: 3 TiB\n            throughput: 390 MiB/s\n'),
    );
    // The moved configuration meets the requirement and raises nothing.
    expect(codes(lint(moved)).filter((c) => c === 'ANF116' || c === 'ANF115' || c === 'ANF114')).toEqual([]);
  });

  it('offers no advisor fix when other volumes share the pool, but still names its figures', () => {
    const shared = ALONE.replace(
      '          - name: eda-tools\n',
      '          - name: eda-libs\n            quota: 1 TiB\n          - name: eda-tools\n',
    );
    const finding = lint(shared).find((d) => d.code === 'ANF116' && d.message.includes('390 MiB/s (it delivers'))!;
    expect(finding.fixes).toHaveLength(1);
    expect(finding.message).toContain('cheapest by the sizing advisor: Flexible');
  });

  it('manual QoS: raises the assigned throughput and grows the pool budget', () => {
    const text = `accounts:
  - name: hana
    pools:
      - name: hana-ultra
        serviceLevel: Ultra
        size: 4 TiB
        qos: manual
        volumes:
          - name: data
            quota: 4 TiB
            throughput: 400 MiB/s
            requirements:
              throughput: 600 MiB/s
`;
    const finding = lint(text).find((d) => d.code === 'ANF116')!;
    const fixed = applyEdits(text, finding.fixes[0]!.edits).text;
    expect(fixed).toBe(
      text.replace('throughput: 400 MiB/s', 'throughput: 600 MiB/s').replace('size: 4 TiB', 'size: 5 TiB'),
    );
    expect(codes(lint(fixed))).not.toContain('ANF116');
    expect(codes(lint(fixed))).not.toContain('ANF114');
  });
});

describe('fixes never edit shared text', () => {
  it('offers no fix for a value that comes through an alias', () => {
    const text = `x-size: &small 2 TiB
accounts:
  - name: a
    pools:
      - name: p
        serviceLevel: Premium
        size: *small
        volumes:
          - { name: v1, quota: 2 TiB }
          - { name: v2, quota: 1 TiB }
`;
    const finding = lint(text).find((d) => d.code === 'ANF112')!;
    expect(finding).toBeDefined();
    expect(finding.fixes).toEqual([]);
  });

  it('keeps flow style and comments intact when fixing in a flow mapping', () => {
    const text =
      'accounts:\n  - name: a\n    pools:\n      - { name: p, serviceLevel: Premium, size: 4 TiB, volumes: [ { name: v, quota: 5 TiB } ] } # five\n';
    const finding = lint(text).find((d) => d.code === 'ANF112')!;
    expect(applyEdits(text, finding.fixes[0]!.edits).text).toBe(text.replace('size: 4 TiB', 'size: 5 TiB'));
  });
});

describe('JSON manifests go through the same rules', () => {
  it('reports and fixes inside JSON strings', () => {
    const text = JSON.stringify(
      {
        accounts: [
          {
            name: 'a',
            pools: [{ name: 'p', serviceLevel: 'Premium', size: '4 TiB', volumes: [{ name: 'v', quota: '6 TiB' }] }],
          },
        ],
      },
      null,
      2,
    );
    const finding = lint(text, 'estate.anf.json').find((d) => d.code === 'ANF112')!;
    expect(applyEdits(text, finding.fixes[0]!.edits).text).toBe(text.replace('"size": "4 TiB"', '"size": "6 TiB"'));
  });
});

describe('figures', () => {
  it('Flexible pool: budget is the set throughput; cost adds the throughput above the baseline', () => {
    const text = `accounts:
  - name: a
    pools:
      - name: flex
        serviceLevel: Flexible
        size: 1 TiB
        throughput: 640 MiB/s
        volumes:
          - { name: v, quota: 1 TiB, throughput: 640 MiB/s }
`;
    const manifest = parseManifest(new SourceText(text), 'file:///x.anf.yaml', 'yaml').manifest!;
    const figures = computeManifestFigures(manifest, config);
    const pool = figures.pools[0]!;
    expect(pool.budgetMiBps).toBe(640);
    expect(pool.budgetUsedPercent).toBe(100);
    // CM's example: Flexible 1 TiB + 512 MiB/s above the baseline is about $976 a month.
    expect(pool.monthlyCost?.totalUsd).toBeCloseTo(1024 * 0.000151 * 730 + 512 * 0.003082 * 730, 2);
    expect(figures.volumes[0]?.throughput?.mibps).toBe(640);
  });

  it("uses the manifest's own region and price overrides", () => {
    const text = `region: westeurope
prices:
  capacityPerGiBHour: { Premium: 0.0003 }
accounts:
  - name: a
    pools:
      - { name: p, serviceLevel: Premium, size: 1 TiB, volumes: [] }
`;
    const manifest = parseManifest(new SourceText(text), 'file:///x.anf.yaml', 'yaml').manifest!;
    const figures = computeManifestFigures(manifest, config);
    expect(figures.prices.region).toBe('westeurope');
    expect(figures.pools[0]?.monthlyCost?.totalUsd).toBeCloseTo(1024 * 0.0003 * 730, 2);
  });

  it('cool access on Ultra uses 68 MiB/s per TiB', () => {
    const text = `accounts:
  - name: a
    pools:
      - name: p
        serviceLevel: Ultra
        size: 4 TiB
        coolAccess: true
        volumes:
          - { name: v, quota: 2 TiB, coolAccess: true }
`;
    const manifest = parseManifest(new SourceText(text), 'file:///x.anf.yaml', 'yaml').manifest!;
    expect(computeManifestFigures(manifest, config).volumes[0]?.throughput?.mibps).toBe(136);
  });
});

describe('robustness', () => {
  it('never throws and keeps every span inside the text, whatever the input', () => {
    const base = ALONE;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: base.length }),
        fc.integer({ min: 0, max: 40 }),
        fc.string({ maxLength: 12 }),
        (at, cut, insert) => {
          const text = base.slice(0, at) + insert + base.slice(Math.min(base.length, at + cut));
          const result = parseManifest(new SourceText(text), 'file:///x.anf.yaml', 'yaml');
          for (const problem of result.problems) {
            expect(problem.span.start).toBeGreaterThanOrEqual(0);
            expect(problem.span.end).toBeLessThanOrEqual(text.length);
            expect(problem.span.start).toBeLessThanOrEqual(problem.span.end);
          }
          expect(() => lint(text)).not.toThrow();
          expect(lint(text).filter((d) => d.code === 'ANF002')).toEqual([]);
        },
      ),
      { numRuns: propertyRuns(150) },
    );
  });

  it('lints a 500-volume manifest quickly', () => {
    const volumes = Array.from(
      { length: 500 },
      (_, i) => `          - { name: v${i}, quota: 100 GiB, exportPath: /v${i}, mountTarget: 10.0.0.4 }`,
    ).join('\n');
    const text = `accounts:\n  - name: a\n    pools:\n      - name: p\n        serviceLevel: Standard\n        size: 50 TiB\n        volumes:\n${volumes}\n`;
    const started = startCpu();
    const diagnostics = lint(text);
    expect(cpuMillisSince(started)).toBeLessThan(5000); // generous: a shared 2-core machine; catches quadratic blowups
    expect(diagnostics).toEqual([]);
  });
});
