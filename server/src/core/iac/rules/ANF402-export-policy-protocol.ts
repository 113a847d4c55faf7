import { defineRule } from '../../rules/rule';
import type { IacExportRule, IacVolume } from '../estate';
import { protocolOf } from '../estate';
import type { Protocol } from '../../manifest/model';
import { isIac, label } from './helpers';

export const exportPolicyProtocol = defineRule({
  code: 'ANF402',
  name: 'export-policy-protocol',
  domain: 'iac',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'An export policy rule allows none of the protocols the volume serves, or one it does not serve',
    what: "An `export_policy_rule` (Terraform) or `exportPolicy.rules` entry (ARM, Bicep) whose protocols (`protocols_enabled`, or `nfsv3`/`nfsv41`/`cifs`) do not match the volume's `protocols`/`protocolTypes`.",
    why: 'A rule that allows only protocols the volume does not serve lets no client of that rule mount: the mount fails with "access denied" although the addresses match. A rule that also allows a protocol the volume does not serve is harmless but says something untrue about the volume, often left over from a copied template.',
    instead:
      "List in each rule the protocols the volume serves (for a dual-protocol volume, those the rule's clients use).",
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_volume" "shared" {\n  name                = "hana-shared"\n  account_name        = "sap-prod"\n  pool_name           = "hana-premium"\n  service_level       = "Premium"\n  volume_path         = "hana-shared"\n  storage_quota_in_gb = 1024\n  protocols           = ["NFSv4.1"]\n\n  export_policy_rule {\n    rule_index        = 1\n    allowed_clients   = ["10.20.0.0/16"]\n    protocols_enabled = ["NFSv3"]\n  }\n}',
        better:
          'resource "azurerm_netapp_volume" "shared" {\n  name                = "hana-shared"\n  account_name        = "sap-prod"\n  pool_name           = "hana-premium"\n  service_level       = "Premium"\n  volume_path         = "hana-shared"\n  storage_quota_in_gb = 1024\n  protocols           = ["NFSv4.1"]\n\n  export_policy_rule {\n    rule_index        = 1\n    allowed_clients   = ["10.20.0.0/16"]\n    protocols_enabled = ["NFSv4.1"]\n  }\n}',
        language: 'hcl',
      },
    ],
    sources: ['TF_NETAPP_VOLUME', 'NETAPP_ARM'],
  },
  appliesTo: isIac,
  checkIacVolume(volume, context) {
    const serves = served(volume);
    if (!serves || serves.size === 0) return;
    volume.exportRules.forEach((rule, index) => {
      const allows = allowed(rule);
      if (!allows) return;
      const list = (set: Set<Protocol>) => [...set].join(', ') || 'no protocol';
      const extra = [...allows].filter((p) => !serves.has(p));
      const overlap = [...allows].filter((p) => serves.has(p));
      const span = rule.protocols?.span ?? rule.nfsv3?.span ?? rule.nfsv41?.span ?? rule.span;
      if (overlap.length === 0) {
        context.report({
          span,
          message: `Export rule ${index + 1} of ${label('volume', volume)} allows ${list(allows)}, but the volume serves ${list(serves)}: the clients this rule matches cannot mount it.`,
        });
      } else if (extra.length > 0) {
        context.report({
          span,
          severity: 'info',
          message: `Export rule ${index + 1} of ${label('volume', volume)} allows ${extra.join(', ')}, which the volume does not serve (it serves ${list(serves)}).`,
        });
      }
    });
  },
});

/** The protocols an export rule allows, or undefined when any of it is unknown. */
function allowed(rule: IacExportRule): Set<Protocol> | undefined {
  if (rule.protocols) {
    if (rule.protocols.value === undefined) return undefined;
    return new Set(rule.protocols.value.flatMap((p) => (protocolOf(p) ? [protocolOf(p)!] : [])));
  }
  const flags: [Protocol, IacExportRule['nfsv3']][] = [
    ['NFSv3', rule.nfsv3],
    ['NFSv4.1', rule.nfsv41],
    ['SMB', rule.cifs],
  ];
  if (flags.every(([, f]) => f === undefined)) return undefined;
  if (flags.some(([, f]) => f !== undefined && f.value === undefined)) return undefined;
  return new Set(flags.filter(([, f]) => f?.value === true).map(([p]) => p));
}

function served(volume: IacVolume): Set<Protocol> | undefined {
  if (!volume.protocols || volume.protocols.value === undefined) return undefined;
  return new Set(volume.protocols.value.flatMap((p) => (protocolOf(p) ? [protocolOf(p)!] : [])));
}
