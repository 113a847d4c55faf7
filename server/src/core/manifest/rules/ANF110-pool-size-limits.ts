import { ceilWhole, isWhole } from '../../calc/throughput';
import { POOL_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesToTiB, formatNumber, gibToTiB } from '../../units/units';
import {
  poolHasBasicNetworkFeatures,
  volumeNetworkFeatures,
  volumeNetworkFeaturesValue,
  type Located,
  type ManifestPool,
  type NetworkFeatures,
} from '../model';
import type { SpanEdit } from '../../diagnostics';
import { allocatedGiB, fixes, fixOf, isManifest, named, replaceValue, manifestExample } from './helpers';

export const poolSizeLimits = defineRule({
  code: 'ANF110',
  name: 'pool-size-limits',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Capacity pool size outside the limits or not a whole TiB',
    what: `A capacity pool smaller than ${POOL_LIMITS.minTiB.value} TiB, larger than ${POOL_LIMITS.maxTiB.value} TiB, not a whole number of TiB, or below ${POOL_LIMITS.minTiBWithBasicNetworkFeatures.value} TiB while its volumes use Basic network features.`,
    why: `Azure refuses such a pool: sizes go in ${POOL_LIMITS.incrementTiB.value} TiB steps, and pools below ${POOL_LIMITS.minTiBWithBasicNetworkFeatures.value} TiB are only allowed when every volume uses Standard network features (Resource limits for Azure NetApp Files: "1 TiB ... if all volumes in the pool use Standard network features"). Network features belong to each volume: a volume's own \`networkFeatures\` counts, else the pool's \`networkFeatures\` as the default. Older material (an older edition of the Microsoft Learn module on ANF service levels for HPC) still says pools are 4 to 500 TiB; the limits are ${POOL_LIMITS.minTiB.value} to ${POOL_LIMITS.maxTiB.value} TiB today.`,
    instead:
      'Use a whole number of TiB within the limits. The fix sets the nearest valid size that still holds the volume quotas; for a small pool with Basic network features, switch the volumes to Standard network features instead if you want to keep it small.',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4.5 TiB',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 5 TiB',
      ),
      manifestExample(
        '- name: small\n  serviceLevel: Standard\n  size: 2 TiB\n  networkFeatures: Basic',
        '- name: small\n  serviceLevel: Standard\n  size: 2 TiB\n  networkFeatures: Standard',
      ),
    ],
    sources: ['RL', 'CM', 'SEED_COURSE'],
  },
  appliesTo: isManifest,
  checkPool({ pool }, context) {
    if (!pool.size) return;
    const tib = bytesToTiB(pool.size.value.bytes);
    const basic = poolHasBasicNetworkFeatures(pool);
    const min = basic ? POOL_LIMITS.minTiBWithBasicNetworkFeatures.value : POOL_LIMITS.minTiB.value;
    const max = POOL_LIMITS.maxTiB.value;
    const whole = isWhole(tib);
    const reasons: string[] = [];
    // A decimal unit (`4 TB`) is never whole TiB: ANF124 reports that, with the binary value.
    if (!whole && pool.size.value.system === 'binary')
      reasons.push(
        `is not a whole number of TiB (${formatNumber(tib, 3)} TiB); pools grow and shrink in ${POOL_LIMITS.incrementTiB.value} TiB steps`,
      );
    if (tib < min) {
      reasons.push(
        basic
          ? `is below the ${min} TiB minimum for pools whose volumes use Basic network features${basicVolumesText(pool)} (${POOL_LIMITS.minTiB.value} TiB needs Standard network features on every volume)`
          : `is below the ${min} TiB minimum`,
      );
    }
    if (tib > max) reasons.push(`is above the ${formatNumber(max)} TiB maximum`);
    if (reasons.length === 0) return;
    const needed = ceilWhole(gibToTiB(allocatedGiB(pool)));
    const nearest = Math.min(max, Math.max(min, Math.round(tib), needed));
    const resize = fixOf.unsafe(`Set the pool size to ${nearest} TiB`, [replaceValue(pool.size, `${nearest} TiB`)]);
    const standard =
      basic && tib >= POOL_LIMITS.minTiB.value && tib < min && whole
        ? fixOf.unsafe(
            'Use Standard network features',
            basicValues(pool).map((value): SpanEdit | undefined => replaceValue(value, 'Standard')),
          )
        : undefined;
    context.report({
      span: pool.size.span,
      message: `The size of ${named('pool', pool.name)} ${reasons.join(', and ')}. The nearest valid size is ${formatNumber(nearest)} TiB.`,
      ...fixes(resize, standard),
    });
  },
});

/** Where Basic network features are written for this pool's volumes: each volume's own value, or the pool's default they inherit. */
function basicValues(pool: ManifestPool): Located<NetworkFeatures>[] {
  const values = new Set<Located<NetworkFeatures>>();
  if (pool.volumes.length === 0 && pool.networkFeatures?.value === 'Basic') values.add(pool.networkFeatures);
  for (const volume of pool.volumes) {
    const value = volumeNetworkFeaturesValue(pool, volume);
    if (value?.value === 'Basic') values.add(value);
  }
  return [...values];
}

/** ": `a`, `b`" naming the volumes with Basic network features, when the pool has volumes. */
function basicVolumesText(pool: ManifestPool): string {
  const names = pool.volumes
    .filter((v) => volumeNetworkFeatures(pool, v) === 'Basic')
    .map((v) => `\`${v.name?.value ?? '?'}\``);
  return names.length > 0 ? ` (${names.join(', ')})` : '';
}
