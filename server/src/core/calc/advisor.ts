import { FLEXIBLE, POOL_LIMITS, SERVICE_LEVELS, VOLUME_LIMITS, WORKLOADS, type RegionPrices, type ServiceLevel, type WorkloadKind } from '../facts';
import { formatMiBps, formatSizeIn, gibToTiB, GiB } from '../units/units';
import { monthlyPoolCost } from './cost';
import { throughputMiBpsFromIops } from './io';
import { ceilWhole, flexibleMaxThroughputMiBps, quotaGiBForThroughput, serviceLevelRateMiBpsPerTiB, volumeCeilingMiBps } from './throughput';

/** What a volume must deliver. Throughput may be given directly, or as IOPS at a block size, or both. */
export interface SizingRequirement {
  readonly capacityGiB?: number;
  readonly throughputMiBps?: number;
  readonly iops?: number;
  readonly blockSizeBytes?: number;
  readonly workload?: WorkloadKind;
  readonly coolAccess?: boolean;
  /** Basic network features raise the pool minimum from 1 to 4 TiB. Default: Standard. */
  readonly networkFeatures?: 'Standard' | 'Basic';
}

export interface SizingOption {
  readonly serviceLevel: ServiceLevel;
  readonly qos: 'auto' | 'manual';
  readonly quotaGiB: number;
  readonly poolSizeTiB: number;
  readonly largeVolume: boolean;
  /** What the volume delivers in this configuration. */
  readonly throughputMiBps: number;
  /** Flexible only: the pool throughput to configure. */
  readonly flexibleThroughputMiBps?: number;
  readonly monthlyCostUsd: number;
  /** Throughput above the requirement, in percent of the requirement (undefined without a throughput requirement). */
  readonly headroomPercent?: number;
  readonly feasible: boolean;
  /** Why the option cannot meet the requirement, when it cannot. */
  readonly reason?: string;
}

/** The throughput a requirement implies: the larger of the stated throughput and IOPS x block size. */
export function requiredThroughputMiBps(requirement: SizingRequirement): number {
  const fromIops =
    requirement.iops !== undefined && requirement.blockSizeBytes !== undefined
      ? throughputMiBpsFromIops(requirement.iops, requirement.blockSizeBytes)
      : 0;
  return Math.max(requirement.throughputMiBps ?? 0, fromIops);
}

function poolMinTiB(requirement: SizingRequirement): number {
  return requirement.networkFeatures === 'Basic' ? POOL_LIMITS.minTiBWithBasicNetworkFeatures.value : POOL_LIMITS.minTiB.value;
}

function poolSizeForQuota(quotaGiB: number, requirement: SizingRequirement): number {
  return Math.max(ceilWhole(gibToTiB(quotaGiB)), poolMinTiB(requirement));
}

function headroom(delivered: number, required: number): number | undefined {
  return required > 0 ? ((delivered - required) / required) * 100 : undefined;
}

/** The options the workload rules out, with the reason; e.g. SAP HANA and Oracle are not for large volumes (WT). */
function largeVolumeUnsuitable(workload: WorkloadKind | undefined): string | undefined {
  if (!workload) return undefined;
  // LV: "large volumes aren't suited for database (HANA, Oracle, SQL Server, etc.) data and log volumes"; /hana/shared is neither.
  if (workload === 'sap-hana-data' || workload === 'sap-hana-log' || workload === 'oracle' || workload === 'database') {
    return `${WORKLOADS[workload].title} belongs on regular volumes; large volumes are not for database data and log`;
  }
  return undefined;
}

