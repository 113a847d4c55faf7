import { SLOT_TABLE_BY_NCONNECT, SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { hostWords, replaceValueFix } from './scope';
import {
  MAX_SLOTS_KEY,
  nconnectExtremes,
  mountWhere,
  nconnectSpan,
  recommendedSlots,
  slotSettings,
  tableEntryFor,
} from './slots';
import { hasSettings } from './common';

export const slotTableAboveNconnectGuidance = defineRule({
  code: 'ANF317',
  name: 'slot-table-above-nconnect-guidance',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`sunrpc.tcp_max_slot_table_entries` far above 128 per connection on a host that uses nconnect',
    what: "A `sunrpc.tcp_max_slot_table_entries` above 128 on a host whose NFS mounts (fstab, mount commands, systemd units, ...) use nconnect, when the value is also above the Learn module's table entry for the smallest nconnect among them (nconnect 0–1 → 128, 2–4 → 256, 6–8 → 512); anf-lint points at that mount. Values above 128 but within that table are ANF316's.",
    why: 'Linux concurrency best practices for Azure NetApp Files: "As a best practice, set this value to 128 or less per connection", and "It is best to set the per-connection value for `sunrpc.max_tcp_slot_table_entries` to less than 128 when an application scales out across many network connections (`nconnect` and HPC in general, and EDA in particular)". The value applies to every connection of every mount on the host, so the mount with the fewest connections decides; above 128 the host keeps more requests in flight than ANF executes per connection (128), and they queue at the storage endpoint and add latency for every client of it. The Microsoft Learn training module on ANF performance for EDA and HPC prints a table that allows up to 256 (nconnect 2–4) or 512 (nconnect 6–8): it contradicts the article, so anf-lint cites the article, and uses the table only to tell this rule\'s findings (above even the table) from ANF316\'s.',
    instead:
      "Use at most 128 per connection, fewer on a large farm (the article's 1,250-client example needs 2 per client and suggests 4 or 8 for headroom). The fix writes 128 (or the smaller value ANF318 computes for a volume with many clients). Where the line sits in a sysctl file, ANF319 asks to set the same value in `/etc/modprobe.d/` as well: both rules name one value.",
    examples: [
      {
        flagged: 'options sunrpc tcp_max_slot_table_entries=512',
        better: 'options sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
        file: '/etc/modprobe.d/sunrpc.conf',
        context: [
          { path: '/etc/fstab', text: '10.0.0.4:/tools  /tools  nfs  ro,hard,vers=3,nconnect=2,_netdev  0  0' },
        ],
      },
    ],
    sources: ['CS', 'SEED_MOUNT'],
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
        message: `\`${setting.key} = ${formatNumber(value)}\` is above ${limit} per connection, the most Linux concurrency best practices for Azure NetApp Files advises ("${limit} or less per connection", and less when nconnect spreads a workload across connections), on a host whose mount at ${mountWhere(context, smallest.mount)}${onHost} uses nconnect=${smallest.nconnect}: ANF executes ${limit} requests per connection and queues the rest. Use ${formatNumber(recommended.value)}${recommended.why}.`,
        related: [
          {
            uri: smallest.mount.uri,
            span: nconnectSpan(smallest.mount),
            message: `This mount uses nconnect=${smallest.nconnect}`,
          },
        ],
        fixes: [replaceValueFix.unsafe(`Write ${recommended.value}`, setting, String(recommended.value))],
      });
    }
  },
});

const ONLY_MAX = new Set([MAX_SLOTS_KEY]);

/** The lowest maximum of the table: a value at or below it is above no row's. */
const LOWEST_TABLE_ENTRY = Math.min(
  ...SLOT_TABLE_BY_NCONNECT.value.flatMap((row) => (row.maxSlotTableEntries === null ? [] : [row.maxSlotTableEntries])),
);
