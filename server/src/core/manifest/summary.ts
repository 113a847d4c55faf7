import { volumeThroughputLimit } from '../calc/throughput';
import { requiredThroughputMiBps } from '../calc/advisor';
import { SIZING } from '../facts';
import { bytesPerSecondToMiBps, bytesToGiB, KiB } from '../units/units';
import {
  poolQos,
  volumeIsLarge,
  volumeProtocols,
  volumeSecurity,
  type ManifestAccount,
  type ManifestDocument,
  type ManifestPool,
  type ManifestVolume,
} from './model';
import type { VolumeSummary } from './volumeSummary';
import type { Mutable } from '../mutable';

/** Whether cool access is on for a volume (and so the lower Premium/Ultra rate applies). */
export function volumeCoolAccess(volume: ManifestVolume): boolean {
  return volume.coolAccess?.enabled ?? false;
}

/** The volume's throughput limit in the manifest's configuration (auto: quota x rate, capped; manual: assigned). */
export function manifestVolumeThroughput(pool: ManifestPool, volume: ManifestVolume) {
  return volumeThroughputLimit({
    serviceLevel: pool.serviceLevel?.value ?? 'Standard',
    qos: poolQos(pool),
    quotaGiB: volume.quota ? bytesToGiB(volume.quota.value.bytes) : 0,
    ...(volume.throughput
      ? { assignedThroughputMiBps: bytesPerSecondToMiBps(volume.throughput.value.bytesPerSecond) }
      : {}),
    coolAccess: volumeCoolAccess(volume),
    largeVolume: volumeIsLarge(volume),
    breakthroughMode: volume.breakthroughMode?.value ?? false,
  });
}

/** The throughput a volume's requirements imply (stated, or IOPS x block size), if any. */
export function volumeRequiredThroughputMiBps(
  volume: ManifestVolume,
  assumedBlockSizeBytes: number,
): number | undefined {
  const req = volume.requirements;
  if (!req || (!req.throughput && !req.iops)) return undefined;
  return requiredThroughputMiBps({
    ...(req.throughput ? { throughputMiBps: bytesPerSecondToMiBps(req.throughput.value.bytesPerSecond) } : {}),
    ...(req.iops ? { iops: req.iops.value, blockSizeBytes: req.blockSize?.value.bytes ?? assumedBlockSizeBytes } : {}),
  });
}

/** The block size for IOPS figures when the manifest gives none (seed 002: 8 KiB random). */
export function assumedBlockSizeBytes(): number {
  return SIZING.assumedRandomBlockKiB.value * KiB;
}

/** One VolumeSummary per volume whose pool has a service level and which has a quota. */
export function summarizeVolumes(manifest: ManifestDocument, uri: string): VolumeSummary[] {
  const result: VolumeSummary[] = [];
  for (const account of manifest.accounts) {
    for (const pool of account.pools) {
      for (const volume of pool.volumes) {
        const summary = summarizeVolume(account, pool, volume, uri);
        if (summary) result.push(summary);
      }
    }
  }
  return result;
}

/** What other files and rules need of one volume; undefined without a service level, quota or name. */
export function summarizeVolume(
  account: ManifestAccount,
  pool: ManifestPool,
  volume: ManifestVolume,
  uri: string,
): VolumeSummary | undefined {
  if (!pool.serviceLevel || !volume.quota || !volume.name) return undefined;
  const protocols = volumeProtocols(volume);
  const required = volume.requirements;
  const requiredMiBps =
    required?.throughput || required?.iops ? volumeRequiredThroughputMiBps(volume, assumedBlockSizeBytes()) : undefined;
  // Assigned one by one rather than spread: the same keys in the same order, one object shape.
  const summary: Mutable<VolumeSummary> = {
    uri,
    account: account.name?.value ?? '',
    pool: pool.name?.value ?? '',
    name: volume.name.value,
    nameSpan: volume.name.span,
    serviceLevel: pool.serviceLevel.value,
    qos: poolQos(pool),
    quotaGiB: bytesToGiB(volume.quota.value.bytes),
    largeVolume: volumeIsLarge(volume),
    coolAccess: volumeCoolAccess(volume),
    throughputMiBps: manifestVolumeThroughput(pool, volume).mibps,
  } as Mutable<VolumeSummary>;
  if (volume.workload) summary.workload = volume.workload.value;
  summary.nfsVersions = protocols.flatMap((p) =>
    p === 'NFSv3' ? ['3' as const] : p === 'NFSv4.1' ? ['4.1' as const] : [],
  );
  summary.kerberos = volumeSecurity(volume) !== 'sys';
  summary.mountTargets = volume.mountTarget ? [volume.mountTarget.value] : [];
  if (volume.exportPath) summary.exportPath = volume.exportPath.value;
  if (volume.mountPath) summary.mountPath = volume.mountPath.value;
  if (required?.clients) summary.clients = required.clients.value;
  if (requiredMiBps !== undefined && requiredMiBps > 0) summary.requiredThroughputMiBps = requiredMiBps;
  if (required?.latency) summary.requiredLatencySeconds = required.latency.value;
  if (required?.iops) summary.requiredIops = required.iops.value;
  if (required?.blockSize) summary.blockSizeBytes = required.blockSize.value.bytes;
  return summary;
}
