import {
  BILLING,
  COUNT_LIMITS,
  FLEXIBLE,
  POOL_LIMITS,
  SERVICE_LEVELS,
  VOLUME_LIMITS,
  WORKLOADS,
  type RegionPrices,
  type ServiceLevel,
  type WorkloadKind,
} from '../facts';
import { formatMiBps, formatNumber, formatSizeIn, formatUsd, gibToTiB, GiB } from '../units/units';
import { monthlyPoolCost } from './cost';
import { regularVolumeIoCeiling, throughputMiBpsFromIops, type MeasuredIoCeiling } from './io';
import {
  ceilWhole,
  flexibleMaxThroughputMiBps,
  quotaGiBForThroughput,
  serviceLevelRateMiBpsPerTiB,
  volumeCeilingMiBps,
} from './throughput';

/** What a volume must deliver. Throughput may be given directly, or as IOPS at a block size, or both. */
export interface SizingRequirement {
  readonly capacityGiB?: number;
  readonly throughputMiBps?: number;
  readonly iops?: number;
  readonly blockSizeBytes?: number;
  /** Share of operations that are reads, 0-100: the measured IOPS ceiling of a regular volume depends on it. */
  readonly readPercent?: number;
  readonly workload?: WorkloadKind;
  readonly coolAccess?: boolean;
  /** With cool access: the share of the data expected in the cool tier, 0-100 (implies cool access). */
  readonly coolDataPercent?: number;
  /** With cool access: the share of the cool data read back to the hot tier per month, 0-100. */
  readonly coolRetrievalPercentPerMonth?: number;
  /** Basic network features raise the pool minimum from 1 to 4 TiB. Default: Standard. */
  readonly networkFeatures?: 'Standard' | 'Basic';
}

/** What cool access changes in the bill (CM, PRICE): cool-tier data at the cool rate instead of the pool's, plus transfers. */
export interface CoolTierCost {
  readonly coolGiB: number;
  /** Capacity billed at the cool-tier rate instead of the service level's, per month. */
  readonly capacitySavingUsd: number;
  /** Data read back from the cool tier each month, at the transfer price. */
  readonly retrievalUsd: number;
  /** Moving the cool data to the cool tier the first time, once. */
  readonly initialTieringUsd: number;
}

export interface SizingOption {
  readonly serviceLevel: ServiceLevel;
  readonly qos: 'auto' | 'manual';
  /** The quota of each volume. */
  readonly quotaGiB: number;
  /**
   * How many volumes share the requirement (1: one volume). Above 1, regular volumes in one pool,
   * each with `quotaGiB` and (manual QoS) `volumeThroughputMiBps`; the workload spreads its data over them.
   */
  readonly volumeCount: number;
  /** Manual QoS with several volumes: the throughput assigned to each. */
  readonly volumeThroughputMiBps?: number;
  readonly poolSizeTiB: number;
  readonly largeVolume: boolean;
  /** What the volume (all volumes together) delivers in this configuration. */
  readonly throughputMiBps: number;
  /** Flexible only: the pool throughput to configure. */
  readonly flexibleThroughputMiBps?: number;
  readonly monthlyCostUsd: number;
  /** Cool access: what the cool tier changes in the bill (already in `monthlyCostUsd`); undefined when not known. */
  readonly coolTier?: CoolTierCost;
  /** Throughput above the requirement, in percent of the requirement (undefined without a throughput requirement). */
  readonly headroomPercent?: number;
  readonly feasible: boolean;
  /** Why the option cannot meet the requirement, when it cannot. */
  readonly reason?: string;
  /** What the advisor does not know or assumes for this option, in words. */
  readonly notes?: readonly string[];
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
  return requirement.networkFeatures === 'Basic'
    ? POOL_LIMITS.minTiBWithBasicNetworkFeatures.value
    : POOL_LIMITS.minTiB.value;
}

function poolSizeForQuota(quotaGiB: number, requirement: SizingRequirement): number {
  return Math.max(ceilWhole(gibToTiB(quotaGiB)), poolMinTiB(requirement));
}

function headroom(delivered: number, required: number): number | undefined {
  return required > 0 ? ((delivered - required) / required) * 100 : undefined;
}

