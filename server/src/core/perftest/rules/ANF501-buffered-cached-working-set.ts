import { PERF_TEST } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatSize, GiB } from '../../units/units';
import { hasJobs, jobName, spanOf } from './common';

export const bufferedCachedWorkingSet = defineRule({
  code: 'ANF501',
  name: 'buffered-cached-working-set',
  domain: 'perftest',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: "Buffered I/O over a working set the client's memory can hold",
    what: `A fio job or vdbench run with buffered I/O (fio's default \`direct=0\`, vdbench without \`openflags=o_direct\`) whose working set is below ${PERF_TEST.cacheableWorkingSetGiB.value} GiB, when it reads data more than once (fio \`time_based\` or \`loops\`, every vdbench run) or writes without flushing before it ends (no fio \`end_fsync\`, \`fsync_on_close\` or \`fsync\`). The working set is fio's \`size\` (times \`numjobs\` unless the clones share a \`filename\`), or \`filesize\` x \`nrfiles\`; vdbench's SD sizes, or an FSD's \`files\` x \`width\`^\`depth\` x \`size\`. Nothing is said when the working set is not known (a \`\${SIZE}\`, a share of a device).`,
    why: `Reads of data already read come from the client's page cache and writes land in it first: the test measures the client's memory and says nothing about the volume. The performance-testing paper drove its tests with a 1 TiB working set. ${PERF_TEST.cacheableWorkingSetGiB.value} GiB is anf-lint's own threshold, because anf-lint does not know the test client's memory: it is the memory of a D32s_v3 (Dv3 and Dsv3-series), the VM the paper measured single-VM limits with. A larger client caches larger sets: read the message's figure against your VM's memory.`,
    instead:
      "Test with direct I/O: fio `direct=1` (and `ioengine=libaio` or `io_uring` to queue), vdbench `openflags=o_direct`. Where the application does buffered I/O and that is what you mean to measure, make the working set several times the client's memory.",
    examples: [
      {
        file: 'perf/seqread.fio',
        flagged: '[seqread-64k]\ndirectory=/mnt/anf/perf\nrw=read\nbs=64k\nsize=8g\ntime_based\nruntime=300',
        better: '[seqread-64k]\ndirectory=/mnt/anf/perf\nrw=read\nbs=64k\nsize=8g\ntime_based\nruntime=300\ndirect=1',
        language: 'ini',
      },
    ],
    sources: ['SEED_PERF', 'AZURE_DV3', 'ANFLINT', 'FIO_HOWTO', 'VDBENCH_GUIDE'],
  },
  appliesTo: hasJobs,
  checkJob(job, context) {
    if (!job.direct.known || job.direct.value || !job.workingSetBytes.known || !job.readPercent.known) return;
    const bytes = job.workingSetBytes.value;
    if (bytes <= 0 || bytes >= PERF_TEST.cacheableWorkingSetGiB.value * GiB) return;
    const reads = job.readPercent.value > 0 && job.rereads;
    const writes = job.readPercent.value < 100 && !job.flushesWrites;
    if (!reads && !writes) return;
    const how =
      job.tool === 'fio'
        ? job.direct.defaulted
          ? "buffered I/O (fio's default, `direct=0`)"
          : 'buffered I/O'
        : 'buffered I/O (no `openflags=o_direct`)';
    const effects = [
      ...(reads ? ["reads after the first pass come from the client's page cache"] : []),
      ...(writes ? ["writes land in the client's memory before any reaches the volume"] : []),
    ].join(', and ');
    context.report({
      span: spanOf(job, job.direct),
      message: `${jobName(job)} uses ${how} over a working set of ${formatSize(bytes)}, below the ${PERF_TEST.cacheableWorkingSetGiB.value} GiB a test client may cache: ${effects}, so the result measures the client's memory, not the volume. Use ${job.tool === 'fio' ? '`direct=1`' : '`openflags=o_direct`'}, or a working set far larger than the client's memory.`,
    });
  },
});
