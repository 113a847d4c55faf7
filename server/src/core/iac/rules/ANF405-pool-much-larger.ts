import { ceilWhole, poolThroughputBudgetMiBps } from '../../calc/throughput';
import { BILLING, POOL_LIMITS, SIZING_IAC } from '../../facts';
import {
  allocatedGiB,
  figuresOf,
  fixes,
  fixOf,
  named,
  poolValueSpans,
  replaceValue,
} from '../../manifest/rules/helpers';
import { poolFullyKnown, poolMemberVolumes, poolQos, volumeNetworkFeaturesValue } from '../../manifest/model';
import { defineRule } from '../../rules/rule';
import { bytesPerSecondToMiBps, bytesToTiB, formatNumber, formatUsd, gibToTiB, tibToGiB } from '../../units/units';
import { isIac } from './helpers';

export const poolMuchLarger = defineRule({
  code: 'ANF405',
  name: 'pool-much-larger',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: ['unsafe'],
  doc: {
    title: 'A capacity pool far larger than its volumes',
    what: `A capacity pool at least ${SIZING_IAC.poolSlackFactor.value} times the sum of its volume quotas, with at least ${POOL_LIMITS.incrementTiB.value} TiB it could shed. The factor is anf-lint's own judgement.`,
    why: 'A pool is billed for its provisioned size, used or not. With auto QoS the unused part gives no volume any throughput; with manual QoS it adds to a budget that is only useful when assigned. The message says what the gap costs a month.',
    instead:
      "Shrink the pool to the smallest whole TiB that holds the volumes (and, with manual QoS, the throughput assigned), or grow the volumes that need it. The smallest size is never under 4 TiB unless every volume of the pool sets Standard network features: the azurerm provider documents Basic as the default when `network_features` is unset (anf-lint reads unset network features in Bicep and ARM the same way), and 1 TiB pools need Standard. That floor is uncertain when volumes leave network features unset (defaults differ between tools and have changed), and the message says so when it decides the size. The fix sets that size, in the source's own units.",
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_pool" "p" {\n  name          = "eda-premium"\n  account_name  = "eda-prod"\n  service_level = "Premium"\n  size_in_tb    = 20\n}\n\nresource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.p.name\n  service_level       = "Premium"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = 4096\n}',
        better:
          'resource "azurerm_netapp_pool" "p" {\n  name          = "eda-premium"\n  account_name  = "eda-prod"\n  service_level = "Premium"\n  size_in_tb    = 4\n}\n\nresource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.p.name\n  service_level       = "Premium"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = 4096\n}',
        language: 'hcl',
      },
    ],
    sources: ['CM', 'RL'],
  },
  appliesTo: isIac,
  checkPool({ pool }, context, manifest) {
    const level = pool.serviceLevel?.value;
    const members = poolMemberVolumes(pool);
    if (!level || !pool.size || !poolFullyKnown(pool) || members.length === 0 || members.some((v) => !v.quota)) return;
    const sizeTiB = bytesToTiB(pool.size.value.bytes);
    const allocated = allocatedGiB(pool);
    // 1 TiB pools need Standard network features on every volume. The azurerm provider documents
    // Basic as the default when they are unset; taken the same way in Bicep and ARM, only volumes
    // that say Standard let the pool go below 4 TiB (the reading that cannot propose a pool
    // that fails to deploy).
    const allStandard = members.every((v) => volumeNetworkFeaturesValue(pool, v)?.value === 'Standard');
    const min = allStandard ? POOL_LIMITS.minTiB.value : POOL_LIMITS.minTiBWithBasicNetworkFeatures.value;
    // Volumes that leave network features unset (and none that says Basic): the 4 TiB floor is a
    // reading of the provider's documented default, not something the code says.
    const unset = members.filter((v) => volumeNetworkFeaturesValue(pool, v) === undefined).length;
    const floorUncertain =
      !allStandard && unset > 0 && members.every((v) => volumeNetworkFeaturesValue(pool, v)?.value !== 'Basic');
    let smallest = Math.max(min, ceilWhole(gibToTiB(allocated)));
    const floorDecides = smallest === min && ceilWhole(gibToTiB(allocated)) < min;
    if (poolQos(pool) === 'manual') {
      const assigned = members.reduce(
        (sum, v) => sum + (v.throughput ? bytesPerSecondToMiBps(v.throughput.value.bytesPerSecond) : 0),
        0,
      );
      const flexible = pool.throughput ? bytesPerSecondToMiBps(pool.throughput.value.bytesPerSecond) : undefined;
      while (
        smallest < sizeTiB &&
        poolThroughputBudgetMiBps({
          serviceLevel: level,
          sizeTiB: smallest,
          ...(flexible !== undefined ? { flexibleThroughputMiBps: flexible } : {}),
        }) < assigned
      )
        smallest++;
    }
    const gap = sizeTiB - smallest;
    if (gap < POOL_LIMITS.incrementTiB.value || sizeTiB < SIZING_IAC.poolSlackFactor.value * gibToTiB(allocated))
      return;
    const monthly =
      tibToGiB(gap) * figuresOf(context, manifest).prices.capacityPerGiBHour[level] * BILLING.hoursPerMonth.value;
    context.report({
      span: pool.size.span,
      restsOn: poolValueSpans(pool),
      message: `${named('Pool', pool.name).replace(/^pool/, 'Pool')} is ${formatNumber(sizeTiB)} TiB, but its volumes hold ${formatNumber(gibToTiB(allocated), 2)} TiB of quota: ${formatNumber(smallest)} TiB would do, and the other ${formatNumber(gap)} TiB cost ${formatUsd(monthly)} a month at the ${level} list price.${floorUncertain && floorDecides ? ` The ${formatNumber(min)} TiB floor is uncertain: ${unset === members.length ? (members.length === 1 ? 'the volume leaves' : `all ${members.length} volumes leave`) : `${unset} of its ${members.length} volumes leave`} network features unset, and only Basic network features need ${formatNumber(min)} TiB (with Standard on every volume the pool may go down to ${formatNumber(POOL_LIMITS.minTiB.value)} TiB); anf-lint takes the provider's documented default, Basic, so as not to propose a pool that fails to deploy. Set the network features to say which.` : ''}`,
      ...fixes(fixOf.unsafe(`Shrink the pool to ${smallest} TiB`, [replaceValue(pool.size, `${smallest} TiB`)])),
    });
  },
});
