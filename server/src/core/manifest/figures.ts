import {
  ceilWhole,
  poolThroughputBudgetMiBps,
  quotaGiBForThroughput,
  type VolumeThroughputLimit,
} from '../calc/throughput';
import { iopsFromThroughputMiBps, outstandingIo, regularVolumeIoCeiling, type MeasuredIoCeiling } from '../calc/io';
import { monthlyPoolCost, monthlyVolumeCost, resolvePrices, type PoolCost } from '../calc/cost';
import type { ResolvedConfig } from '../config';
import { VOLUME_LIMITS, type RegionPrices, type ServiceLevel } from '../facts';
import type { Span } from '../text/sourceText';
import { bytesPerSecondToMiBps, bytesToGiB, bytesToTiB, tibToGiB } from '../units/units';
import { takeLineage } from './lineage';
import {
  nameOrAddress,
  poolQos,
  volumeIsLarge,
  type ManifestAccount,
  type ManifestDocument,
  type ManifestPool,
  type ManifestVolume,
} from './model';
import {
  assumedBlockSizeBytes,
  manifestVolumeThroughput,
  volumeCoolAccess,
  volumeRequiredThroughputMiBps,
} from './summary';
import type { Mutable } from '../mutable';

/**
 * The numbers the editor and the CLI show for a manifest: per pool and per volume, the same
 * figures in the hover, the code lens, the tree view and `anf-lint figures`. Pure: manifest and
 * prices in, numbers out. Rules read them too, so a message and a hover never disagree.
 */

export interface PoolFigures {
  /** `account/pool`. */
  readonly id: string;
  readonly account: string;
  readonly pool: string;
  /** The pool's name (or its first line): where a code lens goes. */
  readonly span: Span;
  readonly serviceLevel?: ServiceLevel;
  readonly qos: 'auto' | 'manual';
  readonly sizeTiB?: number;
  /** Sum of the known volume quotas. */
  readonly allocatedGiB: number;
  /**
   * Volumes whose quota is unknown (a templated or unresolved value in infrastructure code, a
   * manifest volume still being written): the sums are then lower bounds, and displays say so.
   */
  readonly unknownQuotas?: number;
  readonly allocationPercent?: number;
  readonly freeGiB?: number;
  /** What the pool hands out: size x rate (Standard/Premium/Ultra), the set throughput (Flexible). */
  readonly budgetMiBps?: number;
  /** Sum of the volumes' throughput limits (auto) or assigned throughput (manual). */
  readonly usedMiBps: number;
  readonly budgetUsedPercent?: number;
  readonly monthlyCost?: PoolCost;
  readonly volumeCount: number;
}

/** `" and 2 volumes of unknown quota"`, or nothing: said after a pool's allocation, which is then a lower bound. */
export function unknownQuotasNote(pool: Pick<PoolFigures, 'unknownQuotas'>): string {
  const n = pool.unknownQuotas ?? 0;
  return n === 0 ? '' : ` and ${n} volume${n === 1 ? '' : 's'} of unknown quota`;
}

export interface VolumeFigures {
  /** `account/pool/volume`. */
  readonly id: string;
  readonly account: string;
  readonly pool: string;
  readonly volume: string;
  readonly span: Span;
  readonly quotaGiB?: number;
  readonly throughput?: VolumeThroughputLimit;
  /** Quota in percent of the pool size. */
  readonly allocationPercent?: number;
  /** Throughput limit in percent of the pool budget. */
  readonly budgetSharePercent?: number;
  readonly requiredThroughputMiBps?: number;
  readonly requiredCapacityGiB?: number;
  readonly blockSizeBytes: number;
  /** True when the manifest gives no block size and the seed's 8 KiB random block is assumed. */
  readonly blockSizeAssumed: boolean;
  /**
   * The IOPS the volume delivers at the block size: its throughput limit / block size, and for a
   * regular volume no more than the calculator's measured ceiling at the read share (`ioCeiling`).
   */
  readonly iopsAtBlockSize?: number;
  /** The throughput limit / block size, before the measured ceiling (576k at 8 KiB for 4,500 MiB/s). */
  readonly iopsQosLimit?: number;
  /** Regular volumes: what the calculator measured one volume to deliver at this block size and read share. */
  readonly ioCeiling?: MeasuredIoCeiling;
  /** Whether the delivered IOPS reach the required IOPS (when the requirements give IOPS). */
  readonly meetsIops?: boolean;
  readonly requiredIops?: number;
  readonly latencySeconds?: number;
  /** Little's Law: outstanding I/O the clients need for the required (else the deliverable) IOPS at the latency. */
  readonly concurrency?: number;
  readonly concurrencyPerClient?: number;
  readonly monthlyCostUsd?: number;
  /**
   * The smallest whole-GiB quota that meets the requirements in this pool (auto QoS: capacity and
   * throughput; manual QoS: capacity), at least the regular minimum. Undefined without requirements.
   */
  readonly quotaNeededGiB?: number;
  readonly meetsCapacity?: boolean;
  readonly meetsThroughput?: boolean;
}

