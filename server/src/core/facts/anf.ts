import { fact } from './fact';

/**
 * Azure NetApp Files service facts: rates, limits, ceilings and prices.
 * Rows follow ../shared/anf-facts.md; where the course seeds said something older, `formerly` keeps it.
 */

export const SERVICE_LEVELS = ['Standard', 'Premium', 'Ultra', 'Flexible'] as const;
export type ServiceLevel = (typeof SERVICE_LEVELS)[number];

/** Throughput per TiB of quota (auto QoS) or of pool (manual QoS budget). */
export const SERVICE_LEVEL_RATE_MIBPS_PER_TIB = {
  Standard: fact(16, 'MiB/s per TiB', 'SL'),
  Premium: fact(64, 'MiB/s per TiB', 'SL'),
  Ultra: fact(128, 'MiB/s per TiB', 'SL'),
} as const;

/** The rate once cool access has been enabled on a volume (it stays even after cool access is turned off). */
export const COOL_ACCESS_RATE_MIBPS_PER_TIB = {
  Standard: fact(16, 'MiB/s per TiB', 'CA', { note: 'Unchanged: CA lists reductions only for Premium and Ultra.' }),
  Premium: fact(36, 'MiB/s per TiB', 'CA'),
  Ultra: fact(68, 'MiB/s per TiB', 'CA'),
} as const;

export const FLEXIBLE = {
  baselineThroughputMiBps: fact(128, 'MiB/s', 'SL', { note: 'Included in the capacity price, whatever the pool size.' }),
  maxThroughputMiBpsPerTiB: fact(640, 'MiB/s per TiB of pool', 'SL', { note: '5 x 128 MiB/s per TiB.' }),
  throughputIncrementMiBps: fact(1, 'MiB/s', 'CM'),
} as const;

export const QOS = {
  manualMinVolumeThroughputMiBps: fact(1, 'MiB/s', 'RL'),
  manualMaxRegularVolumeThroughputMiBps: fact(4500, 'MiB/s', 'RL'),
} as const;

/** Ceilings on what one volume delivers, whatever its quota. */
export const VOLUME_THROUGHPUT_CEILING = {
  regularMiBps: fact(4500, 'MiB/s', 'CALC', {
    note: 'The calculator caps regular volumes at 4,500 MiB/s; RL gives the same figure as the manual QoS maximum.',
    formerly: [{ value: 5000, source: 'SEED_COOL', note: 'The cool-access paper says a regular volume manages "approximately 5,000 MiB/s".' }],
  }),
  largeMiBps: fact(12800, 'MiB/s', 'LV', {
    note: 'Same for all service levels since the 1 PiB large volumes.',
    formerly: [{ value: 10240, source: 'RL2023', note: '2023: Standard 1,600, Premium 6,400, Ultra 10,240 MiB/s for large volumes.' }],
  }),
} as const;

/** The 2023 per-level large-volume ceilings, kept for the hover note on what changed. */
export const LARGE_VOLUME_CEILING_2023_MIBPS = {
  Standard: fact(1600, 'MiB/s', 'RL2023'),
  Premium: fact(6400, 'MiB/s', 'RL2023'),
  Ultra: fact(10240, 'MiB/s', 'RL2023'),
} as const;

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
  breakthroughMinGiB: fact(2400, 'GiB', 'LV'),
  breakthroughMaxGiB: fact(2457600, 'GiB', 'LV', { note: '2,400 TiB, preview.' }),
  quotaIncrementGiB: fact(1, 'GiB', 'RL', { note: 'Quotas are whole GiB.' }),
  defaultQuotaGiB: fact(100, 'GiB', 'RL', { note: 'API default.' }),
} as const;

export const COUNT_LIMITS = {
  accountsPerRegionPerSubscription: fact(10, 'accounts', 'RL', { note: 'Adjustable.' }),
  poolsPerAccount: fact(25, 'pools', 'RL', { note: 'Adjustable.' }),
  volumesPerPool: fact(500, 'volumes', 'RL', { note: 'Adjustable.' }),
  volumesPerSubscription: fact(500, 'volumes', 'RL', { note: 'Adjustable.' }),
  regionalCapacityQuotaTiB: fact(25, 'TiB', 'RL', { note: 'Per subscription and region; adjustable.' }),
  snapshotsPerVolume: fact(255, 'snapshots', 'RL'),
  exportPolicyRulesPerVolume: fact(5, 'rules', 'RL'),
} as const;

