/**
 * Which documents the language server sees. The languages anf-lint contributes, plus the hosts of
 * mount commands and kernel settings it reads without taking their language over (shell scripts,
 * Markdown and reStructuredText, YAML for Ansible, cloud-init, Kubernetes and Helm, JSON, modprobe.d,
 * tuned and saptune files, fio job files written as `.ini`, PowerShell scripts with Az.NetAppFiles commands), and infrastructure code: Terraform, Bicep, ARM templates and the JSON
 * `az netappfiles` prints (docs/iac.md). The server decides the file kind from the name and text and
 * ignores documents that hold nothing for it.
 */
const SCHEMES = ['file', 'untitled', 'vscode-vfs'];

export const OWN_LANGUAGES = [
  'anf-manifest',
  'anf-manifest-json',
  'fstab',
  'sysctl',
  'systemd-mount',
  'autofs',
  'fio',
  'vdbench',
] as const;
const HOST_LANGUAGES = [
  'shellscript',
  'markdown',
  'yaml',
  'ansible',
  'helm',
  'json',
  'restructuredtext',
  'powershell',
  'ini',
];
/**
 * The ids other extensions give infrastructure code (HashiCorp Terraform, Bicep, Azure Resource
 * Manager Tools). Without those extensions a `.tf` or `.bicep` file has no language (plaintext):
 * SERVED_PATTERNS selects them by name. ARM templates and `az netappfiles` output are `json` then.
 */
export const IAC_LANGUAGES = ['terraform', 'terraform-vars', 'bicep', 'arm-template'] as const;

/** Files the server reads whatever language the user associated them with. */
export const SERVED_PATTERNS = [
  '**/*.anf.{yaml,yml,json}',
  '**/.anf-lint.{yaml,yml}',
  '**/{fstab,*.fstab}',
  '**/*.mount',
  '**/etc/auto.*',
  '**/{sysctl.conf,*.sysctl.conf}',
  '**/sysctl.d/*.conf',
  '**/modprobe.d/*.conf',
  '**/tuned.conf',
  '**/*.rst',
  '**/*.sls',
  '**/*.pp',
  // Chef recipes (the server reads those with a `mount` resource).
  '**/recipes/*.rb',
  '**/saptune/**/*',
  '**/*.tf',
  '**/*.tfvars',
  '**/*.bicep',
  '**/*.fio',
  '**/*.{vdb,vdbench}',
];

/** Plain filters: both `vscode` and `vscode-languageclient` accept this shape. */
export type Filter =
  | { readonly scheme: string; readonly language: string }
  | { readonly scheme: string; readonly pattern: string };

export function documentSelector(): Filter[] {
  const languages = [...OWN_LANGUAGES, ...HOST_LANGUAGES, ...IAC_LANGUAGES];
  return SCHEMES.flatMap((scheme) => [
    ...languages.map((language) => ({ scheme, language })),
    ...SERVED_PATTERNS.map((pattern) => ({ scheme, pattern })),
  ]);
}
