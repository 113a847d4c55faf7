import { flexibleMaxThroughputMiBps } from '../../calc/throughput';
import { FLEXIBLE } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesToTiB, formatMiBps, formatNumber } from '../../units/units';
import { poolFlexibleThroughputMiBps } from '../figures';
import { fixes, fixOf, isManifest, named, replaceValue, manifestExample } from './helpers';

export const flexiblePoolThroughput = defineRule({
  code: 'ANF115',
  name: 'flexible-pool-throughput',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: ['safe'],
  doc: {
    title: 'Flexible pool throughput outside its range, or Flexible with auto QoS',
    what: `A Flexible pool whose throughput is below the ${FLEXIBLE.baselineThroughputMiBps.value} MiB/s baseline or above ${FLEXIBLE.maxThroughputMiBpsPerTiB.value} MiB/s per TiB of pool; a Flexible pool with \`qos: auto\`; or a pool throughput on a Standard, Premium or Ultra pool, which only Flexible pools have.`,
    why: `Flexible decouples throughput from capacity: you pay for the pool's capacity (with ${FLEXIBLE.baselineThroughputMiBps.value} MiB/s included) plus every MiB/s above it, and a pool may not get more than ${FLEXIBLE.maxThroughputMiBpsPerTiB.value} MiB/s per TiB. Flexible pools only support manual QoS.`,
    instead:
      'Keep the pool throughput between the baseline and 640 MiB/s per TiB (grow the pool for more), and set `qos: manual` (the fix) or leave `qos` out on Flexible pools.',
    examples: [
      manifestExample(
        '- name: flex-pool\n  serviceLevel: Flexible\n  size: 2 TiB\n  qos: auto\n  throughput: 1500 MiB/s\n  volumes: []',
        '- name: flex-pool\n  serviceLevel: Flexible\n  size: 3 TiB\n  qos: manual\n  throughput: 1500 MiB/s\n  volumes: []',
      ),
    ],
    sources: ['SL', 'CM'],
  },
  appliesTo: isManifest,
  checkPool({ pool }, context) {
    const level = pool.serviceLevel?.value;
    if (!level) return;
    const name = named('pool', pool.name);
    if (level !== 'Flexible') {
      if (pool.throughput) {
        context.report({
          span: pool.throughput.span,
          severity: 'warning',
          message: `Only Flexible pools take a pool throughput; ${level} ${name} gets ${level} throughput per TiB and ignores it.`,
        });
      }
      return;
    }
    if (pool.qos?.value === 'auto') {
      context.report({
        span: pool.qos.span,
        message: `Flexible ${name} cannot use auto QoS: Flexible pools are manual QoS only.`,
        ...fixes(fixOf.safe('Set `qos: manual`', [replaceValue(pool.qos, 'manual')])),
      });
    }
    const throughput = poolFlexibleThroughputMiBps(pool);
    if (throughput === undefined || !pool.throughput) return;
    const baseline = FLEXIBLE.baselineThroughputMiBps.value;
    if (throughput < baseline) {
      context.report({
        span: pool.throughput.span,
        message: `Flexible ${name} has ${formatMiBps(throughput)}, below the ${formatMiBps(baseline)} baseline every Flexible pool gets (and pays for with its capacity).`,
      });
    }
    if (pool.size) {
      const sizeTiB = bytesToTiB(pool.size.value.bytes);
      const max = flexibleMaxThroughputMiBps(sizeTiB);
      if (throughput > max) {
        context.report({
          span: pool.throughput.span,
          message: `Flexible ${name} has ${formatMiBps(throughput)}, above the ${formatMiBps(max)} a ${formatNumber(sizeTiB)} TiB pool allows (${FLEXIBLE.maxThroughputMiBpsPerTiB.value} MiB/s per TiB). Grow the pool to ${Math.ceil(throughput / FLEXIBLE.maxThroughputMiBpsPerTiB.value)} TiB or lower the throughput.`,
        });
      }
    }
  },
});
