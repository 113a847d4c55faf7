import { describe, expect, it } from 'vitest';
import { poolOfVolume, toManifest, workloadOrigin, type IacEstate } from '../../server/src/core/iac/estate';
import { valueOriginNote } from '../../server/src/core/iac/hover';
import { readIac } from '../../server/src/core/iac/read';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Issue 32: a 10 MiB file holds tens of thousands of pools and volumes. Linking each volume to its
 * pool, each pool to its account, and a finding to its volume scanned the whole list each time (a
 * 10 MiB `.tf` of 39,000 pools spent most of its time copying the account's list of pools, once per
 * pool), and the value a finding or a hover is on was found by scanning every resource's span.
 * The work is counted as reads of the resources' `symbol`, `name` and `span`, on N and 4N resources:
 * linear work reads about four times as much, a scan per resource sixteen times.
 */
function template(count: number): string {
  const resources: unknown[] = [
    { type: 'Microsoft.NetApp/netAppAccounts', apiVersion: '2025-06-01', name: 'estate', location: 'eastus' },
  ];
  for (let i = 0; i < count; i++) {
    resources.push({
      type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
      apiVersion: '2025-06-01',
      name: `estate/pool-${i}`,
      location: 'eastus',
      properties: { serviceLevel: 'Premium', size: 4398046511104 },
    });
    resources.push({
      type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
      apiVersion: '2025-06-01',
      name: `estate/pool-${i}/hana-data-${i}`,
      location: 'eastus',
      properties: { creationToken: `hana-data-${i}`, usageThreshold: 107374182400, serviceLevel: 'Premium' },
    });
  }
  return JSON.stringify({
    $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
    contentVersion: '1.0.0.0',
    resources,
  });
}

/** The estate with each resource behind a proxy that counts reads of `symbol` and `name`. */
function counted(estate: IacEstate): { estate: IacEstate; reads: () => number } {
  let reads = 0;
  const wrap = <T extends object>(list: readonly T[]): T[] =>
    list.map(
      (resource) =>
        new Proxy(resource, {
          get(target, key, receiver) {
            if (key === 'symbol' || key === 'name' || key === 'span') reads++;
            return Reflect.get(target, key, receiver);
          },
        }),
    );
  return {
    estate: { ...estate, accounts: wrap(estate.accounts), pools: wrap(estate.pools), volumes: wrap(estate.volumes) },
    reads: () => reads,
  };
}

function work(count: number): { reads: number; linked: number; origins: number } {
  const read = readIac(new SourceText(template(count)), 'file:///repo/azuredeploy.json', 'arm-template');
  expect(read.estate?.pools).toHaveLength(count);
  expect(read.estate?.volumes).toHaveLength(count);
  const { estate, reads } = counted(read.estate!);
  const model = toManifest(estate, 'file:///repo/azuredeploy.json', false);
  let linked = 0;
  for (const volume of estate.volumes) if (poolOfVolume(estate, volume)) linked++;
  let origins = 0;
  for (const volume of estate.volumes) if (workloadOrigin(estate, volume.symbol) !== '') origins++;
  // The hover on each volume's name (the value there is a literal: no origin to tell).
  for (const volume of estate.volumes) expect(valueOriginNote(estate, volume.name!.span.start + 1)).toBeUndefined();
  // Every volume is in its own pool, under the one account.
  expect(model.manifest.accounts).toHaveLength(1);
  expect(model.manifest.accounts[0]!.pools.map((p) => p.volumes.length)).toEqual(Array(count).fill(1));
  return { reads: reads(), linked, origins };
}

describe('the estate model of a large file', () => {
  it('links volumes to pools and findings to volumes with work linear in the resources', () => {
    const small = work(100);
    const large = work(400);
    expect(small.linked).toBe(100);
    expect(large.linked).toBe(400);
    // The workload comes from the volume's name (hana-data-N): each volume has an origin to say.
    expect(large.origins).toBe(400);
    expect(large.reads).toBeLessThan(small.reads * 5);
  });
});
