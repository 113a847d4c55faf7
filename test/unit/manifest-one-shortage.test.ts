import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace, type Diagnostic } from '../../server/src/core';

/** One shortage, one finding: the manifest rules that measure a volume against its requirements do not repeat each other. */
const config = resolveConfig();

function lint(text: string): Diagnostic[] {
  const workspace = new Workspace(config);
  const uri = 'file:///repo/estate.anf.yaml';
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config));
}

const REQUIREMENT_CODES = new Set(['ANF116', 'ANF118', 'ANF127']);

function requirementFindings(text: string): string[] {
  return lint(text)
    .filter((d) => REQUIREMENT_CODES.has(d.code))
    .map((d) => `${d.code} ${d.range.start.line + 1}`);
}

const estate = (volume: string, pool = 'serviceLevel: Ultra\n        size: 600 TiB') => `accounts:
  - name: eda-prod
    pools:
      - name: pool
        ${pool}
        volumes:
${volume}`;

describe('ANF116, ANF118 and ANF127 report one shortage once', () => {
  it('an undersized quota that misses capacity and IOPS is one ANF116 (issue 16, item 9)', () => {
    const text = estate(
      `          - name: eda-tools
            quota: 2 TiB
            requirements:
              capacity: 3 TiB
              iops: 50k
              blockSize: 8 KiB
`,
      'serviceLevel: Ultra\n        size: 4 TiB',
    );
    expect(requirementFindings(text)).toEqual(['ANF116 11']);
    const finding = lint(text).find((d) => d.code === 'ANF116')!;
    expect(finding.message).toContain('needs 3 TiB of capacity (its quota is 2 TiB), and 50,000 IOPS');
    expect(finding.related?.map((r) => r.message)).toEqual([
      'quota of volume `eda-tools`',
      'also not met for volume `eda-tools`',
    ]);
  });

  it('a large volume asked for more than 12,800 MiB/s is ANF118 only, not ANF116 as well', () => {
    const text = estate(`          - name: eda-render
            quota: 200 TiB
            largeVolume: true
            requirements:
              throughput: 20000 MiB/s
`);
    expect(requirementFindings(text)).toEqual(['ANF118 12']);
  });

  it('a regular volume asked for more than 4,500 MiB/s by IOPS is ANF118 only, not ANF127 as well', () => {
    const text = estate(`          - name: eda-scratch
            quota: 50 TiB
            requirements:
              iops: 800k
              blockSize: 8 KiB
`);
    expect(requirementFindings(text)).toEqual(['ANF118 11']);
  });

  it('breakthrough mode has no predefined ceiling: nothing at 20,000 MiB/s when the quota delivers it', () => {
    const text = estate(`          - name: eda-render
            quota: 200 TiB
            largeVolume: true
            breakthroughMode: true
            requirements:
              throughput: 20000 MiB/s
`);
    expect(requirementFindings(text)).toEqual([]);
  });
});

describe('ANF116 on a large volume', () => {
  it('says a large volume grows by at most 30 % of its lowest provisioned size per resize', () => {
    const text = estate(
      `          - name: eda-results
            quota: 60 TiB
            largeVolume: true
            requirements:
              throughput: 6000 MiB/s
`,
      'serviceLevel: Premium\n        size: 200 TiB',
    );
    const finding = lint(text).find((d) => d.code === 'ANF116')!;
    expect(finding.message).toContain(
      'raise the quota to 96,000 GiB (93.75 TiB) (if the volume exists at 60 TiB: a large volume grows by at most 30% of its lowest provisioned size per resize',
    );
  });
});
