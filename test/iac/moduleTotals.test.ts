import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * A finding on a pool's totals (ANF112 overcommitted, ANF405 much larger, ANF114 manual QoS over
 * budget) rests on the pool's size and on its volumes' quotas and throughputs. When the pool is
 * written in a local module and the quotas come from its callers, the module's own file, read with
 * its defaults, judges a pool no caller deploys: it must say nothing, and each caller reports what
 * its own instance adds up to, on its `module` block (iac/hover.ts `withValueOrigin`). A pool whose
 * totals are all written in the module is still judged once, in the module's file.
 */
const config = resolveConfig(configSchema.parse({}));

function lint(files: Record<string, string>): Record<string, string[]> {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return Object.fromEntries(
    Object.keys(files).map((path) => [
      path,
      visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config))
        .filter((d) => ['ANF112', 'ANF114', 'ANF405'].includes(String(d.code)))
        .map((d) => `${d.range.start.line + 1} ${d.code} ${d.message}`),
    ]),
  );
}

const bicepModule = (quotaDefault: number, poolTiB: number) => `param prefix string = 'anf'
param quotaGiB int = ${quotaDefault}

var gib = 1024 * 1024 * 1024

resource account 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: '\${prefix}-account'
  location: 'westeurope'
}

resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: account
  name: '\${prefix}-pool'
  location: 'westeurope'
  properties: {
    serviceLevel: 'Premium'
    size: ${poolTiB} * 1024 * gib
  }
}

resource volumes 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for name in ['data', 'logs']: {
  parent: pool
  name: '\${prefix}-\${name}'
  location: 'westeurope'
  properties: {
    serviceLevel: 'Premium'
    creationToken: '\${prefix}-\${name}'
    subnetId: '/subscriptions/0000/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf'
    usageThreshold: quotaGiB * gib
    protocolTypes: [ 'NFSv3' ]
  }
}]
`;

const bicepCaller = (quotaGiB: number) => `module big './storage.bicep' = {
  name: 'big'
  params: {
    prefix: 'big'
    quotaGiB: ${quotaGiB}
  }
}
`;

const terraformModule = (quotaDefault: number) => `variable "prefix" {
  type    = string
  default = "anf"
}

variable "quota_gib" {
  type    = number
  default = ${quotaDefault}
}

resource "azurerm_netapp_account" "this" {
  name                = "\${var.prefix}-account"
  location            = "westeurope"
  resource_group_name = "rg"
}

resource "azurerm_netapp_pool" "this" {
  name                = "\${var.prefix}-pool"
  account_name        = azurerm_netapp_account.this.name
  location            = "westeurope"
  resource_group_name = "rg"
  service_level       = "Premium"
  size_in_tb          = 4
}

resource "azurerm_netapp_volume" "this" {
  for_each            = toset(["data", "logs"])
  name                = "\${var.prefix}-\${each.key}"
  location            = "westeurope"
  resource_group_name = "rg"
  account_name        = azurerm_netapp_account.this.name
  pool_name           = azurerm_netapp_pool.this.name
  volume_path         = "\${var.prefix}-\${each.key}"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/0000/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = var.quota_gib
}
`;

const terraformCaller = (quotaGiB: number) => `module "big" {
  source = "./modules/netapp"

  prefix    = "big"
  quota_gib = ${quotaGiB}
}
`;

describe('pool totals of a module, judged where the quotas are given', () => {
  it('Bicep: quotas a caller passes overcommit the pool written in the module: the caller reports it', () => {
    const found = lint({ 'main.bicep': bicepCaller(4096), 'storage.bicep': bicepModule(1024, 4) });
    expect(found['storage.bicep']).toEqual([]);
    expect(found['main.bicep']).toEqual([
      `1 ANF112 The volumes of pool \`big-pool\` have 8,192 GiB (8 TiB) of quota, more than the pool's 4 TiB. Grow the pool to 8 TiB or shrink the volumes. (written in module "big" (./storage.bicep), judged for this call: with the values it passes and the module's defaults)`,
    ]);
  });

  it("Bicep: the module's default quota would overcommit it, but the only caller passes less: nothing", () => {
    const found = lint({ 'main.bicep': bicepCaller(1024), 'storage.bicep': bicepModule(4096, 4) });
    expect(found).toEqual({ 'main.bicep': [], 'storage.bicep': [] });
  });

  it('Terraform: the same two, through a module block', () => {
    const over = lint({ 'main.tf': terraformCaller(4096), 'modules/netapp/main.tf': terraformModule(1024) });
    expect(over['modules/netapp/main.tf']).toEqual([]);
    expect(over['main.tf']).toEqual([
      `1 ANF112 The volumes of pool \`big-pool\` have 8,192 GiB (8 TiB) of quota, more than the pool's 4 TiB. Grow the pool to 8 TiB or shrink the volumes. (written in module "big" (./modules/netapp), judged for this call: with the values it passes and the module's defaults)`,
    ]);
    const fits = lint({ 'main.tf': terraformCaller(1024), 'modules/netapp/main.tf': terraformModule(4096) });
    expect(fits).toEqual({ 'main.tf': [], 'modules/netapp/main.tf': [] });
  });

  it('a module whose name prefix only its callers pass still judges totals written in it, once', () => {
    // Read alone, its names are unknown; its pool's size and quotas are not.
    const literal = bicepModule(1024, 4)
      .replace("param prefix string = 'anf'", 'param prefix string')
      .replace('usageThreshold: quotaGiB * gib', 'usageThreshold: 4096 * gib');
    const found = lint({ 'main.bicep': bicepCaller(1024), 'storage.bicep': literal });
    expect(found['main.bicep']).toEqual([]);
    expect(found['storage.bicep']).toEqual([
      "17 ANF112 The volumes of this pool have 8,192 GiB (8 TiB) of quota, more than the pool's 4 TiB. Grow the pool to 8 TiB or shrink the volumes.",
    ]);
  });

  it("a pool much larger than quotas all written in the module is judged once, in the module's file", () => {
    const literal = bicepModule(1024, 24).replace('usageThreshold: quotaGiB * gib', 'usageThreshold: 1024 * gib');
    const found = lint({ 'main.bicep': bicepCaller(1024), 'storage.bicep': literal });
    expect(found['main.bicep']).toEqual([]);
    expect(found['storage.bicep']?.map((f) => f.split(' ').slice(0, 2).join(' '))).toEqual(['17 ANF405']);
  });
});
