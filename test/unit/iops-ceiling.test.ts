import { describe, expect, it } from 'vitest';
import { regularVolumeIoCeiling } from '../../server/src/core/calc/io';
import { resolveConfig } from '../../server/src/core';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import { parseManifest } from '../../server/src/core/manifest/parse';
import { SourceText } from '../../server/src/core/text/sourceText';

/** Issue 15, item 19: per-volume IOPS are the measured ceilings by read share, not throughput / block size. */
const KIB = 1024;

describe("regularVolumeIoCeiling (the calculator's measured ceilings)", () => {
  it('gives about 431k random reads and 117k random writes at 8 KiB, the same IOPS at 4 KiB', () => {
    expect(regularVolumeIoCeiling(8 * KIB, 100)?.iops).toBe(430_592);
    expect(regularVolumeIoCeiling(8 * KIB, 0)?.iops).toBe(116_736);
    expect(regularVolumeIoCeiling(4 * KIB, 0)?.iops).toBe(116_736);
    expect(regularVolumeIoCeiling(8 * KIB, 70)?.iops).toBe(269_568);
  });

  it('interpolates between the 10 % steps, and assumes all reads (the best case) without a read share', () => {
    expect(regularVolumeIoCeiling(8 * KIB, 75)?.iops).toBe((269_568 + 286_720) / 2);
    const assumed = regularVolumeIoCeiling(8 * KIB)!;
    expect(assumed).toMatchObject({ iops: 430_592, readPercent: 100, readPercentAssumed: true });
  });

  it('gives MiB/s for 64 KiB sequential, and nothing for block sizes the calculator did not measure', () => {
    expect(regularVolumeIoCeiling(64 * KIB, 0)).toMatchObject({ profile: 'sequential', mibps: 1733 });
    expect(regularVolumeIoCeiling(64 * KIB, 100)?.mibps).toBe(4500);
    expect(regularVolumeIoCeiling(16 * KIB, 50)).toBeUndefined();
    expect(regularVolumeIoCeiling(256 * KIB, 50)).toBeUndefined();
  });
});

describe('volume figures', () => {
  const figuresOf = (volume: string) => {
    const text = `accounts:\n  - name: a\n    pools:\n      - name: p\n        serviceLevel: Ultra\n        size: 40 TiB\n        volumes:\n${volume}`;
    const { manifest } = parseManifest(new SourceText(text), 'file:///x.anf.yaml', 'yaml');
    return computeManifestFigures(manifest!, resolveConfig()).volumes[0]!;
  };

  it('a 4,500 MiB/s regular volume delivers the measured 431k IOPS at 8 KiB, not 576k', () => {
    const f = figuresOf('          - name: v\n            quota: 36 TiB\n');
    expect(f.throughput?.mibps).toBe(4500);
    expect(f.iopsQosLimit).toBe(576_000);
    expect(f.iopsAtBlockSize).toBe(430_592);
  });

  it('uses the read share of the requirements', () => {
    const f = figuresOf(
      '          - name: v\n            quota: 36 TiB\n            requirements:\n              iops: 150k\n              readPercent: 0\n',
    );
    expect(f.iopsAtBlockSize).toBe(116_736);
    expect(f.ioCeiling?.readPercentAssumed).toBe(false);
    expect(f.meetsIops).toBe(false);
  });

  it('keeps throughput / block size where the QoS limit is lower than the ceiling, and for large volumes', () => {
    expect(figuresOf('          - name: v\n            quota: 1 TiB\n').iopsAtBlockSize).toBe(16_384);
    const large = figuresOf('          - name: v\n            quota: 60 TiB\n            largeVolume: true\n');
    expect(large.ioCeiling).toBeUndefined();
    expect(large.iopsAtBlockSize).toBe(7680 * 128);
  });
});
