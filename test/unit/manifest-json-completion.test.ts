import { describe, expect, it } from 'vitest';
import { parseFile } from '../../server/src/core';
import { computeCompletions, type CoreCompletion } from '../../server/src/core/features/completion';
import { jsonContextAt } from '../../server/src/core/features/jsonPath';

/**
 * Completion in JSON manifests, on documents as they are while being typed: `|` marks the cursor
 * and is removed before completing. The keys, values and examples are the YAML side's (the zod
 * schema); only the JSON spelling differs.
 */
const URI = 'file:///w/infra/estate.anf.json';

function complete(withCursor: string): { text: string; items: CoreCompletion[] } {
  const offset = withCursor.indexOf('|');
  const text = withCursor.slice(0, offset) + withCursor.slice(offset + 1);
  return { text, items: computeCompletions(parseFile(URI, text), offset) };
}

const labels = (items: readonly CoreCompletion[]) => items.map((i) => i.label);
const item = (items: readonly CoreCompletion[], label: string) => {
  const found = items.find((i) => i.label === label);
  if (!found) throw new Error(`no item ${label} in ${labels(items).join(', ')}`);
  return found;
};
/** What the editor shows after accepting an item: the replaced range, and the edits that come with it. */
function accept(text: string, completion: CoreCompletion): string {
  const edits = [
    { span: completion.replace, newText: completion.insertText },
    ...(completion.additionalEdits ?? []),
  ].sort((a, b) => b.span.start - a.span.start);
  return edits.reduce((t, e) => t.slice(0, e.span.start) + e.newText + t.slice(e.span.end), text);
}
/** A snippet expanded as an editor would with the defaults: placeholders -> their text, choices -> the first. */
function expand(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '')
    .replace(/\\(.)/g, '$1');
}

/** A pretty-printed estate as a JSON user writes it (a cut of examples/eda). */
const ESTATE = `{
  "$schema": "../schemas/anf-manifest.schema.json",
  "region": "eastus",
  "accounts": [
    {
      "name": "eda-prod",
      "pools": [
        {
          "name": "eda-premium",
          "serviceLevel": "Premium",
          CURSOR
          "volumes": [
            {
              "name": "eda-tools",
              "quota": "4 TiB",
              "protocols": ["NFSv3"],
              "workload": "eda-tools"
            }
          ]
        }
      ]
    }
  ]
}
`;
const estate = (atCursor: string) => ESTATE.replace('CURSOR', atCursor);

