import { bandwidthDelayProductBytes, windowLimitedBytesPerSecond } from '../calc/network';
import { TCP_WINDOW_FIX } from '../facts';
import { formatDuration, formatNumber, formatRate, formatSize } from '../units/units';

/**
 * The bandwidth-delay product, explained with the numbers filled in (seed 002: window in bytes =
 * bandwidth × round-trip time; seed 003: 131,400 B at 2 ms is about 64 MB/s). Hover and the BDP
 * rule both use these lines.
 */
export interface BandwidthDelay {
  readonly bytesPerSecond: number;
  readonly rttSeconds: number;
  /** Window the link needs: bandwidth × RTT. */
  readonly windowBytes: number;
}

export function bandwidthDelay(bytesPerSecond: number, rttSeconds: number): BandwidthDelay {
  return { bytesPerSecond, rttSeconds, windowBytes: bandwidthDelayProductBytes(bytesPerSecond, rttSeconds) };
}

/** `1.17 GiB/s × 0.5 ms = 600 KiB (614,400 bytes)`. */
export function bandwidthDelayFormula(bdp: BandwidthDelay): string {
  return `${formatRate(bdp.bytesPerSecond)} × ${formatDuration(bdp.rttSeconds)} = ${formatSize(bdp.windowBytes)} (${formatNumber(Math.ceil(bdp.windowBytes), 0)} bytes)`;
}

/** `262,144 B ÷ 2 ms = 125 MiB/s`. */
export function windowLimitFormula(windowBytes: number, rttSeconds: number): string {
  return `${formatNumber(windowBytes, 0)} B ÷ ${formatDuration(rttSeconds)} = ${formatRate(windowLimitedBytesPerSecond(windowBytes, rttSeconds))}`;
}

/**
 * Markdown-ready lines that explain a BDP computation: what one connection needs at a bandwidth and
 * round-trip time, and (given a window) what that window allows.
 */
export function explainBandwidthDelay(bytesPerSecond: number, rttSeconds: number, windowBytes?: number): string[] {
  const bdp = bandwidthDelay(bytesPerSecond, rttSeconds);
  const lines = [
    '**Bandwidth-delay product** (TCP window one connection needs = bandwidth × round-trip time)',
    '',
    `- ${bandwidthDelayFormula(bdp)}`,
  ];
  if (windowBytes !== undefined) {
    const enough = windowBytes >= bdp.windowBytes;
    lines.push(
      `- Window allowed: ${windowLimitFormula(windowBytes, rttSeconds)} per connection: ${enough ? 'enough' : 'too small'} for ${formatRate(bytesPerSecond)}`,
    );
  }
  return lines;
}

/** A window maximum that covers `bytes`: the next power of two, and at least the recommended 16 MiB. */
export function suggestedWindowMax(bytes: number): number {
  let size = TCP_WINDOW_FIX.minimumMaxBytes.value;
  while (size < bytes) size *= 2;
  return size;
}