function autoQosOption(level: Exclude<ServiceLevel, 'Flexible'>, requirement: SizingRequirement, prices: RegionPrices): SizingOption {
  const required = requiredThroughputMiBps(requirement);
  const coolAccess = requirement.coolAccess ?? false;
  const rate = serviceLevelRateMiBpsPerTiB(level, coolAccess) ?? 0;
  const forThroughput = quotaGiBForThroughput(level, required, coolAccess) ?? 0;
  let quotaGiB = Math.max(ceilWhole(requirement.capacityGiB ?? 0), forThroughput, VOLUME_LIMITS.regularMinGiB.value);
  const regularCeiling = volumeCeilingMiBps(false);
  const largeVolume = quotaGiB > VOLUME_LIMITS.regularMaxGiB.value || required > regularCeiling;
  if (largeVolume) quotaGiB = Math.max(quotaGiB, VOLUME_LIMITS.largeMinGiB.value);
  const ceiling = volumeCeilingMiBps(largeVolume);
  const throughputMiBps = Math.min(gibToTiB(quotaGiB) * rate, ceiling);
  const poolSizeTiB = poolSizeForQuota(quotaGiB, requirement);
  const monthlyCostUsd = monthlyPoolCost({ serviceLevel: level, sizeTiB: poolSizeTiB }, prices).totalUsd;
  const base = { serviceLevel: level, qos: 'auto' as const, quotaGiB, poolSizeTiB, largeVolume, throughputMiBps, monthlyCostUsd, headroomPercent: headroom(throughputMiBps, required) };

  if (required > ceiling) {
    return { ...base, feasible: false, reason: `needs ${formatMiBps(required)}, above the ${formatMiBps(ceiling)} one volume delivers` };
  }
  if (quotaGiB > VOLUME_LIMITS.largeMaxGiB.value) {
    return { ...base, feasible: false, reason: `needs a ${formatSizeIn(quotaGiB * GiB, 'TiB')} quota, above the ${formatSizeIn(VOLUME_LIMITS.largeMaxGiB.value * GiB, 'TiB')} large-volume maximum` };
  }
  if (poolSizeTiB > POOL_LIMITS.maxTiB.value) {
    return { ...base, feasible: false, reason: `needs a ${poolSizeTiB} TiB pool, above the ${POOL_LIMITS.maxTiB.value} TiB maximum` };
  }
  const unsuitable = largeVolume ? largeVolumeUnsuitable(requirement.workload) : undefined;
  if (unsuitable) return { ...base, feasible: false, reason: `needs a large volume; ${unsuitable}` };
  return { ...base, feasible: true };
}

function flexibleOption(requirement: SizingRequirement, prices: RegionPrices): SizingOption {
  const required = requiredThroughputMiBps(requirement);
  const baseline = FLEXIBLE.baselineThroughputMiBps.value;
  const flexibleThroughputMiBps = Math.max(ceilWhole(required), baseline);
  let quotaGiB = Math.max(ceilWhole(requirement.capacityGiB ?? 0), VOLUME_LIMITS.regularMinGiB.value);
  const largeVolume = quotaGiB > VOLUME_LIMITS.regularMaxGiB.value || required > volumeCeilingMiBps(false);
  if (largeVolume) quotaGiB = Math.max(quotaGiB, VOLUME_LIMITS.largeMinGiB.value);
  // The pool must hold the quota and be large enough to be allowed the throughput (640 MiB/s per TiB).
  const poolForThroughput = ceilWhole(flexibleThroughputMiBps / FLEXIBLE.maxThroughputMiBpsPerTiB.value);
  const poolSizeTiB = Math.max(poolSizeForQuota(quotaGiB, requirement), poolForThroughput);
  const ceiling = volumeCeilingMiBps(largeVolume);
  const throughputMiBps = Math.min(flexibleThroughputMiBps, ceiling, flexibleMaxThroughputMiBps(poolSizeTiB));
  const monthlyCostUsd = monthlyPoolCost({ serviceLevel: 'Flexible', sizeTiB: poolSizeTiB, flexibleThroughputMiBps }, prices).totalUsd;
  const base = {
    serviceLevel: 'Flexible' as const,
    qos: 'manual' as const,
    quotaGiB,
    poolSizeTiB,
    largeVolume,
    throughputMiBps,
    flexibleThroughputMiBps,
    monthlyCostUsd,
    headroomPercent: headroom(throughputMiBps, required),
  };
  if (required > ceiling) {
    return { ...base, feasible: false, reason: `needs ${formatMiBps(required)}, above the ${formatMiBps(ceiling)} one volume delivers` };
  }
  if (quotaGiB > VOLUME_LIMITS.largeMaxGiB.value) {
    return { ...base, feasible: false, reason: `needs a ${formatSizeIn(quotaGiB * GiB, 'TiB')} quota, above the large-volume maximum` };
  }
  if (poolSizeTiB > POOL_LIMITS.maxTiB.value) {
    return { ...base, feasible: false, reason: `needs a ${poolSizeTiB} TiB pool, above the ${POOL_LIMITS.maxTiB.value} TiB maximum` };
  }
  const unsuitable = largeVolume ? largeVolumeUnsuitable(requirement.workload) : undefined;
  if (unsuitable) return { ...base, feasible: false, reason: `needs a large volume; ${unsuitable}` };
  return { ...base, feasible: true };
}

