# Terraform version of ../eda.anf.yaml: the same estate as azurerm resources.
# Workloads come from `# anf: workload=<kind>` annotations or SAP naming; what a volume must
# deliver (the manifest's requirements) is left out here; `# anf: throughput=<rate> capacity=<size>` would add it.

variable "location" {
  type    = string
  default = "eastus"
}

variable "resource_group_name" {
  type = string
}

variable "subnet_id" {
  type = string
}

resource "azurerm_netapp_account" "eda" {
  name                = "eda-prod"
  location            = var.location
  resource_group_name = var.resource_group_name
}

resource "azurerm_netapp_pool" "premium" {
  name                = "eda-premium"
  account_name        = azurerm_netapp_account.eda.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  # expect: ANF112
  size_in_tb          = 8 # the quotas below add up to 12 TiB
}

# anf: workload=eda-tools
resource "azurerm_netapp_volume" "tools" {
  name                = "eda-tools"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.premium.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "eda-tools"
  storage_quota_in_gb = 4096
  protocols           = ["NFSv3"]

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

# anf: workload=eda-tools
resource "azurerm_netapp_volume" "libs" {
  name                = "eda-libs"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.premium.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "eda-libs"
  storage_quota_in_gb = 2048
  # expect: ANF119
  protocols           = ["NFSv4.1"] # copied from a security template; no Kerberos here

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

# anf: workload=general
resource "azurerm_netapp_volume" "home" {
  name                = "eda-home"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.premium.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "eda-home"
  storage_quota_in_gb = 6144
  protocols           = ["NFSv3"]

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_pool" "ultra" {
  name                = "eda-ultra"
  account_name        = azurerm_netapp_account.eda.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  size_in_tb          = 20
}

# anf: workload=eda-scratch
resource "azurerm_netapp_volume" "proj" {
  name                = "eda-proj"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.ultra.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  subnet_id           = var.subnet_id
  volume_path         = "eda-proj"
  storage_quota_in_gb = 10240
  protocols           = ["NFSv3"]

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

# anf: workload=eda-scratch
resource "azurerm_netapp_volume" "scratch" {
  name                = "eda-scratch"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.ultra.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  subnet_id           = var.subnet_id
  volume_path         = "eda-scratch"
  storage_quota_in_gb = 7451 # the manifest's 8 TB: 7,451 GiB
  protocols           = ["NFSv3"]

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_pool" "archive" {
  name                = "eda-archive"
  account_name        = azurerm_netapp_account.eda.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Standard"
  size_in_tb          = 50
  cool_access_enabled = true
}

# anf: workload=general
resource "azurerm_netapp_volume" "archive_volume" {
  name                = "eda-archive"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.archive.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Standard"
  subnet_id           = var.subnet_id
  volume_path         = "eda-archive"
  storage_quota_in_gb = 40960
  protocols           = ["NFSv3"]
  cool_access {
    coolness_period_in_days = 31
    retrieval_policy        = "Default"
    tiering_policy          = "Auto"
  }

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_pool" "flex" {
  name                = "eda-flex"
  account_name        = azurerm_netapp_account.eda.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Flexible"
  size_in_tb          = 4
  qos_type            = "Manual"
  custom_throughput_mibps = 1024
}

# anf: workload=hpc
resource "azurerm_netapp_volume" "results" {
  name                = "eda-results"
  account_name        = azurerm_netapp_account.eda.name
  pool_name           = azurerm_netapp_pool.flex.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Flexible"
  subnet_id           = var.subnet_id
  volume_path         = "eda-results"
  storage_quota_in_gb = 4096
  protocols           = ["NFSv3"]
  throughput_in_mibps = 1024

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.10.0.0/16"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}
