import { fact, facts } from './fact';

/**
 * Linux NFS client facts: defaults and maxima from nfs(5) and the kernel, ANF's recommendations
 * for them, and the measured effects the seeds report. The mount-option catalog reads its numbers here.
 */

export const NFS_TRANSFER_SIZE = {
  /** ANF's recommendation for rsize and wsize: an upper bound, which every example on the page uses for both. */
  recommendedBytes: fact(262144, 'bytes', 'MO', {
    note: '256 KiB: "setting both rsize and wsize no larger than 262,144 Bytes (256 K)". The page sets no rule on rsize equalling wsize.',
  }),
  /** Largest value the kernel accepts; larger values are clamped. ANF's own maximum transfer size is the same. */
  maxBytes: fact(1048576, 'bytes', 'NFS5', {
    note: 'Values above 1 MiB are replaced with 1 MiB; ANF offers 1 MiB when none is given.',
  }),
  /** nfs(5): the smallest value (values below 1024 become 4096); rsize and wsize are positive multiples of 1024. */
  ...facts('bytes', 'NFS5', { minBytes: 4096, multipleOfBytes: 1024 }),
  /**
   * At or below this, anf-lint calls a transfer size small: a quarter of ANF's recommended 256 KiB.
   * No vendor document gives this number; it is anf-lint's own threshold.
   */
  smallWarningBytes: fact(65536, 'bytes', 'ANFLINT', {
    note: "A quarter of ANF's recommended 256 KiB. Writing 1 GiB takes 16,384 WRITEs at 64 KiB and 4,096 at 256 KiB.",
  }),
  oracleMinBytes: fact(32768, 'bytes', 'ORAKNFS', { note: "Oracle's kNFS mount options: rsize=32768,wsize=32768." }),
} as const;

export const NCONNECT = {
  max: fact(16, 'connections', 'NFS5'),
  bestTested: fact(8, 'connections', 'MO', { note: '"Testing has found nconnect=8 to be the most performant."' }),
  minKernel: fact('5.3', 'kernel version', 'MO'),
  sasGridHoursWithout: fact(8, 'hours', 'MO', { note: 'SAS GRID run without nconnect.' }),
  sasGridHoursWith: fact(5.5, 'hours', 'MO', { note: 'Same run with nconnect=8: 30% shorter.' }),
} as const;

/** Option limits and defaults from nfs(5) that the mount-option catalog reads. */
export const NFS_OPTION_LIMITS = {
  /** `minorversion=` takes 0, 1 or 2 (NFSv4.0, 4.1, 4.2). */
  minorVersionMax: fact(2, 'minor version', 'NFS5'),
  /** `port=`, `mountport=`: a TCP/UDP port number. */
  portMax: fact(65535, 'port', 'NFS5'),
  /** `max_connect=`: NFSv4.1+ session trunking across server addresses, like nconnect capped at 16. */
  maxConnectMax: fact(16, 'connections', 'NFS5'),
  /** `retry=`: minutes mount keeps trying; 2 for foreground mounts... */
  retryForegroundMinutes: fact(2, 'minutes', 'NFS5'),
  /** ...and 10000 for `bg` mounts. */
  retryBackgroundMinutes: fact(10000, 'minutes', 'NFS5'),
  /** `namlen=`: longest file name; 255 on most servers. */
  namlenDefault: fact(255, 'characters', 'NFS5'),
  /** Without `vers=` the client asks for NFSv4.2 first and negotiates down. */
  firstTriedVersion: fact('4.2', 'NFS version', 'NFS5'),
} as const;

export const NFS_TIMEOUTS = {
  /** nfs(5): for TCP the default timeo is 600 deciseconds (60 s). */
  tcpTimeoDeciseconds: fact(600, 'deciseconds', 'NFS5'),
  /** nfs(5): TCP requests are tried twice by default... */
  tcpRetransDefault: fact(2, 'retries', 'NFS5'),
  /** ...and UDP three times. */
  udpRetransDefault: fact(3, 'retries', 'NFS5'),
  /** Below this a hard mount retries too eagerly on a busy server. */
  /** nfs(5): UDP's default timeo is 60 deciseconds (6 s)... */
  udpTimeoDeciseconds: fact(60, 'deciseconds', 'NFS5'),
  /** nfs(5): after each retransmission the timeout grows by timeo, up to 600 seconds. */
  maxBackoffSeconds: fact(600, 's', 'NFS5'),
  tcpTimeoMinSensibleDeciseconds: fact(150, 'deciseconds', 'NFS5', {
    note: 'timeo below 15 s on TCP retransmits before a loaded server can answer.',
  }),
} as const;