export interface ManifestFigures {
  readonly prices: RegionPrices;
  readonly pools: readonly PoolFigures[];
  readonly volumes: readonly VolumeFigures[];
  pool(pool: ManifestPool): PoolFigures | undefined;
  volume(volume: ManifestVolume): VolumeFigures | undefined;
}

/** The prices for a manifest: its own region and overrides over the configuration's. */
export function manifestPrices(manifest: ManifestDocument, config: Pick<ResolvedConfig, 'prices'>): RegionPrices {
  if (!manifest.region && !manifest.prices) return config.prices;
  const base = manifest.region ? resolvePrices(manifest.region.value) : config.prices;
  return {
    ...base,
    capacityPerGiBHour: { ...base.capacityPerGiBHour, ...manifest.prices?.capacityPerGiBHour },
    flexibleThroughputPerMiBpsHour:
      manifest.prices?.flexibleThroughputPerMiBpsHour ?? base.flexibleThroughputPerMiBpsHour,
  };
}

/** Per parsed manifest (a new object per document version) and configuration prices. */
const cache = new WeakMap<ManifestDocument, { configPrices: RegionPrices; figures: ManifestFigures }>();

/** Computes (once per manifest and configuration) the figures of every pool and volume. */
export function computeManifestFigures(
  manifest: ManifestDocument,
  config: Pick<ResolvedConfig, 'prices'>,
): ManifestFigures {
  const cached = cache.get(manifest);
  if (cached && cached.configPrices === config.prices) return cached.figures;
  const figures = compute(manifest, manifestPrices(manifest, config), reusable(manifest, config));
  cache.set(manifest, { configPrices: config.prices, figures });
  return figures;
}

/** Pool size in TiB, or undefined when the pool has none. */
export function poolSizeTiB(pool: ManifestPool): number | undefined {
  return pool.size ? bytesToTiB(pool.size.value.bytes) : undefined;
}

export function volumeQuotaGiB(volume: ManifestVolume): number | undefined {
  return volume.quota ? bytesToGiB(volume.quota.value.bytes) : undefined;
}

/** Flexible pools: the configured throughput (the baseline when not set). */
export function poolFlexibleThroughputMiBps(pool: ManifestPool): number | undefined {
  return pool.throughput ? bytesPerSecondToMiBps(pool.throughput.value.bytesPerSecond) : undefined;
}

/**
 * The previous version's figures, when this manifest was read incrementally from it with the same
 * prices: a volume whose values, pool values and account name are unchanged has the same figures
 * (moved to its new name span). Undefined otherwise: everything is computed.
 */
interface Reusable {
  readonly figures: ManifestFigures;
  /** This version's object -> the previous version's object with the same own values. */
  same<T extends ManifestAccount | ManifestPool | ManifestVolume>(value: T): T | undefined;
}

function reusable(manifest: ManifestDocument, config: Pick<ResolvedConfig, 'prices'>): Reusable | undefined {
  const lineage = takeLineage(manifest);
  if (!lineage) return undefined;
  const previous = cache.get(lineage.previous);
  const { previous: before } = lineage;
  if (
    !previous ||
    previous.configPrices !== config.prices ||
    before.prices !== manifest.prices ||
    before.region?.value !== manifest.region?.value
  )
    return undefined;
  const kept = new Set<object>(before.accounts);
  for (const account of before.accounts) for (const pool of account.pools) kept.add(pool);
  return {
    figures: previous.figures,
    same: <T extends ManifestAccount | ManifestPool | ManifestVolume>(value: T) =>
      kept.has(value) || previous.figures.volume(value as ManifestVolume)
        ? value
        : (lineage.sameAs.get(value) as T | undefined),
  };
}

