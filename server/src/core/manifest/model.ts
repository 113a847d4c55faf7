import * as z from '../zod';
import { withMeta } from '../zod';
import {
  COOL_ACCESS,
  COOL_ACCESS_POLICIES,
  DEFAULT_REGION,
  COOL_ACCESS_RATE_MIBPS_PER_TIB,
  FLEXIBLE,
  POOL_LIMITS,
  REGULAR_VOLUME_IO_CEILING,
  SERVICE_LEVEL_RATE_MIBPS_PER_TIB,
  SERVICE_LEVELS,
  SIZING,
  VOLUME_THROUGHPUT_CEILING,
  VOLUME_LIMITS,
  WORKLOAD_KINDS,
  WORKLOADS,
  type ServiceLevel,
  type WorkloadKind,
} from '../facts';
import type { Span } from '../text/sourceText';
import { formatNumber, type Rate, type Size } from '../units/units';

/**
 * The sizing manifest: NetApp accounts -> capacity pools -> volumes, and what each volume must
 * deliver. Two views of one format:
 *
 * - `manifestSchema` (zod) is the source of truth for the keys, types, enums and documentation;
 *   `schemas/anf-manifest.schema.json` is generated from it for completion and hover in any
 *   editor with a YAML/JSON language server.
 * - `ManifestDocument` is what the parser builds: every value with the span of its text, so a
 *   rule underlines the one value that is wrong and a fix replaces exactly that text.
 */

// ---------------------------------------------------------------------------------------------
// Value forms. The patterns mirror units.ts's parsers (which the parser then calls); they are in
// the JSON Schema so an editor flags `4` or `4 TiBs` before anf-lint runs.

const NUMBER_PATTERN = String.raw`([0-9][0-9_,]*(\.[0-9]+)?|\.[0-9]+)`;
export const SIZE_PATTERN = String.raw`^\s*${NUMBER_PATTERN}\s*([KkMmGgTtPp][iI]?[bB]?|[bB])\s*$`;
export const RATE_PATTERN = String.raw`^\s*${NUMBER_PATTERN}\s*([kKMGTP]?)(i?)(B|b|bit|bits)?\s*(/\s*s|/\s*sec|ps)\s*$`;
export const COUNT_PATTERN = String.raw`^\s*${NUMBER_PATTERN}\s*([kKmM]?)\s*$`;
export const DURATION_PATTERN = String.raw`^\s*${NUMBER_PATTERN}\s*(ns|us|µs|ms|s|sec|seconds?|milliseconds?|microseconds?)\s*$`;

export type UnitKind = 'size' | 'rate' | 'count' | 'duration';

const UNIT_HELP: Record<UnitKind, string> = {
  size: 'a size with its unit, e.g. "4 TiB" or "500 GiB"',
  rate: 'a throughput with its unit, e.g. "640 MiB/s"',
  count: 'a number, e.g. 100000 or "100k"',
  duration: 'a duration with its unit, e.g. "1 ms" or "500 us"',
};

export function unitHelp(kind: UnitKind): string {
  return UNIT_HELP[kind];
}

function unitString(kind: Exclude<UnitKind, 'count'>, pattern: string) {
  return z
    .string({ error: `Expected ${UNIT_HELP[kind]}; a bare number has no unit and anf-lint never guesses one.` })
    .check(z.regex(new RegExp(pattern), { error: `Expected ${UNIT_HELP[kind]}.` }));
}

const size = () => unitString('size', SIZE_PATTERN);
const rate = () => unitString('rate', RATE_PATTERN);
const duration = () => unitString('duration', DURATION_PATTERN);
const count = () =>
  z.union(
    [
      z.number().check(z.nonnegative()),
      z.string().check(z.regex(new RegExp(COUNT_PATTERN), { error: `Expected ${UNIT_HELP.count}.` })),
    ],
    {
      error: `Expected ${UNIT_HELP.count}.`,
    },
  );
/** A non-empty string. */
const text = () => z.string().check(z.minLength(1));

// ---------------------------------------------------------------------------------------------
// The schema (zod/mini's functions: `z.optional(x)` is zod's `x.optional()`, `withMeta(x, ...)` its `x.meta(...)`)

