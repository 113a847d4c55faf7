import { fact, facts } from './fact';

/**
 * Kernel and network facts for sysctl, modprobe and bandwidth-delay rules.
 * The sysctl key catalog reads its numbers here.
 */

export const NETWORK_LATENCY = {
  vnetRttMs: fact(0.5, 'ms', 'SEED_PERF', { note: 'Typical round trip from a VM to ANF inside a VNet.' }),
  expressRouteRttMs: fact(2, 'ms', 'SEED_ER', { note: '"ExpressRoute is low latency (<2ms in our case)".' }),
  ...facts('µs', 'SEED_ER', { lanRttMinUs: 50, lanRttMaxUs: 200 }),
} as const;

export const TCP_WINDOW = {
  /** Without window scaling the window field is 16 bits. */
  unscaledMaxBytes: fact(65535, 'bytes', 'KDOC', {
    note: 'tcp_window_scaling=0 caps every connection at 64 KiB in flight.',
  }),
  /** Seed 003: ONTAP's default iSCSI window, which caps one stream near 64 MB/s at 2 ms. */
  ...facts('bytes', 'SEED_ER', { ontapDefaultBytes: 131400, ontapMaxBytes: 262800 }),
} as const;

/**
 * When keys were removed or stopped doing anything, checked against the kernel source: a key still in
 * a sysctl table (net/ipv4/sysctl_net_ipv4.c) is accepted and ignored; a key taken out of it fails.
 */
export const KERNEL_KEY_HISTORY = {
  /**
   * Commit 713bafea9292 "tcp: retire FACK loss detection" (4.15) removed FACK but kept the sysctl:
   * `tcp_fack` is still in ipv4_net_table, and ip-sysctl.rst says "a legacy option, it has no effect anymore".
   */
  tcpFackNoOp: fact('4.15', 'kernel version', 'KSYSCTL_IPV4', {
    note: 'Still registered and accepted; ignored since FACK was retired.',
  }),
  /** Commit 4396e46187ca "tcp: remove tcp_tw_recycle" (4.12) took the entry out of the table: writing it fails. */
  tcpTwRecycleRemoved: fact('4.12', 'kernel version', 'KSYSCTL_IPV4'),
  /** Prequeue removal (4.14) kept `tcp_low_latency` in ipv4_table; ip-sysctl.rst: "a legacy option, it has no effect anymore". */
  tcpLowLatencyNoOp: fact('4.14', 'kernel version', 'KSYSCTL_IPV4'),
} as const;

/**
 * `net.ipv4.tcp_mem` counts pages, not bytes (ip-sysctl.rst: "vector of 3 INTEGERs: min, pressure, max",
 * "in pages"). The page size of x86_64 and most arm64 kernels.
 */
export const KERNEL_PAGE = {
  sizeBytes: fact(4096, 'bytes', 'KDOC', {
    note: 'x86_64 and most arm64 kernels; arm64 kernels built with 64 KiB pages use 65,536.',
  }),
} as const;

/**
 * anf-lint's own thresholds for kernel settings that no vendor gives a number for. Rule pages say so.
 */
export const KERNEL_JUDGEMENT = {
  /**
   * A `tcp_mem` written in bytes: every field a whole number of MiB, and the high field at least this
   * many (as pages, 16 MiB would be 64 GiB of TCP buffers). Page counts are rarely round MiB numbers.
   */
  tcpMemBytesLikeHighMin: fact(16777216, 'bytes', 'KDOC', {
    note: "anf-lint's heuristic, not a kernel or vendor number.",
  }),
  /** One MiB: the unit that byte-minded values are round in. */
  mebibyte: fact(1048576, 'bytes', 'KDOC'),
  /**
   * `net.core.rmem_default`/`wmem_default` from this size on: every socket that does not size its own buffer
   * may queue this much. The ANF client guidance uses 1 MiB; anf-lint judges 16 MiB and more to be a mistake.
   */
  socketDefaultBufferMax: fact(16777216, 'bytes', 'SEED_MOUNT', {
    note: "anf-lint's threshold: 16 times the 1 MiB the guidance uses.",
  }),
} as const;

