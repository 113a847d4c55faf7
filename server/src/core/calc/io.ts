import { MiB } from '../units/units';

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
