import { reportProblems } from '../../rules/problems';
import { defineRule } from '../../rules/rule';
import { isIac } from './helpers';
import { IAC_SYNTAX_CODE } from '../common';
import { IAC_KINDS } from '../read';

export const iacSyntaxError = defineRule({
  code: IAC_SYNTAX_CODE,
  name: 'iac-syntax-error',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Terraform, Bicep or JSON syntax error',
    what: 'A Terraform, Bicep, ARM template or `az netappfiles` JSON file that does not parse: an unclosed brace, a missing `=`, a stray character. One error gives one finding, on its own line: an unclosed brace is shown on the brace, a missing value right after the `=`, and the valid declarations after the error give none. Checked where anf-lint reads the file: a `.tf` or `.bicep` file that names a NetApp or network resource type or calls a module, and the other `.tf` and `.tfvars` files of a folder read with NetApp resources. Other `.tf`, `.tfvars` and `.bicep` files are not parsed (nothing in them reaches anf-lint): `terraform validate` and `az bicep build` check them.',
    why: 'anf-lint reads the estate around the error, but resources after it may be missing or cut short, so sizing findings on this file are incomplete until it parses. Terraform, Bicep and Azure would refuse the file too.',
    instead:
      'Fix the syntax at the position shown; `terraform validate`, `az bicep build` or a JSON formatter give the same position.',
    examples: [
      {
        flagged: 'resource "azurerm_netapp_pool" "p" {\n  size_in_tb = 4\n',
        better: 'resource "azurerm_netapp_pool" "p" {\n  size_in_tb = 4\n}',
        language: 'hcl',
      },
    ],
    sources: ['TF_NETAPP_POOL'],
  },
  appliesTo: (file) => isIac(file) || IAC_KINDS.has(file.kind),
  check: (context) => reportProblems(IAC_SYNTAX_CODE, context),
});
