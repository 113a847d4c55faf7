/**
 * Hover on manifest keys (issue 16 item 4): what the key means, its unit and limits, its values,
 * from the schema's text, in YAML and in JSON. The `name` key keeps its figures hover.
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, Workspace } from '../../server/src/core';
import { computeHover } from '../../server/src/core/features/hover';

const YAML = [
  'accounts:',
  '  - name: eda-prod',
  '    pools:',
  '      - name: eda-premium',
  '        serviceLevel: Premium',
  '        qos: auto',
  '        size: 8 TiB',
  '        volumes:',
  '          - name: eda-tools',
  '            quota: 4 TiB',
  '            requirements:',
  '              throughput: 200 MiB/s',
  '',
].join('\n');
const JSON_TEXT = JSON.stringify(
  {
    accounts: [
      {
        name: 'eda-prod',
        pools: [
          {
            name: 'eda-premium',
            serviceLevel: 'Premium',
            qos: 'auto',
            size: '8 TiB',
            volumes: [{ name: 'eda-tools', quota: '4 TiB' }],
          },
        ],
      },
    ],
  },
  null,
  2,
);

function hoverAt(uri: string, text: string, needle: string, nth = 0): string | undefined {
  const config = resolveConfig();
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = text.indexOf(needle, offset + 1);
  expect(offset, needle).toBeGreaterThanOrEqual(0);
  return computeHover(workspace, uri, offset + 1, config)?.markdown;
}

describe('hover on manifest keys', () => {
  for (const [format, uri, text, q] of [
    ['YAML', 'file:///r/eda.anf.yaml', YAML, ''],
    ['JSON', 'file:///r/eda.anf.json', JSON_TEXT, '"'],
  ] as const) {
    it(`${format}: quota says what it is, its unit and its limits`, () => {
      const md = hoverAt(uri, text, `${q}quota${q}:`);
      expect(md).toContain('**Quota (volume size)**');
      expect(md).toMatch(/Regular volumes: \d+ GiB to \d+ TiB/);
      expect(md).toContain('Unit: a size with its unit');
    });
    it(`${format}: serviceLevel lists the levels with their rates; qos its values`, () => {
      expect(hoverAt(uri, text, `${q}serviceLevel${q}:`)).toMatch(
        /\*\*Service level\*\*[\s\S]*Premium \(\d+\)[\s\S]*Values: `Standard`, `Premium`, `Ultra`, `Flexible`/,
      );
      expect(hoverAt(uri, text, `${q}qos${q}:`)).toMatch(/Values: `auto`, `manual`/);
    });
    it(`${format}: the volume's name key still shows the volume's figures`, () => {
      expect(hoverAt(uri, text, `${q}name${q}: ${q}eda-tools`)).toContain('**Volume eda-prod/eda-premium/eda-tools**');
    });
  }
  it('YAML: a requirement key is documented as a requirement, with its unit', () => {
    const md = hoverAt('file:///r/eda.anf.yaml', YAML, 'throughput:');
    expect(md).toContain('Unit: a throughput with its unit');
  });
});
