import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { fixFiles } from '../../server/src/core/project/fixes';

/**
 * Fixes must compose (issue 32): ANF405 shrinks an over-sized manual-QoS pool to the smallest size
 * whose throughput budget holds the throughput assigned today, and ANF408 raises a HANA volume's
 * throughput to the storage KPI. Each is right alone; together the raised throughput overruns the
 * shrunk pool's budget (ANF114, an error neither made alone). The engine keeps the first and backs
 * out what would make the new error.
 */
const ESTATE = `# SAP HANA system HB3 on one application volume group, manual QoS.
resource "azurerm_netapp_pool" "hana" {
  name                = "hb3-ultra-manual"
  account_name        = "sap-hb3"
  location            = "westeurope"
  resource_group_name = "rg-sap-hb3"
  service_level       = "Ultra"
  size_in_tb          = 8
  qos_type            = "Manual"
}

resource "azurerm_netapp_volume_group_sap_hana" "hb3" {
  name                   = "HB3-avg-00001"
  location               = "westeurope"
  resource_group_name    = "rg-sap-hb3"
  account_name           = "sap-hb3"
  group_description      = "HB3 single host"
  application_identifier = "HB3"

  volume {
    name                = "hb3-data-vol"
    volume_path         = "hb3-data-vol"
    service_level       = "Ultra"
    capacity_pool_id    = azurerm_netapp_pool.hana.id
    subnet_id           = "/subscriptions/1111/resourceGroups/rg-sap-hb3/providers/Microsoft.Network/virtualNetworks/vnet-sap/subnets/anf"
    volume_spec_name    = "data"
    storage_quota_in_gb = 2048
    throughput_in_mibps = 300
    protocols           = ["NFSv4.1"]
  }

  volume {
    name                = "hb3-log-vol"
    volume_path         = "hb3-log-vol"
    service_level       = "Ultra"
    capacity_pool_id    = azurerm_netapp_pool.hana.id
    subnet_id           = "/subscriptions/1111/resourceGroups/rg-sap-hb3/providers/Microsoft.Network/virtualNetworks/vnet-sap/subnets/anf"
    volume_spec_name    = "log"
    storage_quota_in_gb = 512
    throughput_in_mibps = 150
    protocols           = ["NFSv4.1"]
  }

  volume {
    name                = "hb3-shared-vol"
    volume_path         = "hb3-shared-vol"
    service_level       = "Ultra"
    capacity_pool_id    = azurerm_netapp_pool.hana.id
    subnet_id           = "/subscriptions/1111/resourceGroups/rg-sap-hb3/providers/Microsoft.Network/virtualNetworks/vnet-sap/subnets/anf"
    volume_spec_name    = "shared"
    storage_quota_in_gb = 1024
    throughput_in_mibps = 50
    protocols           = ["NFSv4.1"]
  }
}
`;

describe('fixes that compose', () => {
  it('a pool shrink and a throughput raise: the pair that makes ANF114 is not applied together', () => {
    const config = resolveConfig({});
    const uri = 'file:///estate/sap/main.tf';
    const workspace = new Workspace(config);
    workspace.set(uri, ESTATE);
    const codes = (found: readonly { code: string; severity: string }[]) => found.filter((d) => d.severity === 'error' || d.severity === 'warning').map((d) => d.code);
    const before = visibleDiagnostics(lintFile(workspace, uri, config));
    expect(before.map((d) => d.code)).toContain('ANF405');
    expect(codes(before)).toContain('ANF408');
    expect(codes(before)).not.toContain('ANF114');

    const run = fixFiles(workspace, [uri], () => config, 'unsafe');
    const after = visibleDiagnostics(lintFile(workspace, uri, config));
    expect(codes(after), run.texts.get(uri)).not.toContain('ANF114');
    expect(run.applied.map((a) => a.code)).toContain('ANF405');
    expect(run.dropped.length).toBeGreaterThan(0);
    expect(run.dropped.map((d) => d.code)).toEqual(['ANF408', 'ANF408']);
    expect(run.dropped.every((d) => d.newFindings.some((f) => f.startsWith('ANF114 ')))).toBe(true);
    expect(run.texts.get(uri)).toContain('size_in_tb          = 4');
  });

  it('each fix alone still applies', () => {
    const config = resolveConfig({ rules: { ANF405: 'off' } });
    const uri = 'file:///estate/sap/main.tf';
    const workspace = new Workspace(config);
    workspace.set(uri, ESTATE);
    const run = fixFiles(workspace, [uri], () => config, 'unsafe');
    expect(run.dropped).toEqual([]);
    expect(run.applied.filter((a) => a.code === 'ANF408').length).toBe(2);
  });
});
