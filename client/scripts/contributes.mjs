// Writes the VS Code contribution keys of package.json (contributes, activationEvents, capabilities,
// categories, icon, repository, galleryBanner) and leaves every other key alone. Run it under the npm
// lock: flock /tmp/anf-npm.lock node client/scripts/contributes.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const WORKLOADS = [
  'eda-tools',
  'eda-scratch',
  'hpc',
  'sap-hana-data',
  'sap-hana-log',
  'sap-hana-shared',
  'sap-netweaver',
  'oracle',
  'database',
  'vdi',
  'general',
];
const WORKLOAD_TITLES = [
  'EDA tools and libraries (read-mostly)',
  'EDA scratch and project data',
  'HPC (streaming, CFD, AI/ML training)',
  'SAP HANA /hana/data',
  'SAP HANA /hana/log',
  'SAP HANA /hana/shared',
  'SAP application shared files (/sapmnt, /usr/sap)',
  'Oracle database (kNFS or dNFS)',
  'Other databases (OLTP)',
  'VDI, user profiles',
  'General purpose',
];
// The language ids other extensions give infrastructure code; keep in step with IAC_LANGUAGES in
// client/src/documentSelector.ts (test/e2e/vscode-contributions.test.ts checks).
const IAC_LANGUAGES = ['terraform', 'terraform-vars', 'bicep', 'arm-template'];
const SEVERITIES = ['off', 'hint', 'info', 'warning', 'error'];

const languages = [
  {
    id: 'anf-manifest',
    aliases: ['ANF manifest', 'anf-manifest'],
    extensions: ['.anf.yaml', '.anf.yml'],
    configuration: './syntaxes/yaml.language-configuration.json',
  },
  {
    id: 'anf-manifest-json',
    aliases: ['ANF manifest (JSON)', 'anf-manifest-json'],
    extensions: ['.anf.json'],
    configuration: './syntaxes/json.language-configuration.json',
  },
  {
    id: 'fstab',
    aliases: ['fstab'],
    filenames: ['fstab'],
    extensions: ['.fstab'],
    filenamePatterns: ['**/etc/fstab*'],
    configuration: './syntaxes/hash-comments.language-configuration.json',
  },
  {
    id: 'sysctl',
    aliases: ['sysctl.conf', 'sysctl'],
    filenames: ['sysctl.conf'],
    extensions: ['.sysctl.conf'],
    filenamePatterns: ['**/sysctl.d/*.conf'],
    configuration: './syntaxes/hash-comments.language-configuration.json',
  },
  {
    id: 'systemd-mount',
    aliases: ['systemd mount unit', 'systemd-mount'],
    extensions: ['.mount'],
    configuration: './syntaxes/ini.language-configuration.json',
  },
  {
    id: 'autofs',
    aliases: ['autofs map', 'autofs'],
    filenames: ['auto.master', 'auto.misc', 'auto.net', 'auto.home', 'auto.direct', 'auto.nfs'],
    filenamePatterns: ['**/etc/auto.*', '**/auto.master.d/*.autofs'],
    configuration: './syntaxes/hash-comments.language-configuration.json',
  },
  {
    id: 'fio',
    aliases: ['fio job file', 'fio'],
    extensions: ['.fio'],
    configuration: './syntaxes/ini.language-configuration.json',
  },
  {
    id: 'vdbench',
    aliases: ['vdbench parameter file', 'vdbench'],
    extensions: ['.vdb', '.vdbench'],
    configuration: './syntaxes/hash-comments.language-configuration.json',
  },
];

