variable "location" {
  type    = string
  default = "westeurope"
}

locals {
  stacks = {
    build = 2048
    scratch = 4096
  }
}

module "netapp" {
  source   = "./modules/netapp"
  for_each = local.stacks

  name_prefix = "cache-${each.key}"
  location    = var.location
  quota_gib   = each.value
}

module "single" {
  source = "./modules/netapp"
  count  = 1

  name_prefix = "single-${count.index}"
  location    = var.location
}
