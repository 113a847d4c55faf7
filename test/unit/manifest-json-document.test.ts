import { describe, expect, it } from 'vitest';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { strictJsonDocument } from '../../server/src/core/manifest/jsonDocument';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { SourceText } from '../../server/src/core/text/sourceText';

const MANIFEST = JSON.stringify(
  {
    accounts: [
      {
        name: 'eda-weu',
        pools: [
          {
            name: 'tools',
            serviceLevel: 'Premium',
            size: '4 TiB',
            volumes: [
              {
                name: 'eda-tools',
                quota: '1 TiB',
                protocols: ['NFSv3'],
                workload: 'eda-tools',
                requirements: { throughput: '120 MiB/s' },
                note: 'caf\u00e9 \\ "q" \u2713',
                ratio: 1.5e3,
                on: true,
                off: null,
              },
              { name: 'eda-scratch', quota: '2 TiB', quota2: -0.25 },
            ],
          },
        ],
      },
    ],
  },
  null,
  2,
);

/** Every node's kind, range and scalar type and value, in document order. */
function shape(node: unknown, out: unknown[] = []): unknown[] {
  const n = node as Node;
  if (isMap(n)) {
    out.push(['map', n.range?.slice(0, 2)]);
    for (const pair of n.items) {
      shape(pair.key, out);
      shape(pair.value, out);
    }
  } else if (isSeq(n)) {
    out.push(['seq', n.range?.slice(0, 2)]);
    for (const item of n.items) shape(item, out);
  } else if (isScalar(n)) out.push(['scalar', n.range?.slice(0, 2), n.type, n.value]);
  return out;
}

describe('JSON manifests read with jsonc-parser (jsonDocument.ts)', () => {
  it('give the nodes, ranges, scalar types and values the yaml library gives', () => {
    const fast = strictJsonDocument(MANIFEST);
    expect(fast).toBeDefined();
    const slow = parseDocument(MANIFEST, { uniqueKeys: false });
    expect(shape(fast!.contents)).toEqual(shape(slow.contents));
    expect(fast!.toJS()).toEqual(slow.toJS());
  });

  it('leave JSON with a syntax error, a comment or a trailing comma to the yaml library', () => {
    expect(strictJsonDocument('{"accounts": [}')).toBeUndefined();
    expect(strictJsonDocument('{"accounts": [] // none yet\n}')).toBeUndefined();
    expect(strictJsonDocument('{"accounts": [],}')).toBeUndefined();
    expect(strictJsonDocument('')).toBeUndefined();
    expect(strictJsonDocument(`${'['.repeat(200)}${']'.repeat(200)}`)).toBeUndefined();
  });

  it('give the manifest reader the same findings as a yaml parse (a duplicate key included)', () => {
    const text = MANIFEST.replace('"quota2": -0.25', '"quota": "3 TiB"');
    const source = new SourceText(text);
    const viaJson = parseManifest(source, 'file:///w/estate.anf.json', 'json');
    const viaYaml = parseManifest(source, 'file:///w/estate.anf.yaml', 'yaml');
    expect(viaJson.problems.map((p) => [p.code, p.span, p.message])).toEqual(
      viaYaml.problems.map((p) => [p.code, p.span, p.message]),
    );
    expect(viaJson.problems.length).toBeGreaterThan(0);
    expect(viaJson.volumes.map((v) => [v.name, v.quotaGiB])).toEqual(viaYaml.volumes.map((v) => [v.name, v.quotaGiB]));
  });
});
