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

/** A module whose pool's service level its callers choose, and whose volume writes its own. */
const levelModule = (levelDefault: string) => `variable "service_level" {
  type    = string
  default = "${levelDefault}"
}

resource "azurerm_netapp_account" "this" {
  name                = "anf"
  location            = "westeurope"
  resource_group_name = "rg"
}

resource "azurerm_netapp_pool" "this" {
  name                = "pool"
  account_name        = azurerm_netapp_account.this.name
  location            = "westeurope"
  resource_group_name = "rg"
  service_level       = var.service_level
  size_in_tb          = 4
}

resource "azurerm_netapp_volume" "this" {
  name                = "tools"
  location            = "westeurope"
  resource_group_name = "rg"
  account_name        = azurerm_netapp_account.this.name
  pool_name           = azurerm_netapp_pool.this.name
  volume_path         = "tools"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/0000/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = 4096
}
`;

const levelCaller = (level: string) => `module "tools" {
  source        = "./modules/anf"
  service_level = "${level}"
}
`;

function lintCodes(files: Record<string, string>, codes: readonly string[]): Record<string, string[]> {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return Object.fromEntries(
    Object.keys(files).map((path) => [
      path,
      visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config))
        .filter((d) => codes.includes(String(d.code)))
        .map((d) => `${d.range.start.line + 1} ${d.code}`),
    ]),
  );
}

describe("a volume's finding that rests on its pool's service level (ANF401)", () => {
  it("the service level a caller gives the pool differs from the volume's: the caller reports it", () => {
    const found = lintCodes({ 'main.tf': levelCaller('Standard'), 'modules/anf/main.tf': levelModule('Premium') }, [
      'ANF401',
    ]);
    expect(found).toEqual({ 'main.tf': ['1 ANF401'], 'modules/anf/main.tf': [] });
  });

  it("the module's default differs, but its only caller passes the volume's level: nothing", () => {
    const found = lintCodes({ 'main.tf': levelCaller('Premium'), 'modules/anf/main.tf': levelModule('Standard') }, [
      'ANF401',
    ]);
    expect(found).toEqual({ 'main.tf': [], 'modules/anf/main.tf': [] });
  });
});

describe("a volume's throughput that rests on its pool's service level (ANF408)", () => {
  // SAP HANA's log volume, 2 TiB written in the module: 32 MiB/s at Standard (the module's
  // default), 256 MiB/s at Ultra, which the only caller passes (the KPI asks 250 MB/s, 238 MiB/s).
  const hanaModule = levelModule('Standard')
    .replaceAll('"tools"', '"HN1-log-mnt00001"')
    .replace('service_level       = "Premium"', 'service_level       = var.service_level')
    .replace('storage_quota_in_gb = 4096', 'storage_quota_in_gb = 2048')
    .replace('protocols           = ["NFSv3"]', 'protocols           = ["NFSv4.1"]');

  it('judges it with the level the caller gives the pool, not the module default', () => {
    const ultra = lintCodes({ 'main.tf': levelCaller('Ultra'), 'modules/anf/main.tf': hanaModule }, ['ANF408']);
    expect(ultra).toEqual({ 'main.tf': [], 'modules/anf/main.tf': [] });
    const standard = lintCodes({ 'main.tf': levelCaller('Standard'), 'modules/anf/main.tf': hanaModule }, ['ANF408']);
    expect(standard).toEqual({ 'main.tf': ['1 ANF408'], 'modules/anf/main.tf': [] });
  });
});

describe("a volume's requirement against the quota its caller passes (ANF116)", () => {
  // The module says what the volume must deliver; each caller says how large it is.
  const required = terraformModule(4096).replace(
    'resource "azurerm_netapp_volume" "this" {',
    '# anf: throughput=200MiB/s\nresource "azurerm_netapp_volume" "this" {',
  );

  it('is judged with the quota each caller passes, not the default', () => {
    const small = lintCodes({ 'main.tf': terraformCaller(1024), 'modules/netapp/main.tf': required }, ['ANF116']);
    expect(small).toEqual({ 'main.tf': ['1 ANF116', '1 ANF116'], 'modules/netapp/main.tf': [] });
    const enough = lintCodes({ 'main.tf': terraformCaller(4096), 'modules/netapp/main.tf': required }, ['ANF116']);
    expect(enough).toEqual({ 'main.tf': [], 'modules/netapp/main.tf': [] });
  });
});

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
