import { iopsFromThroughputMiBps, regularVolumeIoCeiling, throughputMiBpsFromIops } from '../calc/io';
import { serviceLevelRateMiBpsPerTiB, volumeCeilingMiBps } from '../calc/throughput';
import type { VolumeSummary } from '../manifest/volumeSummary';
import { formatMiBps, formatNumber, formatSize } from '../units/units';

/**
 * What a volume can deliver to a test at its block size: the lower of its QoS throughput limit
 * (quota x service level, or the assigned throughput) turned into IOPS at that size, and, for a
 * regular volume at a size Microsoft's calculator measured (4-8 KiB random, 64 KiB sequential),
 * the IOPS one volume was measured to deliver. Pure.
 */
export interface JobCeiling {
  readonly mibps: number;
  readonly iops: number;
  /** `qos`: the volume's throughput limit binds; `measured`: the per-volume I/O ceiling binds first. */
  readonly bound: 'qos' | 'measured';
  /** The limit in words, for messages and hovers. */
  readonly limit: string;
}

export function volumeCeilingAt(volume: VolumeSummary, blockSizeBytes: number, readPercent?: number): JobCeiling {
  const qosMiBps = volume.throughputMiBps;
  const qosIops = iopsFromThroughputMiBps(qosMiBps, blockSizeBytes);
  const measured = volume.largeVolume ? undefined : regularVolumeIoCeiling(blockSizeBytes, readPercent);
  if (measured && measured.iops < qosIops)
    return {
      mibps: throughputMiBpsFromIops(measured.iops, blockSizeBytes),
      iops: measured.iops,
      bound: 'measured',
      limit: `the ${measured.profile === 'sequential' ? 'throughput' : 'I/O rate'} one regular volume was measured to deliver at ${formatSize(blockSizeBytes)} ${measured.readPercentAssumed ? 'reads' : `with ${formatNumber(measured.readPercent)} % reads`} (${measured.profile === 'sequential' ? formatMiBps(measured.mibps) : `${formatNumber(measured.iops, 0)} IOPS`}, Azure NetApp Files Performance Calculator); more quota does not lift it`,
    };
  return { mibps: qosMiBps, iops: qosIops, bound: 'qos', limit: qosLimitWords(volume) };
}

/** Where a volume's throughput limit comes from, and what would lift it. */
export function qosLimitWords(volume: VolumeSummary): string {
  const mibps = formatMiBps(volume.throughputMiBps);
  if (volume.qos === 'manual')
    return `its QoS limit, ${mibps} assigned in its manual QoS pool (assign more of the pool's throughput to lift it)`;
  const rate = serviceLevelRateMiBpsPerTiB(volume.serviceLevel, volume.coolAccess);
  if (volume.throughputMiBps >= volumeCeilingMiBps(volume.largeVolume))
    return `its QoS limit, ${mibps}: the most one ${volume.largeVolume ? 'large' : 'regular'} volume delivers`;
  return rate === undefined
    ? `its QoS limit, ${mibps}`
    : `its QoS limit, ${mibps}: ${formatNumber(volume.quotaGiB)} GiB of quota at ${volume.serviceLevel} (${formatNumber(rate)} MiB/s per TiB; a larger quota or a higher service level lifts it)`;
}
