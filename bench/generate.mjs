// Generates large, realistic anf-lint inputs for the benchmark: a sizing manifest (volumes in 25
// capacity pools), an fstab, a sysctl.d set, and a workspace of many hosts' files, at a scale
// factor (1 = 2,000 volumes, 10,000 fstab lines, 2,000 sysctl lines, 500 workspace files).
// Deterministic: a seeded PRNG, so every run lints the same bytes.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What the benchmark types: one of these characters at a time. */
const TYPED = 'x0,= 9a';

/**
 * The benchmark's edits, as typing makes them: `count` times, one character typed at a random place
 * of a random non-blank line, then deleted again (2 x `count` edits). Yields after each edit the live
 * line array (the text is `lines.join('\n')`, read before the next step), where the character went,
 * the line before it, and whether this edit is the deletion.
 */
export function* typingEdits(text, count, seed) {
  const random = prng(seed);
  const lines = text.split('\n');
  const candidates = lines.map((line, index) => ({ line, index })).filter(({ line }) => line.trim().length > 0);
  for (let i = 0; i < count; i++) {
    const { line, index } = candidates[Math.floor(random() * candidates.length)];
    const character = Math.floor(random() * (line.length + 1));
    const inserted = TYPED[Math.floor(random() * TYPED.length)];
    lines[index] = line.slice(0, character) + inserted + line.slice(character);
    yield { lines, index, character, inserted, original: line, undo: false };
    lines[index] = line;
    yield { lines, index, character, inserted, original: line, undo: true };
  }
}

const pick = (random, list) => list[Math.floor(random() * list.length)];
const LEVELS = ['Standard', 'Premium', 'Ultra', 'Premium', 'Flexible'];
const WORKLOADS = ['eda-tools', 'eda-scratch', 'hpc', 'general', 'sap-hana-shared', 'database', 'vdi'];
const PROTOCOLS = {
  'eda-tools': 'NFSv3',
  'eda-scratch': 'NFSv3',
  hpc: 'NFSv3',
  general: 'NFSv3',
  'sap-hana-shared': 'NFSv4.1',
  database: 'NFSv4.1',
  vdi: 'NFSv3',
};

