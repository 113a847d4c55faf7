import { defineRule } from '../../rules/rule';
import { integerValue, liveSettings, replaceValueFix } from './scope';
import { hasSettings } from './common';

const KEYS: Readonly<Record<string, string>> = {
  'net.ipv4.tcp_sack': 'turns off TCP selective acknowledgements: after a lost segment TCP resends everything after it and slows down longer, which hurts NFS throughput on a busy link',
  'net.ipv4.tcp_dsack': 'turns off duplicate SACK: TCP can no longer tell reordering from loss, and slows down for losses that did not happen',
};

export const tcpSackDisabled = defineRule({
  code: 'ANF307',
  name: 'tcp-sack-disabled',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'TCP selective acknowledgements turned off',
    what: '`net.ipv4.tcp_sack = 0` or `net.ipv4.tcp_dsack = 0` in a setting that takes effect.',
    why: 'Without SACK, one lost segment makes TCP resend everything after it and halve its window, so a single drop on a busy NFS connection costs a window\'s worth of data and a slow climb back. D-SACK lets TCP tell reordering from loss and undo needless slow-downs. Microsoft\'s EDA benchmark configuration ("Benefits of using Azure NetApp Files for electronic design automation") does set `tcp_sack = 0`, and so do older tuning guides: on a benchmark network that drops nothing, SACK never comes into play, so turning it off costs nothing there and saves a little per-ACK work. anf-lint still recommends 1 because production paths do drop packets (receive queues that overflow, host maintenance, a congested gateway), and there SACK is what keeps a loss cheap; Microsoft\'s SAP HANA guidance on ANF sets `tcp_sack = 1`, and the kernel has fixed the 2019 SACK denial-of-service bugs (CVE-2019-11477) that led some guides to turn it off.',
    instead: 'Leave both at the kernel default, 1. The fix writes 1; it changes how TCP recovers from loss, so review it.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_sack = 0\nnet.ipv4.tcp_dsack = 0',
        better: 'net.ipv4.tcp_sack = 1\nnet.ipv4.tcp_dsack = 1',
        language: 'ini',
      },
    ],
    sources: ['KDOC', 'HANA', 'EDA'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key in KEYS),
  check(context) {
    for (const setting of liveSettings(context.workspace, context.file)) {
      const what = KEYS[setting.key];
      if (!what || integerValue(setting) !== 0) continue;
      context.report({
        span: setting.span,
        message:
          setting.key === 'net.ipv4.tcp_sack'
            ? `\`${setting.key} = 0\` ${what}. Microsoft's EDA benchmark configuration sets 0 too, on a network that drops nothing; anf-lint recommends 1 (the default, and what the SAP HANA guidance sets) because on a path that loses packets SACK keeps each loss cheap.`
            : `\`${setting.key} = 0\` ${what}. Use 1 (the default).`,
        fixes: [replaceValueFix.unsafe('Write 1', setting, '1')],
      });
    }
  },
});
