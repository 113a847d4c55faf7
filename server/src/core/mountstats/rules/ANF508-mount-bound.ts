import { iopsAtConcurrency } from '../../calc/io';
import { MOUNTSTATS_JUDGEMENT } from '../../facts';
import { qosLimitWords } from '../../perftest/ceiling';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatNumber, MiB } from '../../units/units';
import { activityOf } from '../parse';
import { declaredMount } from './common';
import { EXAMPLE_AGE, exampleCapture, exampleOpts } from './examples';
import { PERF_HOST_CONTEXT } from '../../perftest/rules/examples';

export const mountBound = defineRule({
  code: 'ANF508',
  name: 'mount-bound',
  domain: 'perftest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'What bounds a mount, from its counters since it was mounted',
    what: `For each NFS mount of a mountstats capture that the host declares and that reaches a volume of the workspace: its average throughput since it was mounted (READ bytes received plus WRITE bytes sent, over \`age\`) against the volume's throughput limit. At ${MOUNTSTATS_JUDGEMENT.atCeilingShare.value * 100} % or more, a note that the volume runs at its QoS ceiling, with the quota or level that sets it. Between ${MOUNTSTATS_JUDGEMENT.busyShare.value * 100} % and ${MOUNTSTATS_JUDGEMENT.atCeilingShare.value * 100} %, when fewer than ${MOUNTSTATS_JUDGEMENT.serialConcurrency.value} RPC was in flight on average (Little's Law: the per-op execute times summed, over \`age\`), a note that latency, not the volume, bounded it, with the outstanding I/O the limit needs at the measured latency. These shares are anf-lint's own thresholds; a mount below ${MOUNTSTATS_JUDGEMENT.busyShare.value * 100} % is taken as mostly idle.`,
    why: "Little's Law: throughput = requests in flight / latency. A mount averaging at the volume's limit is throttled by QoS (the performance-testing paper's number one reason for poor performance); a mount far below it with less than one request in flight waited on each round trip in turn, and more quota would not help: more parallelism (threads, nconnect, a deeper queue) would.",
    instead:
      'At the ceiling: raise the quota or the service level (or the manual QoS assignment) as the note says. Latency-bound: let the application keep more I/O in flight, or add client connections (`nconnect`).',
    examples: [
      {
        file: 'mountstats',
        // 10,506,240 MiB read in a day: 121.6 MiB/s, 95 % of the 128 MiB/s of 2 TiB at Premium.
        flagged: exampleCapture({
          opts: exampleOpts('nconnect=8'),
          age: EXAMPLE_AGE,
          bytes: '11016437022720 0 0 0 11016437022720 0 2689559820 0',
          read: '42024960 42024960 0 5379194880 11021311918080 42025 88252416 96657408 0',
          write: '0 0 0 0 0 0 0 0 0',
        }),
        // 40 % of the limit with 3.3 RPCs in flight: neither at the ceiling nor waiting on each round trip.
        better: exampleCapture({
          opts: exampleOpts('nconnect=8'),
          age: EXAMPLE_AGE,
          bytes: '4638564679680 0 0 0 4638564679680 0 1132462080 0',
          read: '70778880 70778880 0 9059696640 4646775029760 70779 247726080 283115520 0',
          write: '0 0 0 0 0 0 0 0 0',
        }),
        context: PERF_HOST_CONTEXT,
      },
    ],
    sources: ['SEED_PERF', 'SL', 'ANFLINT', 'KSRC'],
  },
  appliesTo: (file) => file.mountstats !== undefined && !file.mountstats.unreadable,
  check(context) {
    for (const device of context.file.mountstats!.nfs) {
      const mount = declaredMount(context, device);
      const volume = mount ? context.workspace.volumeForMount(mount) : undefined;
      const activity = activityOf(device, MiB);
      if (!mount || !volume || !activity || volume.throughputMiBps <= 0) continue;
      const mibps = activity.readMiBps + activity.writeMiBps;
      const share = mibps / volume.throughputMiBps;
      const related = [
        {
          uri: mount.uri,
          span: mount.span,
          message: `The declared mount of ${device.mountPoint} (volume \`${volume.name}\`)`,
        },
      ];
      if (share >= MOUNTSTATS_JUDGEMENT.atCeilingShare.value) {
        context.report({
          span: device.span,
          message: `${device.mountPoint} averaged ${formatMiBps(mibps)} since it was mounted (${formatNumber(activity.ageSeconds / SECONDS_PER_HOUR, 1)} h ago), ${formatNumber(share * 100, 0)} % of what volume \`${volume.name}\` allows: it runs at ${qosLimitWords(volume)}.`,
          related,
        });
        continue;
      }
      if (
        share < MOUNTSTATS_JUDGEMENT.busyShare.value ||
        activity.concurrency >= MOUNTSTATS_JUDGEMENT.serialConcurrency.value ||
        activity.opsPerSecond <= 0
      )
        continue;
      const latencySeconds = activity.concurrency / activity.opsPerSecond;
      const needed = volume.throughputMiBps / Math.max(mibps, Number.MIN_VALUE);
      context.report({
        span: device.span,
        message: `${device.mountPoint} averaged ${formatMiBps(mibps)} since it was mounted with ${formatNumber(activity.concurrency, 2)} RPCs in flight on average at ${formatNumber(latencySeconds * 1000, 2)} ms each (Little's Law): latency, not volume \`${volume.name}\`'s ${formatMiBps(volume.throughputMiBps)} limit, bounded it. At this latency ${formatNumber(iopsAtConcurrency(1, latencySeconds), 0)} operations a second need one in flight; reaching the limit takes about ${formatNumber(Math.ceil(activity.concurrency * needed), 0)} in flight.`,
        related,
      });
    }
  },
});

const SECONDS_PER_HOUR = 3600; // not a fact: seconds in an hour