/**
 * For each service level, the cheapest configuration that meets the requirement (or why none
 * does), cheapest feasible first, then the infeasible ones. Quotas are whole GiB, pools whole TiB.
 */
export function adviseSizing(requirement: SizingRequirement, prices: RegionPrices): SizingOption[] {
  const options = SERVICE_LEVELS.map((level) => (level === 'Flexible' ? flexibleOption(requirement, prices) : autoQosOption(level, requirement, prices)));
  return options.sort((a, b) => Number(b.feasible) - Number(a.feasible) || a.monthlyCostUsd - b.monthlyCostUsd);
}

export interface ConfigurationCheck {
  readonly feasible: boolean;
  readonly throughputMiBps: number;
  /** Each unmet requirement, in words, with the figures. */
  readonly reasons: readonly string[];
}

/**
 * Checks one given configuration (service level + quota, auto QoS) against a requirement, as the
 * course's knowledge check does: "Ultra + 25 TiB" for 50 TiB and 3,000 MiB/s fails on capacity.
 */
export function checkConfiguration(
  configuration: { readonly serviceLevel: Exclude<ServiceLevel, 'Flexible'>; readonly quotaGiB: number; readonly coolAccess?: boolean; readonly largeVolume?: boolean },
  requirement: SizingRequirement,
): ConfigurationCheck {
  const rate = serviceLevelRateMiBpsPerTiB(configuration.serviceLevel, configuration.coolAccess ?? false) ?? 0;
  const largeVolume = configuration.largeVolume ?? configuration.quotaGiB > VOLUME_LIMITS.regularMaxGiB.value;
  const throughputMiBps = Math.min(gibToTiB(configuration.quotaGiB) * rate, volumeCeilingMiBps(largeVolume));
  const reasons: string[] = [];
  const capacity = requirement.capacityGiB ?? 0;
  if (configuration.quotaGiB < capacity) {
    reasons.push(`capacity: ${formatSizeIn(configuration.quotaGiB * GiB, 'TiB')} is below the ${formatSizeIn(capacity * GiB, 'TiB')} required`);
  }
  const required = requiredThroughputMiBps(requirement);
  if (throughputMiBps < required) {
    reasons.push(`throughput: ${configuration.serviceLevel} x ${formatSizeIn(configuration.quotaGiB * GiB, 'TiB')} gives ${formatMiBps(throughputMiBps)}, below the ${formatMiBps(required)} required`);
  }
  return { feasible: reasons.length === 0, throughputMiBps, reasons };
}

/**
 * Why a workload does not belong on a large volume (database data and log: WT, LV), or undefined
 * when it may use one. Rules use it to advise splitting instead of a large volume.
 */
export function largeVolumeUnsuitableReason(workload: WorkloadKind | undefined): string | undefined {
  return largeVolumeUnsuitable(workload);
}
