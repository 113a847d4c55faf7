import { SLOT_TABLE_BY_NCONNECT, SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { hostWords, replaceValueFix } from './scope';
import { MAX_SLOTS_KEY, nconnectExtremes, mountWhere, nconnectSpan, recommendedSlots, slotSettings, tableEntryFor } from './slots';
import { hasSettings } from './common';

const ONLY_MAX = new Set([MAX_SLOTS_KEY]);
/** The lowest maximum of the table: a value at or below it is above no row's. */
const LOWEST_TABLE_ENTRY = Math.min(...SLOT_TABLE_BY_NCONNECT.value.flatMap((row) => (row.maxSlotTableEntries === null ? [] : [row.maxSlotTableEntries])));

export const slotTableAboveNconnectGuidance = defineRule({
  code: 'ANF317',
  name: 'slot-table-above-nconnect-guidance',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`sunrpc.tcp_max_slot_table_entries` above the table of the Learn module for the nconnect in use',
    what: 'The Microsoft Learn module on ANF performance for EDA and HPC gives a table of `sunrpc.tcp_max_slot_table_entries` by nconnect: nconnect 0–1 → 128, 2–4 → 256, 6–8 → 512, above 8 → no change needed. anf-lint reads the NFS mounts of the same host (fstab, mount commands, systemd units, ...) and reports a value above the table\'s entry for the smallest nconnect among them, pointing at that mount.',
    why: 'The value applies to every connection of every mount on the host, so the mount with the fewest connections decides. Above the table, the host can keep far more requests in flight than ANF executes (128 per connection): they queue at the storage endpoint and add latency for every client of it.',
    instead: 'Use at most 128 per connection: it is within the table for every nconnect and within ANF\'s per-connection limit. The fix writes 128 (or the smaller value ANF318 computes for a volume with many clients). Where the line sits in a sysctl file, ANF319 asks to set the same value in `/etc/modprobe.d/` as well: both rules name one value.',
    examples: [
      {
        flagged: '# fstab: 10.0.0.4:/tools /tools nfs vers=3,nconnect=2 0 0\noptions sunrpc tcp_max_slot_table_entries=512',
        better: 'options sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
      },
    ],
    sources: ['SEED_MOUNT', 'CS'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === MAX_SLOTS_KEY),
  check(context) {
    // The settings first: a value no row of the table is below (128 and less) is never reported, whatever the mounts.
    const written = slotSettings(context, ONLY_MAX);
    if (!written.some((s) => s.value > LOWEST_TABLE_ENTRY)) return;
    const smallest = nconnectExtremes(context).smallest;
    if (!smallest) return;
    const entry = tableEntryFor(smallest.nconnect);
    if (entry === null) return;
    const limit = SLOTS.anfInFlightPerConnection.value;
    const recommended = recommendedSlots(context);
    const onHost = hostWords(context.workspace, context.file);
    for (const { setting, value } of written) {
      if (value <= entry) continue;
      context.report({
        span: setting.valueSpan,
        message: `\`${setting.key} = ${formatNumber(value)}\` is above ${formatNumber(entry)}, the maximum of the Learn module for nconnect=${smallest.nconnect} (the mount at ${mountWhere(context, smallest.mount)}${onHost}), and above the ${limit} requests ANF executes per connection. Use ${formatNumber(recommended.value)}${recommended.why}.`,
        related: [{ uri: smallest.mount.uri, span: nconnectSpan(smallest.mount), message: `This mount uses nconnect=${smallest.nconnect}` }],
        fixes: [replaceValueFix.unsafe(`Write ${recommended.value}`, setting, String(recommended.value))],
      });
    }
  },
});
