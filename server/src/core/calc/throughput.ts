import {
  COOL_ACCESS_RATE_MIBPS_PER_TIB,
  FLEXIBLE,
  SERVICE_LEVEL_RATE_MIBPS_PER_TIB,
  VOLUME_THROUGHPUT_CEILING,
  type ServiceLevel,
} from '../facts';
import { gibToTiB, tibToGiB } from '../units/units';

export type QosType = 'auto' | 'manual';

/** Throughput per TiB for a service level; Flexible has none (its throughput is set on the pool). */
export function serviceLevelRateMiBpsPerTiB(level: ServiceLevel, coolAccess = false): number | undefined {
  if (level === 'Flexible') return undefined;
  return (coolAccess ? COOL_ACCESS_RATE_MIBPS_PER_TIB : SERVICE_LEVEL_RATE_MIBPS_PER_TIB)[level].value;
}

/**
 * The most one volume can deliver, whatever its quota or assigned throughput. Breakthrough mode
 * (preview) has no predefined limit (LV): infinite here, so nothing is capped or reported.
 */
export function volumeCeilingMiBps(largeVolume: boolean, breakthroughMode = false): number {
  if (breakthroughMode) return Number.POSITIVE_INFINITY;
  return (largeVolume ? VOLUME_THROUGHPUT_CEILING.largeMiBps : VOLUME_THROUGHPUT_CEILING.regularMiBps).value;
}

export interface VolumeThroughputInput {
  readonly serviceLevel: ServiceLevel;
  readonly qos: QosType;
  readonly quotaGiB: number;
  /** Manual QoS (and Flexible): the throughput assigned to the volume. */
  readonly assignedThroughputMiBps?: number;
  readonly coolAccess?: boolean;
  readonly largeVolume?: boolean;
  /** A large volume in breakthrough mode (preview): no predefined throughput ceiling. */
  readonly breakthroughMode?: boolean;
}

export interface VolumeThroughputLimit {
  /** What the volume delivers at most. */
  readonly mibps: number;
  /** Before the per-volume ceiling. */
  readonly uncappedMiBps: number;
  readonly ceilingMiBps: number;
  readonly capped: boolean;
  /** Auto QoS: quota x rate; manual: the assigned throughput. */
  readonly basis: 'quota' | 'assigned';
  /** The rate used for auto QoS (cool-access rate where cool access is on). */
  readonly rateMiBpsPerTiB?: number;
}

/**
 * Auto QoS: quota (TiB) x service-level rate, capped at the regular or large-volume ceiling.
 * Manual QoS and Flexible: the assigned throughput, capped the same way.
 */
export function volumeThroughputLimit(input: VolumeThroughputInput): VolumeThroughputLimit {
  const ceilingMiBps = volumeCeilingMiBps(input.largeVolume ?? false, input.breakthroughMode ?? false);
  const rate = serviceLevelRateMiBpsPerTiB(input.serviceLevel, input.coolAccess ?? false);
  const manual = input.qos === 'manual' || rate === undefined;
  const uncappedMiBps = manual ? (input.assignedThroughputMiBps ?? 0) : gibToTiB(input.quotaGiB) * (rate ?? 0);
  return {
    mibps: Math.min(uncappedMiBps, ceilingMiBps),
    uncappedMiBps,
    ceilingMiBps,
    capped: uncappedMiBps > ceilingMiBps,
    basis: manual ? 'assigned' : 'quota',
    ...(manual ? {} : { rateMiBpsPerTiB: rate }),
  };
}

/**
 * The throughput a pool hands out: size x rate for Standard/Premium/Ultra (what manual QoS
 * volumes share), the configured throughput for Flexible (at least its baseline).
 */
export function poolThroughputBudgetMiBps(pool: {
  readonly serviceLevel: ServiceLevel;
  readonly sizeTiB: number;
  readonly flexibleThroughputMiBps?: number;
  readonly coolAccess?: boolean;
}): number {
  if (pool.serviceLevel === 'Flexible') {
    return Math.max(
      pool.flexibleThroughputMiBps ?? FLEXIBLE.baselineThroughputMiBps.value,
      FLEXIBLE.baselineThroughputMiBps.value,
    );
  }
  return pool.sizeTiB * (serviceLevelRateMiBpsPerTiB(pool.serviceLevel, pool.coolAccess ?? false) ?? 0);
}

/** Flexible pools: the most throughput the pool may be given (640 MiB/s per TiB). */
export function flexibleMaxThroughputMiBps(poolSizeTiB: number): number {
  return poolSizeTiB * FLEXIBLE.maxThroughputMiBpsPerTiB.value;
}

/** Rounds up, ignoring floating-point dust (15200.000000001 GiB is 15200 GiB). */
const FLOAT_DUST = 1e-9; // not a fact: tolerance for binary floating point

export function ceilWhole(value: number): number {
  return Math.ceil(value - FLOAT_DUST);
}

/** Whether a size is a whole number of its unit, ignoring floating-point dust (pools are whole TiB, quotas whole GiB). */
export function isWhole(value: number): boolean {
  return Math.abs(value - Math.round(value)) < FLOAT_DUST;
}

/**
 * The smallest whole-GiB quota whose auto-QoS throughput reaches `throughputMiBps`
 * (950 MiB/s on Premium needs 15,200 GiB). Undefined for Flexible.
 */
export function quotaGiBForThroughput(
  level: ServiceLevel,
  throughputMiBps: number,
  coolAccess = false,
): number | undefined {
  const rate = serviceLevelRateMiBpsPerTiB(level, coolAccess);
  if (rate === undefined) return undefined;
  return ceilWhole(tibToGiB(throughputMiBps / rate));
}
