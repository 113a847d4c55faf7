import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * One module argument can set several attributes of a resource: `volumes = var.volumes`, a map of
 * objects the module reads `name`, `storage_quota_in_gb` and `protocols` from (a common layout).
 * A finding placed on that argument does not say which attribute it is about, so its note names
 * the argument and where its value comes from, never one of the attributes picked at random (it
 * said "used as `name`" on a finding about a volume's quota).
 */
const config = resolveConfig(configSchema.parse({}));

const MAIN = `module "anf" {
  source  = "./modules/anf"
  volumes = var.volumes
}

variable "volumes" {
  type = map(object({ quota_gb = number }))
}
`;

const TFVARS = `volumes = {
  home = { quota_gb = 2048 }
}
`;

const MODULE = `variable "volumes" {
  type = map(any)
}

resource "azurerm_netapp_account" "this" {
  name                = "eda-anf"
  location            = "westeurope"
  resource_group_name = "rg"
}

resource "azurerm_netapp_pool" "this" {
  name                = "standard"
  account_name        = azurerm_netapp_account.this.name
  location            = "westeurope"
  resource_group_name = "rg"
  service_level       = "Standard"
  size_in_tb          = 4
}

resource "azurerm_netapp_volume" "this" {
  for_each            = var.volumes
  name                = each.key
  location            = "westeurope"
  resource_group_name = "rg"
  account_name        = azurerm_netapp_account.this.name
  pool_name           = azurerm_netapp_pool.this.name
  volume_path         = each.key
  service_level       = "Standard"
  subnet_id           = "/subscriptions/0000/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = each.value.quota_gb
}
`;

describe('a note on an argument that sets several attributes', () => {
  it('names the argument and its value, not one attribute', () => {
    const workspace = new Workspace(config);
    workspace.set('file:///repo/main.tf', MAIN);
    workspace.set('file:///repo/terraform.tfvars', TFVARS);
    workspace.set('file:///repo/modules/anf/main.tf', MODULE);
    const found = visibleDiagnostics(lintFile(workspace, 'file:///repo/main.tf', config)).filter(
      (d) => d.code === 'ANF128',
    );
    expect(found.map((d) => `${d.range.start.line + 1} ${d.message.replace(/^.*\((set by .*)\)$/, '$1')}`)).toEqual([
      '3 set by `volumes` of module "anf"; `var.volumes`, from terraform.tfvars line 1',
    ]);
  });
});
