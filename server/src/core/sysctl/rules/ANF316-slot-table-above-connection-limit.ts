import { SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { hostWords, replaceValueFix } from './scope';
import { nconnectExtremes, recommendedSlots, SLOT_KEYS, slotSettings, tableEntryFor, MAX_SLOTS_KEY } from './slots';
import { hasSettings } from './common';

export const slotTableAboveConnectionLimit = defineRule({
  code: 'ANF316',
  name: 'slot-table-above-connection-limit',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'More RPC slots per TCP connection than ANF serves',
    what: "`sunrpc.tcp_max_slot_table_entries` or `sunrpc.tcp_slot_table_entries` above 128, in sysctl files, modprobe.d (`options sunrpc ...`), `sysctl -w` or `/proc/sys` writes. Values that exceed the table of the Learn module for the nconnect the host's mounts use are reported as ANF317 instead.",
    why: 'The slot table is per TCP connection (with nconnect, each connection has its own). ANF executes at most 128 requests in flight per connection and queues the rest, so slots above 128 only add queueing delay and let one client crowd out others on the same storage endpoint. nconnect, not a bigger table, is the way to more requests in flight.',
    instead:
      'Use 128 or less per connection; use nconnect for more parallelism. The fix writes 128, or the smaller value ANF318 computes when a volume the host mounts has so many clients that 128 would overrun the storage endpoint (ANF316, ANF317, ANF318 and ANF319 recommend the same number for one line).',
    examples: [
      {
        flagged: 'options sunrpc tcp_max_slot_table_entries=512',
        better: 'options sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
        file: '/etc/modprobe.d/sunrpc.conf',
      },
    ],
    sources: ['CS', 'SEED_MOUNT', 'KSRC'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => SLOT_KEYS.has(s.key)),
  check(context) {
    const limit = SLOTS.anfInFlightPerConnection.value;
    // The settings first: most hosts write 128 or less, and then the host's mounts are not walked.
    const above = slotSettings(context).filter((s) => s.value > limit);
    if (above.length === 0) return;
    const { smallest, largest } = nconnectExtremes(context);
    const recommended = recommendedSlots(context);
    const onHost = hostWords(context.workspace, context.file);
    for (const { setting, value } of above) {
      if (setting.key === MAX_SLOTS_KEY && smallest) {
        const entry = tableEntryFor(smallest.nconnect);
        if (entry !== null && value > entry) continue; // ANF317
      }
      const perMount =
        largest && largest.nconnect > 1
          ? ` With nconnect=${largest.nconnect}, one mount can have ${formatNumber(largest.nconnect)} × ${formatNumber(value)} = ${formatNumber(largest.nconnect * value)} requests in flight where ANF serves ${formatNumber(largest.nconnect * limit)}.`
          : '';
      context.report({
        span: setting.valueSpan,
        message: `\`${setting.key} = ${formatNumber(value)}\`${onHost} allows more requests in flight per TCP connection than the ${limit} ANF executes; the rest wait in ANF's queue.${perMount} Use ${formatNumber(recommended.value)}${recommended.why}, and nconnect for more parallelism.`,
        fixes: [replaceValueFix.unsafe(`Write ${recommended.value}`, setting, String(recommended.value))],
      });
    }
  },
});
