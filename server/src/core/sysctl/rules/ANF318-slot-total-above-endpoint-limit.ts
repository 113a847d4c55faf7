import { SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { hostWords, replaceValueFix } from './scope';
import { busiestVolume, MAX_SLOTS_KEY, slotSettings } from './slots';
import { hasSettings } from './common';

export const slotTotalAboveEndpointLimit = defineRule({
  code: 'ANF318',
  name: 'slot-total-above-endpoint-limit',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'Slots across all clients of a volume exceed the 10,000 ANF recommends per storage endpoint',
    what: 'Where a manifest volume says how many clients mount it, anf-lint multiplies clients × nconnect (from this host\'s mounts of that volume) × `sunrpc.tcp_max_slot_table_entries` and reports a total above 10,000. Per host only: a slot-table setting is compared with the volumes its own host mounts (and the manifests inside its host folder, or every manifest in a repository without host layout); a volume only another host, cloud-init file or Ansible play mounts never counts. See "Hosts" in docs/architecture.md.',
    why: "ANF guidance keeps the storage-endpoint-wide total of requests in flight at or below 10,000 (an older revision said 3,000). A large EDA or HPC farm that copies the per-client value of 128 overshoots by orders of magnitude, and the endpoint queues requests for everyone. Little's Law sizes what is needed: 1,250 clients at 4,000 MiB/s need about 2 slots each.",
    instead:
      'Lower the per-connection value so that clients × nconnect × slots stays at or below 10,000; the message computes the largest value that fits, and the fix writes it. If that is below 2, spread the clients over more volumes or endpoints, or lower nconnect.',
    examples: [
      {
        flagged: 'options sunrpc tcp_max_slot_table_entries=128',
        better: '# 64 clients x nconnect 4 x 39 slots = 9,984\noptions sunrpc tcp_max_slot_table_entries=39',
        language: 'ini',
        file: '/etc/modprobe.d/sunrpc.conf',
        context: [
          {
            path: 'eda.anf.yaml',
            text: 'accounts:\n  - name: eda-prod\n    pools:\n      - name: eda-ultra\n        serviceLevel: Ultra\n        size: 40 TiB\n        volumes:\n          - name: eda-scratch\n            quota: 32 TiB\n            protocols: [NFSv3]\n            mountTarget: 10.10.1.4\n            exportPath: /eda-scratch\n            requirements:\n              throughput: 4000 MiB/s\n              clients: 64',
          },
          {
            path: '/etc/fstab',
            text: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=4,_netdev  0  0',
          },
        ],
      },
    ],
    sources: ['CS'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === MAX_SLOTS_KEY),
  check(context) {
    const { workspace, file } = context;
    const limit = SLOTS.endpointTotalMax.value;
    const worst = busiestVolume(context);
    if (!worst) return;
    const onHost = hostWords(workspace, file);
    for (const { setting, value } of slotSettings(context, ONLY_MAX)) {
      const total = worst.clients * worst.nconnect * value;
      if (total <= limit) continue;
      const { fits } = worst;
      const advice =
        fits >= SLOTS.slotTableEntriesMin.value
          ? `At most ${formatNumber(fits)} per connection keeps it at or below ${formatNumber(limit)}.`
          : `Even the kernel minimum of ${SLOTS.slotTableEntriesMin.value} is too many: spread the clients over more volumes or storage endpoints, or lower nconnect.`;
      context.report({
        span: setting.valueSpan,
        related: [
          {
            uri: worst.volume.uri,
            span: worst.volume.nameSpan,
            message: `${worst.volume.name}: ${formatNumber(worst.clients)} clients, nconnect=${worst.nconnect}`,
          },
        ],
        message: `Volume ${worst.volume.name}${onHost ? `, as mounted${onHost}` : ''}: clients × nconnect × slots = ${formatNumber(worst.clients)} × ${worst.nconnect} × ${formatNumber(value)} = ${formatNumber(total)} requests in flight, above the ${formatNumber(limit)} ANF recommends per storage endpoint. ${advice}`,
        ...(fits >= SLOTS.slotTableEntriesMin.value
          ? { fixes: [replaceValueFix.unsafe(`Write ${fits}`, setting, String(fits))] }
          : {}),
      });
    }
  },
});

const ONLY_MAX = new Set([MAX_SLOTS_KEY]);
