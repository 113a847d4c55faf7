import { unsafeFix } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { formatNumber, formatSize } from '../../units/units';
import { integerFields, integerValue, replaceValueFix, scopeOf, where, winning } from './scope';
import { hasSettings } from './common';

export const socketBufferMaxBelowTcpMax = defineRule({
  code: 'ANF314',
  name: 'socket-buffer-max-below-tcp-max',
  domain: 'sysctl',
  defaultSeverity: 'info',
  fixes: ['unsafe'],
  doc: {
    title: '`net.core.rmem_max` (or `wmem_max`) is below the maximum of `tcp_rmem` (or `tcp_wmem`)',
    what: 'Both are set for a host, and the socket-buffer ceiling `net.core.rmem_max` is smaller than the third field of `net.ipv4.tcp_rmem` (likewise `wmem_max` and `tcp_wmem`). Information, not a warning: it does not limit NFS.',
    why: "The two limits govern different sockets. TCP autotuning grows a socket's buffers up to the `tcp_rmem`/`tcp_wmem` maximum, whatever `rmem_max` says. `rmem_max` caps only what an application asks for with SO_RCVBUF (SO_SNDBUF for `wmem_max`), and a socket that asks loses autotuning (ip-sysctl.rst; `net/core/sock.c`). The kernel NFS client never asks: its TCP transports leave the buffers to autotuning, and only the UDP transport sets its own sizes (`net/sunrpc/xprtsock.c`, xs_udp_do_set_buffer_size). So NFS over TCP reaches the `tcp_rmem` maximum either way; only user-space programs that size their buffers (some benchmarks, databases, iperf with -w) are capped at the smaller value. The ANF, EDA and SAP HANA blocks set the two equal (16 MiB), which keeps both kinds of socket alike.",
    instead:
      'Optional: set `net.core.rmem_max` at least to the `tcp_rmem` maximum (and `wmem_max` to the `tcp_wmem` maximum) so programs that size their own buffers can reach the same window. The fix raises the core value.',
    examples: [
      {
        flagged: 'net.core.rmem_max = 4194304\nnet.ipv4.tcp_rmem = 4096 131072 16777216',
        better: 'net.core.rmem_max = 16777216\nnet.ipv4.tcp_rmem = 4096 131072 16777216',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC', 'KXPRTSOCK', 'KSOCK', 'SEED_MOUNT', 'HANA', 'EDA'],
  },
  appliesTo: (file) =>
    hasSettings(file) && file.settings.some((s) => PAIRS.some((p) => p.core === s.key || p.tcp === s.key)),
  check(context) {
    const { file, workspace } = context;
    const scope = scopeOf(workspace, file);
    for (const pair of PAIRS) {
      const core = winning(scope, pair.core);
      const tcp = winning(scope, pair.tcp);
      const coreMax = integerValue(core);
      const tcpFields = integerFields(tcp);
      if (!core || !tcp || coreMax === undefined || !tcpFields || tcpFields.length !== 3) continue;
      const tcpMax = tcpFields[2]!;
      if (coreMax >= tcpMax) continue;
      const target = core.uri === file.uri ? core : tcp.uri === file.uri ? tcp : undefined;
      if (!target) continue;
      context.report({
        span: target === core ? core.span : tcp.span,
        message: `\`${pair.core} = ${formatNumber(coreMax)}\` (${formatSize(coreMax)}) is below the \`${pair.tcp}\` maximum ${formatNumber(tcpMax)} (${formatSize(tcpMax)}, ${where(workspace, file, tcp)}): programs that set ${pair.option} are capped at the smaller value. NFS over TCP is not: the kernel client leaves its buffers to autotuning, which goes up to the ${pair.tcp} maximum. Raise ${pair.core} to ${tcpMax} if user-space programs on this host size their own buffers.`,
        related: [
          {
            uri: (target === core ? tcp : core).uri,
            span: (target === core ? tcp : core).span,
            message: `${(target === core ? tcp : core).key} = ${(target === core ? tcp : core).value}`,
          },
        ],
        fixes: [
          core.uri === file.uri
            ? replaceValueFix.unsafe(`Write ${tcpMax}`, core, String(tcpMax))
            : unsafeFix(`Write ${tcpMax} in ${core.uri.slice(core.uri.lastIndexOf('/') + 1)}`, [
                { uri: core.uri, span: core.valueSpan, newText: String(tcpMax) },
              ]),
        ],
      });
    }
  },
});

const PAIRS: readonly { core: string; tcp: string; option: string }[] = [
  { core: 'net.core.rmem_max', tcp: 'net.ipv4.tcp_rmem', option: 'SO_RCVBUF' },
  { core: 'net.core.wmem_max', tcp: 'net.ipv4.tcp_wmem', option: 'SO_SNDBUF' },
];
