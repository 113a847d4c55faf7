import { describe, expect, it } from 'vitest';
import {
  adviseSizing,
  bandwidthDelayProductBytes,
  checkConfiguration,
  iopsFromThroughputMiBps,
  monthlyPoolCost,
  outstandingIo,
  quotaGiBForThroughput,
  resolvePrices,
  throughputMiBpsFromIops,
  volumeThroughputLimit,
  windowLimitedBytesPerSecond,
} from '../../server/src/core/calc';
import { GiB, KiB, parseSize } from '../../server/src/core/units/units';

const eastUs = resolvePrices('eastus');
const TIB_IN_GIB = 1024;

describe("the seeds' worked examples", () => {
  it('Premium with a 10 TiB quota delivers 640 MiB/s (seed 000)', () => {
    expect(volumeThroughputLimit({ serviceLevel: 'Premium', qos: 'auto', quotaGiB: 10 * TIB_IN_GIB }).mibps).toBe(640);
  });

  it('100,000 IOPS x 16 KiB is about 1.53 GiB/s (seed 000)', () => {
    const mibps = throughputMiBpsFromIops(100_000, 16 * KiB);
    expect((mibps / 1024).toFixed(2)).toBe('1.53');
  });

  it('950 MiB/s on Premium needs a 15,200 GiB quota (seed 002)', () => {
    expect(quotaGiBForThroughput('Premium', 950)).toBe(15_200);
  });

  it("200 MiB/s at 64 KiB is 3,200 IOPS; at 1.909 ms Little's Law gives 6.11 outstanding I/Os (seed 002)", () => {
    const iops = iopsFromThroughputMiBps(200, 64 * KiB);
    expect(iops).toBe(3_200);
    expect(outstandingIo(iops, 0.001909).toFixed(2)).toBe('6.11');
  });

  it('a 131,400-byte window at about 2 ms caps one stream near 64 MB/s (seed 003)', () => {
    const bytesPerSecond = windowLimitedBytesPerSecond(131_400, 0.002);
    expect(Math.round(bytesPerSecond / 1e6)).toBe(66);
    // "about 64MB/s": within 5% of the seed's figure.
    expect(Math.abs(bytesPerSecond / 1e6 - 64) / 64).toBeLessThan(0.05);
    expect(bandwidthDelayProductBytes(bytesPerSecond, 0.002)).toBeCloseTo(131_400, 6);
  });

  describe('knowledge check: 50 TiB and 3,000 MiB/s (seed 000)', () => {
    const requirement = { capacityGiB: 50 * TIB_IN_GIB, throughputMiBps: 3000 };

    it('"Premium + 50 TiB" is feasible', () => {
      const check = checkConfiguration({ serviceLevel: 'Premium', quotaGiB: 50 * TIB_IN_GIB }, requirement);
      expect(check).toMatchObject({ feasible: true, throughputMiBps: 3200 });
    });

    it('"Ultra + 25 TiB" fails on capacity only', () => {
      const check = checkConfiguration({ serviceLevel: 'Ultra', quotaGiB: 25 * TIB_IN_GIB }, requirement);
      expect(check.feasible).toBe(false);
      expect(check.reasons).toHaveLength(1);
      expect(check.reasons[0]).toMatch(/^capacity: 25 TiB is below the 50 TiB required/);
    });

    it('"Standard + 100 TiB" fails on throughput only', () => {
      const check = checkConfiguration({ serviceLevel: 'Standard', quotaGiB: 100 * TIB_IN_GIB }, requirement);
      expect(check.feasible).toBe(false);
      expect(check.reasons).toHaveLength(1);
      expect(check.reasons[0]).toMatch(/^throughput: .*1,600 MiB\/s, below the 3,000 MiB\/s required/);
    });
  });
});

describe('volume throughput limit', () => {
  it('uses the cool-access rate on Premium and Ultra', () => {
    expect(volumeThroughputLimit({ serviceLevel: 'Ultra', qos: 'auto', quotaGiB: 1024, coolAccess: true }).mibps).toBe(
      68,
    );
    expect(
      volumeThroughputLimit({ serviceLevel: 'Premium', qos: 'auto', quotaGiB: 1024, coolAccess: true }).mibps,
    ).toBe(36);
    expect(
      volumeThroughputLimit({ serviceLevel: 'Standard', qos: 'auto', quotaGiB: 1024, coolAccess: true }).mibps,
    ).toBe(16);
  });

  it('caps regular volumes at 4,500 MiB/s and large volumes at 12,800 MiB/s', () => {
    const regular = volumeThroughputLimit({ serviceLevel: 'Ultra', qos: 'auto', quotaGiB: 100 * TIB_IN_GIB });
    expect(regular).toMatchObject({ mibps: 4500, uncappedMiBps: 12800, capped: true });
    const large = volumeThroughputLimit({
      serviceLevel: 'Ultra',
      qos: 'auto',
      quotaGiB: 500 * TIB_IN_GIB,
      largeVolume: true,
    });
    expect(large.mibps).toBe(12800);
  });

  it('takes the assigned throughput under manual QoS', () => {
    expect(
      volumeThroughputLimit({ serviceLevel: 'Premium', qos: 'manual', quotaGiB: 100, assignedThroughputMiBps: 700 })
        .mibps,
    ).toBe(700);
  });
});