export const ATTRIBUTE_CACHE = {
  ...facts('s', 'NFS5', { acregminSeconds: 3, acregmaxSeconds: 60, acdirminSeconds: 30, acdirmaxSeconds: 60 }),
  edaToolsActimeoSeconds: fact(600, 's', 'MO', {
    note: 'For EDA tools and libraries; 10 for small web hosting, 60 for large web farms.',
  }),
  /** Seed 000: effect of actimeo=600 + nocto on an EDA tools volume. */
  ...facts('IOPS', 'SEED_COURSE', { edaToolsIopsBefore: 150000, edaToolsIopsAfter: 6000 }),
  ...facts('ms', 'SEED_COURSE', {
    edaLatencyDefaultMs: 2.08,
    edaLatencyActimeoMs: 1.05,
    edaLatencyActimeoNoctoMs: 0.7,
  }),
} as const;

/** Seed 001: one 1 GiB file written in 8 KiB blocks. */
export const SYNC_WRITE_COST = {
  syncWrites: fact(262144, 'WRITE calls', 'SEED_MOUNT'),
  syncSeconds: fact(70, 's', 'SEED_MOUNT'),
  asyncWrites: fact(16384, 'WRITE calls', 'SEED_MOUNT'),
  asyncSeconds: fact(6, 's', 'SEED_MOUNT'),
} as const;

export const NFS_PROTOCOL = {
  supportedVersions: fact(['3', '4.1'] as readonly string[], 'NFS versions', 'FAQN', {
    note: 'ANF serves NFSv3 and NFSv4.1; not 4.0 or 4.2.',
  }),
  edaNfs41OverheadMinPercent: fact(25, '%', 'SEED_MOUNT', {
    note: 'The Microsoft Learn module on ANF performance for EDA and HPC: NFSv4.1 performance can suffer 25% to 75% on EDA; no other stored source confirms the range.',
  }),
  edaNfs41OverheadMaxPercent: fact(75, '%', 'SEED_MOUNT'),
  intrIgnoredSinceKernel: fact('2.6.25', 'kernel version', 'NFS5'),
  nfs41LeaseSeconds: fact(30, 's', 'FAQN'),
} as const;

/** Slot tables and in-flight requests (CS, KSRC). */
export const SLOTS = {
  anfInFlightPerConnection: fact(128, 'requests', 'CS', {
    note: 'ANF queues requests beyond 128 in flight per TCP connection.',
  }),
  anfNfs41SessionSlots: fact(180, 'slots', 'CS'),
  clientMaxSessionSlotsDefault: fact(64, 'slots', 'KSRC', { note: 'Linux nfs module parameter max_session_slots.' }),
  tcpSlotTableEntriesDefault: fact(2, 'slots', 'KSRC', { note: 'Initial value; grows dynamically.' }),
  ...facts('slots', 'KSRC', {
    tcpMaxSlotTableEntriesDefault: 65536,
    slotTableEntriesMin: 2,
    slotTableEntriesMax: 65536,
    udpSlotTableEntriesDefault: 16,
  }),
  endpointTotalMax: fact(10000, 'slots', 'CS', {
    note: 'Keep the storage-endpoint-wide total of in-flight slots at or below 10,000.',
    formerly: [
      { value: 3000, source: 'CS', note: 'An older revision said "not surpassing 3,000 slots environment wide".' },
    ],
  }),
} as const;

/**
 * Seed 001's table: recommended maximum `sunrpc.tcp_max_slot_table_entries` by nconnect value.
 * `upToNconnect` is inclusive; `null` means "no change needed" (nconnect above 8).
 */
export const SLOT_TABLE_BY_NCONNECT = fact(
  [
    { upToNconnect: 1, maxSlotTableEntries: 128 as number | null },
    { upToNconnect: 4, maxSlotTableEntries: 256 as number | null },
    { upToNconnect: 8, maxSlotTableEntries: 512 as number | null },
    { upToNconnect: 16, maxSlotTableEntries: null as number | null },
  ] as const,
  'slots by nconnect',
  'SEED_MOUNT',
  {
    note: 'The Microsoft Learn module on ANF performance for EDA and HPC (which misspells the key as sunrpc.tpc_max_slot_table_entries); no other source confirms it, and the concurrency article (CS) says "128 or less per connection": rule texts cite CS, the table only sorts ANF316 from ANF317.',
  },
);

/** Kerberos cost at high concurrency compared with sec=sys (KRB). */
export const KERBEROS_COST_PERCENT = {
  krb5: { sequential: fact(0, '%', 'KRB'), randomRead: fact(30, '%', 'KRB'), metadata: fact(30, '%', 'KRB') },
  krb5i: { sequential: fact(70, '%', 'KRB'), randomRead: fact(50, '%', 'KRB'), metadata: fact(30, '%', 'KRB') },
  krb5p: { sequential: fact(85, '%', 'KRB'), randomRead: fact(65, '%', 'KRB'), metadata: fact(30, '%', 'KRB') },
} as const;
