import { largeVolumeUnsuitableReason } from '../../calc/advisor';
import { volumeCeilingMiBps } from '../../calc/throughput';
import { REGULAR_VOLUME_IO_CEILING, SOURCES, VOLUME_THROUGHPUT_CEILING } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesPerSecondToMiBps, formatMiBps, formatNumber, KiB } from '../../units/units';
import { volumeIsLarge } from '../model';
import { figuresOf, isManifest, manifestExample, Named } from './helpers';

export const iopsAboveMeasuredCeiling = defineRule({
  code: 'ANF127',
  name: 'iops-above-measured-ceiling',
  domain: 'manifest',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'IOPS above what one regular volume was measured to deliver (a benchmark figure, not a limit)',
    what: `A regular volume whose requirements ask for more small random IOPS (block size up to ${REGULAR_VOLUME_IO_CEILING.smallRandomMaxBlockKiB.value} KiB, the default block size included) than Microsoft's performance calculator measured one regular volume to deliver at the requirement's read share (\`readPercent\`; all reads when it is not given): from about ${formatNumber(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value[0]!)} IOPS all writes to ${formatNumber(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value.at(-1)!)} all reads. Or, at a ${REGULAR_VOLUME_IO_CEILING.sequentialBlockKiB.value} KiB block size, more sequential throughput than it measured at that mix (${formatMiBps(REGULAR_VOLUME_IO_CEILING.sequential64KiBMiBps.value[0]!)} all writes to ${formatMiBps(REGULAR_VOLUME_IO_CEILING.sequential64KiBMiBps.value[REGULAR_VOLUME_IO_CEILING.sequential64KiBMiBps.value.length - 1]!)} all reads). Requirements whose throughput is above the ${formatMiBps(VOLUME_THROUGHPUT_CEILING.regularMiBps.value)} of any regular volume are ANF118's, not repeated here; shortages a bigger quota fixes are ANF116's.`,
    why: `IOPS are not throughput / block size all the way up: 4,500 MiB/s at 8 KiB would be 576,000 IOPS, but the advanced mode of the Azure NetApp Files Performance Calculator (${SOURCES.CALC_ADV.date}) caps one regular volume at the rates Microsoft measured, by I/O profile and read share in 10 % steps: about ${formatNumber(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value.at(-1)!)} 8 KiB random reads or ${formatNumber(REGULAR_VOLUME_IO_CEILING.smallRandomIops.value[0]!)} random writes per second; no quota or service level raised them in those measurements. These are benchmark figures, not limits the service enforces: Microsoft says the same of the throughput ceiling ("The maximum empirical throughput that has been observed in testing is 4,500 MiB/s", Performance considerations for Azure NetApp Files), and a real workload may do better or worse than the benchmark. Where anf-lint's own judgement comes in: between the calculator's 10 % steps it interpolates linearly; it applies the 4/8 KiB random figures to any block size up to 8 KiB and the sequential figures only at exactly 64 KiB, and checks nothing at other block sizes (the calculator measured none); and these are measurements, not service limits, so this is a warning. The calculator does not cover large volumes, so they are not checked.`,
    instead:
      'Spread the I/O over several regular volumes (the message says how many), which is the way for database data and log; or, for other workloads, a large volume. If the read share is higher than the default assumption, say so with `readPercent`.',
    examples: [
      manifestExample(
        '- name: db-pool\n  serviceLevel: Ultra\n  size: 40 TiB\n  volumes:\n    - name: db-data\n      quota: 36 TiB\n      workload: database\n      requirements:\n        iops: 300k\n        blockSize: 8 KiB\n        readPercent: 70',
        '- name: db-pool\n  serviceLevel: Ultra\n  size: 40 TiB\n  volumes:\n    - name: db-data-1\n      quota: 18 TiB\n      workload: database\n      requirements:\n        iops: 150k\n        blockSize: 8 KiB\n        readPercent: 70\n    - name: db-data-2\n      quota: 18 TiB\n      workload: database\n      requirements:\n        iops: 150k\n        blockSize: 8 KiB\n        readPercent: 70',
      ),
    ],
    sources: ['CALC_ADV', 'PERF'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context, manifest) {
    const figures = figuresOf(context, manifest);
    const req = volume.requirements;
    const f = figures.volume(volume);
    const c = f?.ioCeiling;
    if (!req || !f || !c || volumeIsLarge(volume)) return;
    // Beyond any regular volume's throughput: ANF118 owns it.
    if (f.requiredThroughputMiBps !== undefined && f.requiredThroughputMiBps > volumeCeilingMiBps(false)) return;
    const mix = `${formatNumber(c.readPercent, 0)}% reads${c.readPercentAssumed ? ' (assumed: set `readPercent` in the requirements for your mix)' : ''}`;
    const spread = (count: number) =>
      largeVolumeUnsuitableReason(volume.workload?.value)
        ? `To stay within what was measured, spread the I/O over at least ${count} regular volumes (large volumes are not for database data and log).`
        : `To stay within what was measured, spread the I/O over at least ${count} regular volumes, or use a large volume (the calculator's measurements do not cover large volumes).`;
    const block = `${formatNumber(f.blockSizeBytes / KiB)} KiB${f.blockSizeAssumed ? ' (assumed)' : ''}`;
    if (c.profile === 'small-random' && req.iops && req.iops.value > c.iops) {
      const count = Math.ceil(req.iops.value / c.iops);
      context.report({
        span: req.iops.span,
        message: `${Named('volume', volume.name)} needs ${formatNumber(req.iops.value, 0)} IOPS at ${block}; Microsoft's performance calculator measured about ${formatNumber(c.iops, 0)} random IOPS per regular volume at ${mix} (a benchmark figure, not a limit the service enforces; a bigger quota did not raise it). ${spread(count)}`,
      });
    } else if (c.profile === 'sequential' && req.blockSize && req.throughput) {
      const stated = bytesPerSecondToMiBps(req.throughput.value.bytesPerSecond);
      if (stated <= c.mibps) return;
      context.report({
        span: req.throughput.span,
        message: `${Named('volume', volume.name)} needs ${formatMiBps(stated)} at ${block} sequential; Microsoft's performance calculator measured about ${formatMiBps(c.mibps)} per regular volume at ${mix} (a benchmark figure, not a limit the service enforces; a bigger quota did not raise it). ${spread(Math.ceil(stated / c.mibps))}`,
      });
    }
  },
});