describe('cost', () => {
  it('prices Flexible 1 TiB + 512 MiB/s at about $976 a month (CM example)', () => {
    const cost = monthlyPoolCost({ serviceLevel: 'Flexible', sizeTiB: 1, flexibleThroughputMiBps: 512 }, eastUs);
    expect(Math.round(cost.totalUsd)).toBe(977);
    expect(cost.throughputUsd).toBeCloseTo(384 * 0.003082 * 730, 6);
  });

  it('prices a 4 TiB Premium pool by provisioned size', () => {
    expect(monthlyPoolCost({ serviceLevel: 'Premium', sizeTiB: 4 }, eastUs).totalUsd).toBeCloseTo(
      4096 * 0.000403 * 730,
      6,
    );
  });

  it('applies price overrides and falls back to East US for an unknown region', () => {
    const custom = resolvePrices('mars-north', { capacityPerGiBHour: { Premium: 0.0003 } });
    expect(custom.known).toBe(false);
    expect(custom.capacityPerGiBHour.Premium).toBe(0.0003);
    expect(custom.capacityPerGiBHour.Ultra).toBe(eastUs.capacityPerGiBHour.Ultra);
  });
});

describe('sizing advisor', () => {
  it('lists every service level for 50 TiB and 3,000 MiB/s, cheapest feasible first', () => {
    const options = adviseSizing({ capacityGiB: 50 * TIB_IN_GIB, throughputMiBps: 3000 }, eastUs);
    expect(options.map((o) => o.serviceLevel).sort()).toEqual(['Flexible', 'Premium', 'Standard', 'Ultra']);
    const feasible = options.filter((o) => o.feasible);
    for (let i = 1; i < feasible.length; i++)
      expect(feasible[i]!.monthlyCostUsd).toBeGreaterThanOrEqual(feasible[i - 1]!.monthlyCostUsd);
    const firstInfeasible = options.findIndex((o) => !o.feasible);
    if (firstInfeasible >= 0) expect(firstInfeasible).toBe(feasible.length);
    // Standard reaches 3,000 MiB/s only as a 187.5 TiB large volume.
    expect(options.find((o) => o.serviceLevel === 'Standard')).toMatchObject({
      quotaGiB: 192_000,
      largeVolume: true,
      feasible: true,
    });
    const premium = options.find((o) => o.serviceLevel === 'Premium')!;
    expect(premium).toMatchObject({ quotaGiB: 51_200, poolSizeTiB: 50, throughputMiBps: 3200, feasible: true });
    for (const option of options) {
      expect(Number.isInteger(option.quotaGiB)).toBe(true);
      expect(Number.isInteger(option.poolSizeTiB)).toBe(true);
      expect(option.throughputMiBps).toBeGreaterThanOrEqual(option.feasible ? 3000 : 0);
    }
  });

  it('sizes Standard for throughput when throughput, not capacity, decides', () => {
    const standard = adviseSizing({ capacityGiB: 1024, throughputMiBps: 950 }, eastUs).find(
      (o) => o.serviceLevel === 'Standard',
    )!;
    expect(standard.quotaGiB).toBe(60_800);
    expect(standard.poolSizeTiB).toBe(60);
    expect(standard.feasible).toBe(true);
  });

  it('says why a level is infeasible for one volume, and spreads the requirement over several regular volumes instead', () => {
    const options = adviseSizing({ capacityGiB: 100, throughputMiBps: 20_000 }, eastUs);
    for (const option of options.filter((o) => o.volumeCount === 1)) {
      expect(option.feasible).toBe(false);
      expect(option.reason).toMatch(/above the 12,800 MiB\/s one volume delivers/);
    }
    const split = options.filter((o) => o.volumeCount > 1);
    expect(split.map((o) => o.serviceLevel).sort()).toEqual(['Flexible', 'Premium', 'Standard', 'Ultra']);
    expect(
      split.every((o) => o.feasible && o.volumeCount === 5 && o.qos === 'manual' && o.volumeThroughputMiBps === 4000),
    ).toBe(true);
  });

  it('turns IOPS at a block size into throughput', () => {
    const premium = adviseSizing({ iops: 100_000, blockSizeBytes: 16 * KiB }, eastUs).find(
      (o) => o.serviceLevel === 'Premium',
    )!;
    expect(premium.quotaGiB).toBe(25_000);
  });

  it('keeps SAP HANA off large volumes, and spreads it over regular volumes instead', () => {
    const options = adviseSizing({ capacityGiB: 2048, throughputMiBps: 6000, workload: 'sap-hana-data' }, eastUs);
    expect(
      options.filter((o) => o.volumeCount === 1).every((o) => !o.feasible && /large volume/.test(o.reason ?? '')),
    ).toBe(true);
    expect(options[0]).toMatchObject({ feasible: true, volumeCount: 2, largeVolume: false, qos: 'manual' });
  });

  it('uses whole-GiB sizes from parsed units', () => {
    const parsed = parseSize('4 TiB');
    expect(parsed.ok && parsed.value.bytes / GiB).toBe(4096);
  });
});
