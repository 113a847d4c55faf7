import { unsafeFix } from '../../diagnostics';
import { SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { nearMiss, reorderedKey, unknownInClosedNamespace } from '../catalog';
import { hasSettings } from './common';
import { renameKeyEdits } from './ANF305-misspelled-sysctl-key';

export const unknownKeyInClosedNamespace = defineRule({
  code: 'ANF321',
  name: 'unknown-key-in-closed-namespace',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'A `sunrpc` or `fs.nfs` key that does not exist',
    what: "A key under `sunrpc.` (a sysctl, or a slot-table parameter of the `sunrpc` module) or `fs.nfs.` that the kernel does not have, such as `sunrpc.max_tcp_slot_table_entries` for `sunrpc.tcp_max_slot_table_entries`. These namespaces are closed: anf-lint knows every key of `/proc/sys/sunrpc` (`net/sunrpc/xprtsock.c`, `net/sunrpc/sysctl.c`, `net/sunrpc/xprtrdma/transport.c`) and `/proc/sys/fs/nfs` (`fs/nfs/sysctl.c`, `fs/nfs/nfs4sysctl.c`, `fs/lockd/svc.c`) from the kernel source, so any other name there is wrong however far it is from a real one. Keys under `sunrpc.svc_rdma.` and the `sunrpc` module's parameters outside the slot-table family are not judged. Misspellings one or two letters from a key are ANF305's.",
    why: `A key that does not exist sets nothing: sysctl logs an error at every boot, and modprobe ignores an unknown parameter with a line in the kernel log. The slot table then keeps its default of ${formatNumber(SLOTS.tcpMaxSlotTableEntriesDefault.value)} requests per connection, the setting the line was written to change. The swapped-words spelling \`max_tcp_slot_table_entries\` is common in copied guides.`,
    instead:
      'Use the key the kernel has. Where the written key has the same words as one real key in another order, or is one or two letters from exactly one, the fix renames it; review it, since the setting then starts to apply.',
    examples: [
      {
        flagged: 'sunrpc.max_tcp_slot_table_entries = 128',
        better: 'sunrpc.tcp_max_slot_table_entries = 128',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
      {
        flagged: 'options sunrpc max_tcp_slot_table_entries=128',
        better: 'options sunrpc tcp_max_slot_table_entries=128',
        language: 'ini',
        file: '/etc/modprobe.d/sunrpc.conf',
      },
    ],
    sources: ['KXPRTSOCK', 'KSUNRPC_SYSCTL', 'KXPRTRDMA', 'KNFS_SYSCTL', 'KNFS4_SYSCTL', 'KLOCKD'],
  },
  appliesTo: (file) =>
    hasSettings(file) && file.settings.some((s) => s.key.startsWith('sunrpc.') || s.key.startsWith('fs.nfs.')),
  checkSetting(setting, context) {
    if (setting.templated) return;
    const asModule = setting.origin === 'modprobe' || setting.moduleSpan !== undefined;
    const ns = unknownInClosedNamespace(setting.key, asModule);
    if (!ns || nearMiss(setting.key)) return;
    const meant = reorderedKey(setting.key, ns, asModule);
    const edits = meant ? renameKeyEdits(setting, meant, context.file.source.text) : undefined;
    const slotKeys = ns.sysctls.filter((k) => k.includes('slot_table'));
    const list = asModule ? ns.moduleParameters : slotKeys.length > 0 ? slotKeys : ns.sysctls;
    const known = list.map((k) => `\`${k}\``).join(', ');
    const what = asModule ? 'slot-table parameters' : slotKeys.length > 0 ? 'slot-table keys' : 'keys';
    context.report({
      span: setting.keySpan,
      message: meant
        ? `\`${setting.key}\` does not exist: the kernel's key is \`${meant}\`. As written, the line sets nothing.`
        : `\`${setting.key}\` does not exist in the kernel's \`${ns.prefix.slice(0, -1)}\` ${asModule ? 'module' : 'sysctls'}; the ${what} are ${known}. As written, the line sets nothing.`,
      fixes: edits && edits.length > 0 ? [unsafeFix(`Change to ${meant}`, edits)] : [],
    });
  },
});
