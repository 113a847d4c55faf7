// Scale inputs for `npm run bench` (issue 18, items 5 and 6): 10 MB of each kind of file, most
// lines wrong, and one 1 MB line of bad options. The CLI must lint each in linear time and memory:
// under 10 s and 1 GiB, reports included. Deterministic: a seeded PRNG.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { prng, writeFiles } from './generate.mjs';

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

/**
 * Runs the CLI on one file as a process and measures its wall time, its peak RSS (from a preload
 * that prints `process.resourceUsage().maxRSS` on exit) and the size of its report.
 */
export function measureCli(cli, args, cwd, scratch) {
  const preload = join(scratch, 'max-rss.cjs');
  const rssFile = join(scratch, `rss-${process.pid}-${Date.now()}.txt`);
  writeFileSync(
    preload,
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.ANF_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS)));\n",
  );
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--require', preload, cli, ...args], {
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
      try {
        rssMiB = Number(readFileSync(rssFile, 'utf8')) / 1024;
        rmSync(rssFile);
      } catch {
        // killed before exit handlers ran (out of memory): no figure
      }
      resolve({ ms, rssMiB, outputBytes, code, signal, stderr: code === 0 || code === 1 ? '' : stderr });
    });
  });
}
