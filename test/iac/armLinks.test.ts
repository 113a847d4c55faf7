import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, resolveConfig, Workspace } from '../../server/src/core';
import { estateInventory } from '../../server/src/core/estate/inventory';
import { dependentsOf } from '../../server/src/core/features/dependents';
import { moduleCallHover } from '../../server/src/core/iac/hover';
import { readArmJson } from '../../server/src/core/iac/arm';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * ARM nested deployments with a `templateLink` naming a file of the repository (`relativePath`,
 * `uri(deployment().properties.templateLink.uri, ...)`): the linked template's resources are the
 * deployment's instances, with the parameters the deployment passes, listed once.
 */
const config = resolveConfig(configSchema.parse({}));
const DIR = join(__dirname, '../fixtures/iac/estates/arm-linked');
const FILES = [
  'azuredeploy.json',
  'azuredeploy.parameters.json',
  'nested/hana-volumes.json',
  'nested/shared-volume.json',
];

function workspace(files = FILES): Workspace {
  const w = new Workspace(config);
  for (const f of files) w.set(`file:///repo/${f}`, readFileSync(join(DIR, f), 'utf8'));
  return w;
}

describe('ARM linked templates', () => {
  it('reads the linked templates as instances of the parent deployment, with the values it passes', () => {
    const w = workspace();
    const parent = w.file('file:///repo/azuredeploy.json')!;
    const volumes = parent.iac!.volumes.map((v) => [v.name?.value, v.quota?.value, v.pool?.name?.value]);
    expect(volumes).toEqual([
      ['hn1-data-mnt00001', 4096 * 2 ** 30, 'hn1-premium'],
      ['hn1-log-mnt00001', 512 * 2 ** 30, 'hn1-premium'],
      ['hn1-shared', 1024 * 2 ** 30, 'hn1-premium'],
    ]);
    expect(parent.iac!.pools.map((p) => p.name?.value)).toEqual(['hn1-premium']);
    // The linked files are called: their own volumes are not the workspace's again.
    expect(w.file('file:///repo/nested/hana-volumes.json')!.iac!.calledBy).toEqual(['file:///repo/azuredeploy.json']);
    expect(w.file('file:///repo/nested/shared-volume.json')!.volumes).toEqual([]);
  });

  it('lists each volume once in the inventory, with its quota and throughput', () => {
    const inv = estateInventory(workspace(), config);
    expect(inv.volumes.map((v) => [v.name, v.quotaGiB, v.throughputMiBps])).toEqual([
      ['hn1-data-mnt00001', 4096, 256],
      ['hn1-log-mnt00001', 512, 32],
      ['hn1-shared', 1024, 64],
    ]);
    expect(inv.pools).toHaveLength(1);
  });

  it('keeps a URL it does not fetch as a call with its reason, shown on hover', () => {
    const parent = workspace().file('file:///repo/azuredeploy.json')!;
    const backup = parent.iac!.calls!.find((c) => c.name === 'HN1-backup')!;
    expect(backup.local).toBe(false);
    expect(backup.unread).toMatch(/stsapartifacts\.blob\.core\.windows\.net.*is a URL/);
    const hover = moduleCallHover(parent.iac!, backup.headSpan.start);
    expect(hover?.markdown).toMatch(/does not read this linked template/);
  });

  it('read alone, a template records its links and reads nothing it cannot see', () => {
    const text = readFileSync(join(DIR, 'azuredeploy.json'), 'utf8');
    const estate = readArmJson(new SourceText(text), [], 'arm');
    expect(estate.volumes).toEqual([]);
    expect(estate.calls?.map((c) => c.source)).toEqual([
      'nested/hana-volumes.json',
      'nested/shared-volume.json',
      undefined,
    ]);
  });

  it('a linked file that is missing, or a link back to the parent, stays unread without a loop', () => {
    const w = workspace(['azuredeploy.json', 'nested/shared-volume.json']);
    // Without the parameters file `sid` has no value; the shared volume is still read, its quota known.
    expect(w.file('file:///repo/azuredeploy.json')!.iac!.volumes.map((v) => v.quota?.value)).toEqual([2 ** 40]);
    const loop = `{"$schema":"https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#","contentVersion":"1.0.0.0",
"resources":[{"type":"Microsoft.NetApp/netAppAccounts","apiVersion":"2024-07-01","name":"anf-loop","location":"westeurope"},
{"type":"Microsoft.Resources/deployments","apiVersion":"2022-09-01","name":"self",
"properties":{"mode":"Incremental","templateLink":{"relativePath":"./loop.json"}}}]}`;
    const w2 = new Workspace(config);
    w2.set('file:///repo/loop.json', loop);
    const self = w2.file('file:///repo/loop.json')!;
    expect(self.iac!.accounts.map((a) => a.name?.value)).toEqual(['anf-loop']);
    expect(self.iac!.calls?.[0]?.source).toBe('./loop.json');
  });

  it('an edit of a linked template re-checks the template that links it', () => {
    const w = workspace();
    const before = w.file('file:///repo/nested/shared-volume.json')!;
    const after = w.set('file:///repo/nested/shared-volume.json', before.source.text.replace('1024', '2048'));
    const dependents = dependentsOf({ uri: after.uri, before, after }, w.files()).map((f) => f.uri);
    expect(dependents).toContain('file:///repo/azuredeploy.json');
    expect(estateInventory(w, config).volumes.find((v) => v.name === 'hn1-shared')?.quotaGiB).toBe(2048);
  });
});

describe('ARM linked templates: the quickstart `_artifactsLocation` layout', () => {
  const DIR2 = join(__dirname, '../fixtures/iac/estates/arm-artifacts');
  const parent = readFileSync(join(DIR2, 'azuredeploy.json'), 'utf8');
  const child = readFileSync(join(DIR2, 'nestedtemplates/scratch.json'), 'utf8');

  it('follows uri(parameters(_artifactsLocation), concat(path, sasToken)) when the parameter defaults to the own link', () => {
    const w = new Workspace(config);
    w.set('file:///repo/azuredeploy.json', parent);
    w.set('file:///repo/nestedtemplates/scratch.json', child);
    const volumes = w.file('file:///repo/azuredeploy.json')!.iac!.volumes;
    expect(volumes.map((v) => [v.name?.value, v.quota?.value])).toEqual([['scratch', 2 * 2 ** 40]]);
    expect(estateInventory(w, config).volumes).toHaveLength(1);
  });

  it('a parameters file that sets _artifactsLocation to a URL is not this file: not followed', () => {
    const w = new Workspace(config);
    w.set('file:///repo/azuredeploy.json', parent);
    w.set('file:///repo/nestedtemplates/scratch.json', child);
    w.set(
      'file:///repo/azuredeploy.parameters.json',
      '{"$schema":"https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#","contentVersion":"1.0.0.0","parameters":{"_artifactsLocation":{"value":"https://example.blob.core.windows.net/artifacts/"}}}',
    );
    const file = w.file('file:///repo/azuredeploy.json')!;
    expect(file.iac!.volumes).toEqual([]);
    expect(file.iac!.calls?.[0]?.local).toBe(false);
    expect(file.iac!.calls?.[0]?.unread).toMatch(/templateLink.uri/);
  });
});