/** Values the ANF and SAP guidance recommends for an NFS client (seed 001, EDA, HANA). */
export const RECOMMENDED_SYSCTL = {
  ...facts('bytes', 'SEED_MOUNT', {
    coreRmemMaxBytes: 16777216,
    coreWmemMaxBytes: 16777216,
    coreRmemDefaultBytes: 1048576,
    coreWmemDefaultBytes: 1048576,
  }),
  ...facts('bytes (min default max)', 'SEED_MOUNT', {
    tcpRmem: [1048576, 8388608, 16777216] as readonly number[],
    tcpWmem: [1048576, 8388608, 16777216] as readonly number[],
  }),
  ...facts('bytes (min default max)', 'HANA', {
    hanaTcpRmem: [4096, 131072, 16777216] as readonly number[],
    hanaTcpWmem: [4096, 16384, 16777216] as readonly number[],
  }),
  netdevMaxBacklog: fact(300000, 'packets', 'SEED_MOUNT'),
  somaxconn: fact(65535, 'connections', 'SEED_MOUNT'),
  optmemMaxBytes: fact(2048000, 'bytes', 'SEED_MOUNT', {
    formerly: [{ value: 4194304, source: 'EDA', note: 'The EDA benchmark used 4 MiB.' }],
  }),
  sunrpcTcpSlotTableEntries: fact(128, 'slots', 'HANA'),
  sunrpcTcpMaxSlotTableEntries: fact(128, 'slots', 'CS'),
  nfsMaxSessionSlots: fact(180, 'slots', 'CS'),
  vmSwappiness: fact(10, '', 'HANA'),
} as const;

/**
 * Kernel defaults of the sysctl keys in the catalog (sysctl/catalog.ts), from ip-sysctl.rst and
 * vm.rst. Defaults that the kernel computes at boot from memory size are typical values, noted so.
 */
export const SYSCTL_DEFAULTS = {
  coreRmemMaxBytes: fact(212992, 'bytes', 'KDOC', { note: 'Typical x86_64 value (208 KiB); computed at boot.' }),
  coreWmemMaxBytes: fact(212992, 'bytes', 'KDOC', { note: 'Typical x86_64 value (208 KiB); computed at boot.' }),
  ...facts('bytes', 'KDOC', { coreRmemDefaultBytes: 212992, coreWmemDefaultBytes: 212992 }),
  /** net/core/sock.c; net.rst says "Default : 128 KB" since the same commit. */
  coreOptmemMaxBytes: fact(131072, 'bytes', 'KOPTMEM', {
    note: 'Kernel 6.8 and later; 20480 on 64-bit kernels before 6.8. Distribution kernels may differ: check `sysctl net.core.optmem_max`',
    formerly: [
      {
        value: 20480,
        source: 'KOPTMEM',
        note: 'Before kernel 6.8 on 64-bit kernels: sizeof(unsigned long) × (2 × UIO_MAXIOV + 512) = 8 × 2560 (10,240 on 32-bit).',
      },
    ],
  }),
  somaxconn: fact(4096, 'connections', 'KDOC', {
    formerly: [{ value: 128, source: 'KDOC', note: 'Before kernel 5.4.' }],
  }),
  netdevMaxBacklog: fact(1000, 'packets', 'KDOC'),
  tcpRmem: fact([4096, 131072, 6291456] as readonly number[], 'bytes (min default max)', 'KDOC', {
    formerly: [
      {
        value: [4096, 87380, 6291456] as readonly number[],
        source: 'KDOC',
        note: 'Older kernels started receive buffers at 87,380 bytes.',
      },
    ],
  }),
  tcpWmem: fact([4096, 16384, 4194304] as readonly number[], 'bytes (min default max)', 'KDOC'),
  tcpFinTimeoutSeconds: fact(60, 's', 'KDOC'),
  tcpMaxSynBacklog: fact(1024, 'connections', 'KDOC', { note: 'Raised at boot on machines with more memory.' }),
  ipLocalPortRange: fact([32768, 60999] as readonly number[], 'ports (low high)', 'KDOC'),
  tcpCongestionControl: fact('cubic', 'algorithm', 'KDOC'),
  ...facts('%', 'KDOC', { vmDirtyRatioPercent: 20, vmDirtyBackgroundRatioPercent: 10 }),
  ...facts('centiseconds', 'KDOC', { vmDirtyExpireCentisecs: 3000, vmDirtyWritebackCentisecs: 500 }),
  vmSwappiness: fact(60, '', 'KDOC'),
} as const;

