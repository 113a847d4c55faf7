import { defineRule } from '../../rules/rule';
import { isIac, label } from './helpers';

export const exportRootOpen = defineRule({
  code: 'ANF403',
  name: 'export-root-open',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'Root access granted to every client (0.0.0.0/0)',
    what: 'An export policy rule with `allowed_clients`/`allowedClients` `0.0.0.0/0` and root access (`root_access_enabled = true`, `hasRootAccess: true`).',
    why: "Any host that can reach the volume's network may mount it and act as root on every file. Root access is often needed for a few administration hosts, rarely for a whole address space.",
    instead:
      'Allow root only to the subnets or hosts that need it, in a rule of their own, and give the wide rule `root_access_enabled = false`.',
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = "eda-premium"\n  service_level       = "Premium"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = 1024\n  protocols           = ["NFSv3"]\n\n  export_policy_rule {\n    rule_index          = 1\n    allowed_clients     = ["0.0.0.0/0"]\n    protocols_enabled   = ["NFSv3"]\n    root_access_enabled = true\n  }\n}',
        better:
          'resource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = "eda-premium"\n  service_level       = "Premium"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = 1024\n  protocols           = ["NFSv3"]\n\n  export_policy_rule {\n    rule_index          = 1\n    allowed_clients     = ["10.10.0.0/16"]\n    protocols_enabled   = ["NFSv3"]\n    root_access_enabled = false\n  }\n}',
        language: 'hcl',
      },
    ],
    sources: ['TF_NETAPP_VOLUME', 'NETAPP_ARM'],
  },
  appliesTo: isIac,
  checkIacVolume(volume, context) {
    volume.exportRules.forEach((rule, index) => {
      if (rule.rootAccess?.value !== true || !rule.allowedClients?.value || !OPEN.test(rule.allowedClients.value))
        return;
      context.report({
        span: rule.allowedClients.span,
        message: `Export rule ${index + 1} of ${label('volume', volume)} gives root access to every client (0.0.0.0/0). Allow root only to the hosts that need it.`,
        related: [{ uri: context.file.uri, span: rule.rootAccess.span, message: 'root access enabled here' }],
      });
    });
  },
});

const OPEN = /(^|,)\s*0\.0\.0\.0\/0\s*(,|$)/;
