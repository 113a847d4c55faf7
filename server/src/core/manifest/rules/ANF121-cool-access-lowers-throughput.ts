import { COOL_ACCESS_RATE_MIBPS_PER_TIB, SERVICE_LEVEL_RATE_MIBPS_PER_TIB } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatSizeIn, GiB, gibToTiB } from '../../units/units';
import { poolQos } from '../model';
import { coolAccessSpan, figuresOf, isManifest, named, manifestExample } from './helpers';

export const coolAccessLowersThroughput = defineRule({
  code: 'ANF121',
  name: 'cool-access-lowers-throughput',
  domain: 'manifest',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'Cool access lowers the Premium/Ultra throughput rate',
    what: `A Premium or Ultra volume with cool access. Its auto-QoS rate drops from ${SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Premium.value} to ${COOL_ACCESS_RATE_MIBPS_PER_TIB.Premium.value} MiB/s per TiB (Premium) or from ${SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Ultra.value} to ${COOL_ACCESS_RATE_MIBPS_PER_TIB.Ultra.value} (Ultra); anf-lint's figures use the lower rate.`,
    why: 'The reduced rate applies as soon as cool access is enabled, for both tiering policies, and stays in effect even after cool access is turned off on the volume. A volume sized at the full rate gets little more than half of it.',
    instead:
      'Size the quota with the cool-access rate (the figures do), or keep hot, throughput-bound data in a volume without cool access.',
    examples: [
      manifestExample(
        '- name: proj-pool\n  serviceLevel: Premium\n  size: 8 TiB\n  coolAccess: true\n  volumes:\n    - name: proj             # 4 TiB x 36 = 144 MiB/s\n      quota: 4 TiB\n      coolAccess: true',
        '- name: proj-pool\n  serviceLevel: Premium\n  size: 8 TiB\n  coolAccess: true\n  volumes:\n    - name: proj             # hot data: 4 TiB x 64 = 256 MiB/s\n      quota: 4 TiB\n    - name: proj-archive     # cold data on its own volume\n      quota: 4 TiB\n      coolAccess: false',
      ),
    ],
    sources: ['CA'],
  },
  appliesTo: isManifest,
  checkVolume({ pool, volume }, context, manifest) {
    const figures = figuresOf(context, manifest);
    const level = pool.serviceLevel?.value;
    if (!volume.coolAccess?.enabled || (level !== 'Premium' && level !== 'Ultra')) return;
    const f = figures.volume(volume);
    const full = SERVICE_LEVEL_RATE_MIBPS_PER_TIB[level].value;
    const cool = COOL_ACCESS_RATE_MIBPS_PER_TIB[level].value;
    const effect =
      poolQos(pool) === 'auto' && f?.quotaGiB !== undefined
        ? ` This ${formatSizeIn(f.quotaGiB * GiB, 'TiB')} volume gets ${formatMiBps(gibToTiB(f.quotaGiB) * cool)} instead of ${formatMiBps(gibToTiB(f.quotaGiB) * full)}.`
        : '';
    context.report({
      span: coolAccessSpan(volume.coolAccess),
      message: `Cool access on ${level} ${named('volume', volume.name)} lowers its rate from ${full} to ${cool} MiB/s per TiB, and the lower rate stays even if cool access is turned off later.${effect}`,
    });
  },
});
