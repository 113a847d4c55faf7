import { BILLING, SIZING } from '../../facts';
import { defineRule } from '../../rules/rule';
import { lazyFinding } from '../../diagnostics';
import { formatNumber, formatUsd } from '../../units/units';
import { poolQos } from '../model';
import { figuresOf, isManifest, Named, sizeLabel, manifestExample } from './helpers';

export const overProvisioned = defineRule({
  code: 'ANF117',
  name: 'over-provisioned',
  domain: 'manifest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'Quota far above what the requirements need',
    what: `A volume whose quota is more than ${SIZING.overProvisioningFactor.value} times the quota its requirements need: both the capacity and (with auto QoS) the throughput would be met by a much smaller quota. The message gives the monthly list price of the excess. In Terraform, Bicep and ARM templates a volume's requirements are its \`# anf: throughput=<rate> capacity=<size>\` annotation or its \`required_throughput_mibps\` and \`required_capacity_gib\` tags (docs/iac.md).`,
    why: 'Capacity is billed whether it is used or not. Quotas are often raised for throughput and never lowered, or sized with decimal-vs-binary slack on top of slack.',
    instead:
      'Lower the quota towards the figure in the message and shrink the pool with it (the pool size is what is billed), or record the real requirement if it grew. With manual QoS or Flexible, throughput does not need quota at all.',
    examples: [
      manifestExample(
        '- name: libs-pool\n  serviceLevel: Premium\n  size: 20 TiB\n  volumes:\n    - name: libs\n      quota: 20 TiB          # Premium: 3 TiB would do\n      requirements: { capacity: 3 TiB, throughput: 150 MiB/s }',
        '- name: libs-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - name: libs\n      quota: 4 TiB\n      requirements: { capacity: 3 TiB, throughput: 150 MiB/s }',
      ),
    ],
    sources: ['CM', 'PRICE', 'CALC'],
  },
  appliesTo: isManifest,
  checkVolume({ pool, volume }, context, manifest) {
    const figures = figuresOf(context, manifest);
    const f = figures.volume(volume);
    const level = pool.serviceLevel?.value;
    const req = volume.requirements;
    if (!f || !level || !volume.quota || f.quotaGiB === undefined || f.quotaNeededGiB === undefined || !req?.capacity)
      return;
    // Auto QoS sizes for throughput too: only judge when the throughput need is known.
    if (poolQos(pool) === 'auto' && f.requiredThroughputMiBps === undefined) return;
    const factor = SIZING.overProvisioningFactor.value;
    if (f.quotaGiB <= f.quotaNeededGiB * factor) return;
    const { quotaGiB, quotaNeededGiB, requiredThroughputMiBps } = f;
    const capacityPerGiBHour = figures.prices.capacityPerGiBHour[level];
    const autoQos = poolQos(pool) === 'auto';
    // Described when a report lists it: the price is formatted through Intl.
    context.report(
      lazyFinding({ span: volume.quota.span }, () => {
        const excessGiB = quotaGiB - quotaNeededGiB;
        const monthly = excessGiB * capacityPerGiBHour * BILLING.hoursPerMonth.value;
        const basis =
          autoQos && requiredThroughputMiBps !== undefined
            ? `capacity and ${formatNumber(requiredThroughputMiBps)} MiB/s at ${level} auto QoS`
            : 'capacity';
        return {
          message: `${Named('volume', volume.name)} has a ${sizeLabel(Math.round(quotaGiB))} quota, ${formatNumber(quotaGiB / quotaNeededGiB, 1)}x the ${sizeLabel(quotaNeededGiB)} its requirements need (${basis}). The excess ${sizeLabel(Math.round(excessGiB))} costs ${formatUsd(monthly)}/month at the ${level} list price, once the pool shrinks with it.`,
        };
      }),
    );
  },
});
