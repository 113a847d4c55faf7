import { KERNEL_JUDGEMENT, RECOMMENDED_SYSCTL } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber, formatSize } from '../../units/units';
import { integerValue, liveSettings, replaceValueFix } from './scope';
import { hasSettings } from './common';

export const socketDefaultBufferTooLarge = defineRule({
  code: 'ANF325',
  name: 'socket-default-buffer-too-large',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`net.core.rmem_default` or `wmem_default` of 16 MiB or more',
    what: `\`net.core.rmem_default\` or \`net.core.wmem_default\` set to ${formatSize(KERNEL_JUDGEMENT.socketDefaultBufferMax.value)} or more. The threshold is anf-lint's judgement, not a kernel or vendor number: it is ${formatNumber(KERNEL_JUDGEMENT.socketDefaultBufferMax.value / RECOMMENDED_SYSCTL.coreRmemDefaultBytes.value)} times the ${formatSize(RECOMMENDED_SYSCTL.coreRmemDefaultBytes.value)} that the ANF client guidance uses. Values up to the guidance's own are never reported.`,
    why: 'These are the buffers every socket starts with unless it sizes its own (sock_init_data in `net/core/sock.c`): UDP, Unix-domain and netlink sockets, of which a machine has hundreds. Each may then queue that much unread data, so a few slow readers can pin gigabytes of kernel memory that nothing reclaims, and memory pressure hits the page cache NFS relies on. TCP does not use them at all (a TCP socket starts from the second field of `tcp_rmem`/`tcp_wmem` and autotunes from there), so they do nothing for NFS throughput. Copied tuning blocks often set them equal to `rmem_max` (64 MiB).',
    instead: `Leave them at the kernel default or use ${formatNumber(RECOMMENDED_SYSCTL.coreRmemDefaultBytes.value)} (1 MiB) as the ANF client guidance does, and raise \`tcp_rmem\`/\`tcp_wmem\` and \`rmem_max\`/\`wmem_max\` for throughput. The fix writes ${formatNumber(RECOMMENDED_SYSCTL.coreRmemDefaultBytes.value)}.`,
    examples: [
      {
        flagged: 'net.core.rmem_default = 67108864\nnet.core.wmem_default = 67108864',
        better: 'net.core.rmem_default = 1048576\nnet.core.wmem_default = 1048576',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KNET', 'KSOCK', 'SEED_MOUNT'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key in KEYS),
  check(context) {
    for (const setting of liveSettings(context.workspace, context.file)) {
      const spec = KEYS[setting.key];
      const value = integerValue(setting);
      if (!spec || value === undefined || value < KERNEL_JUDGEMENT.socketDefaultBufferMax.value) continue;
      context.report({
        span: setting.span,
        message: `\`${setting.key} = ${formatNumber(value)}\` (${formatSize(value)}) is the ${spec.what} buffer every non-TCP socket on the machine starts with (UDP, Unix-domain, netlink): each may hold that much, so a few slow readers can pin gigabytes. TCP ignores it (NFS starts from \`${spec.tcp}\`), so it adds nothing for NFS. Use ${formatNumber(spec.recommended)} (${formatSize(spec.recommended)}, as the ANF client guidance does) or the kernel default.`,
        fixes: [replaceValueFix.unsafe(`Write ${spec.recommended}`, setting, String(spec.recommended))],
      });
    }
  },
});

const KEYS: Readonly<Record<string, { readonly recommended: number; readonly tcp: string; readonly what: string }>> = {
  'net.core.rmem_default': {
    recommended: RECOMMENDED_SYSCTL.coreRmemDefaultBytes.value,
    tcp: 'net.ipv4.tcp_rmem',
    what: 'receive',
  },
  'net.core.wmem_default': {
    recommended: RECOMMENDED_SYSCTL.coreWmemDefaultBytes.value,
    tcp: 'net.ipv4.tcp_wmem',
    what: 'send',
  },
};
