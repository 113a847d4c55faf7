/**
 * Which documents the language server sees. The languages anf-lint contributes, plus the hosts of
 * mount commands and kernel settings it reads without taking their language over (shell scripts,
 * Markdown and reStructuredText, YAML for Ansible, cloud-init, Kubernetes and Helm, JSON, modprobe.d,
 * tuned and saptune files). The server decides the
 * file kind from the name and text and ignores documents that hold nothing for it.
 */
const SCHEMES = ['file', 'untitled', 'vscode-vfs'];

export const OWN_LANGUAGES = ['anf-manifest', 'anf-manifest-json', 'fstab', 'sysctl', 'systemd-mount', 'autofs'] as const;
const HOST_LANGUAGES = ['shellscript', 'markdown', 'yaml', 'ansible', 'helm', 'json', 'restructuredtext'];

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
  '**/saptune/**/*',
];

/** Plain filters: both `vscode` and `vscode-languageclient` accept this shape. */
export type Filter = { readonly scheme: string; readonly language: string } | { readonly scheme: string; readonly pattern: string };

export function documentSelector(): Filter[] {
  const languages = [...OWN_LANGUAGES, ...HOST_LANGUAGES];
  return SCHEMES.flatMap((scheme) => [
    ...languages.map((language) => ({ scheme, language })),
    ...SERVED_PATTERNS.map((pattern) => ({ scheme, pattern })),
  ]);
}
