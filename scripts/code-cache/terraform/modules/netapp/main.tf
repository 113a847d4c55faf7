resource "azurerm_netapp_account" "this" {
  name                = "${var.name_prefix}-account"
  location            = var.location
  resource_group_name = "rg-${var.name_prefix}"
}

resource "azurerm_netapp_pool" "this" {
  name                = "${var.name_prefix}-pool"
  account_name        = azurerm_netapp_account.this.name
  location            = var.location
  resource_group_name = azurerm_netapp_account.this.resource_group_name
  service_level       = "Premium"
  size_in_tb          = 4
}

# anf: workload=hpc
resource "azurerm_netapp_volume" "this" {
  for_each            = var.volumes
  name                = "${var.name_prefix}-${each.key}"
  location            = var.location
  resource_group_name = azurerm_netapp_account.this.resource_group_name
  account_name        = azurerm_netapp_account.this.name
  pool_name           = azurerm_netapp_pool.this.name
  volume_path         = "${var.name_prefix}-${each.key}"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/0000/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/vnet/subnets/anf"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = var.quota_gib

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

output "volume_ids" {
  value = [for v in azurerm_netapp_volume.this : v.id]
}
