import { API_VERSION_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { GiB, formatNumber } from '../../units/units';
import { estateOf, isIac, label, capitalized } from './helpers';

export const apiVersionVolumeMinimum = defineRule({
  code: 'ANF409',
  name: 'api-version-volume-minimum',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A volume below the minimum size of the API version it is deployed with',
    what: `A volume under ${API_VERSION_LIMITS.olderMinVolumeGiB.value} GiB declared with API version ${API_VERSION_LIMITS.olderApiVersionUpTo.value} or older. Those versions require at least ${API_VERSION_LIMITS.olderMinVolumeGiB.value} GiB; current versions allow smaller volumes (ANF111 checks the current limit). Versions between are not judged.`,
    why: 'The limit is checked against the API version in the template, so the deployment fails even though the service itself accepts the size today.',
    instead: 'Deploy with a current API version, or give the volume at least the old minimum.',
    examples: [
      {
        flagged: "resource v 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2021-10-01' = {\n  properties: { usageThreshold: 53687091200 }\n}",
        better: "resource v 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {\n  properties: { usageThreshold: 53687091200 }\n}",
        language: 'bicep',
      },
    ],
    sources: ['NETAPP_ARM_2022', 'NETAPP_ARM'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = estateOf(context.file);
    if (!estate) return;
    for (const volume of estate.volumes) {
      const api = volume.apiVersion?.value;
      const quota = volume.quota;
      if (!api || !quota || quota.value === undefined) continue;
      if (api.slice(0, API_VERSION_LIMITS.olderApiVersionUpTo.value.length) > API_VERSION_LIMITS.olderApiVersionUpTo.value) continue;
      const gib = quota.unit === 'B' ? quota.value / GiB : quota.unit === 'GiB' ? quota.value : quota.value * 1024; // not a fact: GiB per TiB
      if (gib >= API_VERSION_LIMITS.olderMinVolumeGiB.value) continue;
      context.report({
        span: quota.span,
        message: `${capitalized(label('volume', volume))} is ${formatNumber(gib, 2)} GiB, but API version ${api} requires at least ${API_VERSION_LIMITS.olderMinVolumeGiB.value} GiB. Use a current API version or a larger quota.`,
        related: [{ uri: context.file.uri, span: volume.apiVersion!.span, message: `API version ${api}` }],
      });
    }
  },
});