function compute(manifest: ManifestDocument, prices: RegionPrices, reuse?: Reusable): ManifestFigures {
  const pools: PoolFigures[] = [];
  const volumes: VolumeFigures[] = [];
  const poolMap = new Map<ManifestPool, PoolFigures>();
  const volumeMap = new Map<ManifestVolume, VolumeFigures>();

  for (const account of manifest.accounts) {
    const sameAccount = reuse?.same(account) !== undefined;
    for (const pool of account.pools) {
      const samePool = sameAccount && reuse?.same(pool) !== undefined;
      const level = pool.serviceLevel?.value;
      const qos = poolQos(pool);
      const sizeTiB = poolSizeTiB(pool);
      const flexibleThroughputMiBps = poolFlexibleThroughputMiBps(pool);
      const budgetMiBps =
        level && sizeTiB !== undefined
          ? poolThroughputBudgetMiBps({
              serviceLevel: level,
              sizeTiB,
              ...(flexibleThroughputMiBps !== undefined ? { flexibleThroughputMiBps } : {}),
            })
          : undefined;
      const poolForCost =
        level && sizeTiB !== undefined
          ? {
              serviceLevel: level,
              sizeTiB,
              ...(flexibleThroughputMiBps !== undefined ? { flexibleThroughputMiBps } : {}),
            }
          : undefined;

      let allocatedGiB = 0;
      let usedMiBps = 0;
      let unknownQuotas = 0;
      for (const volume of pool.volumes) {
        const earlier = samePool ? reuse?.same(volume) : undefined;
        const kept = earlier && reuse?.figures.volume(earlier);
        if (kept) {
          const span = volume.name?.span ?? volume.headSpan;
          const figures = kept.span.start === span.start && kept.span.end === span.end ? kept : { ...kept, span };
          allocatedGiB += figures.quotaGiB ?? 0;
          if (figures.quotaGiB === undefined) unknownQuotas++;
          usedMiBps += figures.throughput?.mibps ?? 0;
          volumes.push(figures);
          volumeMap.set(volume, figures);
          continue;
        }
        const quotaGiB = volumeQuotaGiB(volume);
        allocatedGiB += quotaGiB ?? 0;
        if (quotaGiB === undefined) unknownQuotas++;
        // An auto-QoS volume's limit follows its quota: without one it is unknown, not 0 MiB/s.
        const throughput =
          level && (quotaGiB !== undefined || qos === 'manual') ? manifestVolumeThroughput(pool, volume) : undefined;
        usedMiBps += throughput?.mibps ?? 0;

        const req = volume.requirements;
        const blockSizeBytes = req?.blockSize?.value.bytes ?? assumedBlockSizeBytes();
        const requiredThroughputMiBps = volumeRequiredThroughputMiBps(volume, blockSizeBytes);
        const requiredCapacityGiB = req?.capacity ? bytesToGiB(req.capacity.value.bytes) : undefined;
        const iopsQosLimit = throughput ? iopsFromThroughputMiBps(throughput.mibps, blockSizeBytes) : undefined;
        const ioCeiling = volumeIsLarge(volume)
          ? undefined
          : regularVolumeIoCeiling(blockSizeBytes, req?.readPercent?.value);
        const iopsAtBlockSize =
          iopsQosLimit !== undefined && ioCeiling ? Math.min(iopsQosLimit, ioCeiling.iops) : iopsQosLimit;
        const requiredIops =
          req?.iops?.value ??
          (requiredThroughputMiBps !== undefined
            ? iopsFromThroughputMiBps(requiredThroughputMiBps, blockSizeBytes)
            : undefined);
        const latencySeconds = req?.latency?.value;
        const iopsForConcurrency = requiredIops ?? iopsAtBlockSize;
        const concurrency =
          latencySeconds !== undefined && iopsForConcurrency !== undefined
            ? outstandingIo(iopsForConcurrency, latencySeconds)
            : undefined;
        const clients = req?.clients?.value;
        const hasRequirements = requiredThroughputMiBps !== undefined || requiredCapacityGiB !== undefined;
        let quotaNeededGiB: number | undefined;
        if (hasRequirements && level) {
          const forThroughput =
            qos === 'auto' && requiredThroughputMiBps !== undefined
              ? (quotaGiBForThroughput(level, requiredThroughputMiBps, volumeCoolAccess(volume)) ?? 0)
              : 0;
          quotaNeededGiB = Math.max(
            ceilWhole(requiredCapacityGiB ?? 0),
            forThroughput,
            VOLUME_LIMITS.regularMinGiB.value,
          );
        }
        // Assigned field by field in a fixed order (the keys a spread of optional parts would give):
        // conditional spreads made a temporary object per field, per volume, per edit.
        const figures: Mutable<VolumeFigures> = {
          id: [account, pool, volume].map(nameOrAddress).join('/'),
          account: account.name?.value ?? '',
          pool: pool.name?.value ?? '',
          volume: volume.name?.value ?? '',
          span: volume.name?.span ?? volume.headSpan,
        } as Mutable<VolumeFigures>;
        if (quotaGiB !== undefined) figures.quotaGiB = quotaGiB;
        if (throughput) figures.throughput = throughput;
        if (quotaGiB !== undefined && sizeTiB) figures.allocationPercent = (quotaGiB / tibToGiB(sizeTiB)) * 100;
        if (throughput && budgetMiBps) figures.budgetSharePercent = (throughput.mibps / budgetMiBps) * 100;
        if (requiredThroughputMiBps !== undefined) figures.requiredThroughputMiBps = requiredThroughputMiBps;
        if (requiredCapacityGiB !== undefined) figures.requiredCapacityGiB = requiredCapacityGiB;
        figures.blockSizeBytes = blockSizeBytes;
        figures.blockSizeAssumed = !req?.blockSize;
        if (iopsAtBlockSize !== undefined) figures.iopsAtBlockSize = iopsAtBlockSize;
        if (iopsQosLimit !== undefined) figures.iopsQosLimit = iopsQosLimit;
        if (ioCeiling) figures.ioCeiling = ioCeiling;
        if (req?.iops && iopsAtBlockSize !== undefined) figures.meetsIops = iopsAtBlockSize >= req.iops.value;
        if (requiredIops !== undefined) figures.requiredIops = requiredIops;
        if (latencySeconds !== undefined) figures.latencySeconds = latencySeconds;
        if (concurrency !== undefined) figures.concurrency = concurrency;
        if (concurrency !== undefined && clients) figures.concurrencyPerClient = concurrency / clients;
        if (quotaGiB !== undefined && poolForCost) {
          figures.monthlyCostUsd = monthlyVolumeCost(
            { quotaGiB, ...(throughput && qos === 'manual' ? { assignedThroughputMiBps: throughput.mibps } : {}) },
            poolForCost,
            prices,
          );
        }
        if (quotaNeededGiB !== undefined) figures.quotaNeededGiB = quotaNeededGiB;
        if (requiredCapacityGiB !== undefined && quotaGiB !== undefined)
          figures.meetsCapacity = quotaGiB >= requiredCapacityGiB;
        if (requiredThroughputMiBps !== undefined && throughput)
          figures.meetsThroughput = throughput.mibps >= requiredThroughputMiBps;
        volumes.push(figures);
        volumeMap.set(volume, figures);
      }

      // Volumes of this pool written in other files of a Terraform module: in the totals, not listed here.
      for (const { volume } of pool.elsewhere ?? []) {
        const quotaGiB = volumeQuotaGiB(volume);
        allocatedGiB += quotaGiB ?? 0;
        if (quotaGiB === undefined) unknownQuotas++;
        if (level && (quotaGiB !== undefined || qos === 'manual'))
          usedMiBps += manifestVolumeThroughput(pool, volume).mibps;
      }

      const figures: PoolFigures = {
        id: [account, pool].map(nameOrAddress).join('/'),
        account: account.name?.value ?? '',
        pool: pool.name?.value ?? '',
        span: pool.name?.span ?? pool.headSpan,
        ...(level ? { serviceLevel: level } : {}),
        qos,
        ...(sizeTiB !== undefined
          ? {
              sizeTiB,
              allocationPercent: sizeTiB > 0 ? (allocatedGiB / tibToGiB(sizeTiB)) * 100 : 0,
              freeGiB: tibToGiB(sizeTiB) - allocatedGiB,
            }
          : {}),
        allocatedGiB,
        ...(unknownQuotas > 0 ? { unknownQuotas } : {}),
        ...(budgetMiBps !== undefined
          ? { budgetMiBps, budgetUsedPercent: budgetMiBps > 0 ? (usedMiBps / budgetMiBps) * 100 : 0 }
          : {}),
        usedMiBps,
        ...(poolForCost ? { monthlyCost: monthlyPoolCost(poolForCost, prices) } : {}),
        volumeCount: pool.volumes.length + (pool.elsewhere?.length ?? 0),
      };
      pools.push(figures);
      poolMap.set(pool, figures);
    }
  }
  return { prices, pools, volumes, pool: (p) => poolMap.get(p), volume: (v) => volumeMap.get(v) };
}
