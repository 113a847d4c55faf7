import { defineRule } from '../../rules/rule';
import type { ParsedFile } from '../../workspace/parsedFile';
import { declaredVariableNames, isLoadedTfvars, undeclaredTfvarsKeys } from '../terraform';

/**
 * The `variable` names the `.tf` files of a folder declare (undefined when it has none), once per
 * workspace state: the folder's files as read alone (`folderFiles`), so that no module is read for it.
 */
const declaredCache = new WeakMap<readonly ParsedFile[], Set<string> | undefined>();

function declaredIn(files: readonly ParsedFile[]): Set<string> | undefined {
  if (declaredCache.has(files)) return declaredCache.get(files);
  let declared: Set<string> | undefined;
  for (const f of files) {
    if (f.kind !== 'terraform') continue;
    declared ??= new Set();
    for (const name of declaredVariableNames(f.source.text)) declared.add(name);
  }
  declaredCache.set(files, declared);
  return declared;
}

/**
 * A value in a `.tfvars` file Terraform loads by itself (`terraform.tfvars`, `*.auto.tfvars`, their
 * `.json` forms) for a variable no `.tf` file of its folder declares. Silent when the folder has no
 * `.tf` file anf-lint reads (the values may be for a module elsewhere).
 */
export const terraformUndeclaredTfvarsKey = defineRule({
  code: 'ANF423',
  name: 'terraform-undeclared-tfvars-key',
  domain: 'iac',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A .tfvars value for a variable the module does not declare',
    what: 'A key of `terraform.tfvars`, `terraform.tfvars.json` or a `*.auto.tfvars[.json]` file when no `.tf` file of the same folder has a `variable` block of that name.',
    why: 'Terraform warns ("Value for undeclared variable") and ignores the value: a misspelt key (`data_size_gb` for `data_size_gib`) leaves the variable at its default, or without a value, and the volume is deployed with a size nobody chose. anf-lint ignores it too, so the figures use the default.',
    instead:
      "Correct the key to the name of the `variable` block, or declare the variable. A value meant for another module belongs in that module's `module` block arguments.",
    examples: [
      {
        file: 'terraform.tfvars',
        flagged: 'location      = "westeurope"\ndata_size_gb  = 4096',
        better: 'location      = "westeurope"\ndata_size_gib = 4096',
        language: 'hcl',
        context: [
          {
            path: 'variables.tf',
            text: 'variable "location" {\n  type = string\n}\n\nvariable "data_size_gib" {\n  type    = number\n  default = 1024\n}',
          },
        ],
      },
    ],
    sources: ['TF_VARIABLES'],
  },
  appliesTo: (file) => file.kind === 'terraform-vars' && isLoadedTfvars(file.uri),
  check(context) {
    const declared = declaredIn(context.workspace.folderFiles(folderOf(context.file.uri)));
    if (!declared) return;
    for (const { name, span } of undeclaredTfvarsKeys(context.file.source, context.file.uri, declared)) {
      context.report({
        span,
        message: `\`${name}\` is set here, but no \`.tf\` file of this folder declares \`variable "${name}"\`. Terraform warns ("Value for undeclared variable") and ignores the value, and so does anf-lint. Correct the name or declare the variable.`,
      });
    }
  },
});

function folderOf(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}