const grammars = [
  { language: 'anf-manifest', scopeName: 'source.anf-manifest', path: './syntaxes/anf-manifest.tmLanguage.json' },
  {
    language: 'anf-manifest-json',
    scopeName: 'source.anf-manifest-json',
    path: './syntaxes/anf-manifest-json.tmLanguage.json',
  },
  { language: 'fstab', scopeName: 'source.fstab', path: './syntaxes/fstab.tmLanguage.json' },
  { language: 'sysctl', scopeName: 'source.sysctl', path: './syntaxes/sysctl.tmLanguage.json' },
  { language: 'systemd-mount', scopeName: 'source.systemd-mount', path: './syntaxes/systemd-mount.tmLanguage.json' },
  { language: 'autofs', scopeName: 'source.autofs', path: './syntaxes/autofs.tmLanguage.json' },
  { language: 'fio', scopeName: 'source.fio', path: './syntaxes/fio.tmLanguage.json' },
  { language: 'vdbench', scopeName: 'source.vdbench', path: './syntaxes/vdbench.tmLanguage.json' },
  {
    scopeName: 'anf-lint.comments.injection',
    path: './syntaxes/anf-comments.injection.tmLanguage.json',
    injectTo: [
      'source.fstab',
      'source.sysctl',
      'source.systemd-mount',
      'source.autofs',
      'source.fio',
      'source.vdbench',
      'source.shell',
      'source.yaml',
      'source.anf-manifest',
      'text.html.markdown',
      'source.ini',
      'source.properties',
    ],
  },
];

const snippets = [
  { language: 'anf-manifest', path: './snippets/anf-manifest.json' },
  { language: 'fstab', path: './snippets/fstab.json' },
  { language: 'shellscript', path: './snippets/mount-commands.json' },
  { language: 'markdown', path: './snippets/mount-commands.json' },
  { language: 'sysctl', path: './snippets/sysctl.json' },
  { language: 'systemd-mount', path: './snippets/systemd-mount.json' },
];

const commands = [
  { command: 'anfLint.recommendSizing', title: 'Recommend sizing...', category: 'ANF', icon: '$(lightbulb)' },
  {
    command: 'anfLint.insertMountCommand',
    title: 'Insert mount command for volume...',
    category: 'ANF',
    icon: '$(terminal)',
  },
  { command: 'anfLint.showRuleDocumentation', title: 'Show rule documentation', category: 'ANF', icon: '$(book)' },
  { command: 'anfLint.restartServer', title: 'Restart server', category: 'ANF', icon: '$(debug-restart)' },
  { command: 'anfLint.showOutput', title: 'Show server output', category: 'ANF', icon: '$(output)' },
  { command: 'anfLint.hierarchy.refresh', title: 'Refresh', category: 'ANF', icon: '$(refresh)' },
  { command: 'anfLint.hierarchy.reveal', title: 'Go to definition', category: 'ANF', icon: '$(go-to-file)' },
  {
    command: 'anfLint.hierarchy.insertMount',
    title: 'Insert mount command for this volume',
    category: 'ANF',
    icon: '$(terminal)',
  },
];

