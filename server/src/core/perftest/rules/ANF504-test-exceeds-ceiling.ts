import { iopsAtConcurrency, throughputMiBpsFromIops } from '../../calc/io';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatNumber, formatSize } from '../../units/units';
import { volumeCeilingAt } from '../ceiling';
import { hasJobs, jobName, latencyFor, linkOf, mountRelated } from './common';
import { PERF_HOST_CONTEXT } from './examples';

export const testExceedsCeiling = defineRule({
  code: 'ANF504',
  name: 'test-exceeds-ceiling',
  domain: 'perftest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: "A test that can drive more than the volume's ceiling",
    what: "A fio job or vdbench run on a mount anf-lint links to a volume, whose outstanding I/O could, by Little's Law at the stated latency (the volume's required latency, else `network.rtt` in `.anf-lint.yaml`, 0.5 ms unless set), drive more IOPS at its block size than the volume delivers. The note says which limit the test meets: the volume's QoS throughput limit (quota x service level, or the throughput assigned in a manual QoS pool) with what lifts it, or the I/O rate one regular volume was measured to deliver (Azure NetApp Files Performance Calculator), which more quota does not lift. Rate-limited tests (fio `rate`/`rate_iops`, vdbench `iorate=` or `fwdrate=` with a number) are not judged.",
    why: 'Little\'s Law: IOPS = outstanding I/O / latency. A test that queues more than the ceiling needs measures the ceiling, and the extra I/O waits in the queue: latency rises while the rate stays flat (the paper\'s "hockey stick"). The performance-testing paper names an inappropriately sized quota as the number one reason for poor performance; knowing which limit a test meets tells a quota limit from a service limit.',
    instead:
      "Read the result as that limit. To measure the storage's latency, lower the queue depth to the ceiling's IOPS times the latency floor; to measure more, lift the limit the note names (quota or service level, or the manual QoS assignment).",
    examples: [
      {
        file: 'perf/randread.fio',
        flagged:
          '[randread-8k]\ndirectory=/mnt/anf/perf\nrw=randread\nbs=8k\nioengine=libaio\ndirect=1\niodepth=64\nnumjobs=4\nsize=16g',
        better:
          '# perf-data: 2 TiB Premium, 128 MiB/s = 16,384 IOPS at 8 KiB; x 0.5 ms = 8.2 in flight, so 8\n[randread-8k]\ndirectory=/mnt/anf/perf\nrw=randread\nbs=8k\nioengine=libaio\ndirect=1\niodepth=8\nsize=16g',
        language: 'ini',
        context: PERF_HOST_CONTEXT,
      },
    ],
    sources: ['SEED_PERF', 'CALC_ADV', 'SL', 'MQ'],
  },
  appliesTo: hasJobs,
  checkJob(job, context) {
    if (job.rateLimited || !job.outstanding.known || !job.blockSizeBytes.known) return;
    if (job.outstanding.value.total <= 1) return; // ANF500's job
    const link = linkOf(context, job);
    if (!link?.volume) return;
    const bs = job.blockSizeBytes.value;
    const ceiling = volumeCeilingAt(link.volume, bs, job.readPercent.known ? job.readPercent.value : undefined);
    const latency = latencyFor(context, link);
    const total = job.outstanding.value.total;
    const iops = iopsAtConcurrency(total, latency.seconds);
    if (iops <= ceiling.iops) return;
    const waitMs = (total / ceiling.iops) * 1000;
    context.report({
      span: job.span,
      message: `${jobName(job)} keeps ${formatNumber(total, 0)} I/O in flight (${job.outstanding.value.why}): by Little's Law at ${latency.words} that could drive ${formatNumber(iops, 0)} IOPS (${formatMiBps(throughputMiBpsFromIops(iops, bs))}) at ${formatSize(bs)}, but volume \`${link.volume.name}\` stops at ${formatNumber(ceiling.iops, 0)} IOPS (${formatMiBps(ceiling.mibps)}): ${ceiling.limit}. The test measures that limit; at it, each I/O takes about ${formatNumber(waitMs, 2)} ms.`,
      related: mountRelated(link),
    });
  },
});