/** Limits the kernel enforces on sysctl values, and the upper bounds of small enumerations. */
export const SYSCTL_LIMITS = {
  /** proc_dointvec fields are C ints. */
  intMax: fact(2147483647, '', 'KDOC'),
  /** 16-bit port numbers for ip_local_port_range. */
  portMax: fact(65535, 'port', 'KDOC'),
  /** vm.swappiness accepts 0-200 since 5.8 (0-100 before). */
  swappinessMax: fact(200, '', 'KDOC', { formerly: [{ value: 100, source: 'KDOC', note: 'Before kernel 5.8.' }] }),
  /**
   * vm.dirty_bytes: `dirty_bytes_min = 2 * PAGE_SIZE` is the sysctl's lower bound (mm/page-writeback.c;
   * kernel/sysctl.c in older kernels), and vm.rst: "the minimum value allowed for dirty_bytes is two pages".
   */
  dirtyBytesMin: fact(8192, 'bytes', 'KWB', {
    note: 'Two 4 KiB pages (x86_64 and most arm64 kernels); 131,072 on arm64 kernels built with 64 KiB pages. Current kernels refuse a lower write with EINVAL; vm.rst still says it is ignored and the old value kept, as older kernels did.',
  }),
  /** fs/nfs/nfs4session.h: NFS4_MAX_SLOT_TABLE bounds nfs.max_session_slots. */
  nfsMaxSessionSlotsMax: fact(1024, 'slots', 'KSRC'),
} as const;

/** Kernel versions that added or changed a key's meaning. */
export const KERNEL_KEY_CHANGES = {
  tcpTimestampsNoOffsetMode: fact('4.10', 'kernel version', 'KDOC', {
    note: 'tcp_timestamps=2: timestamps without random offsets.',
  }),
  tcpTwReuseLoopbackDefault: fact('4.19', 'kernel version', 'KDOC', {
    note: 'tcp_tw_reuse=2 (loopback only) became the default.',
  }),
  ...facts('kernel version', 'KDOC', { swappiness200: '5.8', somaxconn4096: '5.4' }),
  /** In the v6.8 networking pull ("Tune optmem_max for 0-copy usage, increasing the default value to 128KB"). */
  optmemMax128KiB: fact('6.8', 'kernel version', 'KOPTMEM', {
    note: 'optmem_max default raised from 20 KiB to 128 KiB for TCP zero-copy.',
  }),
} as const;

/**
 * How the kernel reads a boolean. A sysctl boolean (`tcp_sack`, `tcp_window_scaling`) is an integer
 * handler: proc_get_long (kernel/sysctl.c) refuses a value that does not start with a digit, so
 * `yes`, `true` or `on` fail with EINVAL (KSYSCTL). A bool module parameter goes through
 * param_set_bool → kstrtobool (lib/kstrtox.c), which reads only the first character (two for on/off)
 * and refuses everything else, and then the module does not load (KSTRTOBOOL).
 */
