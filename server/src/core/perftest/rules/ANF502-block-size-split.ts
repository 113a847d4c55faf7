import { NFS_TRANSFER_SIZE } from '../../facts';
import { effectiveOptions, integerOf } from '../../mounts/catalog';
import { defineRule } from '../../rules/rule';
import { formatNumber, formatSize } from '../../units/units';
import { hasJobs, jobName, linkOf, mountRelated, spanOf } from './common';
import { PERF_HOST_CONTEXT } from './examples';

export const blockSizeSplit = defineRule({
  code: 'ANF502',
  name: 'block-size-split',
  domain: 'perftest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: "A test block size above the mount's rsize or wsize",
    what: "A fio job or vdbench run whose block size (fio's `bs=read,write` per direction) is larger than the `rsize` (for its reads) or `wsize` (for its writes) written on the mount that holds its directory or file, on the same host. Values above 1 MiB count as 1 MiB, the kernel's clamp. Nothing is said when the mount does not write them: the client and ANF then negotiate up to 1 MiB.",
    why: 'The Linux NFS client never sends a READ larger than `rsize` or a WRITE larger than `wsize` (nfs(5)): a 1 MiB application read on an `rsize=262144` mount becomes four 256 KiB READs. The volume sees four times the I/O rate the tool reports, at a quarter of the size, so IOPS and latency figures from the test do not describe the block size it names, and comparing them with a ceiling at that size misleads.',
    instead:
      "Test at a block size no larger than the mount's transfer size, or mount the test path with the transfer size you mean to measure (ANF recommends 256 KiB).",
    examples: [
      {
        file: 'perf/seqread.fio',
        flagged:
          '[seqread-1m]\ndirectory=/mnt/anf/perf\nrw=read\nbs=1m\ndirect=1\nioengine=libaio\niodepth=4\nsize=64g',
        better:
          '[seqread-256k]\ndirectory=/mnt/anf/perf\nrw=read\nbs=256k\ndirect=1\nioengine=libaio\niodepth=4\nsize=64g',
        language: 'ini',
        context: PERF_HOST_CONTEXT,
      },
    ],
    sources: ['NFS5', 'MO', 'FIO_HOWTO'],
  },
  appliesTo: hasJobs,
  checkJob(job, context) {
    if (!job.readPercent.known) return;
    const byDirection = job.blockSizesByDirection;
    if (!job.blockSizeBytes.known && !byDirection) return;
    const link = linkOf(context, job);
    if (!link || link.elsewhere) return;
    const sizeFor = (option: 'rsize' | 'wsize') =>
      job.blockSizeBytes.known
        ? job.blockSizeBytes.value
        : option === 'rsize'
          ? byDirection!.readBytes
          : byDirection!.writeBytes;
    const effective = effectiveOptions(link.mount);
    const splits: string[] = [];
    for (const [option, does] of [
      ['rsize', job.readPercent.value > 0],
      ['wsize', job.readPercent.value < 100],
    ] as const) {
      if (!does) continue;
      const written = integerOf(effective, option);
      if (written === undefined) continue;
      const size = Math.min(written, NFS_TRANSFER_SIZE.maxBytes.value);
      const bs = sizeFor(option);
      if (bs <= size) continue;
      const op = option === 'rsize' ? 'READ' : 'WRITE';
      splits.push(
        `each ${formatSize(bs)} ${option === 'rsize' ? 'read' : 'write'} becomes ${formatNumber(Math.ceil(bs / size), 0)} ${op}s of ${formatSize(size)} (${option}=${written}${written > size ? ', clamped to 1 MiB' : ''})`,
      );
    }
    if (splits.length === 0) return;
    context.report({
      span: byDirection?.span ?? spanOf(job, job.blockSizeBytes),
      message: `${jobName(job)} uses ${job.blockSizeBytes.known ? `${formatSize(job.blockSizeBytes.value)} blocks` : `${formatSize(byDirection!.readBytes)} reads and ${formatSize(byDirection!.writeBytes)} writes`} on ${link.mount.mountPointDecoded ?? link.mount.mountPoint}, where the client splits them: ${splits.join('; ')}. The volume sees that many more operations, each smaller, than the test reports.`,
      related: mountRelated(link),
    });
  },
});