const configuration = {
  title: 'anf-lint',
  properties: {
    'anfLint.rules': {
      type: 'object',
      default: {},
      scope: 'resource',
      markdownDescription:
        'Severity per rule, or `off`, on top of `.anf-lint.yaml`. Example: `{ "ANF204": "off", "ANF101": "error" }`. Rule pages: `ANF: Show rule documentation`.',
      propertyNames: { pattern: '^ANF\\d{3}$', patternErrorMessage: 'Rule codes look like ANF201.' },
      additionalProperties: { type: 'string', enum: SEVERITIES },
    },
    'anfLint.workload': {
      type: ['string', 'null'],
      default: null,
      enum: [null, ...WORKLOADS],
      enumDescriptions: ['No default: only annotations and manifest volumes say', ...WORKLOAD_TITLES],
      scope: 'resource',
      markdownDescription:
        'The workload to assume for a mount when neither a `# anf: workload=<kind>` annotation, the manifest volume it reaches nor its mount point (`/hana/log`, `/sapmnt`, `/u01/oradata`) says (same as `workload:` in `.anf-lint.yaml`).',
    },
    'anfLint.region': {
      type: ['string', 'null'],
      default: null,
      scope: 'resource',
      markdownDescription:
        'Azure region for list prices in figures and sizing advice, e.g. `eastus` or `westeurope` (same as `region:` in `.anf-lint.yaml`; default `eastus`).',
    },
    'anfLint.kernelVersion': {
      type: ['string', 'null'],
      default: null,
      pattern: '^\\d+\\.\\d+(\\.\\d+)?$',
      patternErrorMessage: 'Write the kernel version as 5.14 or 5.14.0',
      scope: 'resource',
      markdownDescription:
        'The oldest Linux client kernel the configuration must work on, e.g. `5.14`. Rules about options and sysctl keys that older kernels ignore read it.',
    },
    'anfLint.network.rtt': {
      type: ['string', 'null'],
      default: null,
      scope: 'resource',
      markdownDescription:
        'Round-trip time from the clients to ANF, e.g. `0.5 ms` (same VNet) or `2 ms` (ExpressRoute). Used for bandwidth-delay product and concurrency checks.',
    },
    'anfLint.network.bandwidth': {
      type: ['string', 'null'],
      default: null,
      scope: 'resource',
      markdownDescription:
        'Bandwidth one client should reach, e.g. `10 Gbps` or `1200 MiB/s`. Used to check TCP buffer sizes against the bandwidth-delay product.',
    },
    'anfLint.behindAzureLoadBalancer': {
      type: 'boolean',
      default: false,
      scope: 'resource',
      markdownDescription:
        'Every host of this workspace sits behind Azure Load Balancer (Pacemaker clusters for SAP HANA, ASCS/ERS or NFS): `net.ipv4.tcp_timestamps` must then be `0`. For some hosts only, list their names under `behindAzureLoadBalancer:` in `.anf-lint.yaml`.',
    },
    'anfLint.nfsServers': {
      type: 'object',
      default: {},
      scope: 'resource',
      additionalProperties: false,
      markdownDescription:
        'Which NFS servers are Azure NetApp Files (same as `nfsServers:` in `.anf-lint.yaml`). Azure Files and Azure Blob NFS are recognized by name.',
      properties: {
        anf: {
          type: 'array',
          items: { type: 'string' },
          description: 'ANF mount targets: addresses, host names, * patterns or IPv4 ranges (10.20.0.0/16).',
        },
        other: {
          type: 'array',
          items: { type: 'string' },
          description: 'NFS servers that are not ANF: only generic NFS advice applies to their mounts.',
        },
        default: {
          type: 'string',
          enum: ['anf', 'unknown'],
          description: 'What a server nothing else names is taken to be (default anf).',
        },
      },
    },
    'anfLint.sapHanaBehindLoadBalancer': {
      type: 'boolean',
      default: false,
      scope: 'resource',
      markdownDescription:
        'The SAP HANA nodes sit behind Azure Load Balancer (Pacemaker HA): `net.ipv4.tcp_timestamps` must then be `0`.',
    },
    'anfLint.prices': {
      type: 'object',
      default: {},
      scope: 'resource',
      additionalProperties: false,
      markdownDescription:
        'Price overrides in USD for figures and sizing advice (negotiated prices), on top of `prices:` in `.anf-lint.yaml`. Leave empty for the list prices of `#anfLint.region#`.',
      properties: {
        capacityPerGiBHour: {
          type: 'object',
          additionalProperties: false,
          description: 'Capacity price per GiB-hour, by service level.',
          properties: Object.fromEntries(
            ['Standard', 'Premium', 'Ultra', 'Flexible'].map((l) => [l, { type: 'number', exclusiveMinimum: 0 }]),
          ),
        },
        flexibleThroughputPerMiBpsHour: {
          type: 'number',
          exclusiveMinimum: 0,
          description: 'Flexible service level: price per MiB/s-hour of throughput above the included amount.',
        },
      },
    },
    'anfLint.trace.server': {
      type: 'string',
      enum: ['off', 'messages', 'verbose'],
      default: 'off',
      scope: 'window',
      description:
        'Log the messages between VS Code and the anf-lint language server to the "anf-lint" output channel.',
    },
  },
};

