// Scale inputs for `npm run bench` (issue 18, items 5 and 6): 10 MB of each kind of file, most
// lines wrong, and one 1 MB line of bad options. The CLI must lint each in linear time and memory:
// under 10 s and 1 GiB, reports included. Deterministic: a seeded PRNG.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng, terraform, writeFiles } from './generate.mjs';

export const SCALE_BYTES = 10 * 1024 * 1024;
const LONG_LINE_BYTES = 1024 * 1024;

const pick = (random, list) => list[Math.floor(random() * list.length)];

/** Lines from `line(random, i)` until the text reaches `bytes`. */
function until(bytes, line, seed) {
  const random = prng(seed);
  const out = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const text = line(random, i);
    out.push(text);
    size += text.length + 1;
  }
  return `${out.join('\n')}\n`;
}

const BAD_SYSCTL = [
  (i) => `net.core.rmem_max = ${16777216 + i}`, // duplicates
  (i) => `net.ipv4.tcp_sack = ${i % 2}`,
  () => 'net.ipv4.tcp_rmem = 4096 87380',
  () => 'sunrpc.tcp_max_slot_table_entrie = 128',
  () => 'vm.dirty_background_ratio = 40',
  () => 'net.ipv4.tcp_timestamps = 0',
  (i) => `net.ipv4.route.flush = ${i % 2}`,
  () => '# a comment between settings',
];

const BAD_FSTAB = [
  (i) =>
    `10.1.${i % 250}.4:/vol-${i} /mnt/vol-${i} nfs rw,soft,intr,vers=4.2,rsize=65536,wsize=32768,udp,sync,noac 0 2`,
  (i) => `anf-${i}.example.com:/data${i} /data/${i} nfs4 defaults,nconnect=32,timeo=5 0 0`,
  (i) => `10.2.0.${i % 250}:/tools /tools${i} nfs hard,vers=3,rsize=1048577,wsize=262144,lookupcache=none`,
];

/** A manifest of `volumes` volumes, as JSON or YAML, with findings on most volumes. */
function manifestOf(volumes, format, seed) {
  const random = prng(seed);
  const pools = [];
  for (let p = 0; p * 500 < volumes; p++) {
    const list = [];
    for (let v = p * 500; v < Math.min(volumes, (p + 1) * 500); v++) {
      list.push({
        name: `vol-${v}`,
        quota: `${1 + Math.floor(random() * 200)} GiB`,
        protocols: [pick(random, ['NFSv3', 'NFSv4.1'])],
        workload: pick(random, ['eda-tools', 'hpc', 'sap-hana-data', 'general']),
        exportPath: `/vol-${v}`,
        requirements: { throughput: `${Math.round(64 + random() * 900)} MiB/s` },
      });
    }
    pools.push({
      name: `pool-${p}`,
      serviceLevel: pick(random, ['Standard', 'Premium', 'Ultra']),
      size: '4 TiB',
      volumes: list,
    });
  }
  const manifest = { region: 'eastus', accounts: [{ name: 'estate', pools }] };
  if (format === 'json') return JSON.stringify(manifest, null, 2);
  const lines = ['region: eastus', 'accounts:', '  - name: estate', '    pools:'];
  for (const pool of pools) {
    lines.push(
      `      - name: ${pool.name}`,
      `        serviceLevel: ${pool.serviceLevel}`,
      `        size: ${pool.size}`,
      '        volumes:',
    );
    for (const v of pool.volumes)
      lines.push(
        `          - name: ${v.name}`,
        `            quota: ${v.quota}`,
        `            protocols: [${v.protocols[0]}]`,
        `            workload: ${v.workload}`,
        `            exportPath: ${v.exportPath}`,
        '            requirements:',
        `              throughput: ${v.requirements.throughput}`,
      );
  }
  return `${lines.join('\n')}\n`;
}

/** About how many volumes make `bytes` of manifest. */
function volumesFor(bytes, format) {
  const sample = manifestOf(100, format, 9).length;
  return Math.round((bytes / sample) * 100);
}

