import { poolThroughputBudgetMiBps, serviceLevelRateMiBpsPerTiB } from '../../calc/throughput';
import { BILLING, QOS } from '../../facts';
import { figuresOf, named, poolValueSpans } from '../../manifest/rules/helpers';
import { poolFullyKnown, poolMemberVolumes, poolQos } from '../../manifest/model';
import { defineRule } from '../../rules/rule';
import { bytesPerSecondToMiBps, bytesToTiB, formatMiBps, formatNumber, formatUsd, tibToGiB } from '../../units/units';
import { isIac } from './helpers';

export const manualQosUnassigned = defineRule({
  code: 'ANF404',
  name: 'manual-qos-unassigned',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: "Part of a manual-QoS pool's throughput is assigned to no volume",
    what: 'A manual-QoS capacity pool (not Flexible) whose volumes are assigned less throughput in total than the pool provides (size x service-level rate). Over-assignment is ANF114.',
    why: 'With manual QoS a volume gets exactly what is assigned to it; what no volume is assigned is paid for with the pool capacity and used by nobody. The message says what the unassigned part costs a month.',
    instead:
      'Assign the rest to the volumes that need it (`throughput_in_mibps`, `throughputMibps`), or shrink the pool if capacity allows.',
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_pool" "hana" {\n  name          = "hana-ultra"\n  account_name  = "sap-prod"\n  service_level = "Ultra"\n  size_in_tb    = 10\n  qos_type      = "Manual"\n}\n\nresource "azurerm_netapp_volume" "data" {\n  name                = "hana-data"\n  account_name        = "sap-prod"\n  pool_name           = azurerm_netapp_pool.hana.name\n  service_level       = "Ultra"\n  volume_path         = "hana-data"\n  storage_quota_in_gb = 8192\n  throughput_in_mibps = 900\n}',
        better:
          'resource "azurerm_netapp_pool" "hana" {\n  name          = "hana-ultra"\n  account_name  = "sap-prod"\n  service_level = "Ultra"\n  size_in_tb    = 10\n  qos_type      = "Manual"\n}\n\nresource "azurerm_netapp_volume" "data" {\n  name                = "hana-data"\n  account_name        = "sap-prod"\n  pool_name           = azurerm_netapp_pool.hana.name\n  service_level       = "Ultra"\n  volume_path         = "hana-data"\n  storage_quota_in_gb = 8192\n  throughput_in_mibps = 1280\n}',
        language: 'hcl',
      },
    ],
    sources: ['SL', 'CM'],
  },
  appliesTo: isIac,
  checkPool({ pool }, context, manifest) {
    const level = pool.serviceLevel?.value;
    if (
      !level ||
      level === 'Flexible' ||
      poolQos(pool) !== 'manual' ||
      !pool.size ||
      !poolFullyKnown(pool) ||
      poolMemberVolumes(pool).length === 0
    )
      return;
    const sizeTiB = bytesToTiB(pool.size.value.bytes);
    const budget = poolThroughputBudgetMiBps({ serviceLevel: level, sizeTiB });
    const assigned = poolMemberVolumes(pool).reduce(
      (sum, v) => sum + (v.throughput ? bytesPerSecondToMiBps(v.throughput.value.bytesPerSecond) : 0),
      0,
    );
    const unassigned = budget - assigned;
    const rate = serviceLevelRateMiBpsPerTiB(level);
    if (unassigned < QOS.manualMinVolumeThroughputMiBps.value || !rate) return;
    const monthly =
      tibToGiB(unassigned / rate) *
      figuresOf(context, manifest).prices.capacityPerGiBHour[level] *
      BILLING.hoursPerMonth.value;
    context.report({
      span: pool.size.span,
      restsOn: poolValueSpans(pool),
      message: `${formatMiBps(unassigned)} of the ${formatMiBps(budget)} of manual-QoS ${named('pool', pool.name)} (${formatNumber(sizeTiB)} TiB x ${rate} MiB/s per TiB) is assigned to no volume: ${formatUsd(monthly)} a month at the ${level} list price buys throughput nobody uses.`,
    });
  },
});