const contributes = {
  languages,
  grammars,
  snippets,
  // No yamlValidation for manifests: with Red Hat's YAML extension every shape error showed twice
  // (docs/vscode.md, test/e2e/yaml-extension.test.ts).
  jsonValidation: [{ fileMatch: '*.anf.json', url: './schemas/anf-manifest.schema.json' }],
  configuration,
  commands,
  menus: {
    commandPalette: [
      { command: 'anfLint.hierarchy.refresh', when: 'false' },
      { command: 'anfLint.hierarchy.reveal', when: 'false' },
      { command: 'anfLint.hierarchy.insertMount', when: 'false' },
    ],
    'view/title': [
      { command: 'anfLint.recommendSizing', when: 'view == anfLint.hierarchy', group: 'navigation@1' },
      { command: 'anfLint.hierarchy.refresh', when: 'view == anfLint.hierarchy', group: 'navigation@2' },
    ],
    'view/item/context': [
      {
        command: 'anfLint.hierarchy.insertMount',
        when: 'view == anfLint.hierarchy && viewItem == volume',
        group: 'inline',
      },
      { command: 'anfLint.hierarchy.reveal', when: 'view == anfLint.hierarchy', group: 'navigation' },
    ],
  },
  views: {
    explorer: [{ id: 'anfLint.hierarchy', name: 'ANF Hierarchy', icon: '$(database)', contextualTitle: 'anf-lint' }],
  },
  viewsWelcome: [
    {
      view: 'anfLint.hierarchy',
      contents:
        'No ANF manifest (*.anf.yaml, *.anf.yml, *.anf.json) in this workspace yet.\n[Recommend sizing...](command:anfLint.recommendSizing)\nThe tree lists accounts, capacity pools, volumes and the mounts that reach them.',
    },
  ],
};

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const next = {};
// Keep the existing key order; put new keys after "engines".
const OWNED = new Set(['categories', 'icon', 'repository', 'activationEvents', 'capabilities', 'contributes']);
for (const [key, value] of Object.entries(pkg)) {
  if (OWNED.has(key)) continue;
  next[key] = value;
  if (key === 'engines') {
    next.categories = ['Linters', 'Programming Languages', 'Snippets', 'Azure'];
    next.icon = 'client/media/icon.png';
    next.repository = { type: 'git', url: 'https://github.com/anf-lint/anf-lint.git' };
    next.activationEvents = [
      ...languages.map((l) => `onLanguage:${l.id}`),
      'workspaceContains:**/*.anf.{yaml,yml,json}',
      'workspaceContains:**/.anf-lint.{yaml,yml}',
      // Infrastructure code (docs/iac.md): by language where an extension contributes one (HashiCorp
      // Terraform, Bicep, Azure Resource Manager Tools), by file name where none does.
      ...IAC_LANGUAGES.map((id) => `onLanguage:${id}`),
      'workspaceContains:**/*.tf',
      'workspaceContains:**/*.bicep',
      'onLanguage:shellscript',
      'onLanguage:markdown',
      'onLanguage:yaml',
      'onLanguage:ansible',
      'onLanguage:helm',
      'onLanguage:restructuredtext',
      'onLanguage:powershell',
      'onLanguage:ini',
      'onLanguage:properties',
    ];
    next.capabilities = {
      untrustedWorkspaces: { supported: true },
      virtualWorkspaces: {
        supported: 'limited',
        description:
          'In a virtual workspace anf-lint lints the open documents only: it cannot read .anf-lint.yaml or scan the workspace for manifests.',
      },
    };
  }
}
next.contributes = contributes;
writeFileSync('package.json', `${JSON.stringify(next, null, 2)}\n`);
console.log('package.json: contribution keys written');