describe('JSON manifests: keys', () => {
  it('offers the keys of the level being typed, half-typed and inside an open string', () => {
    const { text, items } = complete('{"accounts": [{"na|');
    expect(labels(items)).toEqual(['name', 'pools']);
    const name = item(items, 'name');
    expect(name).toMatchObject({
      kind: 'key',
      insertText: '"name": "$1"',
      snippet: true,
      filterText: '"name"',
      detail: 'NetApp account name',
    });
    expect(name.documentation).toContain('administrative grouping');
    expect(text.slice(name.replace.start, name.replace.end)).toBe('"na');
    expect(item(items, 'pools').insertText).toBe('"pools": [$1]');
  });

  it('replaces the closing quote the editor typed, and leaves out the keys present before and after the cursor', () => {
    const { text, items } = complete(estate('"si|",'));
    expect(labels(items)).not.toContain('name');
    expect(labels(items)).not.toContain('serviceLevel');
    expect(labels(items)).not.toContain('volumes');
    expect(labels(items)).toEqual(
      expect.arrayContaining(['size', 'qos', 'throughput', 'coolAccess', 'networkFeatures']),
    );
    const size = item(items, 'size');
    expect(text.slice(size.replace.start, size.replace.end)).toBe('"si"');
    expect(accept(text, size)).toContain('          "size": "$1",\n          "volumes": [');
    expect(item(items, 'coolAccess').insertText).toBe('"coolAccess": $1');
    expect(item(items, 'qos').documentation).toContain('Default: `"auto"`');
  });

  it('adds the comma another member needs after the key, and the one missing before it', () => {
    const before = complete(estate('|'));
    expect(item(before.items, 'size').insertText).toBe('"size": "$1",');
    // The previous member ends without a comma: the item brings one.
    const { text, items } = complete(
      '{"accounts": [{"name": "a", "pools": [{"name": "p", "volumes": [{"name": "v", "quota": "1 TiB"\n  |\n}]}]}]}',
    );
    const workload = item(items, 'workload');
    expect(workload.additionalEdits).toEqual([
      { span: { start: text.indexOf('"1 TiB"') + 7, end: text.indexOf('"1 TiB"') + 7 }, newText: ',' },
    ]);
    expect(accept(text, workload)).toContain('"quota": "1 TiB",\n  "workload": "$1"\n}');
  });

  it('completes only the key when its colon is already there', () => {
    const { text, items } = complete('{"accounts": [{"name": "a", "pools": [{"serv|": "Ultra"}]}]}');
    const level = item(items, 'serviceLevel');
    expect(level.insertText).toBe('"serviceLevel"');
    expect(level.snippet).toBeUndefined();
    expect(accept(text, level)).toBe('{"accounts": [{"name": "a", "pools": [{"serviceLevel": "Ultra"}]}]}');
  });

  it('offers the root keys, `$schema` among them (JSON has no modeline)', () => {
    const { items } = complete('{\n  |\n}');
    expect(labels(items)).toEqual(['$schema', 'region', 'prices', 'accounts']);
    expect(item(items, '$schema').insertText).toBe('"\\$schema": "$1"');
    expect(item(items, 'prices').insertText).toBe('"prices": {$1}');
    expect(labels(complete('{"region": "eastus", |').items)).toEqual(['$schema', 'prices', 'accounts']);
  });

  it('offers the keys of nested objects: requirements, prices', () => {
    const requirements = complete(
      '{"accounts": [{"name": "a", "pools": [{"name": "p", "volumes": [{"name": "v", "requirements": {"capacity": "1 TiB", |}}]}]}]}',
    );
    expect(labels(requirements.items)).toEqual([
      'throughput',
      'iops',
      'blockSize',
      'latency',
      'readPercent',
      'clients',
    ]);
    expect(item(requirements.items, 'iops').insertText).toBe('"iops": $1');
    expect(labels(complete('{"prices": {"capacityPerGiBHour": {"Ultra": 0.1, "|').items)).toEqual([
      'Standard',
      'Premium',
      'Flexible',
    ]);
  });
});