/** An option's monthly cost (with its cool tier's share) and its headroom over the requirement. */
function costAndHeadroom(
  cost: { readonly monthlyCostUsd: number; readonly coolTier?: CoolTierCost },
  throughputMiBps: number,
  required: number,
) {
  return {
    monthlyCostUsd: cost.monthlyCostUsd,
    ...(cost.coolTier ? { coolTier: cost.coolTier } : {}),
    headroomPercent: headroom(throughputMiBps, required),
  };
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

function withCoolAccess(requirement: SizingRequirement): boolean {
  return (requirement.coolAccess ?? false) || requirement.coolDataPercent !== undefined;
}

/** What one regular volume delivers for this requirement: 4,500 MiB/s, and the calculator's measured ceilings at its block size and read share. */
function regularVolumeLimits(requirement: SizingRequirement): {
  mibps: number;
  iops?: number;
  ceiling?: MeasuredIoCeiling;
} {
  const regular = volumeCeilingMiBps(false);
  if (
    requirement.blockSizeBytes === undefined ||
    (requirement.iops === undefined && requirement.throughputMiBps === undefined)
  )
    return { mibps: regular };
  const ceiling = regularVolumeIoCeiling(requirement.blockSizeBytes, requirement.readPercent);
  if (!ceiling) return { mibps: regular };
  if (ceiling.profile === 'sequential') return { mibps: Math.min(regular, ceiling.mibps), ceiling };
  return { mibps: regular, iops: ceiling.iops, ceiling };
}

/** How many regular volumes the requirement needs at least: 1 when one regular volume meets it. */
function regularVolumesNeeded(requirement: SizingRequirement): number {
  const limits = regularVolumeLimits(requirement);
  const required = requiredThroughputMiBps(requirement);
  return Math.max(
    1,
    ceilWhole(required / limits.mibps),
    limits.iops !== undefined && requirement.iops !== undefined ? ceilWhole(requirement.iops / limits.iops) : 1,
    ceilWhole((requirement.capacityGiB ?? 0) / VOLUME_LIMITS.regularMaxGiB.value),
  );
}

/** The monthly bill of a pool, with cool-tier pricing where the requirement says how much data is cool and the prices are known. */
function costOf(
  pool: { readonly serviceLevel: ServiceLevel; readonly sizeTiB: number; readonly flexibleThroughputMiBps?: number },
  requirement: SizingRequirement,
  prices: RegionPrices,
): { monthlyCostUsd: number; coolTier?: CoolTierCost; notes: string[] } {
  const base = monthlyPoolCost(pool, prices).totalUsd;
  const notes: string[] = [];
  if (!withCoolAccess(requirement)) return { monthlyCostUsd: base, notes };
  if (requirement.coolDataPercent === undefined) {
    notes.push('cool-tier savings not counted: say how much of the data is cool (--cool-percent)');
    return { monthlyCostUsd: base, notes };
  }
  if (prices.coolTierPerGiBHour === undefined || prices.coolTransferPerGiB === undefined) {
    notes.push(`the advisor does not know the cool-tier prices in ${prices.region}: cool-tier savings not counted`);
    return { monthlyCostUsd: base, notes };
  }
  const hours = BILLING.hoursPerMonth.value;
  const coolGiB = ((requirement.capacityGiB ?? 0) * requirement.coolDataPercent) / 100;
  const capacitySavingUsd =
    coolGiB * (prices.capacityPerGiBHour[pool.serviceLevel] - prices.coolTierPerGiBHour) * hours;
  const retrievalUsd = (coolGiB * (requirement.coolRetrievalPercentPerMonth ?? 0) * prices.coolTransferPerGiB) / 100;
  const initialTieringUsd = coolGiB * prices.coolTransferPerGiB;
  if (requirement.coolRetrievalPercentPerMonth === undefined)
    notes.push('reads back from the cool tier not counted: say how much per month (--cool-retrieval-percent)');
  notes.push(
    `moving ${formatSizeIn(coolGiB * GiB, 'TiB')} to the cool tier costs ${formatUsd(initialTieringUsd)} once`,
  );
  return {
    monthlyCostUsd: base - capacitySavingUsd + retrievalUsd,
    coolTier: { coolGiB, capacitySavingUsd, retrievalUsd, initialTieringUsd },
    notes,
  };
}

/** Above a large volume's ceiling: breakthrough mode (preview) goes beyond it, but the advisor does not size it (no predefined limit, regional onboarding). */
function beyondLarge(largeVolume: boolean): string {
  return largeVolume
    ? ' (a large volume in breakthrough mode, preview, goes beyond it; the advisor does not size that mode)'
    : '';
}

function ioNotes(requirement: SizingRequirement, largeVolume: boolean): string[] {
  const limits = regularVolumeLimits(requirement);
  if (!limits.ceiling) return [];
  const mix = `${formatNumber(limits.ceiling.readPercent, 0)}% reads${limits.ceiling.readPercentAssumed ? ' (assumed; give --read-percent)' : ''}`;
  if (largeVolume && (requirement.iops !== undefined || limits.ceiling.profile === 'sequential')) {
    return [
      `the calculator's measured ceilings do not cover large volumes: the advisor does not know what one delivers at ${mix}`,
    ];
  }
  return [];
}

/**
 * Whether one volume of `quotaGiB` in a pool of `poolSizeTiB` can deliver `required` MiB/s against its
 * `ceiling`, and why not: the first limit it passes (throughput, quota, pool size, large-volume workload).
 */
function feasibility(
  required: number,
  ceiling: number,
  quotaGiB: number,
  poolSizeTiB: number,
  largeVolume: boolean,
  requirement: SizingRequirement,
  quotaMaximum: string,
): { feasible: true } | { feasible: false; reason: string } {
  if (required > ceiling) {
    return {
      feasible: false,
      reason: `needs ${formatMiBps(required)}, above the ${formatMiBps(ceiling)} one volume delivers${beyondLarge(largeVolume)}`,
    };
  }
  if (quotaGiB > VOLUME_LIMITS.largeMaxGiB.value) {
    return { feasible: false, reason: `needs a ${formatSizeIn(quotaGiB * GiB, 'TiB')} quota, above ${quotaMaximum}` };
  }
  if (poolSizeTiB > POOL_LIMITS.maxTiB.value) {
    return {
      feasible: false,
      reason: `needs a ${poolSizeTiB} TiB pool, above the ${POOL_LIMITS.maxTiB.value} TiB maximum`,
    };
  }
  const unsuitable = largeVolume ? largeVolumeUnsuitable(requirement.workload) : undefined;
  if (unsuitable) return { feasible: false, reason: `needs a large volume; ${unsuitable}` };
  return { feasible: true };
}

function autoQosOption(
  level: Exclude<ServiceLevel, 'Flexible'>,
  requirement: SizingRequirement,
  prices: RegionPrices,
): SizingOption {
  const required = requiredThroughputMiBps(requirement);
  const coolAccess = withCoolAccess(requirement);
  const rate = serviceLevelRateMiBpsPerTiB(level, coolAccess) ?? 0;
  const forThroughput = quotaGiBForThroughput(level, required, coolAccess) ?? 0;
  let quotaGiB = Math.max(ceilWhole(requirement.capacityGiB ?? 0), forThroughput, VOLUME_LIMITS.regularMinGiB.value);
  const largeVolume = quotaGiB > VOLUME_LIMITS.regularMaxGiB.value || regularVolumesNeeded(requirement) > 1;
  if (largeVolume) quotaGiB = Math.max(quotaGiB, VOLUME_LIMITS.largeMinGiB.value);
  const ceiling = volumeCeilingMiBps(largeVolume);
  const throughputMiBps = Math.min(gibToTiB(quotaGiB) * rate, ceiling);
  const poolSizeTiB = poolSizeForQuota(quotaGiB, requirement);
  const cost = costOf({ serviceLevel: level, sizeTiB: poolSizeTiB }, requirement, prices);
  const notes = [...cost.notes, ...ioNotes(requirement, largeVolume)];
  const base = {
    serviceLevel: level,
    qos: 'auto' as const,
    quotaGiB,
    volumeCount: 1,
    poolSizeTiB,
    largeVolume,
    throughputMiBps,
    ...costAndHeadroom(cost, throughputMiBps, required),
    ...(notes.length > 0 ? { notes } : {}),
  };

  const quotaMaximum = `the ${formatSizeIn(VOLUME_LIMITS.largeMaxGiB.value * GiB, 'TiB')} large-volume maximum`;
  return { ...base, ...feasibility(required, ceiling, quotaGiB, poolSizeTiB, largeVolume, requirement, quotaMaximum) };
}

function flexibleOption(requirement: SizingRequirement, prices: RegionPrices): SizingOption {
  const required = requiredThroughputMiBps(requirement);
  const baseline = FLEXIBLE.baselineThroughputMiBps.value;
  const flexibleThroughputMiBps = Math.max(ceilWhole(required), baseline);
  let quotaGiB = Math.max(ceilWhole(requirement.capacityGiB ?? 0), VOLUME_LIMITS.regularMinGiB.value);
  const largeVolume = quotaGiB > VOLUME_LIMITS.regularMaxGiB.value || regularVolumesNeeded(requirement) > 1;
  if (largeVolume) quotaGiB = Math.max(quotaGiB, VOLUME_LIMITS.largeMinGiB.value);
  // The pool must hold the quota and be large enough to be allowed the throughput (640 MiB/s per TiB).
  const poolForThroughput = ceilWhole(flexibleThroughputMiBps / FLEXIBLE.maxThroughputMiBpsPerTiB.value);
  const poolSizeTiB = Math.max(poolSizeForQuota(quotaGiB, requirement), poolForThroughput);
  const ceiling = volumeCeilingMiBps(largeVolume);
  const throughputMiBps = Math.min(flexibleThroughputMiBps, ceiling, flexibleMaxThroughputMiBps(poolSizeTiB));
  const cost = costOf({ serviceLevel: 'Flexible', sizeTiB: poolSizeTiB, flexibleThroughputMiBps }, requirement, prices);
  const notes = [...cost.notes, ...ioNotes(requirement, largeVolume)];
  const base = {
    serviceLevel: 'Flexible' as const,
    qos: 'manual' as const,
    quotaGiB,
    volumeCount: 1,
    poolSizeTiB,
    largeVolume,
    throughputMiBps,
    flexibleThroughputMiBps,
    ...costAndHeadroom(cost, throughputMiBps, required),
    ...(notes.length > 0 ? { notes } : {}),
  };
  return {
    ...base,
    ...feasibility(required, ceiling, quotaGiB, poolSizeTiB, largeVolume, requirement, 'the large-volume maximum'),
  };
}

/**
 * The requirement spread over several regular volumes in one shared pool with manual QoS (CM, MQ):
 * the pool buys the capacity and the throughput once, and each volume gets a share of both. Only
 * when one regular volume is not enough (throughput, measured IOPS or capacity); cheaper than a
 * large volume in cases such as 6,000 MiB/s on 10 TiB, and the only way for database data and log.
 */
function splitOption(
  level: ServiceLevel,
  requirement: SizingRequirement,
  prices: RegionPrices,
): SizingOption | undefined {
  const count = regularVolumesNeeded(requirement);
  if (count < 2) return undefined;
  const required = requiredThroughputMiBps(requirement);
  const coolAccess = withCoolAccess(requirement);
  const capacityGiB = ceilWhole(requirement.capacityGiB ?? 0);
  const quotaGiB = Math.max(ceilWhole(capacityGiB / count), VOLUME_LIMITS.regularMinGiB.value);
  const volumeThroughputMiBps = ceilWhole(required / count);
  const forCapacity = poolSizeForQuota(quotaGiB * count, requirement);
  let poolSizeTiB: number;
  let flexibleThroughputMiBps: number | undefined;
  if (level === 'Flexible') {
    flexibleThroughputMiBps = Math.max(volumeThroughputMiBps * count, FLEXIBLE.baselineThroughputMiBps.value);
    poolSizeTiB = Math.max(forCapacity, ceilWhole(flexibleThroughputMiBps / FLEXIBLE.maxThroughputMiBpsPerTiB.value));
  } else {
    const rate = serviceLevelRateMiBpsPerTiB(level, coolAccess) ?? 1;
    poolSizeTiB = Math.max(forCapacity, ceilWhole((volumeThroughputMiBps * count) / rate));
  }
  const throughputMiBps = volumeThroughputMiBps * count;
  const cost = costOf(
    {
      serviceLevel: level,
      sizeTiB: poolSizeTiB,
      ...(flexibleThroughputMiBps !== undefined ? { flexibleThroughputMiBps } : {}),
    },
    requirement,
    prices,
  );
  const notes = [
    `spreads the data and the I/O over ${count} regular volumes (${count} exports to mount) sharing one manual QoS pool`,
    ...cost.notes,
  ];
  const base = {
    serviceLevel: level,
    qos: 'manual' as const,
    quotaGiB,
    volumeCount: count,
    volumeThroughputMiBps,
    poolSizeTiB,
    largeVolume: false,
    throughputMiBps,
    ...(flexibleThroughputMiBps !== undefined ? { flexibleThroughputMiBps } : {}),
    ...costAndHeadroom(cost, throughputMiBps, required),
    notes,
  };
  if (poolSizeTiB > POOL_LIMITS.maxTiB.value) {
    return {
      ...base,
      feasible: false,
      reason: `needs a ${poolSizeTiB} TiB pool, above the ${POOL_LIMITS.maxTiB.value} TiB maximum`,
    };
  }
  if (count > COUNT_LIMITS.volumesPerPool.value) {
    return {
      ...base,
      feasible: false,
      reason: `needs ${count} volumes, above the ${COUNT_LIMITS.volumesPerPool.value} per pool`,
    };
  }
  return { ...base, feasible: true };
}

/**
 * For each service level, the cheapest configuration that meets the requirement (or why none
 * does): one volume, and, when one regular volume is not enough, several regular volumes in one
 * shared manual QoS pool. Cheapest feasible first, then the infeasible ones. Quotas are whole GiB,
 * pools whole TiB.
 */
export function adviseSizing(requirement: SizingRequirement, prices: RegionPrices): SizingOption[] {
  const options = SERVICE_LEVELS.flatMap((level) => {
    const single =
      level === 'Flexible' ? flexibleOption(requirement, prices) : autoQosOption(level, requirement, prices);
    const split = splitOption(level, requirement, prices);
    return split ? [single, split] : [single];
  }).map(withQuotaNote);
  return options.sort((a, b) => Number(b.feasible) - Number(a.feasible) || a.monthlyCostUsd - b.monthlyCostUsd);
}

/** RL: the capacity pools of a subscription in a region share a 25 TiB regional capacity quota by default (adjustable). */
function withQuotaNote(option: SizingOption): SizingOption {
  const quota = COUNT_LIMITS.regionalCapacityQuotaTiB.value;
  if (option.poolSizeTiB <= quota) return option;
  const note = `a ${formatNumber(option.poolSizeTiB)} TiB pool is above the default regional capacity quota of ${quota} TiB per subscription and region (all its pools together): request a higher quota before deploying`;
  return { ...option, notes: [...(option.notes ?? []), note] };
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
  configuration: {
    readonly serviceLevel: Exclude<ServiceLevel, 'Flexible'>;
    readonly quotaGiB: number;
    readonly coolAccess?: boolean;
    readonly largeVolume?: boolean;
  },
  requirement: SizingRequirement,
): ConfigurationCheck {
  const rate = serviceLevelRateMiBpsPerTiB(configuration.serviceLevel, configuration.coolAccess ?? false) ?? 0;
  const largeVolume = configuration.largeVolume ?? configuration.quotaGiB > VOLUME_LIMITS.regularMaxGiB.value;
  const throughputMiBps = Math.min(gibToTiB(configuration.quotaGiB) * rate, volumeCeilingMiBps(largeVolume));
  const reasons: string[] = [];
  const capacity = requirement.capacityGiB ?? 0;
  if (configuration.quotaGiB < capacity) {
    reasons.push(
      `capacity: ${formatSizeIn(configuration.quotaGiB * GiB, 'TiB')} is below the ${formatSizeIn(capacity * GiB, 'TiB')} required`,
    );
  }
  const required = requiredThroughputMiBps(requirement);
  if (throughputMiBps < required) {
    reasons.push(
      `throughput: ${configuration.serviceLevel} x ${formatSizeIn(configuration.quotaGiB * GiB, 'TiB')} gives ${formatMiBps(throughputMiBps)}, below the ${formatMiBps(required)} required`,
    );
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