export const KERNEL_BOOLEAN = {
  /** First characters every kernel's kstrtobool accepts, true then false; `on`/`off` are read by two. */
  ...facts('first characters', 'KSTRTOBOOL', { moduleTrueFirst: 'Yy1', moduleFalseFirst: 'Nn0' }),
  /** t/T → true, f/F → false: commit 0d6ea3ac94ca "lib/kstrtox.c: add "false"/"true" support to kstrtobool()". */
  moduleTrueFalseWordsSince: fact('5.19', 'kernel version', 'KSTRTOBOOL', {
    note: 'The commit is from April 2022 (mm tree); the release is inferred from that merge window, not read from a tag.',
  }),
  /** e/E → true, d/D → false: commit ae5b3500856f "kstrtox: add support for enabled and disabled in kstrtobool()". */
  moduleEnabledDisabledSince: fact('6.16', 'kernel version', 'KSTRTOBOOL', {
    note: 'The commit sat in linux-next in the 6.16 cycle (spring 2025); the release is inferred, not read from a tag. 6.19 has it for certain (its stable series carries the docstring fix 1921044eebf1).',
  }),
} as const;

/**
 * Seed 001's block (and the EDA benchmark) sets vm.dirty_expire_centisecs and
 * dirty_writeback_centisecs; the SAS Viya guidance in FC uses these.
 */
export const RECOMMENDED_VM = {
  ...facts('centiseconds', 'FC', { sasViyaDirtyExpireCentisecs: 300, sasViyaDirtyWritebackCentisecs: 100 }),
  ...facts('centiseconds', 'EDA', { edaDirtyExpireCentisecs: 30000, edaDirtyWritebackCentisecs: 30000 }),
  sasGridDirtyBytes: fact(31457280, 'bytes', 'FC', { note: 'About 30 MiB.' }),
  hanaTcpMaxSynBacklog: fact(16348, 'connections', 'HANA', {
    note: 'As published in ms-az.conf (sic: 16348, not 16384).',
  }),
} as const;

/** Window size used by the bandwidth-delay fix: a power of two at least the recommended 16 MiB. */
export const TCP_WINDOW_FIX = {
  minimumMaxBytes: fact(16777216, 'bytes', 'SEED_MOUNT', { note: 'The recommended tcp_rmem/tcp_wmem maximum.' }),
} as const;

/**
 * The client tunables of Microsoft's EDA benchmark ("Benefits of using Azure NetApp Files for electronic
 * design automation", Test configuration table), as written there. ANF307 takes a file that sets
 * `tcp_sack = 0` together with at least `minMatches` of the other rows, at these values, to be that block.
 */
export const EDA_BENCHMARK_SYSCTL = {
  settings: fact(
    [
      ['net.core.wmem_max', '16777216'],
      ['net.core.wmem_default', '1048576'],
      ['net.core.rmem_max', '16777216'],
      ['net.core.rmem_default', '1048576'],
      ['net.ipv4.tcp_rmem', '1048576 8388608 16777216'],
      ['net.ipv4.tcp_wmem', '1048576 8388608 16777216'],
      ['net.core.optmem_max', '4194304'],
      ['net.core.somaxconn', '65535'],
      ['net.ipv4.tcp_mem', '4096 89600 8388608'],
      ['net.ipv4.tcp_timestamps', '0'],
      ['net.ipv4.tcp_low_latency', '1'],
      ['net.ipv4.ip_local_port_range', '1024 65000'],
      ['net.ipv4.tcp_slow_start_after_idle', '0'],
      ['net.core.netdev_max_backlog', '300000'],
      ['net.ipv4.tcp_fack', '0'],
      ['vm.dirty_expire_centisecs', '30000'],
      ['vm.dirty_writeback_centisecs', '30000'],
    ] as const,
    'sysctl key and value',
    'EDA',
    { note: 'The block also sets tcp_sack = 0 and tcp_dsack = 0, which ANF307 judges.' },
  ),
  /** anf-lint's own line: four distinctive rows of the block besides SACK make a file "the block". */
  minMatches: fact(4, 'rows', 'ANFLINT', {
    note: "Four of the seventeen other rows at the benchmark's values: a file copied from the page, not one that happens to share a common value.",
  }),
} as const;