/** Writes the scale inputs under `root`; returns what to lint, with sizes. */
export function scaleInputs(root) {
  const inputs = {
    '10 MiB sysctl.conf': {
      path: 'sysctl/etc/sysctl.conf',
      text: until(SCALE_BYTES, (_r, i) => BAD_SYSCTL[i % BAD_SYSCTL.length](i), 41),
    },
    '10 MiB fstab': {
      path: 'fstab/etc/fstab',
      text: until(SCALE_BYTES, (_r, i) => BAD_FSTAB[i % BAD_FSTAB.length](i), 42),
    },
    '10 MiB shell script': {
      path: 'shell/mount-all.sh',
      text: `#!/bin/bash\n${until(SCALE_BYTES, (_r, i) => (i % 2 ? `sysctl -w net.ipv4.tcp_sack=0` : `mount -t nfs -o soft,vers=4.2,rsize=65536 10.0.${i % 250}.4:/v${i} /mnt/v${i}`), 43)}`,
    },
    '10 MiB manifest (YAML)': {
      path: 'manifest-yaml/estate.anf.yaml',
      text: manifestOf(volumesFor(SCALE_BYTES, 'yaml'), 'yaml', 44),
    },
    '10 MiB manifest (JSON)': {
      path: 'manifest-json/estate.anf.json',
      text: manifestOf(volumesFor(SCALE_BYTES, 'json'), 'json', 45),
    },
    'fstab with one 1 MiB line of bad options': {
      path: 'long-line/etc/fstab',
      text: `10.0.0.4:/vol /mnt/vol nfs ${until(LONG_LINE_BYTES, (_r, i) => `bad${i}`, 46)
        .replace(/\n/g, ',')
        .replace(/,$/, '')} 0 0\n`,
    },
  };
  for (const input of Object.values(inputs)) {
    writeFiles(root, { [input.path]: input.text });
    input.bytes = Buffer.byteLength(input.text);
    input.lines = input.text.split('\n').length - 1;
    delete input.text;
  }
  return inputs;
}

/** `count` Terraform capacity pools (a 10 MiB file of pools, issue 32). */
function terraformPools(bytes, seed) {
  const head =
    'resource "azurerm_netapp_account" "estate" {\n  name                = "estate"\n  location            = "eastus"\n  resource_group_name = "storage"\n}\n\n';
  return (
    head +
    until(
      bytes - head.length,
      (random, i) =>
        `resource "azurerm_netapp_pool" "pool${i}" {\n  name                = "pool-${i}"\n  account_name        = azurerm_netapp_account.estate.name\n  location            = "eastus"\n  resource_group_name = "storage"\n  service_level       = "${pick(random, ['Standard', 'Premium', 'Ultra'])}"\n  size_in_tb          = ${1 + Math.floor(random() * 8)}\n}\n`,
      seed,
    )
  );
}

/** A Bicep file of `bytes` with an account, pools and many volumes, some of them wrong (issue 32). */
function bicepVolumes(bytes, seed) {
  const head = [
    "param location string = 'eastus'",
    'param subnetId string',
    'var gib = 1024 * 1024 * 1024',
    '',
    "resource account 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {",
    "  name: 'estate'",
    '  location: location',
    '}',
    '',
    ...Array.from({ length: 20 }, (_, p) => [
      `resource pool${p} 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {`,
      '  parent: account',
      `  name: 'pool-${p}'`,
      '  location: location',
      '  properties: {',
      `    serviceLevel: '${['Standard', 'Premium', 'Ultra'][p % 3]}'`,
      '    size: 4 * 1024 * gib',
      '  }',
      '}',
      '',
    ]).flat(),
  ].join('\n');
  return `${head}\n${until(
    bytes - head.length,
    (random, i) =>
      [
        `resource vol${i} 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {`,
        `  parent: pool${i % 20}`,
        `  name: 'vol-${i}'`,
        '  location: location',
        '  properties: {',
        `    serviceLevel: '${['Standard', 'Premium', 'Ultra'][(i + (i % 7 === 0 ? 1 : 0)) % 3]}'`,
        `    creationToken: 'vol-${i}'`,
        '    subnetId: subnetId',
        `    usageThreshold: ${1 + Math.floor(random() * 200)} * gib`,
        `    protocolTypes: [ '${random() < 0.2 ? 'NFSv4.1' : 'NFSv3'}' ]`,
        '  }',
        '}',
      ].join('\n'),
    seed,
  )}`;
}

/** An ARM template of `bytes` with an account, pools and many volumes (issue 32). */
function armVolumes(bytes, seed) {
  const random = prng(seed);
  const resources = [
    { type: 'Microsoft.NetApp/netAppAccounts', apiVersion: '2025-06-01', name: 'estate', location: 'eastus' },
  ];
  for (let p = 0; p < 20; p++)
    resources.push({
      type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
      apiVersion: '2025-06-01',
      name: `estate/pool-${p}`,
      location: 'eastus',
      dependsOn: ["[resourceId('Microsoft.NetApp/netAppAccounts', 'estate')]"],
      properties: { serviceLevel: ['Standard', 'Premium', 'Ultra'][p % 3], size: 4398046511104 },
    });
  const template = (list) =>
    JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
        contentVersion: '1.0.0.0',
        parameters: { subnetId: { type: 'string' } },
        resources: list,
      },
      null,
      2,
    );
  const volume = (i) => ({
    type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
    apiVersion: '2025-06-01',
    name: `estate/pool-${i % 20}/vol-${i}`,
    location: 'eastus',
    dependsOn: [`[resourceId('Microsoft.NetApp/netAppAccounts/capacityPools', 'estate', 'pool-${i % 20}')]`],
    properties: {
      serviceLevel: ['Standard', 'Premium', 'Ultra'][(i + (i % 7 === 0 ? 1 : 0)) % 3],
      creationToken: `vol-${i}`,
      subnetId: "[parameters('subnetId')]",
      usageThreshold: (1 + Math.floor(random() * 200)) * 1073741824,
      protocolTypes: [random() < 0.2 ? 'NFSv4.1' : 'NFSv3'],
    },
  });
  const per = template([volume(0)]).length - template([]).length;
  const count = Math.max(1, Math.floor((bytes - template(resources).length) / per));
  for (let i = 0; i < count; i++) resources.push(volume(i));
  return template(resources);
}

