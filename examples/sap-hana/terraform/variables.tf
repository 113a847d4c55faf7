variable "location" {
  type    = string
  default = "westeurope"
}

variable "resource_group_name" {
  type = string
}

variable "subnet_id" {
  type = string
}

# Volume sizes in GiB, set per environment in terraform.tfvars.
variable "prd_data_quota_gib" {
  type = number
}

variable "prd_log_quota_gib" {
  type = number
}

variable "dev_data_quota_gib" {
  type    = number
  default = 1024
}

variable "dev_log_quota_gib" {
  type    = number
  default = 512
}
