#!/usr/bin/env node
// Edits of a line-based file through the built language server (issue 17): the server bundle as
// bench/run.mjs builds it, its typing pause removed, over stdio; a character typed at a random
// place then deleted, each edit waiting for its versioned publishDiagnostics (bench/run.mjs's
// editsOf). For before/after comparisons and profiles without the whole benchmark.
//
//   node bench/lineServer.mjs <input> [edits] [seed] [options]
//     <input>: fstab:200 (bench/run.mjs's 200-line fstab), fstab:<lines> (generate.mjs's fstab),
//              sysctl:<lines>, autofs:<maps>, systemd (one mount unit), script:<lines> (bench/run.mjs's
//              shell row: generate.mjs's provisioningScript, 5,000 lines there), manifest:<volumes>
//     --server <bundle.js>  a server bundle built elsewhere (a base commit); default: build this tree
//     --cpu-prof <dir>      run the server under node --cpu-prof into <dir>
//     --node-args <args>    node options for the server process (space-separated), e.g. '--max-semi-space-size=4'
//     --digest <file>       write one hash per published diagnostics list (compare two runs with cmp)
//     --check <n>           every n edits and after the last, compare the published diagnostics with
//                           the CLI's `--format json` on the same text (code, severity, range, message)
//     --slowest <n>         also print the n slowest edits (time, edit number, the edited line) to stderr
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { jsoncParserEsm, yamlWithoutEnvReads, zodEnglishOnly } from '../scripts/esbuildPlugins.mjs';
import { webTreeSitterCjs } from '../scripts/iacWasm.mjs';
import { buildCli } from '../scripts/cliBundle.mjs';
import { autofsLines, fstab, manifest, provisioningScript, smallFstab, sysctlSet, typingEdits } from './generate.mjs';
import { Client, PUSH_CAPABILITIES } from './lsp.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  args.splice(at, 2);
  return value;
};
const serverOption = option('--server');
const profileDir = option('--cpu-prof');
const digestFile = option('--digest');
const nodeArgs = option('--node-args')?.split(' ').filter(Boolean) ?? [];
const check = Number(option('--check') ?? 0);
const slowest = Number(option('--slowest') ?? 0);
const [input = 'fstab:200', countArg = '600', seedArg = '21'] = args;
const count = Number(countArg);
const seed = Number(seedArg);

