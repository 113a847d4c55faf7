import { poolThroughputBudgetMiBps, serviceLevelRateMiBpsPerTiB, volumeCeilingMiBps } from '../../calc/throughput';
import { QOS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesPerSecondToMiBps, bytesToTiB, formatMiBps, formatNumber } from '../../units/units';
import { poolFlexibleThroughputMiBps } from '../figures';
import { poolFullyKnown, poolQos } from '../model';
import { manifestVolumeThroughput } from '../summary';
import { isManifest, Named, named, manifestExample, poolValueSpans } from './helpers';

export const manualQosThroughput = defineRule({
  code: 'ANF114',
  name: 'manual-qos-throughput',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Manual QoS: assigned throughput above the pool budget or outside the per-volume range',
    what: `In a manual QoS pool: the volumes' assigned throughput adds up to more than the pool budget (pool TiB x service-level rate, or the Flexible pool's throughput), a volume has no assigned throughput, or one is outside ${QOS.manualMinVolumeThroughputMiBps.value}-${formatNumber(QOS.manualMaxRegularVolumeThroughputMiBps.value)} MiB/s (regular volume). In an auto QoS pool: a volume of an application volume group (infrastructure code), which requires a manual QoS pool (an error), and any other volume with an assigned throughput, which auto QoS ignores.`,
    why: 'Azure refuses an assignment beyond the pool budget, so the volumes cannot all get what the manifest says. A manual QoS volume gets exactly what is assigned to it, whatever its quota; with auto QoS it is the other way round, and an assigned value is silently ignored. Application volume groups are stricter: "You need to use the manual QoS capacity pool functionality" (Requirements and considerations for application volume group for SAP HANA) and "You need to use the manual QoS capacity pool type" (Requirements and considerations for Azure NetApp Files application volume group for Oracle), so a group whose pool uses auto QoS is an error, whatever throughput its volumes name.',
    instead:
      'Lower the assignments, or grow the pool (Standard/Premium/Ultra) or its throughput (Flexible) until the budget covers them. Give every manual QoS volume a `throughput`.',
    examples: [
      manifestExample(
        '- name: hana-pool\n  serviceLevel: Ultra\n  size: 10 TiB       # budget 1,280 MiB/s\n  qos: manual\n  volumes:\n    - { name: data, quota: 4 TiB, throughput: 1000 MiB/s }\n    - { name: log, quota: 1 TiB, throughput: 500 MiB/s }',
        '- name: hana-pool\n  serviceLevel: Ultra\n  size: 12 TiB       # budget 1,536 MiB/s\n  qos: manual\n  volumes:\n    - { name: data, quota: 4 TiB, throughput: 1000 MiB/s }\n    - { name: log, quota: 1 TiB, throughput: 500 MiB/s }',
      ),
    ],
    sources: ['SL', 'MQ', 'RL', 'AVGHANA', 'AVGORA_REQ'],
  },
  appliesTo: isManifest,
  checkPool({ pool }, context) {
    const level = pool.serviceLevel?.value;
    if (!level) return;
    if (poolQos(pool) === 'auto') {
      for (const volume of pool.volumes) {
        if (volume.applicationVolumeGroup !== undefined) {
          // Both application volume group pages make manual QoS a requirement, not an option. A QoS
          // type the code computes (an unknown expression) is not known to be auto: no finding.
          if (pool.unknown?.includes('qos')) continue;
          const group = volume.applicationVolumeGroup;
          context.report({
            span: volume.throughput?.span ?? volume.name?.span ?? volume.headSpan,
            message: `${Named('volume', volume.name)} belongs to application volume group \`${group}\`, and ${named('pool', pool.name)} uses auto QoS: application volume groups, for SAP HANA and for Oracle alike, require a manual QoS capacity pool ("You need to use the manual QoS capacity pool …" in the requirements of both). Put the group's volumes in a manual QoS pool (\`qos_type = "Manual"\`, \`qosType: 'Manual'\`).`,
          });
          continue;
        }
        if (!volume.throughput) continue;
        const gets = manifestVolumeThroughput(pool, volume).mibps;
        context.report({
          span: volume.throughput.span,
          severity: 'warning',
          message: `${Named('pool', pool.name)} uses auto QoS, so the assigned throughput of ${named('volume', volume.name)} is ignored: it gets quota x rate = ${formatMiBps(gets)}. Set \`qos: manual\` on the pool to assign throughput.`,
        });
      }
      return;
    }
    let assigned = 0;
    for (const volume of pool.volumes) {
      if (!volume.throughput) {
        if (volume.unknown?.includes('throughput')) continue;
        context.report({
          span: volume.name?.span ?? volume.headSpan,
          severity: 'warning',
          message: `${Named('volume', volume.name)} is in manual QoS ${named('pool', pool.name)} but has no \`throughput\`: it gets only what is assigned, so add one.`,
        });
        continue;
      }
      const mibps = bytesPerSecondToMiBps(volume.throughput.value.bytesPerSecond);
      assigned += mibps;
      const large = volume.largeVolume?.value ?? false;
      const max = large ? volumeCeilingMiBps(true) : QOS.manualMaxRegularVolumeThroughputMiBps.value;
      const min = QOS.manualMinVolumeThroughputMiBps.value;
      if (mibps < min || mibps > max) {
        context.report({
          span: volume.throughput.span,
          message: `${Named('volume', volume.name)} is assigned ${formatMiBps(mibps)}; a ${large ? 'large' : 'regular'} volume takes ${formatMiBps(min)} to ${formatMiBps(max)}.`,
        });
      }
    }
    // Volumes of this pool written in other files of a Terraform module count in the total too.
    for (const { volume } of pool.elsewhere ?? [])
      if (volume.throughput) assigned += bytesPerSecondToMiBps(volume.throughput.value.bytesPerSecond);
    const sizeTiB = pool.size ? bytesToTiB(pool.size.value.bytes) : undefined;
    if (sizeTiB === undefined || !poolFullyKnown(pool)) return;
    const flexible = poolFlexibleThroughputMiBps(pool);
    const budget = poolThroughputBudgetMiBps({
      serviceLevel: level,
      sizeTiB,
      ...(flexible !== undefined ? { flexibleThroughputMiBps: flexible } : {}),
    });
    if (assigned <= budget) return;
    const basis =
      level === 'Flexible'
        ? `the Flexible pool's throughput of ${formatMiBps(budget)}`
        : `the pool budget of ${formatMiBps(budget)} (${formatNumber(sizeTiB)} TiB x ${serviceLevelRateMiBpsPerTiB(level)} MiB/s per TiB)`;
    const target = level === 'Flexible' ? (pool.throughput ?? pool.size) : pool.size;
    context.report({
      span: target?.span ?? pool.headSpan,
      restsOn: poolValueSpans(pool),
      message: `The volumes of ${named('pool', pool.name)} are assigned ${formatMiBps(assigned)} in total, above ${basis}.`,
      related: [
        ...pool.volumes.map((volume) => ({ uri: context.file.uri, volume })),
        ...(pool.elsewhere ?? []),
      ].flatMap(({ uri, volume: v }) =>
        v.throughput
          ? [{ uri, span: v.throughput.span, message: `${v.name?.value ?? 'volume'}: ${v.throughput.raw}` }]
          : [],
      ),
    });
  },
});