export const PROTOCOLS = ['NFSv3', 'NFSv4.1', 'SMB'] as const;
export type Protocol = (typeof PROTOCOLS)[number];
export const SECURITY_FLAVORS = ['sys', 'krb5', 'krb5i', 'krb5p'] as const;
export type SecurityFlavor = (typeof SECURITY_FLAVORS)[number];
export const QOS_TYPES = ['auto', 'manual'] as const;
export const NETWORK_FEATURES = ['Standard', 'Basic'] as const;
export type NetworkFeatures = (typeof NETWORK_FEATURES)[number];

const workloadList = WORKLOAD_KINDS.map((kind) => `${kind} (${WORKLOADS[kind].title})`).join(', ');

export const requirementsSchema = withMeta(
  z.strictObject({
    capacity: withMeta(z.optional(size()), {
      title: 'Capacity needed',
      description: 'The data the volume must hold. The quota must be at least this. Binary units: 1 TiB = 1,024 GiB.',
      examples: ['3 TiB', '800 GiB'],
    }),
    throughput: withMeta(z.optional(rate()), {
      title: 'Throughput needed',
      description:
        'The throughput the workload needs from this volume. Auto QoS: quota x service-level rate must reach it; manual QoS: the assigned throughput must.',
      examples: ['640 MiB/s', '1.2 GiB/s'],
    }),
    iops: withMeta(z.optional(count()), {
      title: 'IOPS needed',
      description:
        'Operations per second needed, at `blockSize`. anf-lint turns it into throughput (IOPS x block size) and checks that too.',
      examples: [100000, '100k'], // not a fact: an example value
    }),
    blockSize: withMeta(z.optional(size()), {
      title: 'Block (transfer) size',
      description: `The typical I/O size of the workload: ${SIZING.assumedRandomBlockKiB.value} KiB for random database I/O, ${SIZING.assumedSequentialBlockKiB.value} KiB or more for sequential. Default: ${SIZING.assumedRandomBlockKiB.value} KiB for IOPS figures.`,
      examples: ['8 KiB', '64 KiB', '256 KiB'],
    }),
    latency: withMeta(z.optional(duration()), {
      title: 'Latency target',
      description:
        "Response time the workload expects. With the IOPS it gives the concurrency (outstanding I/O) the clients need, by Little's Law.",
      examples: ['1 ms', '0.5 ms'],
    }),
    readPercent: withMeta(z.optional(z.number().check(z.gte(0), z.lte(100))), {
      // not a fact: a percentage's range
      title: 'Read share of the I/O (percent)',
      description: `The share of operations that are reads, 0-100 (70 for a 70/30 read/write mix). The most IOPS a regular volume delivers depends on it: Microsoft's performance calculator measured about ${formatNumber(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value.at(-1)!)} 8 KiB random reads but ${formatNumber(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value[0]!)} random writes per second. Without it, anf-lint checks IOPS against the read-only (best) case.`,
      examples: [70, 100], // not a fact: example values
    }),
    clients: withMeta(z.optional(count()), {
      title: 'Clients',
      description:
        'How many client VMs mount the volume. Used for per-client concurrency and by the mount and kernel rules.',
      examples: [64, '1.2k'], // not a fact: an example value
    }),
  }),
  {
    title: 'Requirements',
    description:
      'What the volume must deliver. anf-lint checks that the configuration meets it, and says what it costs.',
  },
);

export const volumeCoolAccessSchema = withMeta(
  z.strictObject({
    enabled: withMeta(z._default(z.boolean(), true), {
      title: 'Enabled',
      description: 'Cool access on this volume. Default: true when the block is present.',
    }),
    coolnessPeriod: withMeta(
      z._default(
        z.int().check(z.gte(COOL_ACCESS.coolnessPeriodMinDays.value), z.lte(COOL_ACCESS.coolnessPeriodMaxDays.value)),
        COOL_ACCESS.coolnessPeriodDefaultDays.value,
      ),
      {
        description: `Days without access before data moves to the cool tier (${COOL_ACCESS.coolnessPeriodMinDays.value}-${COOL_ACCESS.coolnessPeriodMaxDays.value}).`,
      },
    ),
    retrievalPolicy: withMeta(z._default(z.enum(COOL_ACCESS_POLICIES.retrieval.value), 'Default'), {
      description:
        'Default: random reads bring data back to the hot tier, sequential reads are served from cool. OnRead: every read brings it back. Never: reads are served from cool.',
    }),
    tieringPolicy: withMeta(z._default(z.enum(COOL_ACCESS_POLICIES.tiering.value), 'Auto'), {
      description: 'Auto: any cold block moves. SnapshotOnly: only blocks held by snapshots move.',
    }),
  }),
  {
    title: 'Cool access settings',
    description:
      'Cool access moves blocks not read for `coolnessPeriod` days to a cheaper cool tier; reads from it are slower.',
  },
);