const tmp = mkdtempSync(join(tmpdir(), 'anf-lineserver-'));
let client;
process.on('exit', () => {
  client?.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

/** The same esbuild options as bench/run.mjs (scripts/build.mjs's). */
const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
  absWorkingDir: ROOT,
  plugins: [zodEnglishOnly, jsoncParserEsm, yamlWithoutEnvReads],
  alias: webTreeSitterCjs,
};

async function serverBundle() {
  let path = serverOption;
  if (!path) {
    await build({ ...COMMON, entryPoints: { server: 'server/src/lsp/main.ts' }, outdir: join(tmp, 'build') });
    path = join(tmp, 'build', 'server.js');
  }
  // dist/server/server.js is a loader: its bundle is server-bundle.js next to it (scripts/serverBundle.mjs).
  const bundle = join(dirname(path), 'server-bundle.js');
  if (path.endsWith('server.js') && existsSync(bundle)) path = bundle;
  const text = readFileSync(path, 'utf8');
  const debounce = /(DIAGNOSTICS_DEBOUNCE_MS\s*=\s*)(\d+)/;
  if (!debounce.test(text)) throw new Error('DIAGNOSTICS_DEBOUNCE_MS not found in the server bundle');
  const patched = join(dirname(path), 'server-nodebounce-lineserver.js');
  writeFileSync(patched, text.replace(debounce, '$10'));
  return patched;
}

function inputOf(name) {
  const [kind, size] = name.split(':');
  const n = Number(size);
  switch (kind) {
    case 'fstab':
      return { path: 'etc/fstab', languageId: 'fstab', text: n === 200 ? smallFstab() : fstab(n) };
    case 'sysctl':
      return { path: 'etc/sysctl.d/90-bench.conf', languageId: 'sysctl', text: Object.values(sysctlSet(n, n, 3))[0] };
    case 'autofs':
      return { path: 'etc/auto.proj', languageId: 'autofs', text: autofsLines(n || 200) };
    case 'script':
      return { path: 'scripts/provision.sh', languageId: 'shellscript', text: provisioningScript(n || 5000) };
    case 'systemd':
      return { path: 'etc/systemd/system/mnt-tools.mount', languageId: 'systemd-mount', text: systemdUnit() };
    case 'manifest':
      // bench/run.mjs's manifests: manifest(2000) for the 22,000-line row (seed 31), manifest(200) (seed 33).
      return { path: 'manifest/estate.anf.yaml', languageId: 'anf-manifest', text: manifest(n || 2000) };
    default:
      throw new Error(`unknown input ${name}`);
  }
}

function systemdUnit() {
  return [
    '[Unit]',
    'Description=EDA tools volume',
    'After=network-online.target',
    'Wants=network-online.target',
    '',
    '[Mount]',
    'What=10.10.1.4:/vol-tools',
    'Where=/mnt/tools',
    'Type=nfs',
    'Options=rw,hard,vers=3,rsize=262144,wsize=262144,tcp,nconnect=4',
    'TimeoutSec=60',
    '',
    '[Install]',
    'WantedBy=remote-fs.target',
    '',
  ].join('\n');
}

/** bench/run.mjs's editsOf, the same sequence for the same seed. */
function* editsOf(text, n, s) {
  for (const { lines, index, character, inserted, undo } of typingEdits(text, n, s)) {
    const position = { line: index, character };
    const full = () => lines.join('\n');
    yield undo
      ? { range: { start: position, end: { line: index, character: character + 1 } }, text: '', full }
      : { range: { start: position, end: position }, text: inserted, full };
  }
}

/** CPU time a process has used (user + system), in ms, from /proc (Linux). */
function cpuMsOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of proc(5))
  return (ticks * 1000) / 100; // not a fact: USER_HZ is 100 on Linux
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const shape = (d) =>
  `${d.code} ${d.severity} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} ${d.message}`;