/**
 * 10 MiB of infrastructure code (issue 32): Terraform with one heredoc, with one long line, with
 * 14,122 volumes (each with an export policy rule) in 12 pools, and with 38,823 pools only; Bicep
 * with 33,807 volumes; an ARM template with 19,085 volumes.
 */
export function iacScaleInputs(root) {
  const netapp = terraform(60, 51);
  const heredocLines = until(
    SCALE_BYTES - netapp.length,
    (_r, i) => `#cloud-config line ${i}: runcmd echo mount -t nfs 10.0.${i % 250}.4:/vol${i} /mnt/vol${i}`,
    52,
  );
  const inputs = {
    '10 MiB .tf (one heredoc)': {
      path: 'tf-heredoc/main.tf',
      text: `${netapp}\nresource "azurerm_linux_virtual_machine" "big" {\n  name = "big"\n  custom_data = base64encode(<<-EOT\n${heredocLines}  EOT\n  )\n}\n`,
    },
    '10 MiB .tf (one long line)': {
      path: 'tf-long-line/main.tf',
      text: `${netapp}\nlocals {\n  clients = [${until(
        SCALE_BYTES - netapp.length,
        (_r, i) => `"10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/32"`,
        53,
      )
        .trim()
        .replace(/\n/g, ', ')}]\n}\n`,
    },
    '10 MiB .tf (volumes)': {
      path: 'tf-volumes/main.tf',
      text: terraform(Math.round(SCALE_BYTES / 33.5), 54),
    },
    '10 MiB .tf (pools)': { path: 'tf-pools/main.tf', text: terraformPools(SCALE_BYTES, 55) },
    '10 MiB .bicep (volumes)': { path: 'bicep-volumes/main.bicep', text: bicepVolumes(SCALE_BYTES, 56) },
    '10 MiB ARM template (volumes)': { path: 'arm-volumes/azuredeploy.json', text: armVolumes(SCALE_BYTES, 57) },
  };
  for (const input of Object.values(inputs)) {
    writeFiles(root, { [input.path]: input.text });
    input.bytes = Buffer.byteLength(input.text);
    input.lines = input.text.split('\n').length - 1;
    delete input.text;
  }
  return inputs;
}

/**
 * Runs the CLI on one file as a process and measures its wall time, its peak RSS (from a preload
 * that prints `process.resourceUsage().maxRSS` on exit) and the size of its report.
 */
export function measureCli(cli, args, cwd, scratch) {
  return measureNode([cli, ...args], cwd, scratch);
}

/**
 * Runs Node with `argv` (a script and its arguments, or `-e 0`) as measureCli does: wall time, peak
 * RSS, the process's own CPU time (user + system, from the preload) and the size of its output.
 */
export function measureNode(argv, cwd, scratch) {
  const preload = join(scratch, 'max-rss.cjs');
  const rssFile = join(scratch, `rss-${process.pid}-${Date.now()}.txt`);
  writeFileSync(
    preload,
    "process.on('exit', () => { const u = process.resourceUsage(); require('node:fs').writeFileSync(process.env.ANF_BENCH_RSS_FILE, `${u.maxRSS} ${(u.userCPUTime + u.systemCPUTime) / 1000}`); });\n",
  );
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', preload, ...argv], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ANF_BENCH_RSS_FILE: rssFile },
    });
    let outputBytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk) => (outputBytes += chunk.length));
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const ms = performance.now() - started;
      let rssMiB = Number.NaN;
      let cpuMs = Number.NaN;
      try {
        const [rss, cpu] = readFileSync(rssFile, 'utf8').split(' ').map(Number);
        rssMiB = rss / 1024;
        cpuMs = cpu;
        rmSync(rssFile);
      } catch {
        // killed before exit handlers ran (out of memory): no figure
      }
      resolve({ ms, cpuMs, rssMiB, outputBytes, code, signal, stderr: code === 0 || code === 1 ? '' : stderr });
    });
  });
}
