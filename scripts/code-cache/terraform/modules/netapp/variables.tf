variable "name_prefix" {
  type = string
}

variable "location" {
  type = string
}

variable "quota_gib" {
  type    = number
  default = 1024
}

variable "volumes" {
  type    = set(string)
  default = ["data", "logs"]
}
