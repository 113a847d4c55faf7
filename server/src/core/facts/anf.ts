import { fact, facts } from './fact';

/**
 * Azure NetApp Files service facts: rates, limits, ceilings and prices.
 * Rows follow ../shared/anf-facts.md; where the course seeds said something older, `formerly` keeps it.
 */

export const SERVICE_LEVELS = ['Standard', 'Premium', 'Ultra', 'Flexible'] as const;
export type ServiceLevel = (typeof SERVICE_LEVELS)[number];

/** Throughput per TiB of quota (auto QoS) or of pool (manual QoS budget). */
export const SERVICE_LEVEL_RATE_MIBPS_PER_TIB = facts('MiB/s per TiB', 'SL', { Standard: 16, Premium: 64, Ultra: 128 });

/** The rate once cool access has been enabled on a volume (it stays even after cool access is turned off). */
export const COOL_ACCESS_RATE_MIBPS_PER_TIB = {
  ...facts('MiB/s per TiB', 'CA', { Premium: 36, Ultra: 68 }),
  Standard: fact(16, 'MiB/s per TiB', 'CA', { note: 'Unchanged: CA lists reductions only for Premium and Ultra.' }),
} as const;

export const FLEXIBLE = {
  baselineThroughputMiBps: fact(128, 'MiB/s', 'SL', {
    note: 'Included in the capacity price, whatever the pool size.',
  }),
  maxThroughputMiBpsPerTiB: fact(640, 'MiB/s per TiB of pool', 'SL', { note: '5 x 128 MiB/s per TiB.' }),
  throughputIncrementMiBps: fact(1, 'MiB/s', 'CM'),
} as const;

export const QOS = facts('MiB/s', 'RL', {
  manualMinVolumeThroughputMiBps: 1,
  manualMaxRegularVolumeThroughputMiBps: 4500,
});

/** Ceilings on what one volume delivers, whatever its quota. */
export const VOLUME_THROUGHPUT_CEILING = {
  regularMiBps: fact(4500, 'MiB/s', 'CALC', {
    note: 'The calculator caps regular volumes at 4,500 MiB/s; RL gives the same figure as the manual QoS maximum.',
    formerly: [
      {
        value: 5000,
        source: 'SEED_COOL',
        note: 'The cool-access paper says a regular volume manages "approximately 5,000 MiB/s".',
      },
    ],
  }),
  largeMiBps: fact(12800, 'MiB/s', 'LV', {
    note: 'Same for all service levels since the 1 PiB large volumes. Breakthrough mode (preview) goes beyond it.',
    formerly: [
      {
        value: 10240,
        source: 'RL2023',
        note: '2023: Standard 1,600, Premium 6,400, Ultra 10,240 MiB/s for large volumes.',
      },
    ],
  }),
  /**
   * Large volumes in breakthrough mode (preview) have no predefined throughput limit; the page says
   * "up to 50 GiB/s" depending on the workload, on six storage endpoints of dedicated capacity.
   * Microsoft's SPECstorage 2020_eda_blended run of one such volume reached 20,910 MB/s (EDA).
   */
  breakthroughUpToMiBps: fact(51200, 'MiB/s', 'LV', {
    note: 'Preview. No predefined limit: "up to 50 GiB/s", depending on the workload (LV 2026-02-10).',
  }),
} as const;

/**
 * Measured ceilings of one regular volume by read share, from the advanced mode of Microsoft's
 * Azure NetApp Files Performance Calculator (2023): index i is i x 10 % reads. Small random I/O
 * (the calculator's 4 KiB and 8 KiB random profiles give the same operations per second) as IOPS,
 * computed as the calculator does (its 4 KiB table in MiB/s x 1024 / 4); 64 KiB sequential as MiB/s.
 * The calculator does not cover large volumes, so these apply to regular volumes only.
 */
export const REGULAR_VOLUME_IO_CEILING = {
  readPercentStep: fact(10, '% reads between rows', 'CALC_ADV'),
  smallRandomIops: fact(
    [116736, 124416, 134912, 149760, 161024, 187648, 207616, 269568, 286720, 329472, 430592] as const,
    'IOPS (4 or 8 KiB random), 0 % to 100 % reads',
    'CALC_ADV',
    { note: 'About 117k IOPS all writes, 431k all reads.' },
  ),
  sequential64KiBMiBps: fact(
    [1733, 1901, 2044, 2152, 2271, 2658, 2720, 2850, 3096, 3551, 4500] as const,
    'MiB/s (64 KiB sequential), 0 % to 100 % reads',
    'CALC_ADV',
  ),
  /** The block sizes the calculator measured: up to 8 KiB counts as small random I/O, 64 KiB as sequential. */
  ...facts('KiB', 'CALC_ADV', { smallRandomMaxBlockKiB: 8, sequentialBlockKiB: 64 }),
} as const;

