/**
 * An SAP HANA application volume group on an 8 TiB manual-QoS Ultra pool that holds 3.5 TiB: ANF405
 * offers to shrink the pool to 4 TiB (512 MiB/s budget, 500 MiB/s assigned), ANF408 to raise the
 * data and log throughput to the storage KPI (382 and 239 MiB/s). Only unsafe fixes; together the
 * shrink and a raise overrun the budget (ANF114). Used by the fix engine's and the CLI's tests.
 */
export const HANA_AVG_ESTATE = `# SAP HANA system HB3 on one application volume group, manual QoS.
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
