import { API_VERSION_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { GiB, TiB, formatNumber } from '../../units/units';
import { isIac, label, capitalized } from './helpers';

export const apiVersionPoolMinimum = defineRule({
  code: 'ANF410',
  name: 'api-version-pool-minimum',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A capacity pool below the minimum size of the API version it is deployed with',
    what: `A capacity pool under ${API_VERSION_LIMITS.olderPoolMinTiB.value} TiB (a 1 TiB pool) declared with an API version dated before ${API_VERSION_LIMITS.onePoolApiVersionFrom.value} (Bicep \`@<api>\`, ARM \`apiVersion\`, an \`azapi_resource\` type). 1 TiB pools came with API version ${API_VERSION_LIMITS.onePoolApiVersionFrom.value}-preview; older versions refuse them. Pools of 2 or 3 TiB under older versions are not judged (2 TiB pools were a preview for a while before, and anf-lint cannot tell which versions took them), nor are stable versions from ${API_VERSION_LIMITS.onePoolApiVersionFrom.value} up. Terraform's \`azurerm_netapp_pool\` names no API version (the provider picks it) and is not judged. The current minimum (1 TiB with Standard network features, 4 TiB with Basic) is ANF110.`,
    why: 'The size is checked against the API version in the template: an old module pinned to an old API version fails to deploy a 1 TiB pool that the portal or a current template creates without complaint.',
    instead: `Deploy the pool with a current API version (${API_VERSION_LIMITS.onePoolStableApiVersionFrom.value} or later among stable versions): the pool's properties are written the same way.`,
    examples: [
      {
        flagged:
          "resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2022-11-01' = {\n  properties: { serviceLevel: 'Premium', size: 1099511627776 }\n}",
        better:
          "resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {\n  properties: { serviceLevel: 'Premium', size: 1099511627776 }\n}",
        language: 'bicep',
      },
    ],
    sources: ['AVM_NETAPP_POOL', 'NETAPP_POOLS_API', 'RL'],
  },
  appliesTo: isIac,
  checkIacPool(pool, context) {
    const api = pool.apiVersion?.value;
    const size = pool.size;
    if (pool.declaredIn || !api || !size || size.value === undefined || !predatesOneTiBPools(api)) return;
    const tib = size.value * UNIT_TIB[size.unit];
    if (tib >= API_VERSION_LIMITS.olderPoolMinTiB.value) return;
    context.report({
      span: size.span,
      message: `${capitalized(label('pool', pool))} is ${formatNumber(tib, 2)} TiB, but API version ${api} predates 1 TiB capacity pools (they came with ${API_VERSION_LIMITS.onePoolApiVersionFrom.value}-preview): the deployment is refused. Use a current API version (${API_VERSION_LIMITS.onePoolStableApiVersionFrom.value} or later among stable ones); the pool's properties stay the same.`,
      related: [{ uri: context.file.uri, span: pool.apiVersion!.span, message: `API version ${api}` }],
    });
  },
});

const UNIT_TIB = { TiB: 1, GiB: GiB / TiB, B: 1 / TiB } as const;

/** Whether an API version (`2023-05-01`, `2023-07-01-preview`) predates 1 TiB capacity pools. */
export function predatesOneTiBPools(api: string): boolean {
  const date = api.slice(0, API_VERSION_LIMITS.onePoolApiVersionFrom.value.length);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && date < API_VERSION_LIMITS.onePoolApiVersionFrom.value;
}
