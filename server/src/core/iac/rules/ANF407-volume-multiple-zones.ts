import { VOLUME_RESOURCE } from '../../facts';
import { defineRule } from '../../rules/rule';
import { isIac, label, capitalized } from './helpers';

export const volumeMultipleZones = defineRule({
  code: 'ANF407',
  name: 'volume-multiple-zones',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A volume given more than one availability zone',
    what: `A volume with more than ${VOLUME_RESOURCE.zonesPerVolume.value} entry in \`zones\` (ARM, Bicep, azapi).`,
    why: 'An Azure NetApp Files volume lives in exactly one availability zone; the deployment fails with more. Zone redundancy comes from cross-zone replication to a second volume, not from listing zones.',
    instead:
      'Give the volume the one zone where its clients run, and replicate to a volume in another zone if you need zone redundancy.',
    examples: [
      {
        flagged:
          "resource volume 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {\n  name: 'anf-prod/premium/data'\n  location: resourceGroup().location\n  zones: [ '1', '2' ]\n  properties: {\n    creationToken: 'data'\n    usageThreshold: 107374182400\n  }\n}",
        better:
          "resource volume 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {\n  name: 'anf-prod/premium/data'\n  location: resourceGroup().location\n  zones: [ '1' ]\n  properties: {\n    creationToken: 'data'\n    usageThreshold: 107374182400\n  }\n}",
        language: 'bicep',
      },
    ],
    sources: ['AZ_ZONES'],
  },
  appliesTo: isIac,
  checkIacVolume(volume, context) {
    const zones = volume.zones?.value;
    if (!zones || zones.length <= VOLUME_RESOURCE.zonesPerVolume.value) return;
    context.report({
      span: volume.zones!.span,
      message: `${capitalized(label('volume', volume))} lists ${zones.length} availability zones (${zones.join(', ')}); a volume lives in exactly one. Keep the zone of its clients.`,
    });
  },
});
