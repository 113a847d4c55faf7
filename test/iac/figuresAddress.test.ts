import { describe, expect, it } from 'vitest';
import { parseFile, resolveConfig } from '../../server/src/core';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';

/**
 * A volume whose name anf-lint cannot evaluate (a variable without a value) is titled, in its hover,
 * code lens and `anf-lint figures`, by where it is declared (`IacResource.address`), not by `?`.
 */
const TF = `variable "volume_name" {
  type = string
}

resource "azurerm_netapp_account" "ora" {
  name                = "ora-prod-anf"
  location            = "westeurope"
  resource_group_name = "rg-ora"
}

resource "azurerm_netapp_pool" "premium" {
  name                = "ora-premium"
  location            = "westeurope"
  resource_group_name = "rg-ora"
  account_name        = azurerm_netapp_account.ora.name
  service_level       = "Premium"
  size_in_tb          = 4
}

resource "azurerm_netapp_volume" "data" {
  name                = var.volume_name
  location            = "westeurope"
  resource_group_name = "rg-ora"
  account_name        = azurerm_netapp_account.ora.name
  pool_name           = azurerm_netapp_pool.premium.name
  service_level       = "Premium"
  volume_path         = "oradata"
  subnet_id           = "/subscriptions/0000/resourceGroups/rg-ora/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = 1024
}

resource "azurerm_netapp_volume" "log" {
  name                = "ora-log"
  location            = "westeurope"
  resource_group_name = "rg-ora"
  account_name        = azurerm_netapp_account.ora.name
  pool_name           = azurerm_netapp_pool.premium.name
  service_level       = "Premium"
  volume_path         = "oralog"
  subnet_id           = "/subscriptions/0000/resourceGroups/rg-ora/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = 512
}
`;

describe('figures of a volume whose name is unknown', () => {
  const manifest = parseFile('file:///repo/ora/main.tf', TF).manifest!;
  const figures = computeManifestFigures(manifest, resolveConfig());

  it('titles it by its address, and a named volume by its name', () => {
    expect(figures.volumes.map((v) => v.id).sort()).toEqual([
      'ora-prod-anf/ora-premium/azurerm_netapp_volume.data',
      'ora-prod-anf/ora-premium/ora-log',
    ]);
    expect(figures.pools.map((p) => p.id)).toEqual(['ora-prod-anf/ora-premium']);
  });

  it('keeps the name field itself empty: the address is for display only', () => {
    const data = figures.volumes.find((v) => v.id.endsWith('azurerm_netapp_volume.data'))!;
    expect(data.volume).toBe('');
  });
});
