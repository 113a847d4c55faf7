import { defineRule } from '../../rules/rule';
import { estateOf, isIac } from './helpers';

export const terraformUndeclaredVariable = defineRule({
  code: 'ANF420',
  name: 'terraform-undeclared-variable',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A Terraform reference to a variable the module does not declare',
    what: 'A `var.x` in a `.tf` file when no `.tf` file of its folder (its module) has a `variable "x"` block. Found when the file is read with its folder (a folder of two or more `.tf` files, or one that calls or is called by a module) because the folder holds a NetApp resource or calls a module that does. A folder whose files and calls reach no NetApp resource is left to `terraform validate`: no figure of anf-lint depends on it.',
    why: '`terraform plan` refuses the module ("Reference to undeclared input variable"). Every value that uses it is unknown to anf-lint too, so the sizes, throughput and checks that depend on it are missing: a silent unknown would hide the cause.',
    instead:
      'Declare the variable (`variable "x" {}` with a `default` or a value in `terraform.tfvars`), or correct the name.',
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_volume" "data" {\n  name                = "data"\n  location            = var.location\n  storage_quota_in_gb = var.data_size\n}',
        better:
          'variable "data_size" {\n  type    = number\n  default = 1024\n}\n\nresource "azurerm_netapp_volume" "data" {\n  name                = "data"\n  location            = var.location\n  storage_quota_in_gb = var.data_size\n}',
        language: 'hcl',
        file: 'main.tf',
        context: [{ path: 'variables.tf', text: 'variable "location" {\n  type = string\n}' }],
      },
    ],
    sources: ['TF_VARIABLES'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = estateOf(context.file);
    for (const ref of estate?.undeclared ?? []) {
      context.report({
        span: ref.span,
        message: `\`var.${ref.name}\` is not declared: no \`variable "${ref.name}"\` block in the .tf files of this folder. Terraform refuses the reference, and every value that uses it is unknown here. Declare the variable or correct the name.`,
      });
    }
  },
});