export const volumeSchema = withMeta(
  z.strictObject({
    name: withMeta(text(), {
      title: 'Volume name',
      description: 'Unique within its capacity pool.',
      examples: ['eda-tools'],
    }),
    quota: withMeta(size(), {
      title: 'Quota (volume size)',
      description: `Provisioned size. Regular volumes: ${VOLUME_LIMITS.regularMinGiB.value} GiB to ${VOLUME_LIMITS.regularMaxGiB.value / 1024} TiB; large volumes ${VOLUME_LIMITS.largeMinGiB.value / 1024} TiB to ${VOLUME_LIMITS.largeMaxGiB.value / 1024} TiB (${VOLUME_LIMITS.largeOnRequestMaxGiB.value / 1024} TiB on request). With auto QoS the throughput limit is quota x service-level rate. Whole GiB.`,
      examples: ['4 TiB', '500 GiB'],
    }),
    largeVolume: withMeta(z._default(z.boolean(), false), {
      title: 'Large volume',
      description: `A large volume (above ${VOLUME_LIMITS.regularMaxGiB.value / 1024} TiB, or more than the ${VOLUME_THROUGHPUT_CEILING.regularMiBps.value} MiB/s a regular volume gives; up to ${VOLUME_THROUGHPUT_CEILING.largeMiBps.value} MiB/s). Cannot be converted from a regular volume later. Not for database (SAP HANA, Oracle, SQL Server) data and log volumes.`,
    }),
    breakthroughMode: withMeta(z._default(z.boolean(), false), {
      title: 'Breakthrough mode (preview)',
      description: `A large volume in breakthrough mode (preview): ${VOLUME_LIMITS.breakthroughMinGiB.value} GiB to ${VOLUME_LIMITS.breakthroughMaxGiB.value / 1024} TiB, no predefined throughput limit (Microsoft says up to about ${VOLUME_THROUGHPUT_CEILING.breakthroughUpToMiBps.value / 1024} GiB/s, depending on the workload). Needs onboarding and a region where it is configured.`,
    }),
    protocols: withMeta(z._default(z.array(z.enum(PROTOCOLS)).check(z.minLength(1)), ['NFSv3']), {
      title: 'Protocols',
      description:
        'NFSv3, NFSv4.1, SMB (dual-protocol: one NFS version and SMB). SAP HANA data/log need NFSv4.1; EDA tools run best on NFSv3.',
      examples: [['NFSv3'], ['NFSv4.1']],
    }),
    security: withMeta(z._default(z.enum(SECURITY_FLAVORS), 'sys'), {
      title: 'NFS security',
      description: 'sys (AUTH_SYS) or Kerberos: krb5, krb5i (integrity), krb5p (privacy). Kerberos needs NFSv4.1.',
    }),
    throughput: withMeta(z.optional(rate()), {
      title: 'Assigned throughput (manual QoS)',
      description:
        'Manual QoS and Flexible pools only: the throughput assigned to this volume, drawn from the pool budget. Ignored with auto QoS.',
      examples: ['704 MiB/s'],
    }),
    coolAccess: withMeta(z.optional(z.union([z.boolean(), volumeCoolAccessSchema])), {
      title: 'Cool access',
      description: `true, or settings. The pool must allow cool access. Premium and Ultra volumes get a lower throughput rate once it is on (${COOL_ACCESS_RATE_MIBPS_PER_TIB.Premium.value} and ${COOL_ACCESS_RATE_MIBPS_PER_TIB.Ultra.value} MiB/s per TiB).`,
      examples: [true, { enabled: true, coolnessPeriod: COOL_ACCESS.coolnessPeriodDefaultDays.value }],
    }),
    workload: withMeta(z.optional(z.enum(WORKLOAD_KINDS)), {
      title: 'Workload',
      description: `What runs on the volume; rules use it for protocol, cool access and mount advice. One of: ${workloadList}.`,
    }),
    exportPath: withMeta(z.optional(text()), {
      title: 'Export path',
      description:
        'The file path (creation token) clients mount, as it appears after the mount target: 10.10.1.4:/eda-tools.',
      examples: ['/eda-tools'],
    }),
    mountTarget: withMeta(z.optional(text()), {
      title: 'Mount target',
      description:
        "The IP address (or DNS name) of the volume's mount target; mounts in fstab and scripts are matched to the volume by it and the export path.",
      examples: ['10.10.1.4'],
    }),
    mountPath: withMeta(z.optional(text()), {
      title: 'Client mount path',
      description: 'Where clients mount the volume, e.g. /tools.',
      examples: ['/tools'],
    }),
    networkFeatures: withMeta(z.optional(z.enum(NETWORK_FEATURES)), {
      title: 'Network features',
      description: `Of this volume (a property of each volume in Azure NetApp Files). Default: the pool's \`networkFeatures\`, else Standard. Pools below ${POOL_LIMITS.minTiBWithBasicNetworkFeatures.value} TiB need Standard network features on every volume.`,
    }),
    requirements: z.optional(requirementsSchema),
  }),
  { title: 'Volume', description: 'A volume: what clients mount. `name` and `quota` are required.' },
);

