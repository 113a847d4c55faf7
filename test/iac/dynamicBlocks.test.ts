import { describe, expect, it } from 'vitest';
import { parseFile } from '../../server/src/core';
import { delegatedToNetApp } from '../../server/src/core/iac/subnets';

/**
 * Terraform `dynamic` blocks (Terraform's "Dynamic Blocks" reference): the `content` once per
 * element of `for_each`, the iterator named by `iterator` or else by the block type.
 */
const VOLUME_HEAD = `resource "azurerm_netapp_volume" "v" {
  name                = "tools"
  account_name        = "acct"
  pool_name           = "pool"
  service_level       = "Premium"
  volume_path         = "tools"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = 1024
`;

function volumeOf(text: string) {
  const file = parseFile('file:///repo/main.tf', text);
  return file.iac!.volumes[0]!;
}

describe('dynamic blocks', () => {
  it('generate one export rule per list element, keyed by index, after the rules written before them', () => {
    const volume = volumeOf(`${VOLUME_HEAD}
  export_policy_rule {
    rule_index      = 1
    allowed_clients = ["10.1.0.0/24"]
    root_access_enabled = false
  }
  dynamic "export_policy_rule" {
    for_each = [{ cidr = "10.2.0.0/24", root = true }, { cidr = "0.0.0.0/0", root = false }]
    content {
      rule_index          = export_policy_rule.key + 2
      allowed_clients     = [export_policy_rule.value.cidr]
      root_access_enabled = export_policy_rule.value.root
    }
  }
}
`);
    expect(volume.exportRules.map((r) => [r.allowedClients?.value, r.rootAccess?.value])).toEqual([
      ['10.1.0.0/24', false],
      ['10.2.0.0/24', true],
      ['0.0.0.0/0', false],
    ]);
  });

  it('name the iterator with `iterator`, see the resource instance`s `each`, and never offer an edit of the shared text', () => {
    const file = parseFile(
      'file:///repo/main.tf',
      `resource "azurerm_netapp_volume" "v" {
  for_each            = { tools = ["10.3.0.0/24", "10.4.0.0/24"] }
  name                = each.key
  account_name        = "acct"
  pool_name           = "pool"
  service_level       = "Premium"
  volume_path         = each.key
  protocols           = ["NFSv3"]
  storage_quota_in_gb = 1024

  dynamic "export_policy_rule" {
    for_each = toset(each.value)
    iterator = client
    content {
      rule_index        = 1
      allowed_clients   = [client.value]
      protocols_enabled = ["NFSv4.1"]
    }
  }
}
`,
    );
    const volume = file.iac!.volumes[0]!;
    expect(volume.exportRules.map((r) => r.allowedClients?.value)).toEqual(['10.3.0.0/24', '10.4.0.0/24']);
    // One text stands for both rules: a fix there would change both, so there is nothing to edit.
    expect(volume.exportRules.every((r) => r.protocols?.value?.[0] === 'NFSv4.1' && !r.protocols.editSpan)).toBe(true);
  });

  it('read nothing when the elements are not known, or are more than the loop bound', () => {
    const unknownList = volumeOf(`${VOLUME_HEAD}
  dynamic "export_policy_rule" {
    for_each = var.rules
    content {
      allowed_clients = [export_policy_rule.value]
    }
  }
}
`);
    expect(unknownList.exportRules).toEqual([]);
    const tooMany = volumeOf(`${VOLUME_HEAD}
  dynamic "export_policy_rule" {
    for_each = range(1000)
    content {
      allowed_clients = ["10.0.0.\${export_policy_rule.value}/32"]
    }
  }
}
`);
    expect(tooMany.exportRules).toEqual([]);
  });

  it('nest: a subnet delegation written as dynamic blocks inside a dynamic block', () => {
    const file = parseFile(
      'file:///repo/net.tf',
      `locals {
  delegations = { netapp = ["Microsoft.Netapp/volumes"] }
}

resource "azurerm_subnet" "anf" {
  name                 = "snet-anf"
  virtual_network_name = "vnet-a"
  address_prefixes     = ["10.0.4.0/26"]

  dynamic "delegation" {
    for_each = local.delegations
    content {
      name = delegation.key
      dynamic "service_delegation" {
        for_each = delegation.value
        content {
          name = service_delegation.value
        }
      }
    }
  }
}
`,
    );
    const subnet = file.iac!.subnets![0]!;
    expect(delegatedToNetApp(subnet)?.value).toBe('Microsoft.Netapp/volumes');
  });
});
