import { fact, facts, ownThreshold } from './fact';

/**
 * Performance-test job files (issue 30): the defaults fio and vdbench use when a key is not
 * written, and the thresholds the perftest rules (ANF500-ANF509) judge with.
 */

/** fio's defaults (HOWTO.rst, "Job file parameters"). */
export const FIO_DEFAULTS = {
  iodepth: fact(1, 'I/O units in flight per job', 'FIO_HOWTO', { note: '`iodepth`: 1 unless set.' }),
  numjobs: fact(1, 'clones', 'FIO_HOWTO', { note: '`numjobs`: "Default: 1".' }),
  rwmixreadPercent: fact(50, '%', 'FIO_HOWTO', { note: '`rwmixread`: 50 unless set.' }),
  blockSizeBytes: fact(4096, 'bytes', 'FIO_HOWTO', { note: '`bs`: 4096 bytes unless set.' }),
  kbBase: fact(1024, 'bytes per k', 'FIO_HOWTO', {
    note: '`kb_base=1024` (the default) is compatibility mode: `4k` is 4096 and `4ki` is 4000; `kb_base=1000` swaps them.',
  }),
  rw: fact('read', 'I/O pattern', 'FIO_HOWTO', { note: '`readwrite`, `rw`: sequential reads unless set.' }),
  ioengine: fact('psync', 'I/O engine', 'FIO_HOWTO', {
    note: '`ioengine`: psync is the default on every platform but Windows (windowsaio).',
  }),
  nrfiles: fact(1, 'files per job', 'FIO_HOWTO', { note: '`nrfiles`: "Defaults to 1."' }),
} as const;

/**
 * fio I/O engines by how they queue: the synchronous ones keep one I/O in flight per job whatever
 * `iodepth` says ("increasing iodepth beyond 1 will not affect synchronous ioengines"); libaio
 * queues only with non-buffered I/O (`direct=1`): "Linux may only support queued behavior with
 * non-buffered I/O".
 */
export const FIO_ENGINES = {
  synchronous: fact(
    ['sync', 'psync', 'vsync', 'pvsync', 'pvsync2', 'mmap', 'splice', 'ftruncate', 'falloc'] as const,
    'engines',
    'FIO_HOWTO',
  ),
  asynchronous: fact(['io_uring', 'posixaio', 'windowsaio', 'solarisaio'] as const, 'engines', 'FIO_HOWTO'),
  directOnlyAsync: fact(['libaio'] as const, 'engines', 'FIO_HOWTO'),
  /** Engines that bypass the kernel's NFS client: the mount's options do not apply. */
  userSpaceNfs: fact(['nfs'] as const, 'engines', 'FIO_HOWTO', {
    note: '`ioengine=nfs` reads and writes through libnfs to `nfs_url`, not through a mount.',
  }),
} as const;

/** vdbench's defaults (Users Guide 5.04). */
export const VDBENCH_DEFAULTS = {
  sdThreads: fact(8, 'outstanding I/O per SD', 'VDBENCH_GUIDE', {
    note: 'SD `threads=`: the most I/O outstanding at once for the SD, 8 unless set.',
  }),
  wdXferBytes: fact(4096, 'bytes', 'VDBENCH_GUIDE', { note: 'WD `xfersize=`: "Data transfer size. Default 4k".' }),
  rdpct: fact(100, '%', 'VDBENCH_GUIDE', { note: 'WD `rdpct=`: "Read percentage. Default 100".' }),
  seekpct: fact(100, '%', 'VDBENCH_GUIDE', { note: 'WD `seekpct=`: "Default seekpct=100 or seekpct=random".' }),
  fileio: fact('sequential', 'file I/O', 'VDBENCH_GUIDE', { note: 'FWD `fileio=`: "Default: fileio=sequential".' }),
  /** Vdb_scan.java: `k`, `m`, `g`, `t` multiply by 1024s; in `elapsed`, `interval`, `warmup` and `pause`, `m` is minutes and `h` hours. */
  ...facts('s', 'VDBENCH_GUIDE', { secondsPerMinute: 60, secondsPerHour: 3600 }),
} as const;

/** What the perftest rules judge with. */
export const PERF_TEST = {
  /**
   * A buffered working set below this is taken to fit in the test client's page cache. anf-lint
   * cannot know the client's memory; this is the memory of the D32s_v3 the seed paper measured
   * single-VM limits with, and the paper's own tests used a 1 TiB working set.
   */
  cacheableWorkingSetGiB: ownThreshold(
    128,
    'GiB',
    'the memory of a D32s_v3 (Dv3 and Dsv3-series: 128 GiB), the VM the performance-testing paper measured with; the paper drove its own tests with a 1 TiB working set.',
  ),
  d32sV3MemoryGiB: fact(128, 'GiB', 'AZURE_DV3'),
  paperWorkingSetTiB: fact(1, 'TiB', 'SEED_PERF', {
    note: '"the workload was driven using FIO and a 1TiB working set".',
  }),
  /** The seed's own example: one thread, one job, 1.909 ms; 3,200 IOPS x 0.001909 s = 6.11 outstanding I/O. */
  paperLatencyFloorMs: fact(1.909, 'ms', 'SEED_PERF'),
} as const;

/** What the captured-state rules (ANF506-ANF508) judge a mount's counters with: anf-lint's own thresholds. */
export const MOUNTSTATS_JUDGEMENT = {
  atCeilingShare: ownThreshold(
    0.9,
    'of the volume throughput limit',
    "an average since mount at 90 % or more of the volume's throughput limit is taken as running at the limit.",
  ),
  busyShare: ownThreshold(
    0.1,
    'of the volume throughput limit',
    'below 10 % of the limit on average, a mount is taken as mostly idle and its concurrency says nothing.',
  ),
  serialConcurrency: ownThreshold(
    1,
    'RPCs in flight',
    "fewer than one RPC in flight on average (Little's Law over the per-op execute times) means the work was serial.",
  ),
} as const;
