import { REGULAR_VOLUME_IO_CEILING } from '../facts';
import { KiB, MiB } from '../units/units';

/** Throughput from an I/O rate at a block size: 100,000 IOPS x 16 KiB = 1,562.5 MiB/s (about 1.53 GiB/s). */
export function throughputMiBpsFromIops(iops: number, blockSizeBytes: number): number {
  return (iops * blockSizeBytes) / MiB;
}

/** I/O rate from throughput at a block size: 200 MiB/s at 64 KiB = 3,200 IOPS. */
export function iopsFromThroughputMiBps(throughputMiBps: number, blockSizeBytes: number): number {
  return (throughputMiBps * MiB) / blockSizeBytes;
}

/** Little's Law: outstanding I/O = IOPS x latency. 3,200 IOPS at 1.909 ms = 6.11. */
export function outstandingIo(iops: number, latencySeconds: number): number {
  return iops * latencySeconds;
}

/** Little's Law solved for the rate: what a given concurrency achieves at a given latency. */
export function iopsAtConcurrency(outstanding: number, latencySeconds: number): number {
  return outstanding / latencySeconds;
}

/** What Microsoft's calculator measured one regular volume to deliver for an I/O profile and read share. */
export interface MeasuredIoCeiling {
  /** `small-random`: 4 or 8 KiB random I/O (the IOPS figure binds); `sequential`: 64 KiB sequential (MiB/s). */
  readonly profile: 'small-random' | 'sequential';
  readonly iops: number;
  readonly mibps: number;
  /** The read share used, 0-100. */
  readonly readPercent: number;
  /** True when no read share was given and the all-read (best) case is used. */
  readonly readPercentAssumed: boolean;
}

/** Linear interpolation in a table indexed by read share in steps (0 %, 10 %, ... 100 %). */
function byReadPercent(table: readonly number[], readPercent: number): number {
  const step = REGULAR_VOLUME_IO_CEILING.readPercentStep.value;
  const position = Math.min(Math.max(readPercent, 0), 100) / step;
  const low = Math.floor(position);
  const high = Math.min(low + 1, table.length - 1);
  const fraction = position - low;
  return table[low]! + (table[high]! - table[low]!) * fraction;
}

/**
 * The measured ceiling of one regular volume at a block size and read share (CALC_ADV), or
 * undefined for a block size the calculator did not measure (above 8 KiB and not 64 KiB): then
 * anf-lint does not know, and says nothing. Without a read share, the all-read case (the highest).
 */
export function regularVolumeIoCeiling(blockSizeBytes: number, readPercent?: number): MeasuredIoCeiling | undefined {
  const read = readPercent ?? 100;
  const assumed = readPercent === undefined;
  if (blockSizeBytes <= REGULAR_VOLUME_IO_CEILING.smallRandomMaxBlockKiB.value * KiB) {
    const iops = byReadPercent(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value, read);
    return {
      profile: 'small-random',
      iops,
      mibps: throughputMiBpsFromIops(iops, blockSizeBytes),
      readPercent: read,
      readPercentAssumed: assumed,
    };
  }
  if (blockSizeBytes === REGULAR_VOLUME_IO_CEILING.sequentialBlockKiB.value * KiB) {
    const mibps = byReadPercent(REGULAR_VOLUME_IO_CEILING.sequential64KiBMiBps.value, read);
    return {
      profile: 'sequential',
      iops: iopsFromThroughputMiBps(mibps, blockSizeBytes),
      mibps,
      readPercent: read,
      readPercentAssumed: assumed,
    };
  }
  return undefined;
}
