import type { WorkloadKind } from '../../facts';
import { defineRule, type RuleContext } from '../../rules/rule';
import { hostMounts, hostVolumes, integerValue, liveSettings, replaceValueFix } from '../scope';
import { hasSettings } from './common';

const isHana = (workload: WorkloadKind | undefined) => workload !== undefined && workload.startsWith('sap-hana');

/** 'hana' when the host runs SAP HANA, 'other' when it runs something else, undefined when nothing says. */
function hostWorkload(context: RuleContext): 'hana' | 'other' | undefined {
  const mounts = hostMounts(context.workspace, context.file);
  const volumes = hostVolumes(context.workspace, context.file);
  const fallback = context.config.defaultWorkload;
  // Cached per host lists (themselves cached per workspace state): files outside any host see
  // every mount of the workspace, and asking each mount's workload again per file was quadratic.
  const cached = ANSWERS.get(mounts);
  if (cached && cached.volumes === volumes && cached.fallback === fallback) return cached.answer;
  const workloads: (WorkloadKind | undefined)[] = [...mounts.map((m) => context.workspace.workloadOf(m)?.workload), ...volumes.map((v) => v.workload), fallback].filter((w) => w !== undefined);
  const answer = workloads.length === 0 ? undefined : workloads.some(isHana) ? 'hana' : 'other';
  ANSWERS.set(mounts, { volumes, fallback, answer });
  return answer;
}

const ANSWERS = new WeakMap<object, { volumes: object; fallback: WorkloadKind | undefined; answer: 'hana' | 'other' | undefined }>();

export const tcpTimestampsForWorkload = defineRule({
  code: 'ANF311',
  name: 'tcp-timestamps-for-workload',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fix: 'unsafe',
  doc: {
    title: '`net.ipv4.tcp_timestamps` does not match where the host runs',
    what: 'SAP HANA nodes behind Azure Load Balancer (Pacemaker clusters; `sapHanaBehindLoadBalancer: true` in `.anf-lint.yaml`) with `tcp_timestamps` other than 0 (a warning); any other host with `tcp_timestamps = 0` (information). Which hosts run HANA comes from their mounts\' workloads, the manifest volumes next to them, or `workload:` in the configuration.',
    why: 'Azure Load Balancer health probes fail when timestamps are on, so Microsoft\'s HANA guidance sets 0 there. Everywhere else timestamps give TCP accurate round-trip times and protect fast connections against wrapped sequence numbers (PAWS); guides that turn them off (the Learn module on ANF performance for EDA and HPC, the EDA benchmark) trade that for a few bytes per segment.',
    instead: 'Behind Azure Load Balancer: `net.ipv4.tcp_timestamps = 0`. Elsewhere: 1 (the default). The fix writes that value; review it.',
    examples: [
      {
        flagged: '# a HANA node in a Pacemaker cluster behind Azure Load Balancer\nnet.ipv4.tcp_timestamps = 1',
        better: 'net.ipv4.tcp_timestamps = 0',
        language: 'ini',
      },
    ],
    sources: ['HANA', 'KDOC'],
  },
  appliesTo: (file) => hasSettings(file) && file.settings.some((s) => s.key === 'net.ipv4.tcp_timestamps'),
  check(context) {
    const settings = liveSettings(context.workspace, context.file, 'net.ipv4.tcp_timestamps');
    if (settings.length === 0) return;
    const workload = hostWorkload(context);
    const behindLoadBalancer = context.config.sapHanaBehindLoadBalancer && workload !== 'other';
    for (const setting of settings) {
      const value = integerValue(setting);
      if (value === undefined) continue;
      if (behindLoadBalancer && value !== 0) {
        context.report({
          span: setting.span,
          message: `\`tcp_timestamps = ${value}\` on a SAP HANA node behind Azure Load Balancer: the load balancer's health probes fail with timestamps on. Set 0 (sapHanaBehindLoadBalancer is true in the configuration).`,
          fixes: [replaceValueFix('Write 0', setting, '0', false)],
        });
      } else if (!behindLoadBalancer && value === 0) {
        context.report({
          span: setting.span,
          severity: 'info',
          message: `\`tcp_timestamps = 0\` turns off TCP timestamps: TCP loses accurate round-trip measurement and protection against wrapped sequence numbers. Only SAP HANA nodes behind Azure Load Balancer need 0 (say so with sapHanaBehindLoadBalancer: true); elsewhere use 1.`,
          fixes: [replaceValueFix('Write 1', setting, '1', false)],
        });
      }
    }
  },
});
