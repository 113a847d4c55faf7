import { defineRule } from '../../rules/rule';
import { formatNumber, formatSize } from '../../units/units';
import { integerFields, integerValue, replaceValueFix, scopeOf, where, winning } from '../scope';
import { hasSettings } from './common';

const PAIRS: readonly { core: string; tcp: string; option: string }[] = [
  { core: 'net.core.rmem_max', tcp: 'net.ipv4.tcp_rmem', option: 'SO_RCVBUF' },
  { core: 'net.core.wmem_max', tcp: 'net.ipv4.tcp_wmem', option: 'SO_SNDBUF' },
];

export const socketBufferMaxBelowTcpMax = defineRule({
  code: 'ANF314',
  name: 'socket-buffer-max-below-tcp-max',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fix: 'unsafe',
  doc: {
    title: '`net.core.rmem_max` (or `wmem_max`) is below the maximum of `tcp_rmem` (or `tcp_wmem`)',
    what: 'Both are set for a host, and the socket-buffer ceiling `net.core.rmem_max` is smaller than the third field of `net.ipv4.tcp_rmem` (likewise `wmem_max` and `tcp_wmem`).',
    why: 'TCP autotuning grows buffers up to the `tcp_rmem` maximum, but an application that sizes its own buffer (SO_RCVBUF, as some NFS tools, databases and benchmarks do) is capped at `rmem_max` and loses autotuning. The two limits then disagree about how large one connection\'s window can be. The ANF, EDA and SAP HANA blocks all set them equal (16 MiB).',
    instead: 'Set `net.core.rmem_max` at least to the `tcp_rmem` maximum (and `wmem_max` to the `tcp_wmem` maximum). The fix raises the core value.',
    examples: [
      {
        flagged: 'net.core.rmem_max = 4194304\nnet.ipv4.tcp_rmem = 4096 131072 16777216',
        better: 'net.core.rmem_max = 16777216\nnet.ipv4.tcp_rmem = 4096 131072 16777216',
        language: 'ini',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA', 'EDA'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => PAIRS.some((p) => p.core === s.key || p.tcp === s.key)),
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
        message: `\`${pair.core} = ${formatNumber(coreMax)}\` (${formatSize(coreMax)}) is below the \`${pair.tcp}\` maximum ${formatNumber(tcpMax)} (${formatSize(tcpMax)}, ${where(workspace, file, tcp)}): sockets that set ${pair.option} are capped at the smaller value. Raise ${pair.core} to ${tcpMax}.`,
        related: [{ uri: (target === core ? tcp : core).uri, span: (target === core ? tcp : core).span, message: `${(target === core ? tcp : core).key} = ${(target === core ? tcp : core).value}` }],
        fixes: [
          core.uri === file.uri
            ? replaceValueFix(`Write ${tcpMax}`, core, String(tcpMax), false)
            : { title: `Write ${tcpMax} in ${core.uri.slice(core.uri.lastIndexOf('/') + 1)}`, safe: false, edits: [{ uri: core.uri, span: core.valueSpan, newText: String(tcpMax) }] },
        ],
      });
    }
  },
});
