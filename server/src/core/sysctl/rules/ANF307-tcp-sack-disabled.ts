import { EDA_BENCHMARK_SYSCTL } from '../../facts';
import type { ParsedFile } from '../../workspace/parsedFile';
import { defineRule } from '../../rules/rule';
import { integerValue, liveSettings, replaceValueFix } from './scope';
import { hasSettings } from './common';

export const tcpSackDisabled = defineRule({
  code: 'ANF307',
  name: 'tcp-sack-disabled',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'TCP selective acknowledgements turned off',
    what: `\`net.ipv4.tcp_sack = 0\` or \`net.ipv4.tcp_dsack = 0\` in a setting that takes effect: a warning, and information (a note) in a file that carries Microsoft's EDA benchmark block (at least ${EDA_BENCHMARK_SYSCTL.minMatches.value} of its other client tunables at the benchmark's values).`,
    why: 'Without SACK, one lost segment makes TCP resend everything after it and halve its window, so a single drop on a busy NFS connection costs a window\'s worth of data and a slow climb back. D-SACK lets TCP tell reordering from loss and undo needless slow-downs. Microsoft\'s EDA benchmark ("Benefits of using Azure NetApp Files for electronic design automation", Test configuration) lists `net.ipv4.tcp_sack = 0` and `net.ipv4.tcp_dsack = 0` among the client tunables with which "the results were produced": that is a benchmark configuration on a network that drops nothing, where SACK never comes into play, not a production recommendation, so anf-lint only notes it in a file that carries that block. For production, Microsoft\'s SAP HANA guides on ANF set `net.ipv4.tcp_sack = 1` (the `91-NetApp-HANA.conf` block, from SAP note 3024346): production paths do drop packets (receive queues that overflow, host maintenance, a congested gateway), and there SACK is what keeps a loss cheap. The kernel has also fixed the 2019 SACK denial-of-service bugs (CVE-2019-11477) that led some guides to turn it off.',
    instead:
      'Leave both at the kernel default, 1. The fix writes 1; it changes how TCP recovers from loss, so review it.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_sack = 0\nnet.ipv4.tcp_dsack = 0',
        better: 'net.ipv4.tcp_sack = 1\nnet.ipv4.tcp_dsack = 1',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'HANA', 'EDA'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key in KEYS),
  check(context) {
    let benchmark: boolean | undefined;
    for (const setting of liveSettings(context.workspace, context.file)) {
      const what = KEYS[setting.key];
      if (!what || integerValue(setting) !== 0) continue;
      benchmark ??= isEdaBenchmarkBlock(context.file);
      context.report({
        span: setting.span,
        ...(benchmark ? { severity: 'info' as const } : {}),
        message: benchmark
          ? `\`${setting.key} = 0\` as in Microsoft's EDA benchmark configuration (the client tunables of "Benefits of using Azure NetApp Files for electronic design automation"): a benchmark setting on a network that drops nothing. For production, Microsoft's SAP HANA guides on ANF set \`net.ipv4.tcp_sack = 1\` (and leave D-SACK on): on a path that loses packets SACK keeps each loss cheap.`
          : setting.key === 'net.ipv4.tcp_sack'
            ? `\`${setting.key} = 0\` ${what}. Microsoft's EDA benchmark configuration sets 0, on a network that drops nothing; for production Microsoft's SAP HANA guides on ANF set 1 (the default), because on a path that loses packets SACK keeps each loss cheap.`
            : `\`${setting.key} = 0\` ${what}. Use 1 (the default).`,
        fixes: [replaceValueFix.unsafe('Write 1', setting, '1')],
      });
    }
  },
});

const KEYS: Readonly<Record<string, string>> = {
  'net.ipv4.tcp_sack':
    'turns off TCP selective acknowledgements: after a lost segment TCP resends everything after it and slows down longer, which hurts NFS throughput on a busy link',
  'net.ipv4.tcp_dsack':
    'turns off duplicate SACK: TCP can no longer tell reordering from loss, and slows down for losses that did not happen',
};

const EDA_ROWS = new Map<string, string>(EDA_BENCHMARK_SYSCTL.settings.value.map(([key, value]) => [key, value]));

const normalized = (value: string) => value.trim().split(/\s+/).join(' ');

/** True when the file carries Microsoft's EDA benchmark block: enough of its other rows, at its values. */
function isEdaBenchmarkBlock(file: ParsedFile): boolean {
  let matches = 0;
  for (const setting of file.settings) {
    if (setting.templated) continue;
    const expected = EDA_ROWS.get(setting.key);
    if (expected !== undefined && normalized(setting.value) === expected) matches++;
  }
  return matches >= EDA_BENCHMARK_SYSCTL.minMatches.value;
}