export const poolSchema = withMeta(
  z.strictObject({
    name: withMeta(text(), {
      title: 'Capacity pool name',
      description: 'Unique within its NetApp account.',
      examples: ['eda-premium'],
    }),
    serviceLevel: withMeta(z.enum(SERVICE_LEVELS), {
      title: 'Service level',
      description: `Standard (${SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Standard.value} MiB/s per TiB), Premium (${SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Premium.value}), Ultra (${SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Ultra.value}) or Flexible (throughput set on the pool, ${FLEXIBLE.baselineThroughputMiBps.value} MiB/s included).`,
    }),
    size: withMeta(size(), {
      title: 'Pool size',
      description: `Provisioned (and billed) size, whole TiB, ${POOL_LIMITS.minTiB.value} to ${POOL_LIMITS.maxTiB.value} TiB (${POOL_LIMITS.minTiBWithBasicNetworkFeatures.value} TiB minimum with Basic network features). The volume quotas must fit in it.`,
      examples: ['4 TiB', '10 TiB'],
      default: `${POOL_LIMITS.defaultSizeTiB.value} TiB`,
    }),
    qos: withMeta(z._default(z.enum(QOS_TYPES), 'auto'), {
      title: 'QoS type',
      description:
        'auto: each volume gets quota x rate. manual: you assign throughput per volume from the pool budget (size x rate); Flexible pools are always manual. auto -> manual cannot be undone.',
    }),
    throughput: withMeta(z.optional(rate()), {
      title: 'Pool throughput (Flexible)',
      description: `Flexible pools only: the pool's throughput, at least ${FLEXIBLE.baselineThroughputMiBps.value} MiB/s (included) and at most ${FLEXIBLE.maxThroughputMiBpsPerTiB.value} MiB/s per TiB of pool.`,
      examples: ['512 MiB/s'],
    }),
    coolAccess: withMeta(z._default(z.boolean(), false), {
      title: 'Cool access allowed',
      description: 'Lets volumes in this pool use cool access. Cannot be turned off once on.',
    }),
    networkFeatures: withMeta(z._default(z.enum(NETWORK_FEATURES), 'Standard'), {
      title: 'Network features',
      description: `The default for the pool's volumes (each volume may set its own \`networkFeatures\`). Pools below ${POOL_LIMITS.minTiBWithBasicNetworkFeatures.value} TiB need Standard network features on every volume.`,
    }),
    volumes: withMeta(z._default(z.array(volumeSchema), []), {
      title: 'Volumes',
      description: 'The volumes carved out of this pool. Their quotas must fit in the pool size.',
    }),
  }),
  { title: 'Capacity pool', description: 'A capacity pool: `name`, `serviceLevel` and `size` are required.' },
);

