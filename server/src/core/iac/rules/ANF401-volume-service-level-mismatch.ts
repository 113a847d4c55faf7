import { unsafeFix } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { poolOfVolume } from '../estate';
import { isIac, label, capitalized } from './helpers';

export const volumeServiceLevelMismatch = defineRule({
  code: 'ANF401',
  name: 'volume-service-level-mismatch',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: "A volume's service level differs from its capacity pool's",
    what: "An `azurerm_netapp_volume` `service_level` (or a volume's `serviceLevel` property) that is not the service level of the capacity pool the volume is in.",
    why: "A volume gets its pool's service level: its throughput is quota x the pool's rate. A different value in the code is refused by the API or, where the property is only informative, misleads everyone who reads the code (and anf-lint's figures use the pool's). To move a volume to another service level, move it to a pool of that level.",
    instead:
      "Write the pool's service level on the volume, or point the volume at a pool of the level you want. The fix writes the pool's level.",
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_pool" "premium" {\n  name          = "eda-premium"\n  account_name  = "eda-prod"\n  service_level = "Premium"\n  size_in_tb    = 4\n}\n\nresource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.premium.name\n  service_level       = "Standard"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = 1024\n}',
        better:
          'resource "azurerm_netapp_pool" "premium" {\n  name          = "eda-premium"\n  account_name  = "eda-prod"\n  service_level = "Premium"\n  size_in_tb    = 4\n}\n\nresource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.premium.name\n  service_level       = "Premium"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = 1024\n}',
        language: 'hcl',
      },
    ],
    sources: ['TF_NETAPP_VOLUME', 'SL'],
  },
  appliesTo: isIac,
  checkIacVolume(volume, context, estate) {
    const pool = poolOfVolume(estate, volume);
    const mine = volume.serviceLevel?.value;
    const theirs = pool?.serviceLevel?.value;
    if (!pool || mine === undefined || theirs === undefined || mine.toLowerCase() === theirs.toLowerCase()) return;
    const at = volume.serviceLevel!;
    context.report({
      span: at.span,
      restsOn: [pool.serviceLevel!.span],
      message: `${capitalized(label('volume', volume))} says service level \`${mine}\`, but its ${label('pool', pool)} is \`${theirs}\`: a volume has its pool's service level (and its throughput rate). Write \`${theirs}\`, or move the volume to a ${mine} pool.`,
      related: [
        {
          uri: context.file.uri,
          span: pool.serviceLevel!.span,
          message: `${pool.name?.value ?? pool.symbol}: ${theirs}`,
        },
      ],
      ...(at.editSpan
        ? {
            fixes: [unsafeFix(`Use the pool's service level \`${theirs}\``, [{ span: at.editSpan, newText: theirs }])],
          }
        : {}),
    });
  },
});
