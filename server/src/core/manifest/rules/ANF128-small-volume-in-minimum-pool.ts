import { serviceLevelRateMiBpsPerTiB } from '../../calc/throughput';
import { POOL_LIMITS, SIZING_IAC, VOLUME_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesToTiB, formatMiBps, formatNumber, gibToTiB, tibToGiB } from '../../units/units';
import {
  poolFullyKnown,
  poolHasBasicNetworkFeatures,
  poolMemberVolumes,
  poolQos,
  volumeNetworkFeaturesValue,
} from '../model';
import { manifestVolumeThroughput } from '../summary';
import {
  allocatedGiB,
  fixes,
  fixOf,
  isManifest,
  manifestExample,
  Named,
  named,
  poolValueSpans,
  replaceValue,
  sizeText,
} from './helpers';

/**
 * An auto QoS pool that is already as small as it can be (its minimum size), whose volumes hold less
 * than 1/SIZING_IAC.poolSlackFactor.value of it: the pool is billed for its size, but each volume's throughput follows only its
 * own quota. Growing a quota into the free part costs nothing more. A pool that could shrink is ANF405's.
 */
export const smallVolumeInMinimumPool = defineRule({
  code: 'ANF128',
  name: 'small-volume-in-minimum-pool',
  domain: 'manifest',
  defaultSeverity: 'info',
  fixes: ['unsafe'],
  doc: {
    title: 'Small auto QoS volumes in a pool that cannot shrink: throughput paid for and not used',
    what: `An auto QoS capacity pool (Standard, Premium or Ultra) at its minimum size (${POOL_LIMITS.minTiB.value} TiB when every volume uses Standard network features, else ${POOL_LIMITS.minTiBWithBasicNetworkFeatures.value} TiB), whose volume quotas add up to at most 1/${SIZING_IAC.poolSlackFactor.value} of it. In sizing manifests and in infrastructure code. The factor ${SIZING_IAC.poolSlackFactor.value} is anf-lint's own threshold (the one ANF405 uses for pools that can shrink).`,
    why: 'A pool is billed for its provisioned size, but with auto QoS a volume\'s throughput limit is its own quota times the service-level rate, "regardless of the capacity pool size" (Service levels for Azure NetApp Files: "In Example 2, a volume from an auto QoS capacity pool at the Premium service level with 100 GiB of quota has an assigned throughput limit of 6.25 MiB/s (0.09765625 TiB * 64 MiB/s). This scenario applies regardless of the capacity pool size or the actual volume consumption."). A 100 GiB Standard volume alone in a 4 TiB pool gets 1.56 MiB/s of the 64 MiB/s the pool\'s size pays for. The pool cannot shrink below its minimum, so the rest of it is paid for whatever happens; growing the quota into it costs nothing more and raises the throughput limit.',
    instead:
      'Raise the quota up to what the pool holds (the fix does, for a pool with one volume: unsafe, because it changes what the volume may hold and its throughput), or move the volume to a pool it shares with others, or to a manual QoS pool where throughput is assigned.',
    examples: [
      manifestExample(
        '- name: license-pool\n  serviceLevel: Standard\n  size: 4 TiB\n  networkFeatures: Basic\n  volumes:\n    - { name: flexlm, quota: 100 GiB }',
        '- name: license-pool\n  serviceLevel: Standard\n  size: 4 TiB\n  networkFeatures: Basic\n  volumes:\n    - { name: flexlm, quota: 4 TiB }',
      ),
    ],
    sources: ['SL', 'RL', 'CM'],
  },
  appliesTo: isManifest,
  checkPool({ pool }, context, manifest) {
    const level = pool.serviceLevel?.value;
    const rate = level ? serviceLevelRateMiBpsPerTiB(level) : undefined;
    if (
      !level ||
      rate === undefined ||
      poolQos(pool) !== 'auto' ||
      !pool.size ||
      !poolFullyKnown(pool) ||
      pool.repeated
    )
      return;
    const members = poolMemberVolumes(pool);
    if (members.length === 0 || members.some((v) => !v.quota || v.repeated || v.coolAccess?.enabled)) return;
    const sizeTiB = bytesToTiB(pool.size.value.bytes);
    const allocated = allocatedGiB(pool);
    if (allocated * SIZING_IAC.poolSlackFactor.value > tibToGiB(sizeTiB)) return;
    // The smallest the pool may be. Infrastructure code: only volumes that say Standard allow 1 TiB
    // (unset network features are read as Basic, as ANF405 does); a sizing manifest's own default applies there.
    const standardOnly =
      manifest.format === 'iac'
        ? members.every((v) => volumeNetworkFeaturesValue(pool, v)?.value === 'Standard')
        : !poolHasBasicNetworkFeatures(pool);
    const minimum = standardOnly ? POOL_LIMITS.minTiB.value : POOL_LIMITS.minTiBWithBasicNetworkFeatures.value;
    if (sizeTiB > minimum) return; // it could shrink: ANF405
    const free = tibToGiB(sizeTiB) - allocated;
    const paid = sizeTiB * rate;
    const gets = members.reduce((sum, v) => sum + manifestVolumeThroughput(pool, v).mibps, 0);
    const only = members.length === 1 && !(pool.elsewhere && pool.elsewhere.length > 0) ? members[0]! : undefined;
    const target = only ?? members[0]!;
    const grown = only ? Math.min(tibToGiB(sizeTiB), VOLUME_LIMITS.regularMaxGiB.value) : undefined;
    const who = only
      ? `${Named('volume', only.name)} (${sizeText(Math.round(allocated))}, ${level}, auto QoS) gets ${formatMiBps(gets)}`
      : `The ${members.length} volumes of ${named('pool', pool.name)} (${formatNumber(gibToTiB(allocated), 2)} TiB of quota, ${level}, auto QoS) get ${formatMiBps(gets)} together`;
    context.report({
      span: target.quota!.span,
      restsOn: poolValueSpans(pool),
      message: `${who} of the ${formatMiBps(paid)} ${only ? named('pool', pool.name) : 'the pool'}'s ${formatNumber(sizeTiB)} TiB pays for: with auto QoS the limit follows the quota "regardless of the capacity pool size", and the pool is already at its ${formatNumber(minimum)} TiB minimum${standardOnly ? '' : ' (Basic or unset network features)'}. Growing ${only ? 'the quota' : 'the quotas'} by up to ${formatNumber(Math.floor(free))} GiB costs nothing more${grown !== undefined ? `: at ${sizeText(grown)} it gets ${formatMiBps(gibToTiB(grown) * rate)}` : ''}.`,
      ...(only && grown !== undefined
        ? fixes(
            fixOf.unsafe(`Raise the quota to ${sizeText(grown)} (the pool's size)`, [
              replaceValue(only.quota, sizeText(grown)),
            ]),
          )
        : {}),
    });
  },
});
