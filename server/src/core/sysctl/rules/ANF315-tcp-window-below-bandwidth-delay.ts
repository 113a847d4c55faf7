import { defineRule, type RuleContext } from '../../rules/rule';
import { formatNumber, formatRate, mibpsToBytesPerSecond } from '../../units/units';
import { bandwidthDelay, bandwidthDelayFormula, suggestedWindowMax, windowLimitFormula } from '../bandwidthDelay';
import {
  hostMounts,
  hostMountsOfVolume,
  hostVolumes,
  hostWords,
  integerFields,
  integerValue,
  maxNconnect,
  replaceValueFix,
  scopeOf,
  winning,
} from './scope';
import { hasSettings } from './common';

export const tcpWindowBelowBandwidthDelay = defineRule({
  code: 'ANF315',
  name: 'tcp-window-below-bandwidth-delay',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'TCP window maximum below the bandwidth-delay product the workspace needs',
    what: 'The maximum of `net.ipv4.tcp_rmem` (reads) or `net.ipv4.tcp_wmem` (writes) is smaller than bandwidth × round-trip time for the bandwidth one client needs. The bandwidth comes from `network.bandwidth` in `.anf-lint.yaml`, or from the required throughput divided by the clients of a manifest volume this host mounts (or of a manifest in its folder; every manifest in a repository without host layout); the round-trip time from `network.rtt` (default 0.5 ms, a VNet; about 2 ms over ExpressRoute). With nconnect, the need is shared across the connections.',
    why: 'One TCP connection can have at most one window of data unacknowledged, so it carries at most window ÷ RTT. The NetApp performance-testing paper for Azure NetApp Files gives the formula (window = bandwidth × response time); the NetApp blog post on optimizing ExpressRoute shows a 131,400-byte window capping ExpressRoute at about 64 MB/s at 2 ms. Below the product, adding service level or quota does not make the client faster.',
    instead:
      'Raise the third field to at least the product the message shows. The fix writes the next power of two, at least 16 MiB (the ANF recommendation); it raises memory use per connection, so review it.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_rmem = 4096 87380 262144',
        better: 'net.ipv4.tcp_rmem = 4096 87380 16777216',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
        context: [{ path: '.anf-lint.yaml', text: 'network:\n  rtt: 2 ms\n  bandwidth: 1200 MiB/s' }],
      },
    ],
    sources: ['SEED_PERF', 'SEED_ER', 'SEED_MOUNT'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => WINDOW_KEYS.some((w) => w.key === s.key)),
  check(context) {
    const { file, workspace, config } = context;
    const scope = scopeOf(workspace, file);
    if (integerValue(winning(scope, 'net.ipv4.tcp_window_scaling')) === 0) return; // ANF308 says it
    const demand = clientDemand(context);
    if (!demand) return;
    const perConnection = demand.bytesPerSecond / demand.connections;
    const bdp = bandwidthDelay(perConnection, config.rttSeconds);
    for (const { key, direction } of WINDOW_KEYS) {
      const setting = winning(scope, key);
      if (!setting || setting.uri !== file.uri) continue;
      const fields = integerFields(setting);
      if (!fields || fields.length !== 3) continue;
      const max = fields[2]!;
      if (max >= bdp.windowBytes) continue;
      const newMax = suggestedWindowMax(bdp.windowBytes);
      const per =
        demand.connections > 1 ? ` (${formatRate(demand.bytesPerSecond)} over nconnect=${demand.connections})` : '';
      context.report({
        span: setting.fields?.[2]?.span ?? setting.valueSpan,
        message: `The ${key} maximum${hostWords(workspace, file)} is too small for ${direction}: ${windowLimitFormula(max, config.rttSeconds)} per connection, but ${demand.from} → ${formatRate(perConnection)} per connection${per}. Bandwidth-delay product = bandwidth × RTT = ${bandwidthDelayFormula(bdp)}.`,
        fixes: [replaceValueFix.unsafe(`Raise the maximum to ${newMax}`, setting, String(newMax), 2)],
      });
    }
  },
});

const WINDOW_KEYS: readonly { key: string; direction: string }[] = [
  { key: 'net.ipv4.tcp_rmem', direction: 'reads' },
  { key: 'net.ipv4.tcp_wmem', direction: 'writes' },
];

interface Demand {
  readonly bytesPerSecond: number;
  readonly connections: number;
  readonly from: string;
}

/** The most demanding per-client bandwidth the workspace declares, and over how many connections. */
export function clientDemand(context: RuleContext): Demand | undefined {
  const demands: Demand[] = [];
  const mounts = hostMounts(context.workspace, context.file);
  if (context.config.clientBandwidthBytesPerSecond) {
    demands.push({
      bytesPerSecond: context.config.clientBandwidthBytesPerSecond,
      connections: maxNconnect(mounts),
      from: 'network.bandwidth in .anf-lint.yaml',
    });
  }
  // The message text is built for the winner only: a file outside any host sees every volume.
  let top:
    | { bytesPerSecond: number; connections: number; volume: (typeof volumes)[number]; clients: number }
    | undefined;
  const volumes = hostVolumes(context.workspace, context.file);
  for (const volume of volumes) {
    if (!volume.requiredThroughputMiBps) continue;
    const clients = Math.max(1, volume.clients ?? 1);
    const volumeMounts = hostMountsOfVolume(context.workspace, context.file, volume);
    const candidate = {
      bytesPerSecond: mibpsToBytesPerSecond(volume.requiredThroughputMiBps) / clients,
      connections: maxNconnect(volumeMounts.length > 0 ? volumeMounts : mounts),
      volume,
      clients,
    };
    if (!top || candidate.bytesPerSecond / candidate.connections > top.bytesPerSecond / top.connections)
      top = candidate;
  }
  if (top) {
    const { volume, clients } = top;
    demands.push({
      bytesPerSecond: top.bytesPerSecond,
      connections: top.connections,
      from: `volume ${volume.name} needs ${formatNumber(volume.requiredThroughputMiBps!)} MiB/s${clients > 1 ? ` over ${formatNumber(clients)} clients` : ''}`,
    });
  }
  return demands.sort((a, b) => b.bytesPerSecond / b.connections - a.bytesPerSecond / a.connections)[0];
}