let cli;
/** The CLI's findings on `text` as the server shapes them (sorted lines), in a folder like the server's. */
async function cliFindings(folder, path, text) {
  if (!cli) {
    await buildCli(join(tmp, 'cli'), COMMON);
    cli = join(tmp, 'cli', 'anf-lint.js');
  }
  writeFileSync(join(folder, path), text);
  let out;
  try {
    out = execFileSync(process.execPath, [cli, '--format', 'json', join(folder, path)], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
  } catch (error) {
    out = error.stdout; // exit code 1: findings
  }
  const report = JSON.parse(out);
  const severity = { error: 1, warning: 2, info: 3, hint: 4 };
  const range = (d) => ({
    start: { line: d.line - 1, character: d.column - 1 },
    end: { line: d.endLine - 1, character: d.endColumn - 1 },
  });
  return report
    .flatMap((f) => f.diagnostics)
    .map((d) => shape({ ...d, severity: severity[d.severity], range: range(d) }))
    .sort();
}

async function main() {
  const server = await serverBundle();
  const { path, languageId, text } = inputOf(input);
  const folder = join(tmp, 'folder');
  mkdirSync(dirname(join(folder, path)), { recursive: true });
  writeFileSync(join(folder, path), text);
  const uri = pathToFileURL(join(folder, path)).href;
  const serverArgs = [
    ...nodeArgs,
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []),
    server,
    '--stdio',
  ];
  client = new Client(process.execPath, serverArgs, { settings: { anfLint: {} } });
  await client.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PUSH_CAPABILITIES });
  const opened = client.nextDiagnostics(uri);
  client.open(uri, text, languageId);
  const first = await opened;
  const times = [];
  const edited = [];
  const digests = [];
  let mismatches = 0;
  let checked = 0;
  let edits = 0;
  let last = first.params.diagnostics;
  let current = text;
  const compare = async () => {
    checked++;
    const theirs = await cliFindings(join(tmp, 'cli-folder'), path, current);
    const ours = last.map(shape).sort();
    if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
      mismatches++;
      console.error(`mismatch after edit ${edits}: server ${ours.length}, CLI ${theirs.length} findings`);
      for (const line of ours.filter((l) => !theirs.includes(l)).slice(0, 5)) console.error(`  server only: ${line}`);
      for (const line of theirs.filter((l) => !ours.includes(l)).slice(0, 5)) console.error(`  CLI only:    ${line}`);
    }
  };
  if (check > 0) mkdirSync(dirname(join(tmp, 'cli-folder', path)), { recursive: true });
  const serverCpu = cpuMsOf(client.process.pid);
  const clientCpu = process.cpuUsage();
  for (const edit of editsOf(text, count / 2, seed)) {
    const started = performance.now();
    const version = client.change(
      uri,
      { range: edit.range, text: edit.text },
      client.incremental ? undefined : edit.full(),
    );
    const published = await client.nextDiagnostics(uri, (p) => p.version === version);
    times.push(published.at - started);
    if (slowest > 0)
      edited.push(
        `${edit.text ? 'typed' : 'deleted'} at ${edit.range.start.line + 1}:${edit.range.start.character + 1}: ${JSON.stringify(edit.full().split('\n')[edit.range.start.line].slice(0, 60))}`,
      );
    edits++;
    last = published.params.diagnostics;
    // The temporary folder's name is left out (related notes carry the document's URI).
    if (digestFile)
      digests.push(
        createHash('sha1')
          .update(JSON.stringify(last).replaceAll(pathToFileURL(folder).href, 'file:///folder'))
          .digest('hex'),
      );
    if (check > 0 && (edits % check === 0 || edits === count)) {
      current = edit.full();
      await compare();
    }
  }
  if (slowest > 0) {
    const order = times.map((_, i) => i).sort((a, b) => times[b] - times[a]);
    for (const i of order.slice(0, slowest)) console.error(`${times[i].toFixed(2)} ms, edit ${i + 1}: ${edited[i]}`);
    const half = times.slice(times.length / 2);
    console.error(
      `second half of the edits: p50 ${percentile(half, 50).toFixed(2)}, p95 ${percentile(half, 95).toFixed(2)}, p99 ${percentile(half, 99).toFixed(2)} ms`,
    );
  }
  const rss = client.peakRssMiB();
  // CPU per edit: the server's (lint, conversion, JSON, writes) and this driver's (reading and parsing the notifications).
  const serverCpuPerEdit = (cpuMsOf(client.process.pid) - serverCpu) / times.length;
  const used = process.cpuUsage(clientCpu);
  const clientCpuPerEdit = (used.user + used.system) / 1000 / times.length;
  await client.connection.sendRequest('shutdown').catch(() => undefined);
  if (digestFile) writeFileSync(digestFile, `${digests.join('\n')}\n`);
  const f = (v) => v.toFixed(2);
  console.log(
    JSON.stringify({
      input,
      lines: text.split('\n').length - 1,
      findings: first.params.diagnostics.length,
      edits: times.length,
      p50: f(percentile(times, 50)),
      p95: f(percentile(times, 95)),
      p99: f(percentile(times, 99)),
      max: f(Math.max(...times)),
      rssMiB: Math.round(rss),
      serverCpuMsPerEdit: f(serverCpuPerEdit),
      ...(check > 0 ? {} : { clientCpuMsPerEdit: f(clientCpuPerEdit) }),
      ...(check > 0 ? { checked, mismatches } : {}),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    }),
  );
  // The server exits on `exit` (a profiled one writes its profile then); the driver stops it by PID
  // if it has not after 1.5 s, so a run always ends.
  client.notify('exit');
  await new Promise((r) => {
    const timer = setTimeout(r, 1500);
    client.process.once('exit', () => {
      clearTimeout(timer);
      r();
    });
  });
  client.dispose();
  if (mismatches > 0) process.exitCode = 1;
}

await main();
