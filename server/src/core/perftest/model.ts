import type { Span } from '../text/sourceText';

/**
 * Performance-test job files read into one model (issue 30): fio job files and vdbench parameter
 * files. Every value says where it was written, or that it is the tool's default, or why anf-lint
 * does not know it (an environment variable, an `include`, a range of sizes). Pure: no IO.
 */

export type PerfTool = 'fio' | 'vdbench';

/** A value as the job will run with it. */
export type JobValue<T> =
  /** Written in the file (`span` is the value as written) or the tool's default (`span` undefined). */
  | { readonly known: true; readonly value: T; readonly span?: Span; readonly defaulted?: boolean }
  /** Not known before the job runs, and why: said on hover, and rules stay silent. */
  | { readonly known: false; readonly reason: string; readonly span?: Span };

export const known = <T>(value: T, span?: Span): JobValue<T> => ({ known: true, value, ...(span ? { span } : {}) });
export const defaulted = <T>(value: T): JobValue<T> => ({ known: true, value, defaulted: true });
export const unknown = <T>(reason: string, span?: Span): JobValue<T> => ({
  known: false,
  reason,
  ...(span ? { span } : {}),
});

/** Where a job reads and writes: a directory it makes files in, or files (or devices) it names. */
export interface JobTarget {
  readonly path: string;
  readonly kind: 'directory' | 'file';
  readonly span: Span;
}

/** How many I/O a job keeps in flight, and from what. */
export interface OutstandingIo {
  readonly total: number;
  /** In flight per job clone (fio: `iodepth`, 1 for a synchronous engine), per SD or thread count (vdbench). */
  readonly perJob: number;
  /** Clones or SDs that run at once (fio: `numjobs`; vdbench: SDs a run uses). */
  readonly jobs: number;
  /** In words: `iodepth=16 x numjobs=4`, `psync keeps 1 in flight (iodepth=32 has no effect)`. */
  readonly why: string;
}

/** One key=value as written, for hover and completion. */
export interface PerfSetting {
  readonly key: string;
  readonly value: string;
  readonly keySpan: Span;
  readonly valueSpan: Span;
  /** The section or definition it belongs to: `global`, a fio job name, `sd=sd1`. */
  readonly owner: string;
}

/** One job as it runs: a fio job section, a vdbench run definition. */
export interface PerfJob {
  readonly tool: PerfTool;
  readonly name: string;
  /** The section header (`[randread]`) or the `rd=` definition: where job findings go. */
  readonly span: Span;
  readonly targets: JobValue<readonly JobTarget[]>;
  /** Sequential or random access. */
  readonly access: JobValue<'sequential' | 'random'>;
  /** The share of reads, 0-100 (100: reads only, 0: writes only). */
  readonly readPercent: JobValue<number>;
  readonly blockSizeBytes: JobValue<number>;
  /** fio `bs=read,write` with different sizes for a job that both reads and writes (then `blockSizeBytes` is unknown). */
  readonly blockSizesByDirection?: { readonly readBytes: number; readonly writeBytes: number; readonly span: Span };
  readonly outstanding: JobValue<OutstandingIo>;
  /** Direct (O_DIRECT) or buffered through the client's page cache. */
  readonly direct: JobValue<boolean>;
  /** The bytes the job touches (all clones, all files). */
  readonly workingSetBytes: JobValue<number>;
  readonly runtimeSeconds: JobValue<number>;
  readonly rampSeconds: JobValue<number>;
  /** The job reads its data more than once (fio `time_based` or `loops`; a vdbench run, which runs for its elapsed time). */
  readonly rereads: boolean;
  /** Written data is flushed before the job ends (fio `end_fsync`, `fsync_on_close`, `fsync`). */
  readonly flushesWrites: boolean;
  /** A fixed rate (fio `rate`/`rate_iops`, vdbench `iorate=`/`fwdrate=` other than max): not a ceiling test. */
  readonly rateLimited: boolean;
  /** The I/O goes through a user-space NFS client (fio `ioengine=nfs`): no mount applies. */
  readonly userSpaceNfs: boolean;
}

export interface PerfTestFile {
  readonly tool: PerfTool;
  readonly jobs: readonly PerfJob[];
  readonly settings: readonly PerfSetting[];
}

/** Which of the four corners (seq/random x read/write) a job is: only pure reads or pure writes count. */
export type Corner = 'sequential read' | 'sequential write' | 'random read' | 'random write';

export function cornerOf(job: PerfJob): Corner | undefined {
  if (!job.access.known || !job.readPercent.known) return undefined;
  const read = job.readPercent.value;
  if (read !== 0 && read !== 100) return undefined;
  return `${job.access.value} ${read === 100 ? 'read' : 'write'}`;
}
