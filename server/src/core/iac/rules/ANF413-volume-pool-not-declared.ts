import { defineRule, type RuleContext } from '../../rules/rule';
import { poolOfVolume } from '../estate';
import { capitalized, estateOf, isIac, label, reachesOtherCode, sameResourceName } from './helpers';

export const volumePoolNotDeclared = defineRule({
  code: 'ANF413',
  name: 'volume-pool-not-declared',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'A volume names a capacity pool the code does not declare',
    what: 'In a file that declares capacity pools, a volume whose pool, named by a literal (an ARM `name` of `account/pool/volume`, a Terraform `pool_name = "..."`, a Bicep `parent` chain written as a name), is none of the pools of any file anf-lint read (ARM names compare without case). A warning when the volume\'s account is declared in the same file, information otherwise. Nothing is said for a pool named by a reference or an expression anf-lint cannot follow, or when the file calls modules, is called as one, uses Bicep `existing` resources or ARM nested deployments.',
    why: 'A volume deploys into the pool its name or `pool_name` says. When the file declares pools and the volume names another, the usual cause is a typo or a rename that missed a volume: the deployment then fails (no such pool) or puts the volume in an older pool. anf-lint says only what the files show: a pool created outside this code is legitimate, and then nothing is wrong.',
    instead:
      'Name one of the declared pools (better: refer to it, `azurerm_netapp_pool.x.name`, `parent: pool`, `[concat(...)]` with the same parameters), or declare the pool the volume names.',
    examples: [
      {
        flagged:
          '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",\n  "contentVersion": "1.0.0.0",\n  "resources": [\n    {\n      "type": "Microsoft.NetApp/netAppAccounts/capacityPools",\n      "apiVersion": "2025-06-01",\n      "name": "anf-prod/premium",\n      "location": "westeurope",\n      "properties": { "serviceLevel": "Premium", "size": 4398046511104 }\n    },\n    {\n      "type": "Microsoft.NetApp/netAppAccounts/capacityPools/volumes",\n      "apiVersion": "2025-06-01",\n      "name": "anf-prod/premuim/data",\n      "location": "westeurope",\n      "properties": { "creationToken": "data", "usageThreshold": 1099511627776 }\n    }\n  ]\n}',
        better:
          '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",\n  "contentVersion": "1.0.0.0",\n  "resources": [\n    {\n      "type": "Microsoft.NetApp/netAppAccounts/capacityPools",\n      "apiVersion": "2025-06-01",\n      "name": "anf-prod/premium",\n      "location": "westeurope",\n      "properties": { "serviceLevel": "Premium", "size": 4398046511104 }\n    },\n    {\n      "type": "Microsoft.NetApp/netAppAccounts/capacityPools/volumes",\n      "apiVersion": "2025-06-01",\n      "name": "anf-prod/premium/data",\n      "location": "westeurope",\n      "properties": { "creationToken": "data", "usageThreshold": 1099511627776 }\n    }\n  ]\n}',
        language: 'json',
        file: 'azuredeploy.json',
      },
    ],
    sources: ['NETAPP_ARM', 'TF_NETAPP_VOLUME'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = estateOf(context.file);
    if (!estate || reachesOtherCode(context.file)) return;
    const declared = estate.pools.filter((p) => !p.declaredIn && p.name?.value !== undefined && !p.name.unknown);
    if (declared.length === 0) return;
    for (const volume of estate.volumes) {
      const ref = volume.pool;
      const name = ref?.name;
      // Only a pool named by a literal: a reference anf-lint cannot resolve may be anything.
      if (!ref || ref.symbol !== undefined || !name || name.value === undefined || name.unknown || name.vars?.length)
        continue;
      if (poolOfVolume(estate, volume) || anyPoolNamed(context, name.value)) continue;
      const accountName = volume.account?.name?.value;
      const accountHere =
        accountName !== undefined &&
        estate.accounts.some((a) => a.name?.value !== undefined && sameResourceName(a.name.value, accountName));
      const here = declared.map((p) => `\`${p.name!.value}\``).join(', ');
      context.report({
        span: name.span,
        ...(accountHere ? { severity: 'warning' as const } : {}),
        message: `${capitalized(label('volume', volume))} names pool \`${name.value}\`, which no file anf-lint read declares; this file declares ${declared.length === 1 ? 'pool' : 'pools'} ${here}${accountHere ? ` in account \`${accountName}\`, which it declares too` : ''}. If the volume is meant for one of them, the names do not match; if \`${name.value}\` exists outside this code, nothing is wrong.`,
      });
    }
  },
});

/** Whether any file anf-lint read declares a pool of this name. */
function anyPoolNamed(context: RuleContext, name: string): boolean {
  for (const file of context.workspace.estateFiles()) {
    if (file.iac?.pools.some((p) => p.name?.value !== undefined && sameResourceName(p.name.value, name))) return true;
  }
  return false;
}
