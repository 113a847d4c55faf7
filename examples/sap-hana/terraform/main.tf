# Terraform version of ../hana.anf.yaml: the same estate as azurerm resources, written as a module
# of three files: this one, variables.tf and terraform.tfvars (the volume sizes). anf-lint reads the
# folder as Terraform does: `var.prd_data_quota_gib` is the 4096 of terraform.tfvars.
# Workloads come from `# anf: workload=<kind>` annotations or SAP naming; what a volume must
# deliver (the manifest's requirements) is left out here; `# anf: throughput=<rate> capacity=<size>` would add it.

resource "azurerm_netapp_account" "prod" {
  name                = "sap-prod"
  location            = var.location
  resource_group_name = var.resource_group_name
}

resource "azurerm_netapp_pool" "prd" {
  name                = "hana-prd"
  account_name        = azurerm_netapp_account.prod.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  size_in_tb          = 10
  qos_type            = "Manual"
}

resource "azurerm_netapp_volume" "prd_data" {
  name                = "hana-prd-data"
  account_name        = azurerm_netapp_account.prod.name
  pool_name           = azurerm_netapp_pool.prd.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  subnet_id           = var.subnet_id
  volume_path         = "hana-prd-data"
  storage_quota_in_gb = var.prd_data_quota_gib
  protocols           = ["NFSv4.1"]
  throughput_in_mibps = 704

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.1.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_volume" "prd_log" {
  name                = "hana-prd-log"
  account_name        = azurerm_netapp_account.prod.name
  pool_name           = azurerm_netapp_pool.prd.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  subnet_id           = var.subnet_id
  volume_path         = "hana-prd-log"
  storage_quota_in_gb = var.prd_log_quota_gib
  protocols           = ["NFSv4.1"]
  throughput_in_mibps = 256

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.1.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_volume" "prd_shared" {
  name                = "hana-prd-shared"
  account_name        = azurerm_netapp_account.prod.name
  pool_name           = azurerm_netapp_pool.prd.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  subnet_id           = var.subnet_id
  volume_path         = "hana-prd-shared"
  storage_quota_in_gb = 1024
  protocols           = ["NFSv4.1"]
  throughput_in_mibps = 64

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.1.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

# anf: workload=general
resource "azurerm_netapp_volume" "prd_backup" {
  name                = "hana-prd-backup"
  account_name        = azurerm_netapp_account.prod.name
  pool_name           = azurerm_netapp_pool.prd.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Ultra"
  subnet_id           = var.subnet_id
  volume_path         = "hana-prd-backup"
  storage_quota_in_gb = 4608
  protocols           = ["NFSv4.1"]
  throughput_in_mibps = 256

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.1.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_account" "nonprod" {
  name                = "sap-nonprod"
  location            = var.location
  resource_group_name = var.resource_group_name
}

resource "azurerm_netapp_pool" "qas" {
  name                = "hana-qas"
  account_name        = azurerm_netapp_account.nonprod.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  # expect: ANF114
  size_in_tb          = 6 # budget 6 x 64 = 384 MiB/s; 516 MiB/s assigned
  qos_type            = "Manual"
}

resource "azurerm_netapp_volume" "qas_data" {
  name                = "hana-qas-data"
  account_name        = azurerm_netapp_account.nonprod.name
  pool_name           = azurerm_netapp_pool.qas.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "hana-qas-data"
  storage_quota_in_gb = 3072
  # expect: ANF119
  protocols           = ["NFSv3"] # HANA data is supported on NFSv4.1 only
  # expect: ANF408
  throughput_in_mibps = 250

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.2.0/24"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_volume" "qas_log" {
  name                = "hana-qas-log"
  account_name        = azurerm_netapp_account.nonprod.name
  pool_name           = azurerm_netapp_pool.qas.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "hana-qas-log"
  storage_quota_in_gb = 1024
  protocols           = ["NFSv4.1"]
  throughput_in_mibps = 250

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.2.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_volume" "qas_shared" {
  name                = "hana-qas-shared"
  account_name        = azurerm_netapp_account.nonprod.name
  pool_name           = azurerm_netapp_pool.qas.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "hana-qas-shared"
  storage_quota_in_gb = 1024
  protocols           = ["NFSv3"]
  throughput_in_mibps = 16
  # expect: ANF120
  kerberos_enabled    = true

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.2.0/24"]
    protocols_enabled   = ["NFSv3"]
    unix_read_write     = true
    root_access_enabled = false
    kerberos_5p_read_write_enabled = true
  }
}

resource "azurerm_netapp_pool" "dev" {
  name                = "hana-dev"
  account_name        = azurerm_netapp_account.nonprod.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  size_in_tb          = 4
  cool_access_enabled = true
}

resource "azurerm_netapp_volume" "dev_data" {
  name                = "hana-dev-data"
  account_name        = azurerm_netapp_account.nonprod.name
  pool_name           = azurerm_netapp_pool.dev.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "hana-dev-data"
  # expect: ANF408
  storage_quota_in_gb = var.dev_data_quota_gib
  protocols           = ["NFSv4.1"]
  # expect: ANF121 ANF122
  cool_access {
    coolness_period_in_days = 31
    retrieval_policy        = "Default"
    tiering_policy          = "Auto"
  }

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.3.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}

resource "azurerm_netapp_volume" "dev_log" {
  name                = "hana-dev-log"
  account_name        = azurerm_netapp_account.nonprod.name
  pool_name           = azurerm_netapp_pool.dev.name
  location            = var.location
  resource_group_name = var.resource_group_name
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "hana-dev-log"
  # expect: ANF408
  storage_quota_in_gb = var.dev_log_quota_gib # 64 MiB/s
  protocols           = ["NFSv4.1"]

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["10.20.3.0/24"]
    protocols_enabled   = ["NFSv4.1"]
    unix_read_write     = true
    root_access_enabled = false
  }
}