export const accountSchema = withMeta(
  z.strictObject({
    name: withMeta(text(), {
      title: 'NetApp account name',
      description:
        'The NetApp account: an administrative grouping of capacity pools in one region. Unique in the manifest.',
      examples: ['eda-prod'],
    }),
    pools: withMeta(z._default(z.array(poolSchema), []), {
      title: 'Capacity pools',
      description:
        'The capacity pools of this account: each has one service level and a provisioned (billed) size that its volumes share.',
    }),
  }),
  { title: 'NetApp account', description: 'A NetApp account with its capacity pools.' },
);

export const pricesSchema = withMeta(
  z.strictObject({
    capacityPerGiBHour: withMeta(
      z.optional(
        z.strictObject(
          Object.fromEntries(
            SERVICE_LEVELS.map((level) => [
              level,
              withMeta(z.optional(z.number().check(z.positive())), {
                description: `${level} capacity, USD per GiB-hour.`,
              }),
            ]),
          ) as Record<ServiceLevel, z.ZodMiniOptional<z.ZodMiniNumber>>,
        ),
      ),
      { description: 'Capacity price in USD per GiB-hour, by service level.' },
    ),
    flexibleThroughputPerMiBpsHour: withMeta(z.optional(z.number().check(z.positive())), {
      description: 'Flexible throughput above the baseline, USD per MiB/s-hour.',
    }),
  }),
  { title: 'Price overrides', description: 'Negotiated prices instead of the list prices of the region.' },
);

export const manifestSchema = withMeta(
  z.strictObject({
    $schema: withMeta(z.optional(z.string()), { description: 'JSON Schema of this file, for editors.' }),
    region: withMeta(z.optional(text()), {
      title: 'Azure region',
      description: `For list prices. Default: ${DEFAULT_REGION.value}.`,
      examples: ['eastus', 'westeurope'],
    }),
    prices: z.optional(pricesSchema),
    accounts: withMeta(z.array(accountSchema), {
      title: 'NetApp accounts',
      description: 'The estate: NetApp accounts -> capacity pools -> volumes.',
    }),
  }),
  {
    title: 'anf-lint sizing manifest',
    description:
      'Azure NetApp Files estate (accounts -> capacity pools -> volumes) and what each volume must deliver. Sizes and rates carry units: "4 TiB", "640 MiB/s".',
  },
);

export type ManifestInput = z.input<typeof manifestSchema>;

// ---------------------------------------------------------------------------------------------
// The positioned model

/** A value with where it is written. `span` covers the value's text (for an alias: the alias). */
export interface Located<T> {
  readonly value: T;
  readonly span: Span;
  /** The key in front of it (for list items: the item itself). */
  readonly keySpan: Span;
  /** The source text of the value, quotes included. */
  readonly raw: string;
  /**
   * Where a fix may write a new value: the scalar's text without its quotes. Undefined when the
   * value comes through an alias or merge key, or is a block scalar: editing it would change
   * other places, so rules offer no fix.
   */
  readonly editSpan?: Span;
  /**
   * Infrastructure code: turns a value written the manifest's way (`5 TiB`, `640 MiB/s`) into the
   * source's own units and syntax (`5` for `size_in_tb`, `5497558138880` for an ARM `size`), or
   * undefined when it cannot be written there.
   */
  readonly rewrite?: (manifestText: string) => string | undefined;
}

export interface ManifestRequirements {
  readonly span: Span;
  readonly capacity?: Located<Size>;
  readonly throughput?: Located<Rate>;
  readonly iops?: Located<number>;
  readonly blockSize?: Located<Size>;
  /** Seconds. */
  readonly latency?: Located<number>;
  readonly clients?: Located<number>;
  /** Percent of operations that are reads (0-100). */
  readonly readPercent?: Located<number>;
}

