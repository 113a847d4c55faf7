import { describe, expect, it } from 'vitest';
import { readTerraform } from '../../server/src/core/iac/terraform';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Issue 32: a file read alone lets go of what it read for each resource block once the block is
 * read (node wrappers, fields, values), so a 10 MiB file is not held whole until its end. A block
 * let go is read again when a later block refers to it: these readings must be the same as if
 * nothing had been let go (a pool referred to before and after it is read, locals shared by
 * several blocks, `for_each` instances), and a second reading of the same text the same as the first.
 */
const TEXT = `locals {
  tags = { env = "prod", owner = "storage" }
  keys = toset(["a", "b"])
}

resource "azurerm_netapp_account" "acct" {
  name                = "acct"
  location            = "eastus"
  resource_group_name = "rg"
}

resource "azurerm_netapp_pool" "early" {
  name                = "early-pool"
  account_name        = azurerm_netapp_account.acct.name
  location            = "eastus"
  resource_group_name = "rg"
  service_level       = "Premium"
  size_in_tb          = 4
  tags                = local.tags
}

resource "azurerm_netapp_volume" "v" {
  for_each            = local.keys
  name                = "v-\${each.key}"
  account_name        = azurerm_netapp_account.acct.name
  pool_name           = azurerm_netapp_pool.early.name
  service_level       = azurerm_netapp_pool.early.service_level
  volume_path         = "v-\${each.key}"
  storage_quota_in_gb = 100
  protocols           = ["NFSv3"]
  tags                = local.tags
  export_policy_rule {
    rule_index      = 1
    allowed_clients = ["10.0.0.0/24"]
  }
}

resource "azurerm_netapp_volume" "w" {
  name                = "w"
  account_name        = azurerm_netapp_account.acct.name
  pool_name           = azurerm_netapp_pool.late.name
  service_level       = azurerm_netapp_pool.late.service_level
  volume_path         = "w"
  storage_quota_in_gb = 200
  protocols           = ["NFSv4.1"]
}

resource "azurerm_netapp_pool" "late" {
  name                = "late-pool"
  account_name        = azurerm_netapp_account.acct.name
  location            = "eastus"
  resource_group_name = "rg"
  service_level       = azurerm_netapp_pool.early.service_level
  size_in_tb          = 2
  tags                = local.tags
}
`;

function read(text: string) {
  const estate = readTerraform(new SourceText(text), [], 'file:///repo/main.tf');
  if (!estate) throw new Error('no estate');
  return estate;
}

describe('a file read alone lets go of each block once read', () => {
  it('reads blocks referred to before and after they are read, and shared locals, as written', () => {
    const estate = read(TEXT);
    expect(estate.pools.map((p) => [p.symbol, p.name?.value, p.serviceLevel?.value, p.size?.value])).toEqual([
      ['azurerm_netapp_pool.early', 'early-pool', 'Premium', 4],
      ['azurerm_netapp_pool.late', 'late-pool', 'Premium', 2],
    ]);
    expect(
      estate.volumes.map((v) => [
        v.name?.value,
        v.pool?.symbol,
        v.pool?.name?.value,
        v.serviceLevel?.value,
        v.exportRules?.length ?? 0,
      ]),
    ).toEqual([
      ['v-a', 'azurerm_netapp_pool.early', 'early-pool', 'Premium', 1],
      ['v-b', 'azurerm_netapp_pool.early', 'early-pool', 'Premium', 1],
      ['w', 'azurerm_netapp_pool.late', 'late-pool', 'Premium', 0],
    ]);
  });

  it('reads the same text the same way twice', () => {
    expect(JSON.stringify(read(TEXT))).toBe(JSON.stringify(read(TEXT)));
  });
});
