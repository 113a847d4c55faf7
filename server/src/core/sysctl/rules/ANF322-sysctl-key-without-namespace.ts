import { unsafeFix } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { keysEndingWith } from '../catalog';
import { hasSettings } from './common';
import { renameKeyEdits } from './ANF305-misspelled-sysctl-key';

export const sysctlKeyWithoutNamespace = defineRule({
  code: 'ANF322',
  name: 'sysctl-key-without-namespace',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'A sysctl key written without its namespace',
    what: 'A key with no dot, in a sysctl file, a tuned `[sysctl]` section or a `sysctl -w` command, whose name is the last part of a key anf-lint knows: `tcp_max_slot_table_entries = 128` for `sunrpc.tcp_max_slot_table_entries`, `rmem_max` for `net.core.rmem_max`. Every sysctl lives in a directory of `/proc/sys` (`net`, `vm`, `sunrpc`, ...), so a key without one never exists. Names that match no catalog key are not reported.',
    why: 'sysctl turns the key into a path under `/proc/sys`, finds nothing and reports an error at every boot; the setting the line was written for never applies. The name alone is usually copied from a guide that lists parameters by their short names, or from a modprobe line (`options sunrpc tcp_max_slot_table_entries=128`).',
    instead:
      'Write the full key. Where exactly one catalog key ends with the name, the fix writes it; review it, since the setting then starts to apply. A module parameter (`max_session_slots`) belongs in `/etc/modprobe.d/` as `options <module> <parameter>=<value>`.',
    examples: [
      {
        flagged: 'tcp_max_slot_table_entries = 128',
        better: 'sunrpc.tcp_max_slot_table_entries = 128',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KXPRTSOCK', 'KDOC'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => !s.key.includes('.')),
  checkSetting(setting, context) {
    if (
      setting.templated ||
      setting.origin === 'modprobe' ||
      setting.moduleSpan !== undefined ||
      setting.key.includes('.') ||
      setting.key.includes('*')
    )
      return;
    const candidates = keysEndingWith(setting.key);
    if (candidates.length === 0) return;
    const sysctls = candidates.filter((c) => c.via !== 'module');
    const modules = candidates.filter((c) => c.via === 'module');
    if (sysctls.length === 0) {
      const entry = modules[0]!;
      const [module, param] = [entry.key.slice(0, entry.key.indexOf('.')), entry.key.slice(entry.key.indexOf('.') + 1)];
      context.report({
        span: setting.keySpan,
        message: `\`${setting.key}\` is not a sysctl: it is the \`${module}\` module parameter \`${entry.key}\`, set in \`/etc/modprobe.d/\` as \`options ${module} ${param}=${setting.value.trim()}\`. As written, the line sets nothing.`,
      });
      return;
    }
    const only = sysctls.length === 1 ? sysctls[0]!.key : undefined;
    const edits = only ? renameKeyEdits(setting, only, context.file.source.text) : undefined;
    context.report({
      span: setting.keySpan,
      message: only
        ? `\`${setting.key}\` has no namespace, so the kernel has no such key and the line sets nothing: write \`${only}\`.`
        : `\`${setting.key}\` has no namespace, so the kernel has no such key and the line sets nothing: write one of ${sysctls.map((c) => `\`${c.key}\``).join(', ')}.`,
      fixes: edits && edits.length > 0 ? [unsafeFix(`Change to ${only}`, edits)] : [],
    });
  },
});
