import type { PerfTool } from './model';

/**
 * The fio and vdbench keys anf-lint explains on hover and offers in completion: what each does
 * for a storage test, in anf-lint's words (fio's HOWTO and the Vdbench Users Guide are the
 * references), and the values worth offering.
 */
export interface PerfKey {
  readonly key: string;
  readonly tool: PerfTool;
  readonly summary: string;
  readonly values?: readonly string[];
  /** Where vdbench takes it: `sd`, `wd`, `fsd`, `fwd`, `rd`, or `general`. */
  readonly in?: readonly string[];
}

const fio = (key: string, summary: string, values?: readonly string[]): PerfKey => ({
  key,
  tool: 'fio',
  summary,
  ...(values ? { values } : {}),
});
const vdb = (key: string, inDefs: readonly string[], summary: string, values?: readonly string[]): PerfKey => ({
  key,
  tool: 'vdbench',
  summary,
  in: inDefs,
  ...(values ? { values } : {}),
});

export const PERF_KEYS: readonly PerfKey[] = [
  fio(
    'rw',
    'The I/O pattern: sequential or random, reads, writes or a mix. Default `read`. `readwrite` is the same key.',
    ['read', 'write', 'randread', 'randwrite', 'rw', 'randrw', 'trim', 'randtrim', 'trimwrite'],
  ),
  fio('rwmixread', 'For `rw`/`randrw`: the share of reads in percent. Default 50.'),
  fio('rwmixwrite', 'For `rw`/`randrw`: the share of writes in percent (the rest are reads).'),
  fio(
    'bs',
    'Block size of each I/O: one size, or `read,write[,trim]`. Default 4k. With `kb_base=1024` (the default) `k` is 1024 and `ki` 1000.',
    ['4k', '8k', '64k', '256k', '1m'],
  ),
  fio('blocksize', 'The same key as `bs`.'),
  fio('bsrange', 'A range of block sizes (`4k-64k`): the job mixes sizes.'),
  fio('bssplit', 'Block sizes with their shares (`4k/50:64k/50`): the job mixes sizes.'),
  fio(
    'iodepth',
    'I/O units kept in flight per job, for engines that queue (libaio with `direct=1`, io_uring, posixaio). Synchronous engines (psync, the default) keep one whatever this says. Default 1.',
    ['1', '4', '8', '16', '32', '64'],
  ),
  fio(
    'numjobs',
    'Clones of the job, each its own thread or process with its own files unless they share a `filename`. Outstanding I/O is `iodepth` x `numjobs`. Default 1.',
  ),
  fio(
    'ioengine',
    'How the job issues I/O. `psync` (the default) waits for each; `libaio` queues only with `direct=1`; `io_uring` queues buffered I/O too; `nfs` talks to the server through libnfs, past the kernel mount.',
    ['psync', 'libaio', 'io_uring', 'posixaio', 'sync', 'mmap'],
  ),
  fio(
    'direct',
    'Bypass the client page cache (O_DIRECT). Default 0: buffered I/O, which a small working set turns into a test of the client memory.',
    ['1', '0'],
  ),
  fio('buffered', 'The opposite of `direct`. Default 1.', ['0', '1']),
  fio(
    'size',
    'Bytes each job clone reads or writes (its file size unless `filesize` is given); a percentage is a share of the file or device.',
  ),
  fio('filesize', 'Size of each file of the job (or a range); with `nrfiles`, the working set.'),
  fio('nrfiles', 'Files per job clone. Default 1.'),
  fio(
    'directory',
    'Where the job makes its files; `dir1:dir2` spreads clones over several. anf-lint links it to the mount that holds it.',
  ),
  fio(
    'filename',
    'Files (or devices) the job uses, `:`-separated; clones share them, so the working set is counted once.',
  ),
  fio(
    'runtime',
    'How long the job runs (seconds unless a unit is given). Without `time_based` the job may end earlier, when its size is done.',
  ),
  fio(
    'time_based',
    'Run for `runtime` even when the size is done, looping over the same data: reads come back from the page cache unless `direct=1`.',
  ),
  fio('ramp_time', 'Run this long before recording results, so the test starts measuring in steady state.'),
  fio('loops', 'Run the job this many times over the same data. Default 1.'),
  fio(
    'kb_base',
    'How `k`, `m`, `g` read: 1024 (default, compatibility: `4k` = 4096, `4ki` = 4000) or 1000 (SI: `4k` = 4000, `4ki` = 4096).',
    ['1024', '1000'],
  ),
  fio('end_fsync', 'fsync the files when the job ends, so buffered writes reach the volume inside the measured time.', [
    '1',
    '0',
  ]),
  fio('fsync_on_close', 'fsync each file when it is closed.', ['1', '0']),
  fio('rate', "Cap the job's bandwidth: the test measures latency at that rate, not the ceiling."),
  fio('rate_iops', "Cap the job's IOPS: the test measures latency at that rate, not the ceiling."),
  fio('group_reporting', 'Report the clones of a job (`numjobs`) as one.'),
  fio('stonewall', 'Wait for the jobs above to finish before this one starts.'),
  fio('invalidate', 'Drop the page cache of the files before the job starts. Default 1.'),
  fio('thread', 'Run clones as threads instead of processes.'),
  vdb('sd', ['sd'], 'Storage definition: a LUN, raw device or large file to run raw I/O against (`lun=`).'),
  vdb(
    'wd',
    ['wd', 'rd'],
    'Workload definition: what I/O runs against storage definitions (`rdpct`, `seekpct`, `xfersize`).',
  ),
  vdb(
    'rd',
    ['rd'],
    'Run definition: which workloads run, at what rate (`iorate=max`), for how long (`elapsed`), with how many threads.',
  ),
  vdb(
    'fsd',
    ['fsd'],
    'File system definition: a directory tree (`anchor`, `depth`, `width`, `files`, `size`) for file system tests.',
  ),
  vdb(
    'fwd',
    ['fwd', 'rd'],
    'File system workload definition: what runs against the file trees (`operation`, `fileio`, `xfersize`, `threads`).',
  ),
  vdb('lun', ['sd'], 'The device or file of a storage definition. On NFS, a large file on the mount.'),
  vdb(
    'size',
    ['sd', 'fsd'],
    'SD: the size of the LUN or file (vdbench creates the file when it does not exist). FSD: the size of each file. `k`, `m`, `g`, `t` are 1024s.',
  ),
  vdb(
    'threads',
    ['sd', 'fwd', 'rd'],
    'Outstanding I/O: per SD (default 8) for raw I/O; concurrent files for a file workload. In a run, it replaces the SD or FWD value.',
  ),
  vdb('xfersize', ['wd', 'fwd'], 'Transfer size of each I/O, or a distribution `(8k,50,64k,50)`. WD default 4k.', [
    '4k',
    '8k',
    '64k',
    '256k',
    '1m',
  ]),
  vdb('rdpct', ['wd', 'fwd'], 'Share of reads in percent. WD default 100.'),
  vdb(
    'seekpct',
    ['wd'],
    'Share of random seeks: 100 or `random` is random I/O (the default), 0, `seq` or `eof` sequential.',
    ['random', 'sequential', '0', '100'],
  ),
  vdb(
    'fileio',
    ['fwd'],
    'File I/O pattern: `sequential` (default) or `random` (`(random,shared)` lets threads share a file).',
    ['sequential', 'random', '(random,shared)'],
  ),
  vdb('operation', ['fwd'], 'The file system operation of the workload: read, write, create, getattr ...', [
    'read',
    'write',
  ]),
  vdb(
    'openflags',
    ['sd', 'wd', 'fsd', 'fwd', 'rd'],
    'Flags to open with: `o_direct` bypasses the client page cache; without it, I/O is buffered.',
    ['o_direct', 'o_sync'],
  ),
  vdb('anchor', ['fsd'], 'The directory the file tree is made in. anf-lint links it to the mount that holds it.'),
  vdb('depth', ['fsd'], 'Levels of directories under the anchor.'),
  vdb('width', ['fsd'], 'Directories per level.'),
  vdb('files', ['fsd'], 'Files in each directory of the last level: the tree holds `files` x `width`^`depth` files.'),
  vdb('workingsetsize', ['fsd'], 'Limit the files used to this many bytes (`wss=`).'),
  vdb(
    'iorate',
    ['rd'],
    'The I/O rate of a raw run: `max` for the ceiling, a number to measure latency at that rate, `curve` for a curve of rates.',
    ['max', 'curve'],
  ),
  vdb('fwdrate', ['rd'], 'The operation rate of a file system run: `max` or a number.', ['max']),
  vdb('elapsed', ['rd'], 'How long the run lasts, in seconds (`m` minutes, `h` hours).'),
  vdb('warmup', ['rd'], 'Seconds at the start of the run left out of the results.'),
  vdb('interval', ['rd'], 'Seconds between reported intervals.'),
  vdb('format', ['rd'], 'Create (`yes`) or reuse the file tree before the run.', ['yes', 'no', 'restart']),
  vdb('forthreads', ['rd'], 'Run once per thread count listed: a queue-depth curve.'),
  vdb('forxfersize', ['rd'], 'Run once per transfer size listed.'),
  vdb('forrdpct', ['rd'], 'Run once per read share listed.'),
  vdb('include', ['general'], 'Insert another parameter file here.'),
];

export function perfKey(tool: PerfTool, key: string): PerfKey | undefined {
  return PERF_KEYS.find((k) => k.tool === tool && k.key === key);
}
