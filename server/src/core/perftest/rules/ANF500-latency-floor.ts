import { outstandingIo } from '../../calc/io';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatNumber, formatSize } from '../../units/units';
import { volumeCeilingAt } from '../ceiling';
import { hasJobs, jobName, latencyFor, linkOf, mountRelated } from './common';
import { PERF_HOST_CONTEXT } from './examples';

export const latencyFloor = defineRule({
  code: 'ANF500',
  name: 'latency-floor',
  domain: 'perftest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'A test with one outstanding I/O measures the latency floor',
    what: "A fio job or vdbench run that keeps exactly one I/O in flight: `iodepth=1` and `numjobs=1`, a synchronous engine (fio's default `psync`, where `iodepth` has no effect) with one job, `libaio` with buffered I/O, or vdbench `threads=1`. When the job's directory or file lies on a mount anf-lint links to a volume, the note gives the volume's ceiling at the job's block size and, by Little's Law, the outstanding I/O that ceiling needs at a stated latency: the volume's required latency, else `network.rtt` in `.anf-lint.yaml` (0.5 ms unless set). A note, not a warning: this is the first step of the method, not a mistake.",
    why: 'The performance-testing paper\'s method: "configure your generator to perform the desired I/O mixture using one thread and one job" to find the latency floor, then use Little\'s Law (outstanding I/O = IOPS x response time) to choose the queue depth that reaches the rate you need; its example, 3,200 IOPS at 1.909 ms, needs 6.11 outstanding I/O. A one-I/O job alone shows only the latency: read as a throughput result, it makes the volume look many times slower than it is.',
    instead:
      'Keep the job as the latency probe, and add a job whose `iodepth` x `numjobs` (vdbench: `threads`) is the target IOPS times the latency this job measured. With a synchronous engine, raise `numjobs`, or use `ioengine=libaio` with `direct=1` (or `io_uring`) so `iodepth` counts.',
    examples: [
      {
        file: 'perf/latency.fio',
        flagged:
          '[latency-8k]\ndirectory=/mnt/anf/perf\nrw=randread\nbs=8k\ndirect=1\nsize=64g\nruntime=300\ntime_based',
        better:
          "# Little's Law: 16,384 IOPS x 0.5 ms (the latency job's result) = 8.2 I/O in flight; 8 stays under the ceiling\n[rate-8k]\ndirectory=/mnt/anf/perf\nrw=randread\nbs=8k\ndirect=1\nioengine=libaio\niodepth=8\nsize=64g\nruntime=300\ntime_based",
        language: 'ini',
        context: PERF_HOST_CONTEXT,
      },
    ],
    sources: ['SEED_PERF', 'FIO_HOWTO', 'VDBENCH_GUIDE'],
  },
  appliesTo: hasJobs,
  checkJob(job, context) {
    if (!job.outstanding.known || job.outstanding.value.total !== 1) return;
    const link = linkOf(context, job);
    const head = `${jobName(job)} keeps one I/O in flight (${job.outstanding.value.why}): it measures the latency floor, not what the volume can deliver.`;
    if (!link?.volume || !job.blockSizeBytes.known) {
      context.report({
        span: job.span,
        message: `${head} By Little's Law (outstanding I/O = IOPS x latency), the queue depth that reaches a target rate is that rate times the latency this job measures.`,
      });
      return;
    }
    const bs = job.blockSizeBytes.value;
    const ceiling = volumeCeilingAt(link.volume, bs, job.readPercent.known ? job.readPercent.value : undefined);
    const latency = latencyFor(context, link);
    const needed = Math.ceil(outstandingIo(ceiling.iops, latency.seconds));
    context.report({
      span: job.span,
      message: `${head} Volume \`${link.volume.name}\` delivers up to ${formatNumber(ceiling.iops, 0)} IOPS (${formatMiBps(ceiling.mibps)}) at ${formatSize(bs)}, ${ceiling.limit}. By Little's Law (outstanding I/O = IOPS x latency) that needs about ${formatNumber(needed, 0)} outstanding I/O at ${latency.words}.`,
      related: mountRelated(link),
    });
  },
});