/** The 2023 per-level large-volume ceilings, kept for the hover note on what changed. */
export const LARGE_VOLUME_CEILING_2023_MIBPS = facts('MiB/s', 'RL2023', {
  Standard: 1600,
  Premium: 6400,
  Ultra: 10240,
});

export const POOL_LIMITS = {
  minTiB: fact(1, 'TiB', 'RL', {
    note: 'Only when every volume in the pool uses Standard network features; otherwise 4 TiB.',
    formerly: [{ value: 4, source: 'SEED_COURSE', note: 'The course says pools are 4 TB to 500 TB.' }],
  }),
  minTiBWithBasicNetworkFeatures: fact(4, 'TiB', 'RL'),
  maxTiB: fact(2048, 'TiB', 'RL', {
    formerly: [
      { value: 1000, source: 'RL2023' },
      { value: 500, source: 'SEED_COURSE', note: 'The course says pools are 4 TB to 500 TB.' },
    ],
  }),
  incrementTiB: fact(1, 'TiB', 'CM'),
  defaultSizeTiB: fact(4, 'TiB', 'RL', { note: 'API default pool size.' }),
} as const;

export const VOLUME_LIMITS = {
  regularMinGiB: fact(50, 'GiB', 'RL', {
    formerly: [{ value: 100, source: 'SEED_COURSE', note: 'The course says quotas range from 100 GB to 100 TB.' }],
  }),
  regularMaxGiB: fact(102400, 'GiB', 'RL', { note: '100 TiB.' }),
  largeMinGiB: fact(51200, 'GiB', 'LV', {
    note: '50 TiB.',
    formerly: [{ value: 102401, source: 'RL2023', note: '2023: large volumes started at 102,401 GiB.' }],
  }),
  largeMaxGiB: fact(1048576, 'GiB', 'LV', {
    note: '1 PiB; 2 PiB on request with dedicated capacity.',
    formerly: [{ value: 512000, source: 'RL2023', note: '2023: 500 TiB.' }],
  }),
  largeOnRequestMaxGiB: fact(2097152, 'GiB', 'LV', { note: '2 PiB, on request.' }),
  breakthroughMinGiB: fact(2400, 'GiB', 'LV', { note: 'Large volumes in breakthrough mode (preview).' }),
  breakthroughMaxGiB: fact(2457600, 'GiB', 'LV', {
    note: '2,400 TiB, preview. The stable 2026-07-01 API caps any volume at 2,400 TiB (API26).',
  }),
  /** Extra-large volumes with cool access (preview): cool access enabled at creation, most data expected in the cool tier. */
  extraLargeMinGiB: fact(2400, 'GiB', 'LV', { note: 'Extra-large volume with cool access (preview).' }),
  extraLargeMaxGiB: fact(7372800, 'GiB', 'LV', {
    note: '7.2 PiB (7,200 TiB), preview; preview APIs allow 7,916,483,719,987,200 bytes (SPEC).',
  }),
  extraLargeMinCoolDataPercent: fact(80, '% of the data in the cool tier', 'LV', {
    note: 'Extra-large volumes are for data of which at least 80 % is expected to be cool (LV, CA).',
  }),
  /** One resize of a large volume may not grow it by more than 30 % of its lowest provisioned size (adjustable by support request). */
  largeGrowthPercent: fact(30, '% of the lowest provisioned size per resize', 'LV', {
    note: 'Adjustable via a support request.',
  }),
  quotaIncrementGiB: fact(1, 'GiB', 'RL', { note: 'Quotas are whole GiB.' }),
  defaultQuotaGiB: fact(100, 'GiB', 'RL', { note: 'API default.' }),
} as const;

/** A limit that RL marks adjustable (by support request). */
const adjustable = (value: number, unit: string) => fact(value, unit, 'RL', { note: 'Adjustable.' });

