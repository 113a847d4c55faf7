import { TCP_WINDOW } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber, formatRate } from '../../units/units';
import { windowLimitedBytesPerSecond } from '../../calc/network';
import { integerValue, liveSettings, replaceValueFix } from './scope';
import { hasSettings } from './common';

export const tcpWindowScalingDisabled = defineRule({
  code: 'ANF308',
  name: 'tcp-window-scaling-disabled',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'TCP window scaling turned off: every connection is capped at 64 KiB in flight',
    what: '`net.ipv4.tcp_window_scaling = 0` in a setting that takes effect.',
    why: 'Without window scaling the TCP window field is 16 bits, so no connection can have more than 65,535 bytes unacknowledged, whatever `tcp_rmem` allows. One connection then carries at most 64 KiB per round trip: about 125 MiB/s at 0.5 ms inside a VNet, and about 31 MiB/s at 2 ms over ExpressRoute.',
    instead: 'Leave it at 1 (the kernel default, and what the ANF and SAP guidance sets). The fix writes 1.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_window_scaling = 0',
        better: 'net.ipv4.tcp_window_scaling = 1',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA', 'SEED_ER'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === 'net.ipv4.tcp_window_scaling'),
  check(context) {
    const rtt = context.config.rttSeconds;
    const cap = TCP_WINDOW.unscaledMaxBytes.value;
    for (const setting of liveSettings(context.workspace, context.file, 'net.ipv4.tcp_window_scaling')) {
      if (integerValue(setting) !== 0) continue;
      const rate = windowLimitedBytesPerSecond(cap, rtt);
      context.report({
        span: setting.span,
        message: `\`tcp_window_scaling = 0\` caps every TCP connection at ${formatNumber(cap)} bytes in flight: at ${formatNumber(rtt * 1000, 3)} ms round trip that is ${formatNumber(cap)} B ÷ ${formatNumber(rtt * 1000, 3)} ms ≈ ${formatRate(rate)} per connection. Use 1.`,
        fixes: [replaceValueFix.unsafe('Write 1', setting, '1')],
      });
    }
  },
});
