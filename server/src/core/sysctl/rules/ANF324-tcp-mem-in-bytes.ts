import { KERNEL_JUDGEMENT, KERNEL_PAGE, SYSCTL_DEFAULTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber, formatSize } from '../../units/units';
import { integerFields, liveSettings, removeLineFixes, scopeOf, winning } from './scope';
import { hasSettings } from './common';
/** The receive-buffer default of older kernels, 87,380 bytes: the middle field of many copied tcp_rmem lines. */
const OLD_TCP_RMEM_DEFAULT = SYSCTL_DEFAULTS.tcpRmem.formerly![0]!.value[1]!;

export const tcpMemInBytes = defineRule({
  code: 'ANF324',
  name: 'tcp-mem-in-bytes',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`net.ipv4.tcp_mem` written as if it counted bytes',
    what: `\`net.ipv4.tcp_mem\` values that only make sense as bytes. The key counts pages of ${formatNumber(KERNEL_PAGE.sizeBytes.value)} bytes (ip-sysctl.rst: "vector of 3 INTEGERs: min, pressure, max", in pages), unlike \`tcp_rmem\` and \`tcp_wmem\`, which count bytes. anf-lint reports it when the three fields are the same as the host's \`tcp_rmem\` or \`tcp_wmem\`, when the middle field is ${formatNumber(OLD_TCP_RMEM_DEFAULT)} (the old \`tcp_rmem\` default, in bytes), or when every field is a whole number of MiB and the highest is at least ${formatSize(KERNEL_JUDGEMENT.tcpMemBytesLikeHighMin.value)} as bytes (${formatSize(KERNEL_JUDGEMENT.tcpMemBytesLikeHighMin.value * KERNEL_PAGE.sizeBytes.value)} as pages). These patterns are anf-lint's own heuristic: the kernel accepts any three numbers, and a page count that happens to be round in MiB on a machine with that much memory for TCP is possible; silence the finding there.`,
    why: `Read as pages, a byte-minded value is ${formatNumber(KERNEL_PAGE.sizeBytes.value)} times larger than meant: \`16777216\` is 64 GiB of socket memory, not 16 MiB. On most machines the limit is then never reached, so TCP memory pressure, the kernel's defence against socket buffers eating the page cache, never starts. Had the intent been carried out (16 MiB for all TCP sockets together), every connection would be starved. The kernel sizes \`tcp_mem\` from the machine's memory at boot, which suits an NFS client; the ANF and SAP HANA guidance does not ask to change it.`,
    instead:
      'Delete the line and let the kernel size it. To set it on purpose, write pages: bytes ÷ 4,096 (with 4 KiB pages). The fix deletes the line.',
    examples: [
      {
        flagged: 'net.core.rmem_max = 16777216\nnet.ipv4.tcp_mem = 16777216 16777216 16777216',
        better: 'net.core.rmem_max = 16777216',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'KSYSCTL_IPV4'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === KEY),
  check(context) {
    const scope = scopeOf(context.workspace, context.file);
    const buffers = ['net.ipv4.tcp_rmem', 'net.ipv4.tcp_wmem']
      .map((k) => winning(scope, k))
      .filter((s) => s !== undefined);
    for (const setting of liveSettings(context.workspace, context.file, KEY)) {
      const fields = integerFields(setting);
      if (!fields || fields.length !== 3 || fields.some((f) => f <= 0)) continue;
      const copied = buffers.find((b) => integerFields(b)?.join(' ') === fields.join(' '));
      const roundMiB =
        fields.every((f) => f % KERNEL_JUDGEMENT.mebibyte.value === 0) &&
        fields[2]! >= KERNEL_JUDGEMENT.tcpMemBytesLikeHighMin.value;
      const oldDefault = fields[1] === OLD_TCP_RMEM_DEFAULT;
      if (!copied && !roundMiB && !oldDefault) continue;
      const why = copied
        ? `the same numbers as \`${copied.key}\`, which counts bytes`
        : oldDefault
          ? `${formatNumber(OLD_TCP_RMEM_DEFAULT)} in the middle is the old \`tcp_rmem\` default in bytes`
          : 'round numbers of MiB, as byte counts are';
      const asPages = fields.map((f) => formatSize(f * KERNEL_PAGE.sizeBytes.value)).join(', ');
      const asBytes = fields.map((f) => formatSize(f)).join(', ');
      context.report({
        span: setting.valueSpan,
        message: `\`${KEY}\` counts pages of ${formatNumber(KERNEL_PAGE.sizeBytes.value)} bytes, and these values read as bytes (${why}): as pages, \`${setting.value.trim()}\` is ${asPages} of TCP memory, not ${asBytes}. Delete the line and let the kernel size it from memory at boot, or write pages (bytes ÷ ${formatNumber(KERNEL_PAGE.sizeBytes.value)}).`,
        fixes: removeLineFixes.unsafe(context.file, setting, 'the kernel sizes tcp_mem at boot'),
      });
    }
  },
});

const KEY = 'net.ipv4.tcp_mem';
