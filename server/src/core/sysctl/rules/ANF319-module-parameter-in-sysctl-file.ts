import { SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { CATALOG_KEYS, findKey } from '../catalog';
import { hostFiles, hostWords, integerValue } from './scope';
import { MAX_SLOTS_KEY, recommendedSlots } from './slots';
import { hasSettings } from './common';

export const moduleParameterInSysctlFile = defineRule({
  code: 'ANF319',
  name: 'module-parameter-in-sysctl-file',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A module parameter set where it does not apply',
    what: "Two cases. (1) A parameter of the `nfs` module (`nfs.max_session_slots`, `nfs.nfs4_disable_idmapping`) written as a sysctl: there is no such sysctl key. (2) `sunrpc.tcp_max_slot_table_entries` in `sysctl.conf`, a `sysctl.d` drop-in or a tuned profile, with no `options sunrpc tcp_max_slot_table_entries=...` line in the same host's `/etc/modprobe.d/`. The value it asks for is the one ANF316 and ANF317 recommend (128, or less where ANF318 says so), not a larger value written in the sysctl line. (`sunrpc.tcp_slot_table_entries` is only the starting size, which grows up to the maximum, so losing it does no harm.)",
    why: '(1) The write fails with "unknown key", so the NFSv4.1 session keeps 64 slots. (2) `sunrpc.*` keys exist only once the sunrpc module is loaded. At boot systemd-sysctl runs before the NFS mounts load it, so the drop-in fails or is skipped, and mounts get the kernel default of 65,536 slots per connection. The value only applies to mounts made after it is set. That is why SAP and Microsoft put it in modprobe.d.',
    instead:
      'Set module parameters in `/etc/modprobe.d/` (`options sunrpc tcp_max_slot_table_entries=128`, `options nfs max_session_slots=180`), which applies whenever the module loads. Keeping the sysctl line as well is harmless.',
    examples: [
      {
        flagged: 'nfs.max_session_slots = 180\nsunrpc.tcp_max_slot_table_entries = 128',
        better: 'sunrpc.tcp_max_slot_table_entries = 128',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
        context: [
          { path: '/etc/modprobe.d/nfs.conf', text: 'options nfs max_session_slots=180' },
          { path: '/etc/modprobe.d/sunrpc.conf', text: 'options sunrpc tcp_max_slot_table_entries=128' },
        ],
      },
    ],
    sources: ['HANA', 'CS', 'KSRC'],
  },
  appliesTo: (file) =>
    hasSettings(file) &&
    file.settings.some(
      (s) => SYSCTL_ORIGINS.has(s.origin) && (s.key.startsWith('nfs.') || s.key.startsWith('sunrpc.')),
    ),
  check(context) {
    const { file, workspace } = context;
    const modprobeKeys = new Set(
      hostFiles(workspace, file)
        .filter((f) => f.kind === 'modprobe')
        .flatMap((f) => f.settings.map((s) => s.key)),
    );
    for (const setting of file.settings) {
      if (
        setting.templated ||
        !SYSCTL_ORIGINS.has(setting.origin) ||
        setting.moduleSpan ||
        !(ANY_KEY || CANDIDATE_KEYS.has(setting.key))
      )
        continue;
      const entry = findKey(setting.key);
      if (!entry) continue;
      if (entry.via === 'module') {
        context.report({
          span: setting.keySpan,
          message: `\`${setting.key}\` is a parameter of the ${setting.key.split('.')[0]} module, not a sysctl: this write fails with "unknown key". Put \`${modprobeLine(setting.key, setting.value)}\` in /etc/modprobe.d/ instead.`,
        });
      } else if (setting.key === MAX_SLOTS_KEY && setting.persistent && !modprobeKeys.has(setting.key)) {
        // The value to persist is the one the slot rules recommend (ANF316/ANF317/ANF318), never more.
        const written = integerValue(setting);
        const recommended = recommendedSlots(context);
        const value = written !== undefined && written > recommended.value ? String(recommended.value) : setting.value;
        const lower =
          value !== setting.value
            ? ` (${value}, not ${setting.value}: ANF executes ${SLOTS.anfInFlightPerConnection.value} requests per connection${recommended.why}; write the same value here)`
            : '';
        context.report({
          span: setting.keySpan,
          // Information: where sunrpc loads early (initramfs, nfs-client.target) the line does apply.
          severity: 'info',
          message: `\`${setting.key}\` exists only once the sunrpc module is loaded, and at boot it is often not yet loaded when sysctl files are applied: NFS mounts then get the default of ${formatNumber(SLOTS.tcpMaxSlotTableEntriesDefault.value)} per connection. Also set \`${modprobeLine(setting.key, value)}\` in /etc/modprobe.d/sunrpc.conf${hostWords(workspace, file)}${lower}.`,
        });
      }
    }
  },
});

const SYSCTL_ORIGINS = new Set(['sysctl', 'tuned', 'sysctl-w', 'proc-echo']);

/**
 * The keys this rule can report: the catalog's module parameters, and the slot-table maximum. A key
 * outside them is not looked up (a script writes hundreds of keys, and the rule runs on every edit);
 * a module parameter written as a pattern would make every key a candidate.
 */
const MODULE_ENTRIES = CATALOG_KEYS.filter((entry) => entry.via === 'module');

const ANY_KEY = MODULE_ENTRIES.some((entry) => entry.key.includes('*'));

const CANDIDATE_KEYS: ReadonlySet<string> = new Set([...MODULE_ENTRIES.map((entry) => entry.key), MAX_SLOTS_KEY]);

function modprobeLine(key: string, value: string): string {
  const dot = key.indexOf('.');
  return `options ${key.slice(0, dot)} ${key.slice(dot + 1)}=${value}`;
}
