import { SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { hostFiles, hostRootOfAny, hostWords } from './scope';
import { MAX_SLOTS_KEY, mountWhere, nconnectSpan } from './slots';

export const slotTableNotCapped = defineRule({
  code: 'ANF320',
  name: 'slot-table-not-capped',
  domain: 'sysctl',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'A host tunes its kernel for NFS but never caps the RPC slot table',
    what: 'A host (the folder above `etc/`) has NFS mounts and sysctl or modprobe.d files, but no file of it sets `sunrpc.tcp_max_slot_table_entries`. Reported once per host, on its first sysctl or modprobe.d file, pointing at a mount.',
    why: 'Without a cap, each TCP connection may have up to 65,536 RPC requests in flight (the kernel default, a dynamic table). ANF executes 128 per connection and queues the rest, so a busy client builds a long queue at the storage endpoint and adds latency for every other client of it. The ANF concurrency guidance and SAP note 3024346 both set a static value.',
    instead:
      'Add `options sunrpc tcp_max_slot_table_entries=128` to `/etc/modprobe.d/sunrpc.conf` (less in large farms, see ANF318).',
    examples: [
      {
        flagged: 'options nfs max_session_slots=180',
        better: 'options nfs max_session_slots=180\noptions sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
        file: '/etc/modprobe.d/nfs.conf',
        context: [
          {
            path: '/etc/fstab',
            text: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8,_netdev  0  0',
          },
        ],
      },
    ],
    sources: ['CS', 'HANA', 'KSRC'],
  },
  appliesTo: (file) =>
    (file.kind === 'sysctl' || file.kind === 'modprobe') &&
    file.settings.length > 0 &&
    hostRootOfAny(file.uri) !== undefined,
  check(context) {
    const { file, workspace } = context;
    const files = hostFiles(workspace, file);
    if (files.some((f) => f.settings.some((s) => s.key === MAX_SLOTS_KEY))) return;
    const mount = files.flatMap((f) => f.mounts).find((m) => m.isNfs);
    if (!mount) return;
    // Once per host: on the first kernel-tuning file by path.
    const first = files
      .filter((f) => (f.kind === 'sysctl' || f.kind === 'modprobe') && f.settings.length > 0)
      .sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))[0];
    if (first?.uri !== file.uri) return;
    const setting = file.settings[0]!;
    context.report({
      span: setting.span,
      message: `No file of ${hostWords(workspace, file) ? `host \`${workspace.hostOf(file.uri)!.name}\`` : 'this host'} sets sunrpc.tcp_max_slot_table_entries: its NFS mounts (${mountWhere(context, mount)}) may keep up to ${formatNumber(SLOTS.tcpMaxSlotTableEntriesDefault.value)} requests in flight per TCP connection, where ANF executes ${SLOTS.anfInFlightPerConnection.value}. Add \`options sunrpc tcp_max_slot_table_entries=${SLOTS.anfInFlightPerConnection.value}\` to /etc/modprobe.d/sunrpc.conf.`,
      related: [{ uri: mount.uri, span: nconnectSpan(mount), message: 'An NFS mount of this host' }],
    });
  },
});
