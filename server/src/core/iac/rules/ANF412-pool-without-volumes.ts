import { poolThroughputBudgetMiBps } from '../../calc/throughput';
import { BILLING } from '../../facts';
import { figuresOf, named, pools } from '../../manifest/rules/helpers';
import { poolFullyKnown, poolQos } from '../../manifest/model';
import { defineRule, type RuleContext } from '../../rules/rule';
import { bytesToTiB, formatMiBps, formatNumber, formatUsd, tibToGiB } from '../../units/units';
import { resourceBySymbol, type IacPool } from '../estate';
import { estateOf, isIac, reachesOtherCode, sameResourceName } from './helpers';

export const poolWithoutVolumes = defineRule({
  code: 'ANF412',
  name: 'pool-without-volumes',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'A capacity pool no volume of the code uses',
    what: 'A capacity pool declared in a file that also declares volumes, when no volume in any file anf-lint read names it. Information for an auto QoS pool, a warning for a manual QoS pool (its whole throughput budget is assigned to nobody). Nothing is said when the file calls modules, is a module other files call, uses Bicep `existing` resources or ARM nested deployments, or when any volume names its pool in a way anf-lint cannot follow (a variable, an unknown expression): the volumes may be in code anf-lint did not read.',
    why: 'A pool is billed for its provisioned size, used or not (Cost model for Azure NetApp Files). A pool without volumes is often left over from a move or a rename, or waits for volumes someone forgot to add.',
    instead:
      'Delete the pool, or add the volumes meant for it. A pool kept on purpose for volumes created elsewhere (the portal, another pipeline) can carry a suppression comment with the reason.',
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_pool" "ultra" {\n  name          = "eda-ultra"\n  account_name  = "eda-prod"\n  service_level = "Ultra"\n  size_in_tb    = 4\n}\n\nresource "azurerm_netapp_pool" "old" {\n  name          = "eda-premium-old"\n  account_name  = "eda-prod"\n  service_level = "Premium"\n  size_in_tb    = 8\n  qos_type      = "Manual"\n}\n\nresource "azurerm_netapp_volume" "scratch" {\n  name                = "eda-scratch"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.ultra.name\n  service_level       = "Ultra"\n  volume_path         = "eda-scratch"\n  storage_quota_in_gb = 4096\n}',
        better:
          'resource "azurerm_netapp_pool" "ultra" {\n  name          = "eda-ultra"\n  account_name  = "eda-prod"\n  service_level = "Ultra"\n  size_in_tb    = 4\n}\n\nresource "azurerm_netapp_volume" "scratch" {\n  name                = "eda-scratch"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.ultra.name\n  service_level       = "Ultra"\n  volume_path         = "eda-scratch"\n  storage_quota_in_gb = 4096\n}',
        language: 'hcl',
      },
    ],
    sources: ['CM', 'MQ'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = estateOf(context.file);
    const manifest = context.file.manifest;
    if (!estate || !manifest || estate.volumes.length === 0 || reachesOtherCode(context.file)) return;
    const figures = figuresOf(context, manifest);
    for (const { pool } of pools(manifest)) {
      const symbol = pool.path[0];
      const declared = typeof symbol === 'string' ? resourceBySymbol(estate.pools, symbol) : undefined;
      if (
        !declared ||
        declared.declaredIn ||
        declared.repeated ||
        declared.name?.value === undefined ||
        declared.name.unknown
      )
        continue;
      if (poolHasVolume(context, declared) !== 'no') continue;
      const level = pool.serviceLevel?.value;
      const manual = poolQos(pool) === 'manual';
      const sizeTiB = pool.size && poolFullyKnown(pool) ? bytesToTiB(pool.size.value.bytes) : undefined;
      const cost =
        level && sizeTiB !== undefined
          ? ` (${formatUsd(tibToGiB(sizeTiB) * figures.prices.capacityPerGiBHour[level] * BILLING.hoursPerMonth.value)} a month at the ${level} list price)`
          : '';
      const budget =
        manual && level && level !== 'Flexible' && sizeTiB !== undefined
          ? `, and its whole ${formatMiBps(poolThroughputBudgetMiBps({ serviceLevel: level, sizeTiB }))} manual QoS budget is assigned to no volume`
          : manual
            ? ', and its manual QoS throughput is assigned to no volume'
            : '';
      context.report({
        span: declared.headSpan,
        ...(manual ? { severity: 'warning' as const } : {}),
        message: `${named('Pool', pool.name).replace(/^Pool/, 'Pool')} has no volume in the code anf-lint read: it is billed for its ${sizeTiB !== undefined ? `${formatNumber(sizeTiB)} TiB` : 'size'} used or not${cost}${budget}.`,
      });
    }
  },
});

/**
 * Whether some volume of the code anf-lint read may sit in this pool: 'yes', 'no', or 'unknown' when a
 * volume names its pool in a way anf-lint cannot follow (then nothing is said).
 */
function poolHasVolume(context: RuleContext, pool: IacPool): 'yes' | 'no' | 'unknown' {
  const name = pool.name?.value;
  for (const file of context.workspace.estateFiles()) {
    const estate = file.iac;
    if (!estate) continue;
    for (const volume of estate.volumes) {
      const ref = volume.pool;
      const refName = ref?.name?.value;
      if (refName !== undefined && !ref?.name?.unknown) {
        if (name !== undefined && sameResourceName(refName, name)) return 'yes';
        continue;
      }
      if (ref?.symbol !== undefined) {
        if (ref.symbol === pool.symbol) return 'yes';
        if (!resourceBySymbol(estate.pools, ref.symbol)) return 'unknown';
        continue;
      }
      return 'unknown';
    }
  }
  return 'no';
}
