import { describe, expect, it } from 'vitest';
import { adviseSizing } from '../../server/src/core/calc/advisor';
import { resolvePrices } from '../../server/src/core/calc/cost';

/** Issue 15, items 19 and 21: the advisor knows the measured IOPS ceilings, shared pools and cool-tier prices. */
const eastUs = resolvePrices('eastus');
const TIB = 1024;
const KIB = 1024;
const HOURS = 730;

describe('sizing advisor: several regular volumes in one shared manual QoS pool', () => {
  it('6,000 MiB/s on 10 TiB: two regular volumes in a 10 TiB Flexible pool beat one 50 TiB large volume', () => {
    const options = adviseSizing({ capacityGiB: 10 * TIB, throughputMiBps: 6000 }, eastUs);
    const best = options[0]!;
    expect(best).toMatchObject({
      serviceLevel: 'Flexible',
      volumeCount: 2,
      quotaGiB: 5 * TIB,
      volumeThroughputMiBps: 3000,
      poolSizeTiB: 10,
      flexibleThroughputMiBps: 6000,
      largeVolume: false,
      feasible: true,
    });
    expect(best.monthlyCostUsd).toBeCloseTo(10 * TIB * 0.000151 * HOURS + (6000 - 128) * 0.003082 * HOURS, 2);
    const single = options.find((o) => o.serviceLevel === 'Flexible' && o.volumeCount === 1)!;
    expect(single).toMatchObject({ largeVolume: true, poolSizeTiB: 50 });
    expect(single.monthlyCostUsd).toBeGreaterThan(best.monthlyCostUsd);
    // Ultra: 47 TiB of shared manual QoS pool instead of a 50 TiB large volume.
    const ultraSplit = options.find((o) => o.serviceLevel === 'Ultra' && o.volumeCount > 1)!;
    expect(ultraSplit).toMatchObject({ poolSizeTiB: 47, qos: 'manual' });
  });

  it('offers no split when one regular volume meets the requirement', () => {
    expect(
      adviseSizing({ capacityGiB: 10 * TIB, throughputMiBps: 1000 }, eastUs).every((o) => o.volumeCount === 1),
    ).toBe(true);
  });
});

describe('sizing advisor: measured IOPS by read share', () => {
  it('300k IOPS at 8 KiB and 70 % reads is more than one regular volume measured (about 270k): two volumes, or a large one', () => {
    const options = adviseSizing(
      { iops: 300_000, blockSizeBytes: 8 * KIB, readPercent: 70, capacityGiB: 10 * TIB },
      eastUs,
    );
    const singles = options.filter((o) => o.volumeCount === 1);
    expect(singles.every((o) => o.largeVolume)).toBe(true);
    expect(singles.every((o) => (o.notes ?? []).some((n) => /do not cover large volumes/.test(n)))).toBe(true);
    expect(options.filter((o) => o.volumeCount === 2).length).toBe(4);
  });

  it('the same IOPS all reads fit one regular volume', () => {
    const options = adviseSizing(
      { iops: 300_000, blockSizeBytes: 8 * KIB, readPercent: 100, capacityGiB: 10 * TIB },
      eastUs,
    );
    expect(options.every((o) => o.volumeCount === 1)).toBe(true);
    // Standard reaches 2,344 MiB/s only with a 147 TiB quota, a large volume by size; the others stay regular.
    expect(options.filter((o) => o.serviceLevel !== 'Standard').every((o) => !o.largeVolume)).toBe(true);
  });
});

describe('sizing advisor: cool access prices', () => {
  it('counts cool-tier data at the cool rate: 40 TiB Standard with 80 % cool costs less than without', () => {
    const hot = adviseSizing({ capacityGiB: 40 * TIB }, eastUs).find((o) => o.serviceLevel === 'Standard')!;
    const cool = adviseSizing(
      { capacityGiB: 40 * TIB, coolDataPercent: 80, coolRetrievalPercentPerMonth: 10 },
      eastUs,
    ).find((o) => o.serviceLevel === 'Standard')!;
    const coolGiB = 32 * TIB;
    expect(cool.coolTier?.capacitySavingUsd).toBeCloseTo(coolGiB * (0.000202 - 0.000082) * HOURS, 2);
    expect(cool.coolTier?.retrievalUsd).toBeCloseTo(coolGiB * 0.1 * 0.02, 2);
    expect(cool.coolTier?.initialTieringUsd).toBeCloseTo(coolGiB * 0.02, 2);
    expect(cool.monthlyCostUsd).toBeCloseTo(
      hot.monthlyCostUsd - cool.coolTier!.capacitySavingUsd + cool.coolTier!.retrievalUsd,
      2,
    );
    expect(cool.monthlyCostUsd).toBeLessThan(hot.monthlyCostUsd);
  });

  it('says it does not know where the region has no cool-tier price, rather than guessing', () => {
    const westEurope = resolvePrices('westeurope');
    const option = adviseSizing({ capacityGiB: 40 * TIB, coolDataPercent: 80 }, westEurope).find(
      (o) => o.serviceLevel === 'Standard',
    )!;
    expect(option.coolTier).toBeUndefined();
    expect(option.notes).toContain(
      'the advisor does not know the cool-tier prices in westeurope: cool-tier savings not counted',
    );
  });

  it('says so when cool access is asked for without the share of cool data', () => {
    const option = adviseSizing({ capacityGiB: 40 * TIB, coolAccess: true }, eastUs)[0]!;
    expect(option.notes?.some((n) => n.startsWith('cool-tier savings not counted'))).toBe(true);
  });
});

describe('sizing advisor: the regional capacity quota', () => {
  it('notes a pool above the default 25 TiB regional capacity quota, and not one below it', () => {
    const options = adviseSizing({ capacityGiB: 50 * TIB }, eastUs);
    expect(
      options.every((o) => (o.notes ?? []).some((n) => n.includes('default regional capacity quota of 25 TiB'))),
    ).toBe(true);
    expect(
      adviseSizing({ capacityGiB: 10 * TIB }, eastUs).some((o) =>
        (o.notes ?? []).some((n) => n.includes('regional capacity quota')),
      ),
    ).toBe(false);
  });
});
