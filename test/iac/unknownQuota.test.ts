import { describe, expect, it } from 'vitest';
import { parseFile, resolveConfig } from '../../server/src/core';
import { computeManifestFigures, unknownQuotasNote } from '../../server/src/core/manifest/figures';

/**
 * A quota anf-lint cannot evaluate (a parameter without a default) is unknown: the volume's
 * auto-QoS throughput is unknown too, not 0 MiB/s, and the pool's allocation says it is a lower bound.
 */
const BICEP = `param quotaBytes int

resource account 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: 'anf-acct'
  location: 'westeurope'
}

resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: account
  name: 'premium'
  location: 'westeurope'
  properties: { serviceLevel: 'Premium', size: 4398046511104 }
}

resource known 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: pool
  name: 'tools'
  location: 'westeurope'
  properties: { creationToken: 'tools', usageThreshold: 1099511627776, protocolTypes: ['NFSv3'] }
}

resource unknown 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: pool
  name: 'scratch'
  location: 'westeurope'
  properties: { creationToken: 'scratch', usageThreshold: quotaBytes, protocolTypes: ['NFSv3'] }
}
`;

describe('a volume of unknown quota', () => {
  const manifest = parseFile('file:///repo/anf.bicep', BICEP).manifest!;
  const figures = computeManifestFigures(manifest, resolveConfig());

  it('has no throughput figure (auto QoS follows the quota), and the known volume keeps its own', () => {
    const byName = new Map(figures.volumes.map((v) => [v.volume, v]));
    expect(byName.get('scratch')!.quotaGiB).toBeUndefined();
    expect(byName.get('scratch')!.throughput).toBeUndefined();
    expect(byName.get('tools')!.throughput?.mibps).toBe(64);
  });

  it('makes the pool count it and say its allocation is a lower bound', () => {
    const pool = figures.pools[0]!;
    expect(pool.allocatedGiB).toBe(1024);
    expect(pool.usedMiBps).toBe(64);
    expect(pool.unknownQuotas).toBe(1);
    expect(unknownQuotasNote(pool)).toBe(' and 1 volume of unknown quota');
  });
});

describe('Bicep any() and int()', () => {
  const volume = (quota: string) =>
    parseFile(
      'file:///repo/anf.bicep',
      BICEP.replace('usageThreshold: quotaBytes', `usageThreshold: ${quota}`),
    ).volumes.find((v) => v.name === 'scratch');

  it("read a number written as a string, as Microsoft's Bicep samples write `any('1.073741824e+11')`", () => {
    expect(volume("any('1.073741824e+11')")?.quotaGiB).toBe(100);
    expect(volume("int('107374182400')")?.quotaGiB).toBe(100);
    expect(volume('any(107374182400)')?.quotaGiB).toBe(100);
  });

  it('leave anything else unknown', () => {
    expect(volume("int('1.5e+11')")?.quotaGiB).toBeUndefined();
    expect(volume("any('lots')")?.quotaGiB).toBeUndefined();
    expect(volume('length(quotaBytes)')?.quotaGiB).toBeUndefined();
  });
});