describe('JSON manifests: values', () => {
  it('offers the service levels quoted, replacing the quotes the editor closed', () => {
    const { text, items } = complete(estate('"qos": "|"'));
    expect(labels(items)).toEqual(['"auto"', '"manual"']);
    const levels = complete('{"accounts": [{"name": "a", "pools": [{"name": "p", "serviceLevel": "|"}]}]}');
    expect(labels(levels.items)).toEqual(['"Standard"', '"Premium"', '"Ultra"', '"Flexible"']);
    const premium = item(levels.items, '"Premium"');
    expect(premium).toMatchObject({ kind: 'value', insertText: '"Premium"', filterText: '"Premium"' });
    expect(premium.documentation).toContain('MiB/s per TiB');
    expect(accept(levels.text, premium)).toBe(
      '{"accounts": [{"name": "a", "pools": [{"name": "p", "serviceLevel": "Premium"}]}]}',
    );
    expect(text.slice(item(items, '"auto"').replace.start, item(items, '"auto"').replace.end)).toBe('""');
  });

  it('offers values after the colon with nothing typed, with the comma the next member needs', () => {
    const { items } = complete(estate('"networkFeatures": |\n'));
    expect(labels(items)).toEqual(['"Standard"', '"Basic"']);
    expect(item(items, '"Basic"').insertText).toBe('"Basic",');
  });

  it('offers workloads, NFS security and protocols (as a list, and inside the list)', () => {
    const volume = '{"accounts": [{"name": "a", "pools": [{"name": "p", "volumes": [{"name": "v", ';
    expect(labels(complete(`${volume}"workload": "e|`).items)).toEqual(
      expect.arrayContaining(['"eda-tools"', '"sap-hana-data"', '"general"']),
    );
    expect(labels(complete(`${volume}"security": |`).items)).toEqual(['"sys"', '"krb5"', '"krb5i"', '"krb5p"']);
    expect(labels(complete(`${volume}"protocols": |`).items)).toEqual(['["NFSv3"]', '["NFSv4.1"]', '["SMB"]']);
    expect(labels(complete(`${volume}"protocols": [|]`).items)).toEqual(['"NFSv3"', '"NFSv4.1"', '"SMB"']);
    expect(labels(complete(`${volume}"protocols": ["NFSv3", "|"]`).items)).toEqual(['"NFSv3"', '"NFSv4.1"', '"SMB"']);
  });

  it('offers booleans bare, finishing a word being typed', () => {
    const { text, items } = complete('{"accounts": [{"name": "a", "pools": [{"name": "p", "coolAccess": tr|}]}]}');
    expect(labels(items)).toEqual(['true', 'false']);
    expect(accept(text, item(items, 'true'))).toBe(
      '{"accounts": [{"name": "a", "pools": [{"name": "p", "coolAccess": true}]}]}',
    );
  });

  it('offers sizes, rates, durations and counts with their units, as the YAML side does', () => {
    const volume = '{"accounts": [{"name": "a", "pools": [{"name": "p", "volumes": [{"name": "v", ';
    expect(labels(complete(`${volume}"quota": "|`).items)).toEqual(['"4 TiB"', '"500 GiB"']);
    expect(labels(complete(`${volume}"requirements": {"throughput": "|"}`).items)).toEqual([
      '"640 MiB/s"',
      '"1.2 GiB/s"',
    ]);
    expect(labels(complete(`${volume}"requirements": {"latency": |}`).items)).toEqual(['"1 ms"', '"0.5 ms"']);
    // A count is a number or a string with a suffix.
    expect(labels(complete(`${volume}"requirements": {"iops": |}`).items)).toEqual(['100000', '"100k"']);
    expect(labels(complete('{"$schema": "|"').items)).toEqual([
      '"https://raw.githubusercontent.com/anf-lint/anf-lint/main/schemas/anf-manifest.schema.json"',
    ]);
  });

  it('offers a whole block for a new account, pool or volume, built from the schema, that parses clean', () => {
    const { text, items } = complete(
      estate('"size": "8 TiB",\n          "volumes": [\n            |\n          ],\n          "qos": "auto",'),
    );
    const block = item(items, 'anf-volume');
    expect(block).toMatchObject({ kind: 'snippet', snippet: true, detail: 'Volume' });
    expect(block.insertText).toBe('{\n\t"name": "${1:eda-tools}",\n\t"quota": "${2:4 TiB}"\n}');
    const pool = item(complete('{"accounts": [{"name": "a", "pools": [|]}]}').items, 'anf-pool');
    expect(pool.insertText).toContain('"serviceLevel": "${2|Standard,Premium,Ultra,Flexible|}"');
    const accepted = accept(text, block);
    expect(expand(accepted)).toContain('"name": "eda-tools",');
  });
});

describe('JSON manifests: whole documents and edge cases', () => {
  it('offers a skeleton in an empty file that, expanded, is a manifest without problems', () => {
    const { items } = complete('|');
    expect(labels(items)).toEqual(['anf-manifest']);
    const expanded = expand(items[0]!.insertText);
    expect(JSON.parse(expanded)).toMatchObject({
      $schema: expect.stringContaining('anf-manifest.schema.json'),
      accounts: [
        {
          name: 'eda-prod',
          pools: [{ serviceLevel: 'Standard', size: '4 TiB', volumes: [{ name: 'eda-tools', quota: '4 TiB' }] }],
        },
      ],
    });
    expect(parseFile(URI, expanded).problems).toEqual([]);
  });

  it('answers nothing where nothing fits: after a key before its colon, outside the root object, under an unknown key', () => {
    expect(complete('{"accounts"| ').items).toEqual([]);
    expect(complete('{"region": "eastus"}\n|').items).toEqual([]);
    // Typing the closing quote of a value (a trigger character) opens no list of keys.
    expect(complete('{"region": "eastus"|').items).toEqual([]);
    expect(labels(complete('{"region": "eastus" |').items)).toContain('accounts');
    expect(complete('{"prices": {"flexibleThroughputPerMiBpsHour": |}}').items).toEqual([]);
    expect(complete(estate('"requirements": {"thr|')).items).toEqual([]);
  });

  it('reads the path through escaped quotes, CRLF and nested lists', () => {
    const nested = '{"region": "a\\"b",\r\n "accounts": [{}, {"pools": [{}, {"x';
    expect(jsonContextAt(nested, nested.length)).toMatchObject({
      path: ['accounts', 1, 'pools', 1],
      position: 'key',
      typed: 'x',
    });
    expect(jsonContextAt('[1, 2, ', 7)).toMatchObject({ path: [], position: 'value', index: 2 });
  });
});
