import type { WorkloadKind } from '../../facts';
import type { Host } from '../../workspace/hosts';
import { defineRule, type RuleContext } from '../../rules/rule';
import { hostMounts, hostVolumes, hostWords, integerValue, liveSettings, replaceValueFix } from './scope';
import { hasSettings } from './common';

export const tcpTimestampsForWorkload = defineRule({
  code: 'ANF311',
  name: 'tcp-timestamps-for-workload',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`net.ipv4.tcp_timestamps` does not match where the host runs',
    what: "A VM behind Azure Load Balancer with `tcp_timestamps` other than 0 (a warning); any other host with `tcp_timestamps = 0` (information). Which VMs sit behind Azure Load Balancer is configuration: `behindAzureLoadBalancer: true` in `.anf-lint.yaml` for every host it covers, or a list of host names (`behindAzureLoadBalancer: [hana-node1, hana-node2, ascs-01]`, the folders above `etc/`). The old key `sapHanaBehindLoadBalancer: true` still works and covers the hosts that run SAP HANA (their mounts' workloads, the manifest volumes they mount, or `workload:` say so).",
    why: "Azure Load Balancer's health probes fail when the VM behind it has TCP timestamps on, so Microsoft's high-availability guides (SAP HANA system replication, ASCS/ERS with Azure NetApp Files, NFS clusters) say: \"Don't enable TCP timestamps on Azure VMs placed behind Azure Load Balancer. Enabling TCP timestamps causes the health probes to fail. Set the parameter `net.ipv4.tcp_timestamps` to `0`.\" That is every Pacemaker node behind the load balancer, not only HANA nodes. Everywhere else timestamps give TCP accurate round-trip times and protect fast connections against wrapped sequence numbers (PAWS, ip-sysctl.rst); guides that turn them off elsewhere (for example the EDA benchmark configuration) trade that for a few bytes per segment.",
    instead:
      'Behind Azure Load Balancer: `net.ipv4.tcp_timestamps = 0`, and say so with `behindAzureLoadBalancer`. Elsewhere: 1 (the kernel default). The fix writes that value; review it.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_timestamps = 1',
        better: 'net.ipv4.tcp_timestamps = 0',
        language: 'ini',
        file: 'ascs-01/etc/sysctl.d/91-sap.conf',
        context: [{ path: '.anf-lint.yaml', text: 'behindAzureLoadBalancer: [ascs-01, ers-01]' }],
      },
    ],
    sources: ['SAP_HA_HANA', 'SAP_HA_ANF', 'LB_PROBES', 'KDOC'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === 'net.ipv4.tcp_timestamps'),
  check(context) {
    const settings = liveSettings(context.workspace, context.file, 'net.ipv4.tcp_timestamps');
    if (settings.length === 0) return;
    const why = behindLoadBalancer(context);
    const onHost = hostWords(context.workspace, context.file);
    for (const setting of settings) {
      const value = integerValue(setting);
      if (value === undefined) continue;
      if (why !== undefined && value !== 0) {
        context.report({
          span: setting.span,
          message: `\`tcp_timestamps = ${value}\`${onHost} behind Azure Load Balancer: the load balancer's health probes fail with timestamps on. Set 0 (${why}).`,
          fixes: [replaceValueFix.unsafe('Write 0', setting, '0')],
        });
      } else if (why === undefined && value === 0) {
        context.report({
          span: setting.span,
          severity: 'info',
          message: `\`tcp_timestamps = 0\`${onHost} turns off TCP timestamps: TCP loses accurate round-trip measurement and protection against wrapped sequence numbers. Only VMs behind Azure Load Balancer (Pacemaker clusters for SAP HANA, ASCS/ERS or NFS) need 0: say so with \`behindAzureLoadBalancer\` in .anf-lint.yaml (true, or a list of host names). Elsewhere use 1.`,
          fixes: [replaceValueFix.unsafe('Write 1', setting, '1')],
        });
      }
    }
  },
});

const isHana = (workload: WorkloadKind | undefined) => workload !== undefined && workload.startsWith('sap-hana');

/** 'hana' when the host runs SAP HANA, 'other' when it runs something else, undefined when nothing says. */
function hostWorkload(context: RuleContext): 'hana' | 'other' | undefined {
  const mounts = hostMounts(context.workspace, context.file);
  const volumes = hostVolumes(context.workspace, context.file);
  const fallback = context.config.defaultWorkload;
  // Cached per host lists (themselves cached per workspace state): every file of a host asks.
  const cached = ANSWERS.get(mounts);
  if (cached && cached.volumes === volumes && cached.fallback === fallback) return cached.answer;
  const workloads: (WorkloadKind | undefined)[] = [
    ...mounts.map((m) => context.workspace.workloadOf(m)?.workload),
    ...volumes.map((v) => v.workload),
    fallback,
  ].filter((w) => w !== undefined);
  const answer = workloads.length === 0 ? undefined : workloads.some(isHana) ? 'hana' : 'other';
  ANSWERS.set(mounts, { volumes, fallback, answer });
  return answer;
}

const ANSWERS = new WeakMap<
  object,
  { volumes: object; fallback: WorkloadKind | undefined; answer: 'hana' | 'other' | undefined }
>();

/** The folder or file name a `behindAzureLoadBalancer` list may use for a host. */
function namesOf(host: Host | undefined): string[] {
  if (!host) return [];
  const last = host.name.slice(host.name.lastIndexOf('/') + 1);
  return [host.name, last];
}

/** Why anf-lint takes the host to sit behind Azure Load Balancer, or undefined when nothing says it does. */
function behindLoadBalancer(context: RuleContext): string | undefined {
  const { behindAzureLoadBalancer: setting, sapHanaBehindLoadBalancer } = context.config;
  if (setting === true) return 'behindAzureLoadBalancer is true in the configuration';
  if (Array.isArray(setting)) {
    const names = namesOf(context.workspace.hostOf(context.file.uri));
    const named = names.find((n) => setting.includes(n));
    if (named !== undefined) return `behindAzureLoadBalancer lists \`${named}\` in the configuration`;
  }
  if (sapHanaBehindLoadBalancer && hostWorkload(context) !== 'other')
    return 'sapHanaBehindLoadBalancer is true in the configuration and this host runs SAP HANA or nothing says otherwise';
  return undefined;
}