export const COOL_ACCESS = {
  coolnessPeriodMinDays: fact(2, 'days', 'CA'),
  coolnessPeriodMaxDays: fact(183, 'days', 'CA'),
  coolnessPeriodDefaultDays: fact(31, 'days', 'CA'),
  /** Seed 004: throughput from the cool tier vs the hot tier. */
  sequentialReadDropPercent: fact(47, '%', 'SEED_COOL', { note: '3,330 MiB/s hot vs 1,742 MiB/s cool, 100% sequential.' }),
  randomReadDropPercent: fact(88, '%', 'SEED_COOL', { note: '2,479 MiB/s hot vs 280 MiB/s cool, 100% random.' }),
  mixedLatencySpikeMs: fact(12, 'ms', 'SEED_COOL', { note: 'Cool-tier latency above 12 ms from a 60/40 sequential/random mix; hot tier stays under 2 ms.' }),
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
  /** Cool-tier capacity per GiB-hour and transfer per GiB moved. */
  readonly coolTierPerGiBHour: number;
  readonly coolTransferPerGiB: number;
}

/** List prices, pay-as-you-go (PRICE, effective dates per meter in ../shared/anf-facts.md). */
export const PRICES: Readonly<Record<string, RegionPrices>> = {
  eastus: {
    region: 'eastus',
    currency: 'USD',
    date: '2026-01-29',
    capacityPerGiBHour: { Standard: 0.000202, Premium: 0.000403, Ultra: 0.000538, Flexible: 0.000151 },
    flexibleThroughputPerMiBpsHour: 0.003082,
    coolTierPerGiBHour: 0.000082,
    coolTransferPerGiB: 0.02,
  },
  eastus2: {
    region: 'eastus2',
    currency: 'USD',
    date: '2026-01-29',
    capacityPerGiBHour: { Standard: 0.000202, Premium: 0.000403, Ultra: 0.000538, Flexible: 0.000151 },
    flexibleThroughputPerMiBpsHour: 0.003082,
    coolTierPerGiBHour: 0.000082,
    coolTransferPerGiB: 0.02,
  },
  westeurope: {
    region: 'westeurope',
    currency: 'USD',
    date: '2026-01-29',
    capacityPerGiBHour: { Standard: 0.000202, Premium: 0.000403, Ultra: 0.000538, Flexible: 0.000216 },
    flexibleThroughputPerMiBpsHour: 0.004407,
    // The dump lists no separate West Europe cool-tier meter; the East US rate is assumed.
    coolTierPerGiBHour: 0.000082,
    coolTransferPerGiB: 0.02,
  },
};

export const DEFAULT_REGION = fact('eastus', 'region', 'PRICE');

/** Sizing manifest thresholds (issue 3). */
export const SIZING = {
  overProvisioningFactor: fact(2, 'x the quota needed', 'CALC', {
    note: 'anf-lint threshold: the calculator marks a volume over-provisioned (blue) without giving a factor; anf-lint reports a quota above twice both the capacity and the throughput needed.',
  }),
  /** Seed 002, "the four corners": 8 KiB random and 64 KiB sequential when the block size is not known. */
  assumedRandomBlockKiB: fact(8, 'KiB', 'SEED_PERF', { note: 'Typical database block; used for IOPS figures when the manifest gives no block size.' }),
  assumedSequentialBlockKiB: fact(64, 'KiB', 'SEED_PERF'),
} as const;

/** Cool-access settings (API values). */
export const COOL_ACCESS_POLICIES = {
  retrieval: fact(['Default', 'OnRead', 'Never'] as const, 'policy', 'CA'),
  tiering: fact(['Auto', 'SnapshotOnly'] as const, 'policy', 'CA'),
} as const;
