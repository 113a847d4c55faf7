resource_group_name = "rg-sap-prod"
subnet_id           = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg-sap-net/providers/Microsoft.Network/virtualNetworks/vnet-sap/subnets/anf"

prd_data_quota_gib = 4096
prd_log_quota_gib  = 512
dev_data_quota_gib = 2048
dev_log_quota_gib  = 1024
