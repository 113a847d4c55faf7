import { ceilWhole } from '../../calc/throughput';
import { POOL_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesToTiB, formatNumber, gibToTiB } from '../../units/units';
import { poolFullyKnown, poolHasBasicNetworkFeatures } from '../model';
import {
  allocatedGiB,
  fixes,
  fixOf,
  isManifest,
  named,
  poolValueSpans,
  replaceValue,
  manifestExample,
} from './helpers';

export const poolOvercommitted = defineRule({
  code: 'ANF112',
  name: 'pool-overcommitted',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Volume quotas add up to more than the pool size',
    what: "The quotas of the volumes in a capacity pool add up to more than the pool's size.",
    why: "Azure refuses to create or grow a volume beyond the pool's free capacity, so the estate as written cannot exist. The pool is what you pay for: its size, not the quotas, is billed.",
    instead:
      'Grow the pool to the next whole TiB that holds all quotas (the fix does this), or shrink or move volumes.',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - { name: tools, quota: 3 TiB }\n    - { name: libs, quota: 2 TiB }',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 5 TiB\n  volumes:\n    - { name: tools, quota: 3 TiB }\n    - { name: libs, quota: 2 TiB }',
      ),
    ],
    sources: ['CM', 'RL'],
  },
  appliesTo: isManifest,
  checkPool({ pool }, context) {
    // Infrastructure code may leave a quota unknown or a volume repeated: then the sum is unknown.
    if (!pool.size || !poolFullyKnown(pool)) return;
    const sizeTiB = bytesToTiB(pool.size.value.bytes);
    const allocated = allocatedGiB(pool);
    const allocatedTiB = gibToTiB(allocated);
    if (allocatedTiB <= sizeTiB) return;
    const min = poolHasBasicNetworkFeatures(pool)
      ? POOL_LIMITS.minTiBWithBasicNetworkFeatures.value
      : POOL_LIMITS.minTiB.value;
    const grown = Math.max(ceilWhole(allocatedTiB), min);
    const fix =
      grown <= POOL_LIMITS.maxTiB.value
        ? fixOf.unsafe(`Grow the pool to ${grown} TiB`, [replaceValue(pool.size, `${grown} TiB`)])
        : undefined;
    context.report({
      span: pool.size.span,
      restsOn: poolValueSpans(pool),
      message: `The volumes of ${named('pool', pool.name)} have ${formatNumber(Math.round(allocated))} GiB (${formatNumber(allocatedTiB, 2)} TiB) of quota, more than the pool's ${formatNumber(sizeTiB, 2)} TiB. Grow the pool to ${grown} TiB or shrink the volumes.`,
      related: [
        ...pool.volumes.map((volume) => ({ uri: context.file.uri, volume })),
        ...(pool.elsewhere ?? []),
      ].flatMap(({ uri, volume: v }) =>
        v.quota ? [{ uri, span: v.quota.span, message: `${v.name?.value ?? 'volume'}: ${v.quota.raw}` }] : [],
      ),
      ...fixes(fix),
    });
  },
});