export interface ManifestCoolAccess {
  /** The `coolAccess` value (a boolean, or the settings block). */
  readonly node: Located<unknown>;
  readonly enabled: boolean;
  /** The `enabled` value when written in the block, or the boolean itself. */
  readonly enabledValue?: Located<boolean>;
  readonly coolnessPeriodDays: number;
  readonly retrievalPolicy: string;
  readonly tieringPolicy: string;
}

export interface ManifestVolume {
  /** The volume's list item. */
  readonly span: Span;
  /** The item's first line: where "missing key" and whole-volume findings go when there is no name. */
  readonly headSpan: Span;
  readonly path: readonly (string | number)[];
  readonly name?: Located<string>;
  readonly quota?: Located<Size>;
  readonly largeVolume?: Located<boolean>;
  readonly breakthroughMode?: Located<boolean>;
  readonly protocols: readonly Located<Protocol>[];
  readonly protocolsNode?: Located<unknown>;
  readonly security?: Located<SecurityFlavor>;
  readonly throughput?: Located<Rate>;
  readonly coolAccess?: ManifestCoolAccess;
  readonly workload?: Located<WorkloadKind>;
  readonly exportPath?: Located<string>;
  readonly mountTarget?: Located<string>;
  readonly mountPath?: Located<string>;
  /** The volume's own network features; `volumeNetworkFeatures` applies the pool's default. */
  readonly networkFeatures?: Located<NetworkFeatures>;
  readonly requirements?: ManifestRequirements;
  /** Infrastructure code: values whose expression could not be evaluated (`quota`, `throughput`, ...). */
  readonly unknown?: readonly string[];
  /** Infrastructure code: the resource has `count`/`for_each` (or a Bicep loop): how many is unknown. */
  readonly repeated?: boolean;
  /** Infrastructure code: the application volume group that declares the volume (its symbol). */
  readonly applicationVolumeGroup?: string;
}

export interface ManifestPool {
  readonly span: Span;
  readonly headSpan: Span;
  readonly path: readonly (string | number)[];
  readonly name?: Located<string>;
  readonly serviceLevel?: Located<ServiceLevel>;
  readonly size?: Located<Size>;
  readonly qos?: Located<'auto' | 'manual'>;
  readonly throughput?: Located<Rate>;
  readonly coolAccess?: Located<boolean>;
  readonly networkFeatures?: Located<NetworkFeatures>;
  readonly volumes: readonly ManifestVolume[];
  readonly volumesKeySpan?: Span;
  /** Infrastructure code: values that could not be evaluated (`size`, ...). */
  readonly unknown?: readonly string[];
  /** Infrastructure code: repeated resource (`count`/`for_each`). */
  readonly repeated?: boolean;
  /**
   * Terraform module: volumes of this pool written in other files of the module. They count in the
   * pool's totals (allocation, assigned throughput); their own findings belong to their own file.
   */
  readonly elsewhere?: readonly { readonly uri: string; readonly volume: ManifestVolume }[];
}

export interface ManifestAccount {
  readonly span: Span;
  readonly headSpan: Span;
  readonly path: readonly (string | number)[];
  readonly name?: Located<string>;
  readonly pools: readonly ManifestPool[];
  readonly poolsKeySpan?: Span;
}

export interface ManifestPriceOverrides {
  readonly capacityPerGiBHour?: Partial<Record<ServiceLevel, number>>;
  readonly flexibleThroughputPerMiBpsHour?: number;
}

/** A parsed sizing manifest. Values that were missing or invalid are absent (the parser reported them). */
export interface ManifestDocument {
  /** `iac`: read from Terraform, Bicep, an ARM template or `az netappfiles` output (iac/). */
  readonly format: 'yaml' | 'json' | 'iac';
  /** The text had YAML/JSON syntax errors (the model is what could be read around them). */
  readonly syntaxErrors: boolean;
  readonly region?: Located<string>;
  readonly prices?: ManifestPriceOverrides;
  readonly accounts: readonly ManifestAccount[];
}

/**
 * Whether every volume quota and assignment of a pool is known (infrastructure code can leave them
 * open), so that its totals are. A volume's name, protocols or export path left unknown (a module
 * whose name prefix only its callers pass, read alone) take nothing from the totals.
 */
