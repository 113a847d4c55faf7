import { BILLING, FLEXIBLE, PRICES, DEFAULT_REGION, type RegionPrices, type ServiceLevel } from '../facts';
import { tibToGiB } from '../units/units';

/** Per-field overrides of the list prices, from the manifest or configuration. */
export interface PriceOverrides {
  readonly capacityPerGiBHour?: Partial<Record<ServiceLevel, number>>;
  readonly flexibleThroughputPerMiBpsHour?: number;
}

/**
 * The prices in force: the region's list prices (East US when the region is unknown or not
 * given) with any overrides applied. `known` says whether the region had list prices.
 */
export function resolvePrices(
  region: string | undefined,
  overrides?: PriceOverrides,
): RegionPrices & { readonly known: boolean } {
  const key = (region ?? DEFAULT_REGION.value).toLowerCase().replace(/[\s_-]/g, '');
  const base = PRICES[key] ?? PRICES[DEFAULT_REGION.value]!;
  return {
    ...base,
    region: key,
    capacityPerGiBHour: { ...base.capacityPerGiBHour, ...overrides?.capacityPerGiBHour },
    flexibleThroughputPerMiBpsHour: overrides?.flexibleThroughputPerMiBpsHour ?? base.flexibleThroughputPerMiBpsHour,
    known: PRICES[key] !== undefined,
  };
}

export interface PoolCost {
  readonly capacityUsd: number;
  readonly throughputUsd: number;
  readonly totalUsd: number;
}

/**
 * Monthly cost of a pool: provisioned size x capacity rate x 730 h, plus, for Flexible,
 * throughput above the 128 MiB/s baseline x throughput rate x 730 h (CM, PRICE).
 */
export function monthlyPoolCost(
  pool: { readonly serviceLevel: ServiceLevel; readonly sizeTiB: number; readonly flexibleThroughputMiBps?: number },
  prices: RegionPrices,
): PoolCost {
  const hours = BILLING.hoursPerMonth.value;
  const capacityUsd = tibToGiB(pool.sizeTiB) * prices.capacityPerGiBHour[pool.serviceLevel] * hours;
  const billableThroughput =
    pool.serviceLevel === 'Flexible'
      ? Math.max(0, (pool.flexibleThroughputMiBps ?? 0) - FLEXIBLE.baselineThroughputMiBps.value)
      : 0;
  const throughputUsd = billableThroughput * prices.flexibleThroughputPerMiBpsHour * hours;
  return { capacityUsd, throughputUsd, totalUsd: capacityUsd + throughputUsd };
}

/**
 * A volume's show-back cost: its quota at the pool's capacity rate, plus (Flexible) its share of
 * the pool's billable throughput in proportion to the throughput assigned to it.
 */
export function monthlyVolumeCost(
  volume: { readonly quotaGiB: number; readonly assignedThroughputMiBps?: number },
  pool: { readonly serviceLevel: ServiceLevel; readonly sizeTiB: number; readonly flexibleThroughputMiBps?: number },
  prices: RegionPrices,
): number {
  const hours = BILLING.hoursPerMonth.value;
  const capacityUsd = volume.quotaGiB * prices.capacityPerGiBHour[pool.serviceLevel] * hours;
  if (pool.serviceLevel !== 'Flexible' || !pool.flexibleThroughputMiBps || !volume.assignedThroughputMiBps)
    return capacityUsd;
  const share = volume.assignedThroughputMiBps / pool.flexibleThroughputMiBps;
  return capacityUsd + share * monthlyPoolCost(pool, prices).throughputUsd;
}