export const COUNT_LIMITS = {
  accountsPerRegionPerSubscription: adjustable(10, 'accounts'),
  poolsPerAccount: adjustable(25, 'pools'),
  volumesPerPool: adjustable(500, 'volumes'),
  volumesPerSubscription: adjustable(500, 'volumes'),
  regionalCapacityQuotaTiB: fact(25, 'TiB', 'RL', {
    note: 'Per subscription and region: the sum of the capacity pools. Adjustable by support request.',
  }),
  snapshotsPerVolume: fact(255, 'snapshots', 'RL'),
  exportPolicyRulesPerVolume: fact(5, 'rules', 'RL'),
} as const;

export const COOL_ACCESS = {
  ...facts('days', 'CA', { coolnessPeriodMinDays: 2, coolnessPeriodMaxDays: 183, coolnessPeriodDefaultDays: 31 }),
  /** Seed 004: throughput from the cool tier vs the hot tier. */
  sequentialReadDropPercent: fact(47, '%', 'SEED_COOL', {
    note: '3,330 MiB/s hot vs 1,742 MiB/s cool, 100% sequential.',
  }),
  randomReadDropPercent: fact(88, '%', 'SEED_COOL', { note: '2,479 MiB/s hot vs 280 MiB/s cool, 100% random.' }),
  mixedLatencySpikeMs: fact(12, 'ms', 'SEED_COOL', {
    note: 'Cool-tier latency above 12 ms from a 60/40 sequential/random mix; hot tier stays under 2 ms.',
  }),
} as const;

/** Billing: hours in a month, as the ANF calculator counts them. */
export const BILLING = {
  hoursPerMonth: fact(730, 'hours', 'CALC'),
} as const;

export interface RegionPrices {
  readonly region: string;
  readonly currency: 'USD';
  readonly date: string;
  /** Capacity per GiB-hour, by service level. */
  readonly capacityPerGiBHour: Readonly<Record<ServiceLevel, number>>;
  /** Flexible throughput above the baseline, per MiB/s-hour. */
  readonly flexibleThroughputPerMiBpsHour: number;
  /**
   * Cool-tier capacity per GiB-hour and transfer per GiB moved between the tiers (both ways);
   * undefined where the price dump has no meter for the region: the advisor then says it does not know.
   */
  readonly coolTierPerGiBHour?: number;
  readonly coolTransferPerGiB?: number;
}

/** East US and East US 2 list the same prices (PRICE). */
const US_EAST_PRICES = {
  currency: 'USD',
  date: '2026-01-29',
  capacityPerGiBHour: { Standard: 0.000202, Premium: 0.000403, Ultra: 0.000538, Flexible: 0.000151 },
  flexibleThroughputPerMiBpsHour: 0.003082,
  coolTierPerGiBHour: 0.000082,
  coolTransferPerGiB: 0.02,
} as const;

/** List prices, pay-as-you-go (PRICE, effective dates per meter in ../shared/anf-facts.md). */
export const PRICES: Readonly<Record<string, RegionPrices>> = {
  eastus: { region: 'eastus', ...US_EAST_PRICES },
  eastus2: { region: 'eastus2', ...US_EAST_PRICES },
  westeurope: {
    region: 'westeurope',
    currency: 'USD',
    date: '2026-01-29',
    capacityPerGiBHour: { Standard: 0.000202, Premium: 0.000403, Ultra: 0.000538, Flexible: 0.000216 },
    flexibleThroughputPerMiBpsHour: 0.004407,
    // The dump lists no West Europe cool-tier meter: no cool-tier prices, rather than a guess.
  },
};

export const DEFAULT_REGION = fact('eastus', 'region', 'PRICE');

/** Sizing manifest thresholds (issue 3). */
export const SIZING = {
  overProvisioningFactor: fact(2, 'x the quota needed', 'CALC', {
    note: 'anf-lint threshold: the calculator marks a volume over-provisioned (blue) without giving a factor; anf-lint reports a quota above twice both the capacity and the throughput needed.',
  }),
  /** Seed 002, "the four corners": 8 KiB random and 64 KiB sequential when the block size is not known. */
  assumedRandomBlockKiB: fact(8, 'KiB', 'SEED_PERF', {
    note: 'Typical database block; used for IOPS figures when the manifest gives no block size.',
  }),
  assumedSequentialBlockKiB: fact(64, 'KiB', 'SEED_PERF'),
} as const;

/** Cool-access settings (API values). */
export const COOL_ACCESS_POLICIES = {
  retrieval: fact(['Default', 'OnRead', 'Never'] as const, 'policy', 'CA'),
  tiering: fact(['Auto', 'SnapshotOnly'] as const, 'policy', 'CA'),
} as const;