export function poolFullyKnown(pool: ManifestPool): boolean {
  return (
    !pool.repeated &&
    poolMemberVolumes(pool).every((v) => !v.repeated && !v.unknown?.some((field) => TOTALS_FIELDS.has(field)))
  );
}

/** The volume fields a pool's totals and their limits read (`ManifestVolume.unknown` names them). */
const TOTALS_FIELDS: ReadonlySet<string> = new Set(['quota', 'throughput', 'serviceLevel', 'largeVolume']);

/** Every volume a pool's totals count: its own, and those written in other files of its Terraform module. */
export function poolMemberVolumes(pool: ManifestPool): readonly ManifestVolume[] {
  return pool.elsewhere && pool.elsewhere.length > 0
    ? [...pool.volumes, ...pool.elsewhere.map((e) => e.volume)]
    : pool.volumes;
}

/** Pool settings with their defaults applied. */
export function poolQos(pool: ManifestPool): 'auto' | 'manual' {
  return pool.qos?.value ?? (pool.serviceLevel?.value === 'Flexible' ? 'manual' : 'auto');
}

/** The pool's default network features (for volumes that do not set their own). */
export function poolNetworkFeatures(pool: ManifestPool): NetworkFeatures {
  return pool.networkFeatures?.value ?? 'Standard';
}

/** A volume's network features: its own, else its pool's, else Standard (RL: a property of each volume). */
export function volumeNetworkFeatures(pool: ManifestPool, volume: ManifestVolume): NetworkFeatures {
  return volume.networkFeatures?.value ?? poolNetworkFeatures(pool);
}

/** Where a volume's network features are written: its own value, else the pool's (undefined when neither is). */
export function volumeNetworkFeaturesValue(
  pool: ManifestPool,
  volume: ManifestVolume,
): Located<NetworkFeatures> | undefined {
  return volume.networkFeatures ?? pool.networkFeatures;
}

/** Whether any volume of the pool uses Basic network features (then the pool must be at least 4 TiB). */
export function poolHasBasicNetworkFeatures(pool: ManifestPool): boolean {
  // Once per pool: ANF116 asks for every volume, and a scan of the pool's volumes each time was quadratic.
  let basic = BASIC_POOLS.get(pool);
  if (basic === undefined) {
    const members = poolMemberVolumes(pool);
    basic =
      members.length > 0
        ? members.some((v) => volumeNetworkFeatures(pool, v) === 'Basic')
        : poolNetworkFeatures(pool) === 'Basic';
    BASIC_POOLS.set(pool, basic);
  }
  return basic;
}
const BASIC_POOLS = new WeakMap<ManifestPool, boolean>();

/** Whether a volume is a large volume (breakthrough mode volumes are large volumes). */
export function volumeIsLarge(volume: ManifestVolume): boolean {
  return (volume.largeVolume?.value ?? false) || (volume.breakthroughMode?.value ?? false);
}

export function volumeProtocols(volume: ManifestVolume): readonly Protocol[] {
  return volume.protocolsNode ? volume.protocols.map((p) => p.value) : ['NFSv3'];
}

export function volumeSecurity(volume: ManifestVolume): SecurityFlavor {
  return volume.security?.value ?? 'sys';
}

/**
 * Where an account, pool or volume read from a template or script is declared (`IacResource.address`:
 * `azurerm_netapp_volume.data[1]`, Bicep `volumes[2]`), set by the reader that made it (iac/estate.ts):
 * shown in place of a name that is unknown, never "?" when the place is known.
 */
const declaredAddresses = new WeakMap<object, string>();

export function noteDeclaredAddress(made: object, address: string | undefined): void {
  if (address) declaredAddresses.set(made, address);
}

/** The name of an account, pool or volume, else where it is declared, else `?`. */
export function nameOrAddress(made: { readonly name?: Located<string> } | undefined): string {
  return made?.name?.value ?? (made ? declaredAddresses.get(made) : undefined) ?? '?';
}

/** A name for messages: `eda-prod/tools-pool/tools`, with placeholders for missing names. */
export function displayName(...parts: (Located<string> | undefined)[]): string {
  return parts.map((p) => p?.value ?? '?').join('/');
}
