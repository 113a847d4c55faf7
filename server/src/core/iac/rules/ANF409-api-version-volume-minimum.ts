import { API_VERSION_LIMITS, VOLUME_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { GiB, formatNumber } from '../../units/units';
import { isIac, label, capitalized } from './helpers';

const ROWS = API_VERSION_LIMITS.volumeMinUsageThresholdByApiVersion.value;
const OLDEST = ROWS[0]!;
const LATEST_OLD = ROWS[0]!.upToApiVersion;

export const apiVersionVolumeMinimum = defineRule({
  code: 'ANF409',
  name: 'api-version-volume-minimum',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A volume below the minimum size of the API version it is deployed with',
    what: `A volume whose quota is under the smallest \`usageThreshold\` of the API version it is declared with: ${formatNumber(OLDEST.minBytes / GiB)} GiB in every Microsoft.NetApp API version from ${OLDEST.fromApiVersion} up to ${LATEST_OLD} (previews included), ${formatNumber(ROWS[1]!.minBytes / GiB)} GiB from ${ROWS[1]!.fromApiVersion}. The bound per API version is read from Azure's generated ARM types (bicep-types-az). Current versions' limits are ANF111's; versions no row covers are not judged.`,
    why: 'The limit is checked against the API version in the template, so the deployment fails even though the service itself accepts the size today. The generated types for Microsoft.NetApp (Azure/bicep-types-az, `generated/netapp/microsoft.netapp/<api-version>/types.json`) declare `usageThreshold` with `minValue: 107374182400` (100 GiB) in every API version up to 2023-11-01 and `minValue: 53687091200` (50 GiB) from 2024-01-01.',
    instead: 'Deploy with a current API version, or give the volume at least the old minimum.',
    examples: [
      {
        flagged:
          "resource v 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2021-10-01' = {\n  properties: { usageThreshold: 53687091200 }\n}",
        better:
          "resource v 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {\n  properties: { usageThreshold: 53687091200 }\n}",
        language: 'bicep',
      },
    ],
    sources: ['BICEP_TYPES_NETAPP', 'NETAPP_ARM_2022', 'NETAPP_ARM'],
  },
  appliesTo: isIac,
  checkIacVolume(volume, context) {
    const api = volume.apiVersion?.value;
    const quota = volume.quota;
    if (!api || !quota || quota.value === undefined) return;
    const minBytes = minimumBytesFor(api);
    if (minBytes === undefined) return;
    const minGiB = minBytes / GiB;
    if (minGiB <= VOLUME_LIMITS.regularMinGiB.value) return; // today's minimum: ANF111's
    const gib = quota.unit === 'B' ? quota.value / GiB : quota.unit === 'GiB' ? quota.value : quota.value * 1024;
    if (gib >= minGiB) return;
    context.report({
      span: quota.span,
      message: `${capitalized(label('volume', volume))} is ${formatNumber(gib, 2)} GiB, but API version ${api} requires at least ${formatNumber(minGiB)} GiB (\`usageThreshold\` ${formatNumber(minBytes)} bytes or more). Use API version ${ROWS[1]!.fromApiVersion} or later, or a larger quota.`,
      related: [{ uri: context.file.uri, span: volume.apiVersion!.span, message: `API version ${api}` }],
    });
  },
});

/** The smallest usageThreshold the API version accepts, in bytes, or undefined for a version no row covers. */
function minimumBytesFor(apiVersion: string): number | undefined {
  const date = apiVersion.slice(0, 10);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  return ROWS.find((row) => date >= row.fromApiVersion && date <= row.upToApiVersion)?.minBytes;
}