/** A manifest of `volumes` volumes in `pools` pools (one account per 10 pools), with comments. */
export function manifest(volumes, pools = 25, seed = 1) {
  const random = prng(seed);
  const lines = ['# Generated for the anf-lint benchmark: a large EDA/HPC estate.', 'region: eastus', '', 'accounts:'];
  const perPool = Math.ceil(volumes / pools);
  let written = 0;
  for (let p = 0; p < pools; p++) {
    if (p % 10 === 0) lines.push(`  - name: estate-${p / 10}`, '    pools:');
    const level = LEVELS[p % LEVELS.length];
    const count = Math.min(perPool, volumes - written);
    const quotaTiB = 1 + (p % 4);
    lines.push(
      `      # Pool ${p}: ${count} volumes`,
      `      - name: pool-${p}`,
      `        serviceLevel: ${level}`,
      `        size: ${Math.max(4, Math.ceil((count * quotaTiB) / 0.9))} TiB`,
    );
    if (level === 'Flexible') lines.push('        throughput: 1024 MiB/s');
    lines.push('        volumes:');
    for (let v = 0; v < count; v++, written++) {
      const workload = pick(random, WORKLOADS);
      const name = `vol-${p}-${v}`;
      lines.push(
        `          - name: ${name}`,
        `            quota: ${quotaTiB} TiB${random() < 0.2 ? '            # grown for the tape-out' : ''}`,
        `            protocols: [${PROTOCOLS[workload]}]`,
        `            workload: ${workload}`,
      );
      if (level === 'Flexible') lines.push(`            throughput: ${8 + Math.floor(random() * 32)} MiB/s`);
      lines.push(
        `            exportPath: /${name}`,
        `            mountTarget: 10.${10 + Math.floor(p / 10)}.${p % 10}.4`,
        `            mountPath: /mnt/${name}`,
      );
      if (random() < 0.6) {
        lines.push(
          '            requirements:',
          `              capacity: ${Math.max(1, Math.round(quotaTiB * 1024 * (0.3 + random() * 0.8)))} GiB`,
          `              throughput: ${Math.round(16 + random() * 200)} MiB/s`,
        );
        if (random() < 0.3)
          lines.push(`              iops: ${Math.round(1 + random() * 40)}k`, '              blockSize: 8 KiB');
        if (random() < 0.3) lines.push(`              clients: ${Math.round(4 + random() * 300)}`);
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

const OPTION_SETS = [
  'rw,hard,vers=3,rsize=262144,wsize=262144,nconnect=8,tcp,_netdev,nofail',
  'rw,hard,nfsvers=4.1,rsize=262144,wsize=262144,sec=sys,_netdev',
  'rw,hard,vers=3,rsize=1048576,wsize=1048576,nocto,actimeo=600,nconnect=4,_netdev',
  'rw,soft,vers=3,rsize=65536,wsize=65536,tcp',
  'ro,hard,vers=3,rsize=262144,wsize=262144,noatime,_netdev',
  'defaults,_netdev',
  'rw,hard,vers=4.1,rsize=262144,wsize=131072,sync,noac',
];

/** An fstab of `count` lines: NFS mounts of the manifest's volumes, local disks, comments, blanks. */
export function fstab(count, seed = 2) {
  const random = prng(seed);
  const lines = [
    '# /etc/fstab: generated for the anf-lint benchmark',
    '# <file system> <mount point> <type> <options> <dump> <pass>',
  ];
  for (let i = 0; lines.length < count; i++) {
    const r = random();
    if (r < 0.08) lines.push(`# host group ${i}: scratch for the nightly regression`);
    else if (r < 0.12) lines.push('');
    else if (r < 0.16)
      lines.push(
        `UUID=${((i * 2654435761) >>> 0).toString(16)}-0000-4000-8000-00000000${(i % 10000).toString().padStart(4, '0')} /data${i} xfs defaults,noatime 0 2`,
      );
    else if (r < 0.2) lines.push(`# anf: workload=${pick(random, WORKLOADS)}`);
    else {
      const p = Math.floor(random() * 25);
      const v = Math.floor(random() * 80);
      lines.push(
        `10.${10 + Math.floor(p / 10)}.${p % 10}.4:/vol-${p}-${v} /mnt/vol-${p}-${v}-${i} nfs ${pick(random, OPTION_SETS)} 0 0`,
      );
    }
  }
  return `${lines.slice(0, count).join('\n')}\n`;
}

const SYSCTL_LINES = [
  'net.core.rmem_max = 16777216',
  'net.core.wmem_max = 16777216',
  'net.core.rmem_default = 262144',
  'net.ipv4.tcp_rmem = 4096 87380 16777216',
  'net.ipv4.tcp_wmem = 4096 65536 16777216',
  'net.ipv4.tcp_window_scaling = 1',
  'net.ipv4.tcp_sack = 1',
  'net.ipv4.tcp_timestamps = 1',
  'net.core.netdev_max_backlog = 300000',
  'vm.dirty_ratio = 20',
  'vm.dirty_background_ratio = 10',
  'sunrpc.tcp_slot_table_entries = 128',
  'sunrpc.tcp_max_slot_table_entries = 128',
  'net.ipv4.tcp_no_metrics_save = 1',
  'net.ipv4.tcp_moderate_rcvbuf = 1',
  'fs.nfs.nfs_congestion_kb = 8192',
];

/** `lines` lines of sysctl.d settings with comments, split in files of `perFile` lines. */
export function sysctlSet(lines, perFile = 200, seed = 3) {
  const random = prng(seed);
  const files = {};
  for (let f = 0; f * perFile < lines; f++) {
    const out = [`# ${f + 10}-anf.conf: NFS client tuning, generated for the anf-lint benchmark`];
    while (out.length < Math.min(perFile, lines - f * perFile)) {
      const r = random();
      if (r < 0.15) out.push(`# tuned for ${pick(random, WORKLOADS)} clients`);
      else if (r < 0.2) out.push('');
      else out.push(pick(random, SYSCTL_LINES));
    }
    files[`etc/sysctl.d/${String(f + 10).padStart(2, '0')}-anf-${f}.conf`] = `${out.join('\n')}\n`;
  }
  return files;
}

function shellScript(random, i) {
  const lines = ['#!/bin/bash', `# Mount the project volumes on compute node group ${i}`, 'set -euo pipefail', ''];
  for (let k = 0; k < 8; k++) {
    const p = Math.floor(random() * 25);
    const v = Math.floor(random() * 80);
    lines.push(
      `mkdir -p /mnt/vol-${p}-${v}`,
      `sudo mount -t nfs -o ${pick(random, OPTION_SETS)} 10.${10 + Math.floor(p / 10)}.${p % 10}.4:/vol-${p}-${v} /mnt/vol-${p}-${v}`,
    );
  }
  lines.push('sysctl -w net.core.rmem_max=16777216', 'echo 128 > /proc/sys/sunrpc/tcp_slot_table_entries', '');
  return lines.join('\n');
}

/**
 * A provisioning script of about `lines` lines (the shell edit row, issue 17): per node group a
 * `# anf:` annotation, an options variable used once, `mount` commands (some continued with `\\`),
 * fstab lines appended by here-document and by `echo ... | tee -a`, sysctl.d lines echoed and written
 * by here-document, `sysctl -w`, `if mountpoint` blocks and quoted log lines.
 */
export function provisioningScript(lines = 5000, seed = 6) {
  const random = prng(seed);
  const out = [
    '#!/bin/bash',
    '# Provision the NFS mounts and kernel tuning of the compute farm (generated for the anf-lint benchmark)',
    'set -euo pipefail',
    '',
  ];
  for (let g = 0; out.length < lines; g++) {
    const p = Math.floor(random() * 25);
    const v = Math.floor(random() * 80);
    const server = `10.${10 + Math.floor(p / 10)}.${p % 10}.4`;
    const mnt = `/mnt/vol-${p}-${v}-${g}`;
    out.push(`# --- node group ${g}: ${pick(random, WORKLOADS)} volumes ---`);
    const r = random();
    if (r < 0.25) {
      out.push(
        `# anf: workload=${pick(random, WORKLOADS)}`,
        `OPTS_${g}="${pick(random, OPTION_SETS)}"`,
        `mkdir -p ${mnt}`,
        `if ! mountpoint -q ${mnt}; then`,
        `  sudo mount -t nfs -o "$OPTS_${g}" ${server}:/vol-${p}-${v} ${mnt}`,
        'fi',
      );
    } else if (r < 0.45) {
      out.push(
        `mkdir -p ${mnt}`,
        `sudo mount -t nfs \\`,
        `  -o ${pick(random, OPTION_SETS)} \\`,
        `  ${server}:/vol-${p}-${v} ${mnt}`,
        `echo "mounted ${mnt} from ${server}"`,
      );
    } else if (r < 0.65) {
      out.push(`cat >> /etc/fstab <<'EOF'`, `# group ${g}`);
      for (let k = 0; k < 3; k++)
        out.push(`${server}:/vol-${p}-${(v + k) % 80} ${mnt}-${k} nfs ${pick(random, OPTION_SETS)} 0 0`);
      out.push('EOF', 'mount -a');
    } else if (r < 0.8) {
      out.push(
        `echo "${server}:/vol-${p}-${v} ${mnt} nfs ${pick(random, OPTION_SETS)} 0 0" | sudo tee -a /etc/fstab > /dev/null`,
      );
      out.push(`echo '${pick(random, SYSCTL_LINES)}' >> /etc/sysctl.d/90-anf-${g % 7}.conf`);
    } else if (r < 0.9) {
      out.push(`cat > /etc/sysctl.d/9${g % 10}-anf-group-${g}.conf <<EOF`);
      for (let k = 0; k < 4; k++) out.push(pick(random, SYSCTL_LINES));
      out.push('EOF', 'sysctl --system > /dev/null');
    } else {
      out.push(
        `sysctl -w "${pick(random, SYSCTL_LINES).replace(/ = /, '=')}"`,
        `echo 128 > /proc/sys/sunrpc/tcp_slot_table_entries`,
        `logger -t provision "group ${g}: 'tuned' for \\"${pick(random, WORKLOADS)}\\""`,
      );
    }
    out.push('');
  }
  return `${out.slice(0, lines).join('\n')}\n`;
}

function runbook(random, i) {
  const lines = [
    `# Runbook ${i}: storage for the regression farm`,
    '',
    'Mount the tools volume on every node before the nightly run:',
    '',
    '```sh',
  ];
  for (let k = 0; k < 4; k++)
    lines.push(`sudo mount -t nfs -o ${pick(random, OPTION_SETS)} 10.10.${k}.4:/vol-${k}-${i % 80} /mnt/tools${k}`);
  lines.push('```', '', 'Kernel settings:', '', '```');
  for (let k = 0; k < 4; k++) lines.push(pick(random, SYSCTL_LINES));
  lines.push('```', '', `Ask the storage team before changing nconnect (ticket ${1000 + i}).`, '');
  return lines.join('\n');
}

function systemdUnit(random, i) {
  const p = i % 25;
  const v = i % 80;
  return [
    '[Unit]',
    `Description=ANF volume vol-${p}-${v}`,
    'After=network-online.target',
    '',
    '[Mount]',
    `What=10.${10 + Math.floor(p / 10)}.${p % 10}.4:/vol-${p}-${v}`,
    `Where=/mnt/vol${i}`,
    'Type=nfs',
    `Options=${pick(random, OPTION_SETS)}`,
    '',
    '[Install]',
    'WantedBy=remote-fs.target',
    '',
  ].join('\n');
}

function autofsMap(random, i) {
  const lines = [`# auto.proj ${i}`];
  for (let k = 0; k < 20; k++)
    lines.push(`proj${k} -fstype=nfs,${pick(random, OPTION_SETS)} 10.10.${k % 10}.4:/vol-${k % 25}-${(i + k) % 80}`);
  return `${lines.join('\n')}\n`;
}

/**
 * A repository of `count` files, as a configuration repo for a farm of hosts looks: per-host fstab
 * and sysctl.d files, mount scripts, runbooks, systemd units, autofs maps, modprobe options and a
 * few manifests.
 */
export function workspaceFiles(count, seed = 4) {
  const random = prng(seed);
  const files = {};
  const manifests = Math.max(1, Math.round(count / 100));
  for (let m = 0; m < manifests; m++) files[`estates/estate-${m}.anf.yaml`] = manifest(80, 4, seed + m);
  files['.anf-lint.yaml'] = 'region: eastus\nrules:\n  ANF211: warning\n';
  const kinds = ['fstab', 'sysctl', 'fstab', 'sysctl', 'shell', 'markdown', 'systemd', 'autofs', 'fstab', 'modprobe'];
  for (let i = 0; Object.keys(files).length < count; i++) {
    const host = `hosts/node-${String(Math.floor(i / 2)).padStart(4, '0')}`;
    switch (kinds[i % kinds.length]) {
      case 'fstab':
        files[`${host}/etc/fstab`] = fstab(40, seed * 1000 + i);
        break;
      case 'sysctl':
        files[`${host}/etc/sysctl.d/90-nfs.conf`] = Object.values(sysctlSet(40, 40, seed * 1000 + i))[0];
        break;
      case 'shell':
        files[`scripts/mount-group-${i}.sh`] = shellScript(random, i);
        break;
      case 'markdown':
        files[`docs/runbook-${i}.md`] = runbook(random, i);
        break;
      case 'systemd':
        files[`systemd/mnt-vol${i}.mount`] = systemdUnit(random, i);
        break;
      case 'autofs':
        files[`${host}/etc/auto.proj`] = autofsMap(random, i);
        break;
      case 'modprobe':
        files[`${host}/etc/modprobe.d/sunrpc.conf`] =
          `options sunrpc tcp_slot_table_entries=${pick(random, [64, 128, 256])} tcp_max_slot_table_entries=128\n`;
        break;
    }
  }
  return files;
}

const TF_LEVELS = ['Premium', 'Ultra', 'Standard', 'Premium'];
const TF_WORKLOADS = ['eda-tools', 'eda-scratch', 'hpc', 'general'];

/**
 * A Terraform module of about `lines` lines (5,000 for the editing benchmark): variables, locals,
 * two NetApp accounts, 12 capacity pools and as many `azurerm_netapp_volume` resources as fit
 * (about 220 at 5,000 lines), each with an `export_policy_rule` block, tags from a local merged
 * with the volume's own, `# anf: workload=` annotations and comments. Some pools are
 * over-committed and some volumes serve NFSv4.1 without Kerberos, so the file has findings.
 */
export function terraform(lines = 5000, seed = 5) {
  const random = prng(seed);
  const out = [
    "# Generated for the anf-lint benchmark: the EDA farm's storage as azurerm resources.",
    '# One module: the accounts, the capacity pools and every project volume.',
    '',
    'variable "location" {',
    '  type    = string',
    '  default = "eastus"',
    '}',
    '',
    'variable "resource_group_name" {',
    '  type        = string',
    '  description = "The resource group of the storage estate"',
    '}',
    '',
    'variable "subnet_id" {',
    '  type        = string',
    '  description = "The delegated subnet (Microsoft.NetApp/volumes)"',
    '}',
    '',
    'variable "default_quota_gib" {',
    '  type    = number',
    '  default = 2048',
    '}',
    '',
    'locals {',
    '  tags = {',
    '    cost_center = "eda-4711"',
    '    owner       = "storage-team"',
    '    managed_by  = "terraform"',
    '  }',
    '  scratch_quota_gib = 4 * 1024',
    '  clients           = ["10.10.0.0/16", "10.20.0.0/16"]',
    '}',
    '',
  ];
  const accounts = ['eda', 'hpc'];
  for (const account of accounts) {
    out.push(
      `resource "azurerm_netapp_account" "${account}" {`,
      `  name                = "${account}-prod"`,
      '  location            = var.location',
      '  resource_group_name = var.resource_group_name',
      '  tags                = local.tags',
      '}',
      '',
    );
  }
  const pools = 12;
  for (let p = 0; p < pools; p++) {
    const level = TF_LEVELS[p % TF_LEVELS.length];
    out.push(
      `resource "azurerm_netapp_pool" "pool${p}" {`,
      `  name                = "${accounts[p % 2]}-pool-${p}"`,
      `  account_name        = azurerm_netapp_account.${accounts[p % 2]}.name`,
      '  location            = var.location',
      '  resource_group_name = var.resource_group_name',
      `  service_level       = "${level}"`,
      `  size_in_tb          = ${p % 5 === 4 ? 40 : 64}`,
      '  tags                = local.tags',
      '}',
      '',
    );
  }
  for (let v = 0; out.length < lines - 12; v++) {
    const p = v % pools;
    const level = TF_LEVELS[p % TF_LEVELS.length];
    const workload = pick(random, TF_WORKLOADS);
    const name = `proj-${p}-${v}`;
    const protocol = random() < 0.1 ? 'NFSv4.1' : 'NFSv3';
    const quota =
      workload === 'eda-scratch'
        ? 'local.scratch_quota_gib'
        : random() < 0.3
          ? 'var.default_quota_gib'
          : String(1024 * (1 + Math.floor(random() * 6)));
    if (random() < 0.15) out.push(`# ${name}: requested in ticket ${2000 + v}`);
    out.push(
      `# anf: workload=${workload}`,
      `resource "azurerm_netapp_volume" "v${v}" {`,
      `  name                = "${name}"`,
      `  account_name        = azurerm_netapp_account.${accounts[p % 2]}.name`,
      `  pool_name           = azurerm_netapp_pool.pool${p}.name`,
      '  location            = var.location',
      '  resource_group_name = var.resource_group_name',
      `  service_level       = "${level}"`,
      '  subnet_id           = var.subnet_id',
      `  volume_path         = "${name}"`,
      `  storage_quota_in_gb = ${quota}`,
      `  protocols           = ["${protocol}"]`,
      '  export_policy_rule {',
      '    rule_index          = 1',
      '    allowed_clients     = local.clients',
      `    protocols_enabled   = ["${protocol}"]`,
      '    unix_read_write     = true',
      '    root_access_enabled = false',
      '  }',
      `  tags = merge(local.tags, { project = "${name}" })`,
      '}',
      '',
    );
  }
  out.push('output "volume_count" {', '  value = "generated"', '}');
  return `${out.join('\n')}\n`;
}

/** A 200-line fstab for the editing benchmark. */
export function smallFstab() {
  return fstab(200, 7);
}

export function writeFiles(root, files) {
  let bytes = 0;
  let lines = 0;
  for (const [path, text] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    bytes += Buffer.byteLength(text);
    lines += text.split('\n').length - 1;
  }
  return { files: Object.keys(files).length, bytes, lines };
}

/** Every input at one scale, written under `root`. */
export function generate(root, scale) {
  const sizes = {
    volumes: Math.round(2000 * scale),
    fstabLines: Math.round(10000 * scale),
    sysctlLines: Math.round(2000 * scale),
    workspaceFiles: Math.round(500 * scale),
  };
  const written = {
    manifest: writeFiles(join(root, 'manifest'), { 'estate.anf.yaml': manifest(sizes.volumes) }),
    fstab: writeFiles(join(root, 'fstab'), { 'etc/fstab': fstab(sizes.fstabLines) }),
    sysctl: writeFiles(join(root, 'sysctl'), sysctlSet(sizes.sysctlLines)),
    workspace: writeFiles(join(root, 'workspace'), workspaceFiles(sizes.workspaceFiles)),
  };
  return { sizes, written };
}

/** An autofs map of `n` lines: keys with NFS options, a few comments and multi-mount entries. */
export function autofsLines(n) {
  const random = prng(9);
  const sets = [
    '-fstype=nfs,rw,hard,vers=3,rsize=262144,wsize=262144,tcp',
    '-fstype=nfs4,rw,hard,nconnect=8,rsize=1048576,wsize=1048576',
    '-rw,soft,intr,vers=3',
    '-fstype=nfs,vers=4.1,sec=sys,actimeo=600',
  ];
  const lines = ['# auto.proj: project volumes, generated for the anf-lint benchmark'];
  for (let i = 0; lines.length < n; i++) {
    const r = random();
    const p = Math.floor(random() * 25);
    const v = Math.floor(random() * 80);
    if (r < 0.08) lines.push(`# group ${i}`);
    else if (r < 0.1) lines.push('');
    else
      lines.push(
        `proj${i} ${sets[Math.floor(random() * sets.length)]} 10.${10 + Math.floor(p / 10)}.${p % 10}.4:/vol-${p}-${v}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

// ---- whole repositories of infrastructure code (issue 29) ---------------------------------------

const BICEP_API = '2025-06-01';
const AZ_LOCATIONS = ['eastus', 'westeurope', 'northeurope', 'eastus2'];

/** What an everyday module ends with: a lock and role assignments on the resource group (AVM-style). */
const BICEP_MODULE_TAIL = [
  "resource lock 'Microsoft.Authorization/locks@2020-05-01' = if (enableLock) {",
  "  name: '${prefix}-lock'",
  '  properties: {',
  "    level: 'CanNotDelete'",
  '  }',
  '}',
  '',
  "resource assignments 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for (assignment, index) in roleAssignments: {",
  '  name: guid(resourceGroup().id, prefix, assignment.principalId, string(index))',
  '  properties: {',
  '    roleDefinitionId: builtInRoles[?assignment.roleName] ?? assignment.roleName',
  '    principalId: assignment.principalId',
  "    principalType: assignment.?principalType ?? 'ServicePrincipal'",
  "    description: 'Assigned by the ${prefix} module (${isProd ? 'production' : 'non-production'}).'",
  '  }',
  '}]',
  '',
].join('\n');

/** A Bicep module without NetApp resources: one of the everyday kinds of an Azure repository. */
function bicepPlainModule(random, i) {
  return `${bicepPlainBody(random, i)}${BICEP_MODULE_TAIL}`;
}

function bicepPlainBody(random, i) {
  const kind = i % 6;
  const head = [
    `// Module ${i}: generated for the anf-lint benchmark (no Azure NetApp Files resources).`,
    "@description('The region of every resource of this module.')",
    'param location string = resourceGroup().location',
    `param prefix string = 'app${i}'`,
    'param tags object = {}',
    '',
    "@description('Optional. The resource ID of a Log Analytics workspace for diagnostic settings.')",
    "param diagnosticWorkspaceId string = ''",
    '',
    "@description('Optional. Enable a CanNotDelete lock on every resource of this module.')",
    'param enableLock bool = false',
    '',
    "@description('Optional. Role assignments to create on the main resource: principal IDs and role names.')",
    'param roleAssignments array = []',
    '',
    "@allowed([ 'dev', 'test', 'prod' ])",
    "@description('The environment this module is deployed to; decides the SKU and the retention.')",
    "param environmentName string = 'dev'",
    '',
    "var isProd = environmentName == 'prod'",
    'var builtInRoles = {',
    "  Contributor: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'b24988ac-6180-42a0-ab88-20f7382dd24c')",
    "  Reader: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', 'acdd72a7-3385-48ef-bd42-f606fba81ae7')",
    '}',
    '',
  ];
  if (kind === 0) {
    const subnets = 2 + Math.floor(random() * 6);
    return [
      ...head,
      "param addressPrefix string = '10.0.0.0/16'",
      `var subnetNames = [${Array.from({ length: subnets }, (_, s) => `'snet-${s}'`).join(', ')}]`,
      '',
      "resource vnet 'Microsoft.Network/virtualNetworks@2023-11-01' = {",
      "  name: '${prefix}-vnet'",
      '  location: location',
      '  tags: tags',
      '  properties: {',
      '    addressSpace: {',
      '      addressPrefixes: [',
      '        addressPrefix',
      '      ]',
      '    }',
      '    subnets: [for (name, index) in subnetNames: {',
      '      name: name',
      '      properties: {',
      '        addressPrefix: cidrSubnet(addressPrefix, 24, index)',
      "        privateEndpointNetworkPolicies: 'Disabled'",
      '      }',
      '    }]',
      '  }',
      '}',
      '',
      'output vnetId string = vnet.id',
      'output subnetIds array = [for (name, index) in subnetNames: vnet.properties.subnets[index].id]',
      '',
    ].join('\n');
  }
  if (kind === 1) {
    return [
      ...head,
      "@allowed([ 'Standard_LRS', 'Standard_ZRS', 'Standard_GRS' ])",
      "param skuName string = 'Standard_ZRS'",
      `param containers array = [ 'logs', 'data', 'backup${i % 3}' ]`,
      '',
      "resource storage 'Microsoft.Storage/storageAccounts@2023-05-01' = {",
      "  name: toLower('${prefix}${uniqueString(resourceGroup().id)}')",
      '  location: location',
      '  tags: tags',
      "  kind: 'StorageV2'",
      '  sku: {',
      '    name: skuName',
      '  }',
      '  properties: {',
      "    minimumTlsVersion: 'TLS1_2'",
      '    allowBlobPublicAccess: false',
      '    supportsHttpsTrafficOnly: true',
      '    networkAcls: {',
      "      defaultAction: 'Deny'",
      "      bypass: 'AzureServices'",
      '    }',
      '  }',
      '}',
      '',
      "resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {",
      '  parent: storage',
      "  name: 'default'",
      '}',
      '',
      "resource blobContainers 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = [for name in containers: {",
      '  parent: blobService',
      '  name: name',
      '  properties: {',
      "    publicAccess: 'None'",
      '  }',
      '}]',
      '',
      'output storageId string = storage.id',
      '',
    ].join('\n');
  }
  if (kind === 2) {
    return [
      ...head,
      'param tenantId string = subscription().tenantId',
      'param readers array = []',
      '',
      "resource vault 'Microsoft.KeyVault/vaults@2023-07-01' = {",
      "  name: '${prefix}-kv-${substring(uniqueString(resourceGroup().id), 0, 6)}'",
      '  location: location',
      '  tags: tags',
      '  properties: {',
      '    tenantId: tenantId',
      '    sku: {',
      "      family: 'A'",
      "      name: 'standard'",
      '    }',
      '    enableRbacAuthorization: true',
      '    enableSoftDelete: true',
      '    softDeleteRetentionInDays: 90',
      '    enablePurgeProtection: true',
      '  }',
      '}',
      '',
      "var secretsUser = subscriptionResourceId('Microsoft.Authorization/roleDefinitions', '4633458b-17de-408a-b874-0445c86b69e6')",
      '',
      "resource readerAssignments 'Microsoft.Authorization/roleAssignments@2022-04-01' = [for principalId in readers: {",
      '  scope: vault',
      '  name: guid(vault.id, principalId, secretsUser)',
      '  properties: {',
      '    roleDefinitionId: secretsUser',
      '    principalId: principalId',
      "    principalType: 'ServicePrincipal'",
      '  }',
      '}]',
      '',
      'output vaultUri string = vault.properties.vaultUri',
      '',
    ].join('\n');
  }
  if (kind === 3) {
    const settings = 3 + Math.floor(random() * 8);
    return [
      ...head,
      "param skuName string = 'P1v3'",
      "param appInsightsConnectionString string = ''",
      '',
      "resource plan 'Microsoft.Web/serverfarms@2023-12-01' = {",
      "  name: '${prefix}-plan'",
      '  location: location',
      '  tags: tags',
      '  sku: {',
      '    name: skuName',
      '  }',
      "  kind: 'linux'",
      '  properties: {',
      '    reserved: true',
      '  }',
      '}',
      '',
      "resource site 'Microsoft.Web/sites@2023-12-01' = {",
      "  name: '${prefix}-web'",
      '  location: location',
      '  tags: tags',
      '  identity: {',
      "    type: 'SystemAssigned'",
      '  }',
      '  properties: {',
      '    serverFarmId: plan.id',
      '    httpsOnly: true',
      '    siteConfig: {',
      "      linuxFxVersion: 'NODE|20-lts'",
      "      minTlsVersion: '1.2'",
      "      ftpsState: 'Disabled'",
      '      appSettings: [',
      ...Array.from({ length: settings }, (_, s) => [
        '        {',
        `          name: 'SETTING_${s}'`,
        `          value: '${s % 2 ? 'enabled' : '${prefix}-${s}'}'`,
        '        }',
      ]).flat(),
      '        {',
      "          name: 'APPLICATIONINSIGHTS_CONNECTION_STRING'",
      '          value: appInsightsConnectionString',
      '        }',
      '      ]',
      '    }',
      '  }',
      '}',
      '',
      'output principalId string = site.identity.principalId',
      '',
    ].join('\n');
  }
  if (kind === 4) {
    const rules = 2 + Math.floor(random() * 6);
    return [
      ...head,
      'var rules = [',
      ...Array.from({ length: rules }, (_, r) => [
        '  {',
        `    name: 'allow-${r}'`,
        `    priority: ${100 + r * 10}`,
        `    port: '${[22, 443, 2049, 111, 635, 4045][r % 6]}'`,
        `    source: '10.${r}.0.0/16'`,
        '  }',
      ]).flat(),
      ']',
      '',
      "resource nsg 'Microsoft.Network/networkSecurityGroups@2023-11-01' = {",
      "  name: '${prefix}-nsg'",
      '  location: location',
      '  tags: tags',
      '  properties: {',
      '    securityRules: [for rule in rules: {',
      '      name: rule.name',
      '      properties: {',
      '        priority: rule.priority',
      "        direction: 'Inbound'",
      "        access: 'Allow'",
      "        protocol: 'Tcp'",
      "        sourcePortRange: '*'",
      '        destinationPortRange: rule.port',
      '        sourceAddressPrefix: rule.source',
      "        destinationAddressPrefix: 'VirtualNetwork'",
      '      }',
      '    }]',
      '  }',
      '}',
      '',
      'output nsgId string = nsg.id',
      '',
    ].join('\n');
  }
  return [
    ...head,
    'param retentionInDays int = 30',
    '',
    "resource workspace 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {",
    "  name: '${prefix}-law'",
    '  location: location',
    '  tags: tags',
    '  properties: {',
    '    sku: {',
    "      name: 'PerGB2018'",
    '    }',
    '    retentionInDays: retentionInDays',
    '    features: {',
    '      enableLogAccessUsingOnlyResourcePermissions: true',
    '    }',
    '  }',
    '}',
    '',
    "resource insights 'Microsoft.Insights/components@2020-02-02' = {",
    "  name: '${prefix}-ai'",
    '  location: location',
    '  tags: tags',
    "  kind: 'web'",
    '  properties: {',
    "    Application_Type: 'web'",
    '    WorkspaceResourceId: workspace.id',
    '  }',
    '}',
    '',
    'output connectionString string = insights.properties.ConnectionString',
    '',
  ].join('\n');
}

/** A Bicep module with an Azure NetApp Files account, a pool and a loop of volumes. */
function bicepNetAppModule(random, i) {
  const volumes = 2 + Math.floor(random() * 5);
  const level = pick(random, ['Premium', 'Ultra', 'Standard']);
  const protocol = random() < 0.2 ? 'NFSv4.1' : 'NFSv3';
  return [
    `// Storage for workload ${i}: one account, one pool and its volumes (generated for the anf-lint benchmark).`,
    'param location string = resourceGroup().location',
    'param subnetId string',
    `param prefix string = 'anf${i}'`,
    `param volumeNames array = [${Array.from({ length: volumes }, (_, v) => `'data${v}'`).join(', ')}]`,
    `param quotaGiB int = ${pick(random, [1024, 2048, 4096])}`,
    '',
    'var gib = 1024 * 1024 * 1024',
    'var tib = 1024 * gib',
    '',
    `resource account 'Microsoft.NetApp/netAppAccounts@${BICEP_API}' = {`,
    "  name: '${prefix}-account'",
    '  location: location',
    '}',
    '',
    `resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@${BICEP_API}' = {`,
    '  parent: account',
    "  name: '${prefix}-pool'",
    '  location: location',
    '  properties: {',
    `    serviceLevel: '${level}'`,
    `    size: ${volumes * 4} * tib`,
    '  }',
    '}',
    '',
    `// anf: workload=${pick(random, ['eda-tools', 'hpc', 'general'])}`,
    `resource volumes 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@${BICEP_API}' = [for name in volumeNames: {`,
    '  parent: pool',
    "  name: '${prefix}-${name}'",
    '  location: location',
    '  properties: {',
    `    serviceLevel: '${level}'`,
    "    creationToken: '${prefix}-${name}'",
    '    subnetId: subnetId',
    '    usageThreshold: quotaGiB * gib',
    `    protocolTypes: [ '${protocol}' ]`,
    '    exportPolicy: {',
    '      rules: [',
    '        {',
    '          ruleIndex: 1',
    "          allowedClients: '10.10.0.0/16'",
    `          nfsv3: ${protocol === 'NFSv3'}`,
    `          nfsv41: ${protocol === 'NFSv4.1'}`,
    '          unixReadWrite: true',
    '          hasRootAccess: false',
    '        }',
    '      ]',
    '    }',
    '  }',
    '}]',
    '',
    'output volumeIds array = [for (name, index) in volumeNames: volumes[index].id]',
    '',
  ].join('\n');
}

/** An environment's main.bicep: calls modules of its own and shared ones, some in loops. */
function bicepMain(random, env, modules) {
  const lines = [
    `// Environment ${env}: generated for the anf-lint benchmark.`,
    "targetScope = 'resourceGroup'",
    '',
    `param location string = '${pick(random, AZ_LOCATIONS)}'`,
    `param environment string = 'env${env}'`,
    "param subnetId string = ''",
    'param tags object = {',
    '  environment: environment',
    `  costCenter: 'cc-${env}'`,
    '}',
    '',
  ];
  for (const [m, path] of modules.entries()) {
    if (m % 3 === 2) {
      lines.push(
        `module mod${m} '${path}' = [for i in range(0, ${2 + (m % 3)}): {`,
        `  name: 'mod${m}-\${i}'`,
        '  params: {',
        '    location: location',
        `    prefix: '\${environment}-m${m}-\${i}'`,
        ...(path.includes('netapp') ? ['    subnetId: subnetId'] : ['    tags: tags']),
        '  }',
        '}]',
        '',
      );
    } else {
      lines.push(
        `module mod${m} '${path}' = {`,
        `  name: 'mod${m}'`,
        '  params: {',
        '    location: location',
        `    prefix: '\${environment}-m${m}'`,
        ...(path.includes('netapp') ? ['    subnetId: subnetId'] : ['    tags: tags']),
        '  }',
        '}',
        '',
      );
    }
  }
  return lines.join('\n');
}

/**
 * A Bicep repository of `files` files (about 2.3 KB each, 0.9 MB at 400): shared modules, and
 * environments each with a main.bicep calling some of them (some in loops) and modules of its own;
 * about one module in twelve declares Azure NetApp Files resources, the rest network, storage, key
 * vaults, web apps and monitoring. Returns path -> text.
 */
export function bicepRepository(files = 400, seed = 11) {
  const random = prng(seed);
  const out = {};
  const shared = [];
  const sharedCount = Math.round(files * 0.15);
  for (let i = 0; i < sharedCount; i++) {
    const netapp = i % 12 === 5;
    const path = `modules/${netapp ? 'netapp' : 'platform'}/module${i}.bicep`;
    out[path] = netapp ? bicepNetAppModule(random, i) : bicepPlainModule(random, i);
    shared.push(path);
  }
  let env = 0;
  while (Object.keys(out).length < files) {
    const own = [];
    const ownCount = Math.min(4 + Math.floor(random() * 6), files - Object.keys(out).length - 1);
    for (let k = 0; k < ownCount; k++) {
      const i = sharedCount + Object.keys(out).length;
      const netapp = random() < 0.08;
      const path = `environments/env${env}/${netapp ? 'netapp' : 'modules'}/part${k}.bicep`;
      out[path] = netapp ? bicepNetAppModule(random, i) : bicepPlainModule(random, i);
      own.push(`./${netapp ? 'netapp' : 'modules'}/part${k}.bicep`);
    }
    if (Object.keys(out).length >= files) break;
    const calls = [...own];
    for (let k = 0; k < 3; k++) calls.push(`../../${shared[Math.floor(random() * shared.length)]}`);
    out[`environments/env${env}/main.bicep`] = bicepMain(random, env, calls);
    env++;
  }
  return out;
}

/** One Terraform module of the repository: files of a kind chosen by `kind`. */
function terraformModuleFiles(random, dir, i, netapp) {
  const files = {};
  files[`${dir}/versions.tf`] = [
    'terraform {',
    '  required_version = ">= 1.5.0"',
    '  required_providers {',
    '    azurerm = {',
    '      source  = "hashicorp/azurerm"',
    `      version = "~> ${3 + (i % 2)}.${10 + (i % 50)}"`,
    '    }',
    '  }',
    '}',
    '',
  ].join('\n');
  files[`${dir}/variables.tf`] = [
    'variable "location" {',
    '  type        = string',
    '  description = "The Azure region of every resource"',
    '  default     = "eastus"',
    '}',
    '',
    'variable "resource_group_name" {',
    '  type = string',
    '}',
    '',
    'variable "name_prefix" {',
    '  type    = string',
    `  default = "mod${i}"`,
    '}',
    '',
    'variable "tags" {',
    '  type    = map(string)',
    '  default = {}',
    '}',
    ...(netapp
      ? [
          '',
          'variable "subnet_id" {',
          '  type = string',
          '}',
          '',
          'variable "volumes" {',
          '  type = map(number)',
          '  default = {',
          '    data = 1024',
          '    logs = 512',
          '  }',
          '}',
        ]
      : []),
    '',
  ].join('\n');
  if (netapp) {
    const level = pick(random, ['Premium', 'Ultra', 'Standard']);
    files[`${dir}/main.tf`] = [
      'resource "azurerm_netapp_account" "this" {',
      '  name                = "${var.name_prefix}-account"',
      '  location            = var.location',
      '  resource_group_name = var.resource_group_name',
      '  tags                = var.tags',
      '}',
      '',
      'resource "azurerm_netapp_pool" "this" {',
      '  name                = "${var.name_prefix}-pool"',
      '  account_name        = azurerm_netapp_account.this.name',
      '  location            = var.location',
      '  resource_group_name = var.resource_group_name',
      `  service_level       = "${level}"`,
      '  size_in_tb          = 4',
      '}',
      '',
      '# anf: workload=general',
      'resource "azurerm_netapp_volume" "this" {',
      '  for_each            = var.volumes',
      '  name                = "${var.name_prefix}-${each.key}"',
      '  account_name        = azurerm_netapp_account.this.name',
      '  pool_name           = azurerm_netapp_pool.this.name',
      '  location            = var.location',
      '  resource_group_name = var.resource_group_name',
      `  service_level       = "${level}"`,
      '  subnet_id           = var.subnet_id',
      '  volume_path         = "${var.name_prefix}-${each.key}"',
      '  storage_quota_in_gb = each.value',
      '  protocols           = ["NFSv3"]',
      '  export_policy_rule {',
      '    rule_index          = 1',
      '    allowed_clients     = ["10.10.0.0/16"]',
      '    protocols_enabled   = ["NFSv3"]',
      '    unix_read_write     = true',
      '    root_access_enabled = false',
      '  }',
      '  tags = var.tags',
      '}',
      '',
    ].join('\n');
  } else {
    const kind = i % 4;
    const rules = 1 + Math.floor(random() * 5);
    files[`${dir}/main.tf`] =
      (kind === 0
        ? [
            'resource "azurerm_virtual_network" "this" {',
            '  name                = "${var.name_prefix}-vnet"',
            '  location            = var.location',
            '  resource_group_name = var.resource_group_name',
            `  address_space       = ["10.${i % 250}.0.0/16"]`,
            '  tags                = var.tags',
            '}',
            '',
            'resource "azurerm_subnet" "this" {',
            `  count                = ${rules}`,
            '  name                 = "snet-${count.index}"',
            '  resource_group_name  = var.resource_group_name',
            '  virtual_network_name = azurerm_virtual_network.this.name',
            `  address_prefixes     = [cidrsubnet("10.${i % 250}.0.0/16", 8, count.index)]`,
            '}',
          ]
        : kind === 1
          ? [
              'resource "azurerm_storage_account" "this" {',
              '  name                     = lower(replace("${var.name_prefix}sa", "-", ""))',
              '  resource_group_name      = var.resource_group_name',
              '  location                 = var.location',
              '  account_tier             = "Standard"',
              '  account_replication_type = "ZRS"',
              '  min_tls_version          = "TLS1_2"',
              '  tags                     = var.tags',
              '',
              '  blob_properties {',
              '    delete_retention_policy {',
              '      days = 14',
              '    }',
              '  }',
              '}',
            ]
          : kind === 2
            ? [
                'resource "azurerm_network_security_group" "this" {',
                '  name                = "${var.name_prefix}-nsg"',
                '  location            = var.location',
                '  resource_group_name = var.resource_group_name',
                '',
                '  dynamic "security_rule" {',
                `    for_each = { for idx, port in [${Array.from({ length: rules }, (_, r) => [22, 443, 2049, 111, 8080][r]).join(', ')}] : tostring(port) => idx }`,
                '    content {',
                '      name                       = "allow-${security_rule.key}"',
                '      priority                   = 100 + security_rule.value',
                '      direction                  = "Inbound"',
                '      access                     = "Allow"',
                '      protocol                   = "Tcp"',
                '      source_port_range          = "*"',
                '      destination_port_range     = security_rule.key',
                '      source_address_prefix      = "VirtualNetwork"',
                '      destination_address_prefix = "*"',
                '    }',
                '  }',
                '}',
              ]
            : [
                'resource "azurerm_linux_virtual_machine" "this" {',
                '  name                = "${var.name_prefix}-vm"',
                '  resource_group_name = var.resource_group_name',
                '  location            = var.location',
                '  size                = "Standard_D4s_v5"',
                '  admin_username      = "azureuser"',
                '  network_interface_ids = []',
                '',
                '  admin_ssh_key {',
                '    username   = "azureuser"',
                '    public_key = file("${path.module}/id_rsa.pub")',
                '  }',
                '',
                '  os_disk {',
                '    caching              = "ReadWrite"',
                '    storage_account_type = "Premium_LRS"',
                '  }',
                '',
                '  source_image_reference {',
                '    publisher = "Canonical"',
                '    offer     = "0001-com-ubuntu-server-jammy"',
                '    sku       = "22_04-lts-gen2"',
                '    version   = "latest"',
                '  }',
                '',
                '  custom_data = base64encode(<<-EOT',
                '    #cloud-config',
                '    package_upgrade: true',
                '    packages:',
                '      - nfs-common',
                '  EOT',
                '  )',
                '}',
              ]
      ).join('\n') + '\n';
  }
  files[`${dir}/outputs.tf`] = [
    'output "id" {',
    `  value = ${netapp ? 'azurerm_netapp_account.this.id' : '"module-' + i + '"'}`,
    '}',
    '',
  ].join('\n');
  return files;
}

/**
 * A Terraform repository of `files` files: shared modules (versions, variables, main, outputs),
 * and stacks per environment and region calling them (some with for_each), with terraform.tfvars
 * files; about one module in fifteen declares Azure NetApp Files resources. Returns path -> text.
 */
export function terraformRepository(files = 3000, seed = 12) {
  const random = prng(seed);
  const out = {};
  const modules = [];
  const moduleCount = Math.round(files / 4 / 5);
  for (let i = 0; i < moduleCount; i++) {
    const netapp = i % 15 === 7;
    const dir = `modules/${netapp ? 'netapp' : 'platform'}-${i}`;
    Object.assign(out, terraformModuleFiles(random, dir, i, netapp));
    modules.push({ dir, netapp });
  }
  let count = Object.keys(out).length;
  for (let s = 0; count < files; s++) {
    const dir = `stacks/${pick(random, ['dev', 'test', 'prod'])}-${s}`;
    const calls = [];
    for (let c = 0; c < 3; c++) {
      const module = modules[Math.floor(random() * modules.length)];
      const looped = c === 2 && !module.netapp;
      calls.push(
        `module "m${c}" {`,
        `  source              = "../../${module.dir}"`,
        ...(looped
          ? ['  for_each            = toset(["a", "b"])', '  name_prefix         = "s' + s + '-${each.key}"']
          : [`  name_prefix         = "s${s}-m${c}"`]),
        '  location            = var.location',
        '  resource_group_name = azurerm_resource_group.this.name',
        ...(module.netapp ? ['  subnet_id           = var.subnet_id'] : []),
        '  tags                = local.tags',
        '}',
        '',
      );
    }
    const stack = {
      [`${dir}/main.tf`]: [
        'locals {',
        '  tags = {',
        `    stack = "s${s}"`,
        '    owner = "platform"',
        '  }',
        '}',
        '',
        'resource "azurerm_resource_group" "this" {',
        `  name     = "rg-s${s}"`,
        '  location = var.location',
        '}',
        '',
        ...calls,
      ].join('\n'),
      [`${dir}/variables.tf`]:
        'variable "location" {\n  type = string\n}\n\nvariable "subnet_id" {\n  type    = string\n  default = ""\n}\n',
      [`${dir}/terraform.tfvars`]: `location  = "${pick(random, AZ_LOCATIONS)}"\nsubnet_id = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/hub/subnets/anf"\n`,
      [`${dir}/backend.tf`]: `terraform {\n  backend "azurerm" {\n    resource_group_name  = "tfstate"\n    storage_account_name = "tfstate${s}"\n    container_name       = "tfstate"\n    key                  = "s${s}.tfstate"\n  }\n}\n`,
    };
    for (const [path, text] of Object.entries(stack))
      if (count < files) {
        out[path] = text;
        count++;
      }
  }
  return out;
}
