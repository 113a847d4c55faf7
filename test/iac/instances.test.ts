import { describe, expect, it } from 'vitest';
import { configSchema, resolveConfig, Workspace } from '../../server/src/core';

/**
 * `count` and `for_each` on NetApp resources and module blocks: each instance is its own account,
 * pool or volume, read with its `count.index` or `each` bound, with the address `terraform plan`
 * prints. A name that cannot be evaluated leaves the address, never an empty name.
 */
const config = resolveConfig(configSchema.parse({}));

function workspaceOf(files: Record<string, string>) {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return workspace;
}

const POOL = `resource "azurerm_netapp_pool" "p" {
  name                = "pool1"
  account_name        = "acct"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  size_in_tb          = 8
}
`;

describe('count on a volume', () => {
  const workspace = workspaceOf({
    'main.tf': `${POOL}
variable "sites" {
  default = 3
}

resource "azurerm_netapp_volume" "data" {
  count               = var.sites
  name                = format("data-%02d", count.index + 1)
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "data\${count.index}"
  storage_quota_in_gb = 100 * (count.index + 1)
  protocols           = ["NFSv3"]
}

resource "azurerm_netapp_volume" "none" {
  count               = 0
  name                = "never"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "never"
  storage_quota_in_gb = 100
  protocols           = ["NFSv3"]
}
`,
  });

  it('makes one volume per index with count.index bound, and none for count = 0', () => {
    const volumes = workspace.file('file:///repo/main.tf')!.iac!.volumes;
    expect(volumes.map((v) => `${v.address} ${v.name?.value} ${v.quota?.value} ${v.repeated}`)).toEqual([
      'azurerm_netapp_volume.data[0] data-01 100 false',
      'azurerm_netapp_volume.data[1] data-02 200 false',
      'azurerm_netapp_volume.data[2] data-03 300 false',
    ]);
  });
});

describe('for_each over a locals map of HANA volumes', () => {
  const workspace = workspaceOf({
    'main.tf': `${POOL}
variable "sid" {}

locals {
  hana = {
    data   = { size = 2048, throughput = 400 }
    log    = { size = 512, throughput = 250 }
    shared = { size = 1024, throughput = 64 }
  }
}

resource "azurerm_netapp_volume" "hana" {
  for_each            = local.hana
  name                = "\${var.sid}-\${each.key}"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = each.key
  storage_quota_in_gb = each.value.size
  protocols           = ["NFSv4.1"]
}
`,
  });

  it('reads each key with each.value; a name that uses an unset variable is unknown with the reason, and the address stays', () => {
    const volumes = workspace.file('file:///repo/main.tf')!.iac!.volumes;
    expect(volumes.map((v) => `${v.address} ${v.creationToken?.value} ${v.quota?.value}`)).toEqual([
      'azurerm_netapp_volume.hana["data"] data 2048',
      'azurerm_netapp_volume.hana["log"] log 512',
      'azurerm_netapp_volume.hana["shared"] shared 1024',
    ]);
    expect(volumes[0]!.name?.value).toBeUndefined();
    expect(volumes[0]!.name?.unknown).toMatch(/`var.sid` has no (value in this folder|default in this file)/);
  });
});

describe('a module called with for_each whose volumes use for_each', () => {
  const workspace = workspaceOf({
    'main.tf': `module "sap" {
  source   = "./modules/sap"
  for_each = toset(["site1", "site2"])
  site     = each.key
}
`,
    'modules/sap/main.tf': `variable "site" {}

${POOL.replace('"pool1"', '"${var.site}-pool"')}
resource "azurerm_netapp_volume" "data" {
  for_each            = { log = 512, data = 2048 }
  name                = "\${var.site}-\${each.key}"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "\${var.site}-\${each.key}"
  storage_quota_in_gb = each.value
  protocols           = ["NFSv4.1"]
}
`,
  });

  it('gives every volume of every instance its own address and values', () => {
    const volumes = workspace.file('file:///repo/main.tf')!.iac!.volumes;
    expect(volumes.map((v) => `${v.address} ${v.name?.value} ${v.quota?.value}`)).toEqual([
      'module.sap["site1"].azurerm_netapp_volume.data["data"] site1-data 2048',
      'module.sap["site1"].azurerm_netapp_volume.data["log"] site1-log 512',
      'module.sap["site2"].azurerm_netapp_volume.data["data"] site2-data 2048',
      'module.sap["site2"].azurerm_netapp_volume.data["log"] site2-log 512',
    ]);
  });
});
