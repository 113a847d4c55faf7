import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  asBinaryIntent,
  formatNumber,
  formatRate,
  formatSize,
  formatUsd,
  GiB,
  MiB,
  parseCount,
  parseDuration,
  parseRate,
  parseSize,
  TiB,
} from '../../server/src/core/units/units';
import { propertyRuns } from '../support/propertyRuns';

function size(text: string) {
  const parsed = parseSize(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value;
}

describe('parseSize', () => {
  it.each([
    ['4TiB', 4 * TiB, 'binary'],
    ['4 TiB', 4 * TiB, 'binary'],
    ['100GiB', 100 * GiB, 'binary'],
    ['1024 GiB', 1024 * GiB, 'binary'],
    ['16KiB', 16 * 1024, 'binary'],
    ['1.5 PiB', 1.5 * 1024 * TiB, 'binary'],
    ['4T', 4 * TiB, 'binary'],
    ['10TB', 10e12, 'decimal'],
    ['500 GB', 500e9, 'decimal'],
    ['131400 B', 131400, 'binary'],
  ])('%s is %d bytes (%s)', (text, bytes, system) => {
    const value = size(text);
    expect(value.bytes).toBe(bytes);
    expect(value.system).toBe(system);
  });

  it('keeps decimal and binary apart and tells what a decimal size would have been in binary', () => {
    const tb = size('10TB');
    expect(tb.bytes).not.toBe(size('10TiB').bytes);
    expect(asBinaryIntent(tb).bytes).toBe(10 * TiB);
    expect(asBinaryIntent(tb).unit).toBe('TiB');
  });

  it.each(['', '4', '4 parsecs', 'TiB', 'NaN TiB', '4 TiB extra', '4i', '1e999 TiB'])(
    'rejects %j with the accepted forms',
    (text) => {
      const parsed = parseSize(text);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.error).toMatch(/4TiB|not a number/);
    },
  );
});

describe('parseRate', () => {
  it.each([
    ['640MiB/s', 640 * MiB, false],
    ['640 MiBps', 640 * MiB, false],
    ['1.5 GB/s', 1.5e9, false],
    ['1.5 GiB/s', 1.5 * GiB, false],
    ['10 Gbps', 10e9 / 8, true],
    ['800 Mbit/s', 800e6 / 8, true],
  ])('%s', (text, bytesPerSecond, bits) => {
    const parsed = parseRate(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) {
      expect(parsed.value.bytesPerSecond).toBeCloseTo(bytesPerSecond, 6);
      expect(parsed.value.bits).toBe(bits);
    }
  });

  it.each(['640', '640 MiB', '640 M/s', 'fast'])('rejects %j', (text) => {
    expect(parseRate(text).ok).toBe(false);
  });
});

describe('parseCount and parseDuration', () => {
  it('reads counts people write', () => {
    expect(parseCount('100k')).toEqual({ ok: true, value: 100_000 });
    expect(parseCount('100,000')).toEqual({ ok: true, value: 100_000 });
    expect(parseCount('1.5M')).toEqual({ ok: true, value: 1_500_000 });
    expect(parseCount('lots').ok).toBe(false);
  });

  it('reads durations into seconds', () => {
    const ms = parseDuration('1.909 ms');
    expect(ms.ok && ms.value).toBeCloseTo(0.001909, 9);
    const us = parseDuration('500us');
    expect(us.ok && us.value).toBeCloseTo(0.0005, 9);
    expect(parseDuration('2').ok).toBe(false);
  });
});

describe('formatting', () => {
  it('prints sizes and rates in binary units', () => {
    expect(formatSize(4 * TiB)).toBe('4 TiB');
    expect(formatSize(15200 * GiB)).toBe('14.84 TiB');
    expect(formatRate(1562.5 * MiB)).toBe('1.53 GiB/s');
  });
});

describe('formatUsd without Intl (issue 29)', () => {
  const intl = (value: number) =>
    new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 }).format(value);
  it('writes what Intl.NumberFormat en-US USD writes', () => {
    for (const value of [
      0,
      -0,
      1,
      -1,
      1.005,
      1.0049999,
      -0.001,
      -0.005,
      0.1,
      999.995,
      1234.5,
      1234567.891,
      14.7456,
      1e21,
      1e-7,
      5e-324,
      Infinity,
      -Infinity,
      NaN,
      123456789012345680000,
    ])
      expect(formatUsd(value), `${value}`).toBe(intl(value));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true }),
          fc.double({ min: -1e7, max: 1e7, noNaN: true }),
          fc.integer().map((n) => n / 1000),
          fc.integer().map((n) => n / 8),
        ),
        (value) => {
          expect(formatUsd(value)).toBe(intl(value));
        },
      ),
      { numRuns: propertyRuns(5000, 20) },
    );
  });
});

describe('formatNumber without Intl (start-up, issue 17)', () => {
  const intl = (value: number, digits: number) =>
    new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, useGrouping: true }).format(value);
  it('writes what Intl.NumberFormat en-US writes', () => {
    for (const [value, digits] of [
      [1.005, 2],
      [1.0049999, 2],
      [-0.001, 2],
      [-0, 0],
      [0, 2],
      [999.995, 2],
      [999999.5, 0],
      [1234567.891, 1],
      [0.5, 0],
      [1.5, 0],
      [2.5, 0],
      [-2.5, 0],
      [1e21, 2],
      [1e-7, 2],
      [Infinity, 2],
      [-Infinity, 0],
      [NaN, 2],
      [123456789012345680000, 0],
      [0.000001, 6],
      [4096, 2],
      [16777216, 2],
    ] as const)
      expect(formatNumber(value, digits), `${value} ${digits}`).toBe(intl(value, digits));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noNaN: true }),
          fc.double({ min: -1e7, max: 1e7, noNaN: true }),
          fc.integer().map((n) => n / 1000),
          fc.integer().map((n) => n / 8),
        ),
        fc.integer({ min: 0, max: 6 }),
        (value, digits) => {
          expect(formatNumber(value, digits)).toBe(intl(value, digits));
        },
      ),
      { numRuns: propertyRuns(5000, 20) },
    );
  });
});
