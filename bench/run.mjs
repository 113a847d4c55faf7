#!/usr/bin/env node
// `npm run bench`: generates large inputs, measures the language server over stdio (as an editor
// uses it), side by side with yaml-language-server on the same manifest, the CLI, and the core's
// per-line cost at three sizes, 10 MB inputs of every kind; checks the targets of issues 9, 17 and 18
// and writes docs/benchmarks.md.
//
//   npm run bench               the full run (about 10 minutes on a 2-core machine)
//   npm run bench -- --quick    fewer edits and no 10x inputs, for trying changes
//   npm run bench -- --no-write print the table, leave docs/benchmarks.md alone
//   npm run bench -- --tf-only  only the 5,000-line .tf editing row (prints it, writes nothing)
//   npm run bench -- --iac-only only the infrastructure-code rows (issues 29 and 32): the 400-file Bicep
//                               and 3,000-file Terraform repositories next to `node -e 0`, and the 10 MiB
//                               .tf, .bicep and ARM files (prints them, writes nothing; also
//                               ANF_BENCH_IAC_ONLY=1)
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { jsoncParserEsm, yamlWithoutEnvReads, zodEnglishOnly } from '../scripts/esbuildPlugins.mjs';
import { buildCli } from '../scripts/cliBundle.mjs';
import { buildServer } from '../scripts/serverBundle.mjs';
import { buildWebTreeSitter, webTreeSitterCjs, webTreeSitterLazy } from '../scripts/iacWasm.mjs';
import {
  bicepRepository,
  generate,
  manifest,
  prng,
  provisioningScript,
  smallFstab,
  terraform,
  terraformRepository,
  typingEdits,
  workspaceFiles,
  writeFiles,
} from './generate.mjs';
import { iacScaleInputs, measureCli, measureNode, scaleInputs } from './scale.mjs';
import { Client, PULL_CAPABILITIES, PUSH_CAPABILITIES } from './lsp.mjs';
import { FIRST_DIAGNOSTICS_TARGET_MS, firstScanRows, LAST_WORKSPACE_DIAGNOSTIC_TARGET_MS } from './firstScan.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const QUICK = process.argv.includes('--quick');
const TF_ONLY = process.argv.includes('--tf-only');
const IAC_ONLY = process.argv.includes('--iac-only') || process.env.ANF_BENCH_IAC_ONLY === '1';
const WRITE = !process.argv.includes('--no-write') && !TF_ONLY && !IAC_ONLY;
// Line-based files (lineEdits): cheap edits, and enough of them that p99 is a 99th percentile, not the maximum.
const COUNTS = QUICK
  ? {
      lineEdits: 300,
      smallEdits: 60,
      smallEditsShipped: 20,
      manifestEdits: 20,
      manifestEditsShipped: 8,
      hovers: 60,
      coldStarts: 3,
      terraformEdits: 40,
    }
  : {
      lineEdits: 600,
      smallEdits: 300,
      smallEditsShipped: 60,
      manifestEdits: 100,
      manifestEditsShipped: 30,
      hovers: 200,
      coldStarts: 5,
      terraformEdits: 100,
    };
const SCALES = QUICK ? [0.1, 1] : [0.1, 1, 10];

const TARGETS = {
  smallP99Ms: 30,
  manifestP99Ms: 200,
  hoverP99Ms: 10,
  yamlRatio: 0.5,
  coldStartMs: 500,
  bundleBytes: 1024 * 1024,
  vsixBytes: 2 * 1024 * 1024,
  rssMiB: 200,
  growthRatio: 1.5,
};

/** Issue 29: whole repositories of infrastructure code, the CLI's wall time against `node -e 0` in the same run. */
const TARGETS_29 = { bicepRepoRatio: 8, terraformRepoRatio: 12 };

/** Issue 17 (speed) and issue 18 item 6 (scale): side by side with the tools a user would use instead. */
const TARGETS_17 = {
  manifestP99Ratio: 0.5,
  manifestP50Ratio: 0.2,
  rssGrowth: 1.5,
  fstabSmallP99Ms: 5,
  fstabLargeP99Ms: 20,
  cliSmallRatio: 2,
  stagedMs: 1000,
  findmntRatio: 0.5,
  scaleMs: 10_000,
  scaleRssMiB: 1024,
};

/** The shell row's provisioning script (bench/generate.mjs, provisioningScript). */
const SCRIPT_LINES = 5000;

const benchStarted = Date.now();
const log = (message) =>
  process.stderr.write(`[bench ${((Date.now() - benchStarted) / 1000).toFixed(0).padStart(4)} s] ${message}\n`);
const tmp = mkdtempSync(join(tmpdir(), 'anf-bench-'));
const clients = [];
process.on('exit', () => {
  for (const client of clients) client.dispose();
  rmSync(tmp, { recursive: true, force: true });
});

// ---- statistics ---------------------------------------------------------------------------------

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
const stats = (values) => ({
  n: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
  max: Math.max(...values),
});
const ms = (value) =>
  Number.isFinite(value)
    ? value >= 100
      ? value.toFixed(0)
      : value >= 10
        ? value.toFixed(1)
        : value.toFixed(2)
    : 'n/a';
const mib = (bytes) => (bytes / 1024 / 1024).toFixed(2);

// ---- builds -------------------------------------------------------------------------------------

const BUILD = join(tmp, 'build');
/** The same esbuild options as scripts/build.mjs (the shipped bundles). */
const COMMON = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  legalComments: 'none',
  absWorkingDir: ROOT,
  plugins: [zodEnglishOnly, jsoncParserEsm, yamlWithoutEnvReads, webTreeSitterLazy],
  alias: webTreeSitterCjs,
};
/** The tree-sitter runtime and grammars, next to the bundles as in dist/ (server/src/iacWasm.ts finds them in wasm/). */
const IAC_WASM = [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  'server/grammars/tree-sitter-terraform.wasm',
  'server/grammars/tree-sitter-bicep.wasm',
];

async function builds() {
  log('building the server, CLI and core bundles (scripts/build.mjs options) into a temp folder');
  await Promise.all([
    // The server as scripts/build.mjs makes it (a loader, the bundle and its V8 code cache), and the
    // bundle alone, patched below.
    buildServer(join(BUILD, 'shipped'), COMMON),
    build({ ...COMMON, entryPoints: { server: 'server/src/lsp/main.ts' }, outdir: BUILD }),
    // The CLI as scripts/build.mjs makes it: a loader, the bundle and its V8 code cache.
    buildCli(BUILD, COMMON),
    build({ ...COMMON, entryPoints: { growth: 'bench/growth.ts' }, outdir: BUILD }),
    build({ ...COMMON, minify: true, entryPoints: { server: 'server/src/lsp/main.ts' }, outdir: join(BUILD, 'min') }),
    build({
      ...COMMON,
      minify: true,
      entryPoints: { extension: 'client/src/extension.ts' },
      outdir: join(BUILD, 'min'),
      external: ['vscode'],
    }),
    build({
      ...COMMON,
      minify: true,
      entryPoints: { 'anf-lint-bundle': 'server/src/cli/main.ts' },
      outdir: join(BUILD, 'min'),
    }),
    // web-tree-sitter's JavaScript, a file next to the bundles (buildCli writes BUILD's).
    buildWebTreeSitter(join(BUILD, 'min'), { minify: true }),
  ]);
  mkdirSync(join(BUILD, 'wasm'), { recursive: true });
  for (const file of IAC_WASM) cpSync(join(ROOT, file), join(BUILD, 'wasm', file.slice(file.lastIndexOf('/') + 1)));

  // Our server with its 150 ms typing pause removed: the engine's own latency.
  const server = readFileSync(join(BUILD, 'server.js'), 'utf8');
  const debounce = /(DIAGNOSTICS_DEBOUNCE_MS\s*=\s*)(\d+)/;
  const shippedDebounceMs = Number(debounce.exec(server)?.[2]);
  if (!Number.isFinite(shippedDebounceMs)) throw new Error('DIAGNOSTICS_DEBOUNCE_MS not found in the server bundle');
  writeFileSync(join(BUILD, 'server-nodebounce.js'), server.replace(debounce, '$10'));

  // yaml-language-server with its fixed validation delay removed. It is not a setting
  // (SettingsState sets `this.validationDelayMs = 200` in its constructor, and ValidationHandler
  // waits that long after every change), so a copy of the package is patched in the temp folder;
  // its dependencies still resolve from our node_modules through NODE_PATH.
  const yamlPackage = join(ROOT, 'node_modules', 'yaml-language-server');
  const copy = join(tmp, 'yamlls', 'node_modules', 'yaml-language-server');
  cpSync(yamlPackage, copy, { recursive: true });
  const settingsFile = join(copy, 'out', 'server', 'src', 'yamlSettings.js');
  const settings = readFileSync(settingsFile, 'utf8');
  const delay = /(this\.validationDelayMs\s*=\s*)(\d+)/;
  const yamlDelayMs = Number(delay.exec(settings)?.[2]);
  if (!Number.isFinite(yamlDelayMs)) throw new Error('validationDelayMs not found in yaml-language-server');
  writeFileSync(settingsFile, settings.replace(delay, '$10'));
  const yamlVersion = JSON.parse(readFileSync(join(yamlPackage, 'package.json'), 'utf8')).version;

  const size = (path) => statSync(path).size;
  return {
    shippedDebounceMs,
    yamlDelayMs,
    yamlVersion,
    servers: {
      shipped: [process.execPath, [join(BUILD, 'shipped', 'server.js'), '--stdio']],
      nodebounce: [process.execPath, [join(BUILD, 'server-nodebounce.js'), '--stdio']],
      yaml: [process.execPath, [join(yamlPackage, 'bin', 'yaml-language-server'), '--stdio']],
      yamlNowait: [
        process.execPath,
        [join(copy, 'bin', 'yaml-language-server'), '--stdio'],
        { NODE_PATH: join(ROOT, 'node_modules') },
      ],
    },
    sizes: {
      server: size(join(BUILD, 'server.js')),
      serverMin: size(join(BUILD, 'min', 'server.js')),
      extensionMin: size(join(BUILD, 'min', 'extension.js')),
      cliMin: size(join(BUILD, 'min', 'anf-lint-bundle.js')),
      treeSitterMin: size(join(BUILD, 'min', 'web-tree-sitter.js')),
    },
  };
}

function startClient([command, args, env], settings) {
  const client = new Client(command, args, { env, settings });
  clients.push(client);
  return client;
}

function disposeClient(client) {
  client.dispose();
  clients.splice(clients.indexOf(client), 1);
}

// ---- edits --------------------------------------------------------------------------------------

/**
 * A sequence of small edits at random places, as typing does: insert one character, then the next
 * edit deletes it again, so the document stays realistic. Each edit has its LSP range and the full
 * text after it (for servers with full sync).
 */
function* editsOf(text, count, seed) {
  for (const { lines, index, character, inserted, original, undo } of typingEdits(text, count, seed)) {
    const position = { line: index, character };
    // Typed into the line's indentation (not just before its content): the line may change its parent.
    const inIndent = character < original.length - original.trimStart().length;
    const full = () => lines.join('\n');
    yield undo
      ? { range: { start: position, end: { line: index, character: character + 1 } }, text: '', full, inIndent }
      : { range: { start: position, end: position }, text: inserted, full, inIndent };
  }
}

async function timedEdit(client, uri, edit, versioned) {
  const started = performance.now();
  const version = client.change(
    uri,
    { range: edit.range, text: edit.text },
    client.incremental ? undefined : edit.full(),
  );
  const published = await client.nextDiagnostics(uri, versioned ? (p) => p.version === version : () => true);
  return published.at - started;
}

// ---- measurements -------------------------------------------------------------------------------

const OUR_SETTINGS = { anfLint: {} };

async function coldStart(servers, folder, uri, text) {
  const times = [];
  for (let i = 0; i < COUNTS.coldStarts; i++) {
    const client = startClient(servers.shipped, OUR_SETTINGS);
    await client.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PUSH_CAPABILITIES });
    const first = client.nextDiagnostics(uri);
    client.open(uri, text, 'fstab');
    const { at } = await first;
    times.push(at - client.started);
    disposeClient(client);
  }
  return stats(times);
}

async function editLatency(serverCommand, folder, uri, text, languageId, count, seed) {
  const client = startClient(serverCommand, OUR_SETTINGS);
  await client.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PUSH_CAPABILITIES });
  const opened = client.nextDiagnostics(uri);
  client.open(uri, text, languageId);
  await opened;
  const times = [];
  for (const edit of editsOf(text, count / 2, seed)) times.push(await timedEdit(client, uri, edit, true));
  const rss = client.peakRssMiB();
  disposeClient(client);
  return { ...stats(times), rss };
}

function yamlSettings() {
  const schema = pathToFileURL(join(ROOT, 'schemas', 'anf-manifest.schema.json')).href;
  return {
    yaml: {
      validate: true,
      hover: true,
      completion: true,
      format: { enable: false },
      schemaStore: { enable: false },
      schemas: { [schema]: ['*.anf.yaml'] },
    },
    '[yaml]': {},
  };
}

async function openYaml(serverCommand, folder, uri, text) {
  const settings = yamlSettings();
  const client = startClient(serverCommand, settings);
  await client.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PUSH_CAPABILITIES });
  client.notify('workspace/didChangeConfiguration', { settings });
  const opened = client.nextDiagnostics(uri);
  client.open(uri, text, 'yaml');
  const first = await opened;
  return { client, diagnostics: first.params.diagnostics.length };
}

/** Ours and yaml-language-server on the same manifest, edits interleaved one for one. */
async function sideBySide(ours, yaml, folder, uri, text, count, seed) {
  const our = startClient(ours, OUR_SETTINGS);
  await our.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PUSH_CAPABILITIES });
  const opened = our.nextDiagnostics(uri);
  our.open(uri, text, 'anf-manifest');
  const ourFirst = await opened;
  const { client: theirs, diagnostics: theirFirst } = await openYaml(yaml, folder, uri, text);
  const ourTimes = [];
  const theirTimes = [];
  const byPlace = { content: [], indent: [] };
  const ourEdits = editsOf(text, count / 2, seed);
  const theirEdits = editsOf(text, count / 2, seed);
  for (const edit of ourEdits) {
    const time = await timedEdit(our, uri, edit, true);
    ourTimes.push(time);
    byPlace[edit.inIndent ? 'indent' : 'content'].push(time);
    theirTimes.push(await timedEdit(theirs, uri, theirEdits.next().value, false));
  }
  const ourStats = {
    ...stats(ourTimes),
    rss: our.peakRssMiB(),
    diagnostics: ourFirst.params.diagnostics.length,
    content: stats(byPlace.content),
    indent: stats(byPlace.indent),
  };
  const result = {
    ours: ourStats,
    theirs: { ...stats(theirTimes), rss: theirs.peakRssMiB(), diagnostics: theirFirst },
  };
  disposeClient(our);
  disposeClient(theirs);
  return result;
}

/** Lines of the generated Terraform file, and the manifest volumes that make a manifest of about as many lines. */
const TERRAFORM_LINES = 5000;
const TERRAFORM_MANIFEST_VOLUMES = 512; // not a fact: manifest() writes about 9.8 lines per volume

/**
 * Issue 17: a 5,000-line .tf edit p99 within the manifest target (p99 <= 0.5x yaml-language-server).
 * No Terraform language server installs from npm (terraform-ls is a Go binary), so the yardstick is
 * the manifest target itself: yaml-language-server (wait removed) on a generated manifest of about
 * the same number of lines, measured in the same run, edits interleaved one for one.
 */
async function terraformEdits(ours, yaml, count, seed) {
  const tfFolder = join(tmp, 'terraform');
  const tfText = terraform(TERRAFORM_LINES);
  writeFiles(tfFolder, { 'main.tf': tfText });
  const tfUri = pathToFileURL(join(tfFolder, 'main.tf')).href;
  const yamlFolder = join(tmp, 'terraform-manifest');
  const yamlText = manifest(TERRAFORM_MANIFEST_VOLUMES);
  writeFiles(yamlFolder, { 'estate.anf.yaml': yamlText });
  const yamlUri = pathToFileURL(join(yamlFolder, 'estate.anf.yaml')).href;

  const our = startClient(ours, OUR_SETTINGS);
  await our.initialize({ rootUri: pathToFileURL(tfFolder).href, capabilities: PUSH_CAPABILITIES });
  const opened = our.nextDiagnostics(tfUri);
  our.open(tfUri, tfText, 'terraform');
  const ourFirst = await opened;
  const { client: theirs, diagnostics: theirFirst } = await openYaml(yaml, yamlFolder, yamlUri, yamlText);
  const ourTimes = [];
  const theirTimes = [];
  const theirEdits = editsOf(yamlText, count / 2, seed);
  for (const edit of editsOf(tfText, count / 2, seed)) {
    ourTimes.push(await timedEdit(our, tfUri, edit, true));
    theirTimes.push(await timedEdit(theirs, yamlUri, theirEdits.next().value, false));
  }
  const lines = (text) => text.split('\n').length - 1;
  const result = {
    ours: {
      ...stats(ourTimes),
      rss: our.peakRssMiB(),
      diagnostics: ourFirst.params.diagnostics.length,
      lines: lines(tfText),
      volumes: (tfText.match(/resource "azurerm_netapp_volume"/g) ?? []).length,
    },
    theirs: {
      ...stats(theirTimes),
      rss: theirs.peakRssMiB(),
      diagnostics: theirFirst,
      lines: lines(yamlText),
      volumes: TERRAFORM_MANIFEST_VOLUMES,
    },
  };
  disposeClient(our);
  disposeClient(theirs);
  return result;
}

/** Hover and completion latency at value and key positions of a document. */
async function requestLatency(
  serverCommand,
  settings,
  folder,
  uri,
  text,
  languageId,
  positionsOf,
  yaml = false,
  count = COUNTS.hovers,
) {
  const client = yaml
    ? (await openYaml(serverCommand, folder, uri, text)).client
    : startClient(serverCommand, settings);
  if (!yaml) {
    await client.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PUSH_CAPABILITIES });
    const opened = client.nextDiagnostics(uri);
    client.open(uri, text, languageId);
    await opened;
  }
  const positions = positionsOf(text);
  const random = prng(11);
  const hover = [];
  const completion = [];
  let answered = 0;
  for (let i = 0; i < count; i++) {
    const position = positions[Math.floor(random() * positions.length)];
    let started = performance.now();
    const result = await client.request('textDocument/hover', { textDocument: { uri }, position });
    hover.push(performance.now() - started);
    if (result) answered++;
    started = performance.now();
    await client.request('textDocument/completion', { textDocument: { uri }, position });
    completion.push(performance.now() - started);
  }
  disposeClient(client);
  return { hover: stats(hover), completion: stats(completion), answered: answered / count };
}

/** Positions on the values of `quota:`/`throughput:` lines and on mount options. */
function valuePositions(text) {
  const positions = [];
  text.split('\n').forEach((line, index) => {
    const value = /^(\s*(?:quota|throughput|capacity|serviceLevel|protocols):\s*)\S/.exec(line);
    if (value) positions.push({ line: index, character: value[1].length + 1 });
    const options = /^\S+\s+\S+\s+nfs\s+/.exec(line);
    if (options) positions.push({ line: index, character: options[0].length + 2 });
  });
  return positions;
}

async function peakRssOnWorkspace(servers, folder) {
  const client = startClient(servers.shipped, OUR_SETTINGS);
  await client.initialize({ rootUri: pathToFileURL(folder).href, capabilities: PULL_CAPABILITIES });
  const started = performance.now();
  while (!client.logs.some((l) => /indexed \d+ files/.test(l))) {
    if (performance.now() - started > 300_000) throw new Error('the workspace index did not finish');
    await new Promise((r) => setTimeout(r, 20));
  }
  const indexedMs = performance.now() - client.started;
  // The files are checked in the background (docs/server.md): ask again at once until each has a report
  // (this row measures memory; bench/firstScan.mjs pulls as VS Code's client does, for the times).
  const indexed = Number(/indexed (\d+) files/.exec(client.logs.find((l) => /indexed \d+ files/.test(l)))[1]);
  const reports = new Map();
  while (reports.size < indexed) {
    const report = await client.request('workspace/diagnostic', {
      previousResultIds: [...reports.values()].map((r) => ({ uri: r.uri, value: r.resultId })),
    });
    for (const item of report.items) if (item.kind === 'full') reports.set(item.uri, item);
  }
  const allMs = performance.now() - client.started;
  const findings = [...reports.values()].reduce((n, item) => n + (item.items?.length ?? 0), 0);
  const rss = client.peakRssMiB();
  disposeClient(client);
  return {
    indexedMs,
    allMs,
    files: reports.size,
    findings,
    rss,
    log: client.logs.find((l) => /indexed \d+ files/.test(l)),
  };
}

function runCli(args, cwd = undefined) {
  return timedProcess(process.execPath, [join(BUILD, 'anf-lint.js'), ...args], cwd);
}

/** Wall time of a process that must exit 0 or 1. */
function timedProcess(command, args, cwd = undefined) {
  return new Promise((resolvePromise, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], ...(cwd ? { cwd } : {}) });
    let stderr = '';
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => {
      if (code !== 0 && code !== 1)
        reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
      else resolvePromise(performance.now() - started);
    });
  });
}

function growth(inputs, runs) {
  const file = join(tmp, `growth-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(inputs));
  const out = execFileSync(process.execPath, [join(BUILD, 'growth.js'), file, String(runs)], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
  });
  return JSON.parse(out);
}

function filesUnder(dir) {
  const list = [];
  const walk = (d) => {
    for (const entry of execFileSync('ls', ['-A', d], { encoding: 'utf8' }).split('\n').filter(Boolean)) {
      const path = join(d, entry);
      if (statSync(path).isDirectory()) walk(path);
      else list.push(path);
    }
  };
  walk(dir);
  return list.sort();
}

const median = (values) => percentile(values, 50);

/** The CLI next to what a user would run instead, and `--staged` in a large repository. */
async function cliBaselines(base, smallFile) {
  const nodeRuns = [];
  for (let i = 0; i < 5; i++) nodeRuns.push(await timedProcess(process.execPath, ['-e', '0']));
  const fstabPath = join(base.root, 'fstab', 'etc', 'fstab');
  // Alternated with findmnt, as the repository rows with `node -e 0`, so that both sides of the
  // ratio see the same moments of a shared machine.
  const ours = [];
  const findmntRuns = [];
  let findmntError;
  for (let i = 0; i < 3; i++) {
    ours.push(await runCli(['--format', 'json', fstabPath]));
    if (findmntError) continue;
    try {
      findmntRuns.push(await timedProcess('findmnt', ['--verify', '--nocanonicalize', '--tab-file', fstabPath]));
    } catch (error) {
      findmntError = error;
      log(`  findmnt not measured: ${error.message.split('\n')[0]}`);
    }
  }
  const findmnt = findmntError ? undefined : median(findmntRuns);
  // A configuration repository of 5,000 files with one staged change.
  const repo = join(tmp, 'staged-repo');
  writeFiles(repo, workspaceFiles(5000, 8));
  const git = (...args) =>
    execFileSync('git', args, {
      cwd: repo,
      stdio: 'ignore',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'bench',
        GIT_AUTHOR_EMAIL: 'bench@example.invalid',
        GIT_COMMITTER_NAME: 'bench',
        GIT_COMMITTER_EMAIL: 'bench@example.invalid',
      },
    });
  git('init', '-q');
  git('add', '-A');
  git('commit', '-q', '-m', 'estate');
  const changed = join(repo, 'hosts', 'node-0000', 'etc', 'fstab');
  writeFileSync(changed, `${readFileSync(changed, 'utf8')}10.10.0.4:/vol-0-1 /mnt/staged nfs rw,soft,vers=3 0 0\n`);
  git('add', changed);
  const staged = [];
  for (let i = 0; i < 3; i++) staged.push(await runCli(['--staged', '--format', 'json'], repo));
  return {
    nodeMs: median(nodeRuns),
    smallMs: smallFile.p50,
    fstabLines: base.sizes.fstabLines,
    fstabMs: median(ours),
    findmntMs: findmnt,
    stagedMs: median(staged),
    stagedFiles: 5000,
  };
}

/** 10 MB of each kind of file (bench/scale.mjs), linted by the CLI as a process. */
async function scaleRuns() {
  const root = join(tmp, 'scale');
  const inputs = scaleInputs(root);
  const formats = QUICK ? ['json'] : ['text', 'json'];
  const rows = [];
  for (const [label, input] of Object.entries(inputs)) {
    for (const format of formats) {
      const run = await measureCli(join(BUILD, 'anf-lint.js'), ['--format', format, input.path], root, tmp);
      rows.push({ label, format, bytes: input.bytes, lines: input.lines, ...run });
      log(
        `  ${label} (${format}): ${ms(run.ms)} ms, ${run.rssMiB.toFixed(0)} MiB, report ${mib(run.outputBytes)} MiB${run.stderr ? `, failed: ${run.stderr.slice(0, 200)}` : ''}`,
      );
    }
  }
  return rows;
}

/**
 * Issue 29: the CLI on a generated 400-file Bicep repository and a 3,000-file Terraform repository
 * (bench/generate.mjs), each run `runs` times alternated with `node -e 0`, so the ratio is of the
 * same moment of a shared machine; wall time, the process's CPU time and peak RSS.
 */
async function iacRepositoryRuns(runs) {
  const root = join(tmp, 'iac-repos');
  const repos = [
    { key: 'bicep', label: '400-file Bicep repository', folder: 'bicep-repo', files: bicepRepository() },
    { key: 'terraform', label: '3,000-file Terraform repository', folder: 'tf-repo', files: terraformRepository() },
  ];
  const result = {};
  for (const repo of repos) {
    const written = writeFiles(join(root, repo.folder), repo.files);
    const node = [];
    const cli = [];
    for (let i = 0; i < runs; i++) {
      node.push(await measureNode(['-e', '0'], root, tmp));
      const run = await measureCli(
        join(BUILD, 'anf-lint.js'),
        ['--format', 'json', '--all-findings', '--exit-zero', repo.folder],
        root,
        tmp,
      );
      if (run.code !== 0) throw new Error(`anf-lint on the ${repo.label} exited ${run.code}: ${run.stderr}`);
      cli.push(run);
      log(
        `  ${repo.label}: ${ms(run.ms)} ms (CPU ${ms(run.cpuMs)} ms, ${run.rssMiB.toFixed(0)} MiB) vs node -e 0 ${ms(node.at(-1).ms)} ms: ${(run.ms / node.at(-1).ms).toFixed(1)}x`,
      );
    }
    const ratios = cli.map((run, i) => run.ms / node[i].ms);
    result[repo.key] = {
      label: repo.label,
      files: written.files,
      bytes: written.bytes,
      nodeMs: median(node.map((r) => r.ms)),
      ms: median(cli.map((r) => r.ms)),
      cpuMs: median(cli.map((r) => r.cpuMs)),
      nodeCpuMs: median(node.map((r) => r.cpuMs)),
      rssMiB: Math.max(...cli.map((r) => r.rssMiB)),
      ratio: median(ratios),
      ratios,
    };
  }
  return result;
}

/** Issue 32: 10 MiB of Terraform, Bicep and ARM (bench/scale.mjs), as the other kinds' 10 MB rows. */
async function iacScaleRuns() {
  const root = join(tmp, 'iac-scale');
  const rows = [];
  for (const [label, input] of Object.entries(iacScaleInputs(root))) {
    const run = await measureCli(join(BUILD, 'anf-lint.js'), ['--format', 'json', input.path], root, tmp);
    rows.push({ label, format: 'json', bytes: input.bytes, lines: input.lines, ...run });
    log(
      `  ${label}: ${ms(run.ms)} ms (CPU ${ms(run.cpuMs)} ms), ${run.rssMiB.toFixed(0)} MiB, report ${mib(run.outputBytes)} MiB${run.stderr ? `, failed: ${run.stderr.slice(0, 200)}` : ''}`,
    );
  }
  return rows;
}

/** `--iac-only`: the infrastructure-code rows alone (issues 29 and 32), printed. */
async function iacOnly() {
  await builds();
  log('CLI on whole IaC repositories, side by side with node -e 0');
  const repos = await iacRepositoryRuns(QUICK ? 2 : 3);
  if (!QUICK) log('CLI on 10 MiB .tf, .bicep and ARM files');
  const scale = QUICK ? [] : await iacScaleRuns();
  const machine = { loadavg: readFileSync('/proc/loadavg', 'utf8').trim(), cpus: cpus().length };
  const r = { iacRepos: repos, scale, machine };
  process.stdout.write(`${iacLines(r).join('\n')}\n\n${JSON.stringify(r, null, 1)}\n`);
}

/** The IaC rows as Markdown (docs/benchmarks.md and `--iac-only`). */
function iacLines(r) {
  const lines = [];
  if (r.iacRepos) {
    lines.push('## Whole repositories of infrastructure code (issue 29)');
    lines.push('');
    lines.push(
      "The CLI (`--format json --all-findings --exit-zero`) on generated repositories (bench/generate.mjs `bicepRepository`, `terraformRepository`), each run alternated with `node -e 0`; medians. CPU is the process's own user + system time.",
    );
    lines.push('');
    lines.push('| Repository | Files | MiB | Wall ms | CPU ms | Peak RSS MiB | `node -e 0` ms | Ratio (each run) |');
    lines.push('|---|---|---|---|---|---|---|---|');
    for (const row of Object.values(r.iacRepos))
      lines.push(
        `| ${row.label} | ${row.files.toLocaleString('en-US')} | ${mib(row.bytes)} | ${ms(row.ms)} | ${ms(row.cpuMs)} | ${row.rssMiB.toFixed(0)} | ${ms(row.nodeMs)} | ${row.ratio.toFixed(1)}x (${row.ratios.map((x) => x.toFixed(1)).join(', ')}) |`,
      );
    lines.push('');
  }
  const iacScale = (r.scale ?? []).filter((row) => /\.tf|\.bicep|ARM/.test(row.label));
  if (!r.inputs && iacScale.length > 0) {
    lines.push('| Input | Lines | MiB | Wall ms | CPU ms | Peak RSS MiB | Report MiB |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const row of iacScale)
      lines.push(
        `| ${row.label} | ${row.lines.toLocaleString('en-US')} | ${mib(row.bytes)} | ${ms(row.ms)} | ${ms(row.cpuMs)} | ${row.rssMiB.toFixed(0)} | ${mib(row.outputBytes)} |`,
      );
    lines.push('');
  }
  return lines;
}

// ---- the run ------------------------------------------------------------------------------------

async function main() {
  const built = await builds();
  const { servers } = built;

  log(`generating inputs at scales ${SCALES.join(', ')}`);
  const inputs = {};
  for (const scale of SCALES)
    inputs[scale] = { root: join(tmp, 'inputs', `s${scale}`), ...generate(join(tmp, 'inputs', `s${scale}`), scale) };
  const editFolder = join(tmp, 'edit');
  const small = smallFstab();
  writeFiles(editFolder, { 'etc/fstab': small });
  const smallUri = pathToFileURL(join(editFolder, 'etc', 'fstab')).href;
  const base = inputs[1];
  const manifestPath = join(base.root, 'manifest', 'estate.anf.yaml');
  const manifestText = readFileSync(manifestPath, 'utf8');
  const manifestUri = pathToFileURL(manifestPath).href;
  const manifestFolder = join(base.root, 'manifest');

  log('core: per-line cost at each size (in-process, parse + every rule)');
  const growthRows = {};
  for (const scale of SCALES) {
    const root = inputs[scale].root;
    const rows = growth(
      [
        { label: 'manifest', paths: [join(root, 'manifest', 'estate.anf.yaml')] },
        { label: 'fstab', paths: [join(root, 'fstab', 'etc', 'fstab')] },
        { label: 'sysctl.d', paths: filesUnder(join(root, 'sysctl')) },
        { label: 'workspace', paths: filesUnder(join(root, 'workspace')) },
      ],
      scale >= 10 ? 1 : 3,
    );
    for (const row of rows) (growthRows[row.label] ??= {})[scale] = row;
    log(
      `  scale ${scale}: ${rows.map((r) => `${r.label} ${ms(r.ms)} ms (${r.usPerLine.toFixed(1)} us/line)`).join(', ')}`,
    );
  }

  log('CLI: whole workspaces and one small file');
  const cli = { workspace: {}, smallFile: undefined };
  for (const scale of SCALES) {
    const folder = join(inputs[scale].root, 'workspace');
    let wall;
    try {
      wall = await runCli(['--format', 'json', folder]);
    } catch (error) {
      // The x10 workspace (5,000 files) is over the CLI's discovery limit for one folder
      // (DISCOVERY_MAX_FILES, server/src/core/project/limits.ts): the CLI says so and exits 2.
      if (!/stopped reading because it reached \d+ files/.test(String(error))) throw error;
      cli.workspace[scale] = {
        skipped:
          'over the discovery limit of one folder (2,000 files, server/src/core/project/limits.ts): the CLI says so and exits 2',
        ...inputs[scale].written.workspace,
      };
      log(`  workspace x${scale}: not measured, ${cli.workspace[scale].skipped}`);
      continue;
    }
    cli.workspace[scale] = { ms: wall, ...inputs[scale].written.workspace };
    log(`  workspace x${scale}: ${ms(wall)} ms for ${inputs[scale].written.workspace.files} files`);
  }
  const smallTimes = [];
  for (let i = 0; i < 5; i++) smallTimes.push(await runCli(['--format', 'json', join(editFolder, 'etc', 'fstab')]));
  cli.smallFile = stats(smallTimes);

  log('CLI against the baselines: node -e 0, findmnt --verify, --staged in a 5,000-file repository');
  const baselines = await cliBaselines(inputs[1], cli.smallFile);

  log(`CLI on 10 MB inputs of every kind (${QUICK ? 'json' : 'text and json'} reports)`);
  const scale = await scaleRuns();

  log('CLI on whole IaC repositories, side by side with node -e 0 (issue 29)');
  const iacRepos = await iacRepositoryRuns(QUICK ? 2 : 3);
  if (!QUICK) {
    log('CLI on 10 MiB .tf, .bicep and ARM files (issue 32)');
    scale.push(...(await iacScaleRuns()));
  }

  log('server: cold start to first diagnostics');
  const cold = await coldStart(servers, editFolder, smallUri, small);

  log(
    `server: ${COUNTS.lineEdits} edits of the 200-line fstab (typing pause removed), ${COUNTS.smallEditsShipped} as shipped`,
  );
  const smallNoDebounce = await editLatency(
    servers.nodebounce,
    editFolder,
    smallUri,
    small,
    'fstab',
    COUNTS.lineEdits,
    21,
  );
  const smallShipped = await editLatency(
    servers.shipped,
    editFolder,
    smallUri,
    small,
    'fstab',
    COUNTS.smallEditsShipped,
    22,
  );

  log(
    `server vs yaml-language-server: ${COUNTS.manifestEdits} interleaved edits of the 2,000-volume manifest, waits removed`,
  );
  const manifestNoWait = await sideBySide(
    servers.nodebounce,
    servers.yamlNowait,
    manifestFolder,
    manifestUri,
    manifestText,
    COUNTS.manifestEdits,
    31,
  );
  log(`  ours p50 ${ms(manifestNoWait.ours.p50)} ms, yaml-language-server p50 ${ms(manifestNoWait.theirs.p50)} ms`);
  log(`server vs yaml-language-server: ${COUNTS.manifestEditsShipped} interleaved edits, both as shipped`);
  const manifestShipped = await sideBySide(
    servers.shipped,
    servers.yaml,
    manifestFolder,
    manifestUri,
    manifestText,
    COUNTS.manifestEditsShipped,
    32,
  );

  const tenth = inputs[0.1];
  const smallManifestPath = join(tenth.root, 'manifest', 'estate.anf.yaml');
  log(
    `server vs yaml-language-server: ${COUNTS.manifestEdits} interleaved edits of the 200-volume manifest, waits removed`,
  );
  const manifestSmallNoWait = await sideBySide(
    servers.nodebounce,
    servers.yamlNowait,
    join(tenth.root, 'manifest'),
    pathToFileURL(smallManifestPath).href,
    readFileSync(smallManifestPath, 'utf8'),
    COUNTS.manifestEdits,
    33,
  );
  const largeFstabPath = join(base.root, 'fstab', 'etc', 'fstab');
  log(
    `server: ${COUNTS.lineEdits} edits of the ${base.sizes.fstabLines.toLocaleString('en-US')}-line fstab (typing pause removed)`,
  );
  const largeFstab = await editLatency(
    servers.nodebounce,
    join(base.root, 'fstab'),
    pathToFileURL(largeFstabPath).href,
    readFileSync(largeFstabPath, 'utf8'),
    'fstab',
    COUNTS.lineEdits,
    23,
  );

  // Shell scripts (shellinc): a provisioning script with mounts, here-documents, variables and sysctl.d writes, edited as the fstab.
  const scriptFolder = join(tmp, 'script-edit');
  const scriptText = provisioningScript(SCRIPT_LINES);
  writeFiles(scriptFolder, { 'scripts/provision.sh': scriptText });
  log(
    `server: ${COUNTS.lineEdits} edits of the ${SCRIPT_LINES.toLocaleString('en-US')}-line provisioning script (typing pause removed)`,
  );
  const largeScript = {
    ...(await editLatency(
      servers.nodebounce,
      scriptFolder,
      pathToFileURL(join(scriptFolder, 'scripts', 'provision.sh')).href,
      scriptText,
      'shellscript',
      COUNTS.lineEdits,
      24,
    )),
    lines: SCRIPT_LINES,
  };

  log(
    `server: ${COUNTS.terraformEdits} edits of the ${TERRAFORM_LINES.toLocaleString('en-US')}-line .tf, yaml-language-server on a manifest of as many lines interleaved, waits removed`,
  );
  const terraformRun = await terraformEdits(servers.nodebounce, servers.yamlNowait, COUNTS.terraformEdits, 34);
  log(
    `  .tf p50 ${ms(terraformRun.ours.p50)} / p99 ${ms(terraformRun.ours.p99)} ms, yaml-language-server p99 ${ms(terraformRun.theirs.p99)} ms`,
  );

  log(`hover and completion: ${COUNTS.hovers} each`);
  const requestsManifest = await requestLatency(
    servers.shipped,
    OUR_SETTINGS,
    manifestFolder,
    manifestUri,
    manifestText,
    'anf-manifest',
    valuePositions,
  );
  const requestsFstab = await requestLatency(
    servers.shipped,
    OUR_SETTINGS,
    editFolder,
    smallUri,
    small,
    'fstab',
    valuePositions,
  );
  // yaml-language-server's completion takes most of a second on this manifest: fewer requests keep the run under 10 minutes.
  const requestsYaml = await requestLatency(
    servers.yamlNowait,
    undefined,
    manifestFolder,
    manifestUri,
    manifestText,
    'yaml',
    valuePositions,
    true,
    Math.min(COUNTS.hovers, 50),
  );

  log('server: peak RSS on the 500-file workspace (index + workspace diagnostics)');
  const rss = await peakRssOnWorkspace(servers, join(base.root, 'workspace'));
  log('server: first scan of a 1,000-file repository (cold, then with the scan cache)');
  const firstScan = await firstScanRows(servers.shipped, 1000, { runs: QUICK ? 1 : 3 });
  log('server: the same first scan over node IPC, as VS Code starts the server');
  const [node, [shippedServer]] = servers.shipped;
  const firstScanIpc = await firstScanRows([node, [shippedServer, '--node-ipc']], 1000, { runs: QUICK ? 1 : 3 });

  const vsixPath = join(ROOT, 'dist', 'anf-lint.vsix');
  const vsix = existsSync(vsixPath)
    ? { bytes: statSync(vsixPath).size, mtime: statSync(vsixPath).mtime.toISOString() }
    : undefined;

  const results = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      model: cpus()[0]?.model,
      memoryGiB: totalmem() / 1024 ** 3,
      node: process.version,
      loadavg: readFileSync('/proc/loadavg', 'utf8').trim(),
    },
    quick: QUICK,
    built,
    inputs: Object.fromEntries(
      Object.entries(inputs).map(([scale, value]) => [scale, { sizes: value.sizes, written: value.written }]),
    ),
    growth: growthRows,
    cli,
    cold,
    smallNoDebounce,
    smallShipped,
    manifestNoWait,
    manifestShipped,
    manifestSmallNoWait,
    largeFstab,
    largeScript,
    terraform: terraformRun,
    baselines,
    scale,
    iacRepos,
    requestsManifest,
    requestsFstab,
    requestsYaml,
    rss,
    firstScan,
    firstScanIpc,
    vsix,
    benchSeconds: (Date.now() - benchStarted) / 1000,
  };
  // Kept outside the repository, so the report can be rendered again (`--render FILE`) after
  // bench/notes.md changes without measuring again.
  const saved = join(tmpdir(), 'anf-bench-last.json');
  writeFileSync(saved, JSON.stringify(results, null, 1));
  log(`results saved to ${saved}`);
  const markdown = render(results);
  process.stdout.write(`${markdown}\n`);
  if (WRITE) {
    writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), markdown);
    log('wrote docs/benchmarks.md');
  }
}

// ---- the report ---------------------------------------------------------------------------------

function verdict(pass) {
  return pass ? '**pass**' : '**miss**';
}

function render(r) {
  const g = r.growth;
  const smallest = Math.min(...SCALES);
  const largest = Math.max(...SCALES);
  const ratio = (label) => g[label][largest].usPerLine / g[label][smallest].usPerLine;
  const yamlRatio = r.manifestNoWait.ours.p50 / r.manifestNoWait.theirs.p50;
  const yamlRatioP95 = r.manifestNoWait.ours.p95 / r.manifestNoWait.theirs.p95;
  const shippedRatio = r.manifestShipped.ours.p50 / r.manifestShipped.theirs.p50;
  const hoverP99 = Math.max(r.requestsManifest.hover.p99, r.requestsFstab.hover.p99);
  const growthWorst = Math.max(...['manifest', 'fstab', 'sysctl.d', 'workspace'].map(ratio));
  const baseWs = r.cli.workspace[1];
  const largeWs = r.cli.workspace[largest];
  const by = (value, target) => `${(value / target).toFixed(1)}x the target`;

  const targets = [
    [
      'didChange -> diagnostics p99, 200-line fstab (typing pause removed)',
      `< ${TARGETS.smallP99Ms} ms`,
      `${ms(r.smallNoDebounce.p99)} ms`,
      r.smallNoDebounce.p99 < TARGETS.smallP99Ms,
      by(r.smallNoDebounce.p99, TARGETS.smallP99Ms),
    ],
    [
      'didChange -> diagnostics p99, 2,000-volume manifest (typing pause removed)',
      `< ${TARGETS.manifestP99Ms} ms`,
      `${ms(r.manifestNoWait.ours.p99)} ms`,
      r.manifestNoWait.ours.p99 < TARGETS.manifestP99Ms,
      by(r.manifestNoWait.ours.p99, TARGETS.manifestP99Ms),
    ],
    [
      'hover p99 (manifest and fstab)',
      `< ${TARGETS.hoverP99Ms} ms`,
      `${ms(hoverP99)} ms`,
      hoverP99 < TARGETS.hoverP99Ms,
      by(hoverP99, TARGETS.hoverP99Ms),
    ],
    [
      'manifest validation vs yaml-language-server (both waits removed, p50)',
      `<= ${TARGETS.yamlRatio}`,
      `${yamlRatio.toFixed(2)}`,
      yamlRatio <= TARGETS.yamlRatio,
      by(yamlRatio, TARGETS.yamlRatio),
    ],
    [
      'cold start to first diagnostics (median)',
      `< ${TARGETS.coldStartMs} ms`,
      `${ms(r.cold.p50)} ms`,
      r.cold.p50 < TARGETS.coldStartMs,
      by(r.cold.p50, TARGETS.coldStartMs),
    ],
    [
      'server bundle (minified, as in the .vsix)',
      '< 1 MiB',
      `${mib(r.built.sizes.serverMin)} MiB`,
      r.built.sizes.serverMin < TARGETS.bundleBytes,
      by(r.built.sizes.serverMin, TARGETS.bundleBytes),
    ],
    [
      '.vsix',
      '< 2 MiB',
      r.vsix ? `${mib(r.vsix.bytes)} MiB` : 'not built',
      r.vsix ? r.vsix.bytes < TARGETS.vsixBytes : undefined,
      r.vsix ? by(r.vsix.bytes, TARGETS.vsixBytes) : 'run `npm run package` first',
    ],
    [
      'peak RSS, 500-file workspace',
      `< ${TARGETS.rssMiB} MiB`,
      `${r.rss.rss.toFixed(0)} MiB`,
      r.rss.rss < TARGETS.rssMiB,
      by(r.rss.rss, TARGETS.rssMiB),
    ],
    [
      `per-line cost at 100x vs 1x (worst of manifest, fstab, sysctl.d, workspace)`,
      `<= ${TARGETS.growthRatio}x`,
      `${growthWorst.toFixed(2)}x`,
      growthWorst <= TARGETS.growthRatio,
      by(growthWorst, TARGETS.growthRatio),
    ],
  ];

  const targets17 = targetsOf17(r);

  const lines = [];
  lines.push('# Benchmarks');
  lines.push('');
  lines.push('Written by `npm run bench` (bench/run.mjs); do not edit by hand. The numbers are from the latest run:');
  lines.push('');
  lines.push(
    `- **Date:** ${r.date}${r.quick ? ' (`--quick` run: fewer edits, no 10x inputs)' : ''}; the whole benchmark took ${r.benchSeconds.toFixed(0)} s.`,
  );
  lines.push(
    `- **Machine:** ${r.machine.cpus} x ${r.machine.model}, ${r.machine.memoryGiB.toFixed(1)} GiB, Node ${r.machine.node}; load average at the end: ${r.machine.loadavg.split(' ').slice(0, 3).join(' ')}.`,
  );
  lines.push(
    '  A **shared 2-core machine** (the load average above says how busy it was): when other work runs beside the benchmark, the numbers are noisy, the tails (p95, p99) most of all.',
  );
  lines.push(
    `- **Compared with:** yaml-language-server ${r.built.yamlVersion} (npm), validating the same manifest against \`schemas/anf-manifest.schema.json\`, over stdio, edits interleaved one for one.`,
  );
  lines.push('');
  if (targets17.length > 0) {
    lines.push('## Targets (issues 17 and 18)');
    lines.push('');
    lines.push('| Target | Goal | Measured | Result |');
    lines.push('|---|---|---|---|');
    for (const [name, goal, measured, pass] of targets17)
      lines.push(`| ${name} | ${goal} | ${measured} | ${pass === undefined ? 'not measured' : verdict(pass)} |`);
    lines.push('');
  }
  if (r.scale) {
    lines.push('## Scale: 10 MB inputs (issue 18, items 5 and 6)');
    lines.push('');
    lines.push(
      'The CLI as a process on one generated file of each kind, most lines wrong (bench/scale.mjs); peak RSS from `process.resourceUsage().maxRSS`.',
    );
    lines.push('');
    lines.push('| Input | Lines | MiB | Report | Wall time ms | Peak RSS MiB | Report MiB |');
    lines.push('|---|---|---|---|---|---|---|');
    for (const row of r.scale)
      lines.push(
        `| ${row.label} | ${row.lines.toLocaleString('en-US')} | ${mib(row.bytes)} | ${row.format} | ${ms(row.ms)} | ${row.rssMiB.toFixed(0)} | ${mib(row.outputBytes)} |`,
      );
    lines.push('');
  }
  lines.push(...iacLines(r));
  lines.push('## Targets (issue 9)');
  lines.push('');
  lines.push('| Target | Goal | Measured | Result | |');
  lines.push('|---|---|---|---|---|');
  for (const [name, goal, measured, pass, note] of targets)
    lines.push(
      `| ${name} | ${goal} | ${measured} | ${pass === undefined ? 'not measured' : verdict(pass)} | ${pass ? '' : note} |`,
    );
  lines.push('');
  lines.push('## Editing latency: didChange to the matching publishDiagnostics');
  lines.push('');
  lines.push(
    `Small edits at random places (a character typed, then deleted), each waiting for its diagnostics. Our server is measured as shipped (it waits ${r.built.shippedDebounceMs} ms after the last change before checking, like vscode-eslint) and with that pause removed (the engine's own latency). yaml-language-server waits a fixed ${r.built.yamlDelayMs} ms after each change; it is measured as shipped and with the wait removed.`,
  );
  lines.push('');
  lines.push('| Document | Server | Edits | p50 ms | p95 ms | p99 ms | max ms | Diagnostics | Peak RSS MiB |');
  lines.push('|---|---|---|---|---|---|---|---|---|');
  const row = (doc, server, s, diagnostics = '') =>
    lines.push(
      `| ${doc} | ${server} | ${s.n} | ${ms(s.p50)} | ${ms(s.p95)} | ${ms(s.p99)} | ${ms(s.max)} | ${diagnostics} | ${s.rss !== undefined ? s.rss.toFixed(0) : ''} |`,
    );
  row('fstab, 200 lines', 'anf-lint, pause removed', r.smallNoDebounce);
  row('fstab, 200 lines', `anf-lint as shipped (${r.built.shippedDebounceMs} ms pause)`, r.smallShipped);
  if (r.largeScript)
    row(`shell script, ${r.largeScript.lines.toLocaleString('en-US')} lines`, 'anf-lint, pause removed', r.largeScript);
  const manifestDoc = `manifest, 2,000 volumes (${r.inputs[1].written.manifest.lines.toLocaleString('en-US')} lines, ${mib(r.inputs[1].written.manifest.bytes)} MiB)`;
  row(manifestDoc, 'anf-lint, pause removed', r.manifestNoWait.ours, r.manifestNoWait.ours.diagnostics);
  row(manifestDoc, 'yaml-language-server, wait removed', r.manifestNoWait.theirs, r.manifestNoWait.theirs.diagnostics);
  row(
    manifestDoc,
    `anf-lint as shipped (${r.built.shippedDebounceMs} ms pause)`,
    r.manifestShipped.ours,
    r.manifestShipped.ours.diagnostics,
  );
  row(
    manifestDoc,
    `yaml-language-server as shipped (${r.built.yamlDelayMs} ms wait)`,
    r.manifestShipped.theirs,
    r.manifestShipped.theirs.diagnostics,
  );
  if (r.terraform) {
    row(
      `Terraform, ${r.terraform.ours.volumes} volumes (${r.terraform.ours.lines.toLocaleString('en-US')} lines)`,
      'anf-lint, pause removed',
      r.terraform.ours,
      r.terraform.ours.diagnostics,
    );
    row(
      `manifest, ${r.terraform.theirs.volumes} volumes (${r.terraform.theirs.lines.toLocaleString('en-US')} lines): the .tf's yardstick`,
      'yaml-language-server, wait removed',
      r.terraform.theirs,
      r.terraform.theirs.diagnostics,
    );
  }
  lines.push('');
  lines.push(
    `Ratio anf-lint / yaml-language-server on the manifest: **${yamlRatio.toFixed(2)}** at p50 and ${yamlRatioP95.toFixed(2)} at p95 with both waits removed; **${shippedRatio.toFixed(2)}** at p50 as shipped. anf-lint does more per change: it parses the YAML with positions, validates the same schema (zod), builds the model, computes the figures of every volume and runs every manifest rule.`,
  );
  const place = r.manifestNoWait.ours;
  if (place.content && place.indent) {
    lines.push('');
    lines.push(
      `anf-lint (pause removed) by where the character was typed: inside a line's content, ${place.content.n} edits, p50 ${ms(place.content.p50)} / p95 ${ms(place.content.p95)} / p99 ${ms(place.content.p99)} ms; into a line's indentation, ${place.indent.n} edits, p50 ${ms(place.indent.p50)} / p95 ${ms(place.indent.p95)} / p99 ${ms(place.indent.p99)} ms. A manifest is re-read incrementally when an edit stays inside one volume; a character typed into the indentation can move the line out of its volume, and then only a whole parse can say how the rest reads (docs/architecture.md).`,
    );
  }
  lines.push('');
  lines.push('## Requests');
  lines.push('');
  lines.push(
    '| Document | Server | Requests | hover p50 / p95 / p99 ms | completion p50 / p95 / p99 ms | hovers with an answer |',
  );
  lines.push('|---|---|---|---|---|---|');
  const req = (doc, server, q) =>
    lines.push(
      `| ${doc} | ${server} | ${q.hover.n} + ${q.completion.n} | ${ms(q.hover.p50)} / ${ms(q.hover.p95)} / ${ms(q.hover.p99)} | ${ms(q.completion.p50)} / ${ms(q.completion.p95)} / ${ms(q.completion.p99)} | ${(q.answered * 100).toFixed(0)}% |`,
    );
  req('manifest, 2,000 volumes', 'anf-lint', r.requestsManifest);
  req('manifest, 2,000 volumes', 'yaml-language-server', r.requestsYaml);
  req('fstab, 200 lines', 'anf-lint', r.requestsFstab);
  lines.push('');
  lines.push(
    'Positions: the values of `quota:`, `throughput:`, `capacity:`, `serviceLevel:` and `protocols:`, and the options of NFS mount lines.',
  );
  lines.push('');
  lines.push('## Start-up, memory, bundle');
  lines.push('');
  lines.push('| Measure | Value |');
  lines.push('|---|---|');
  lines.push(
    `| Cold start: process start to the first publishDiagnostics of a 200-line fstab | p50 ${ms(r.cold.p50)} ms, max ${ms(r.cold.max)} ms (${r.cold.n} starts) |`,
  );
  lines.push(`| 500-file workspace: start to index done | ${ms(r.rss.indexedMs)} ms (${r.rss.log ?? ''}) |`);
  lines.push(
    `| 500-file workspace: start to \`workspace/diagnostic\` answered | ${ms(r.rss.allMs)} ms, ${r.rss.files} files, ${r.rss.findings.toLocaleString('en-US')} findings |`,
  );
  lines.push(`| Peak RSS (VmHWM) after that | ${r.rss.rss.toFixed(0)} MiB |`);
  for (const [name, scan] of [
    ['no cache, stdio', r.firstScan?.cold],
    ['scan cache, stdio', r.firstScan?.warm],
    ['no cache, node IPC as VS Code starts it', r.firstScanIpc?.cold],
    ['scan cache, node IPC', r.firstScanIpc?.warm],
  ])
    if (scan)
      lines.push(
        `| 1,000-file repository (${name}): \`initialize\` to the open file's first diagnostics / to the last workspace diagnostic (pulled as VS Code's client does: parts on a token, 2 s between pulls) | ${ms(scan.firstMs)} ms (target ${FIRST_DIAGNOSTICS_TARGET_MS}) / ${ms(scan.lastMs)} ms (target ${LAST_WORKSPACE_DIAGNOSTIC_TARGET_MS}${scan.lastMsRuns?.length > 1 ? `; the median of ${scan.lastMsRuns.length} starts: ${scan.lastMsRuns.map(ms).join(', ')} ms` : ''}), ${scan.files} files, server CPU ${ms(scan.cpuMs)} ms |`,
      );
  lines.push(
    `| Server bundle, minified (\`npm run package\` ships it) / as \`npm run build\` writes it (not minified) | ${mib(r.built.sizes.serverMin)} MiB / ${mib(r.built.sizes.server)} MiB${r.built.sizes.treeSitterMin ? ` (and web-tree-sitter.js, ${mib(r.built.sizes.treeSitterMin)} MiB minified, a file of its own: the server loads it at start, the CLI on its first .tf or .bicep)` : ''} |`,
  );
  lines.push(
    `| Client bundle / CLI bundle, minified | ${mib(r.built.sizes.extensionMin)} MiB / ${mib(r.built.sizes.cliMin)} MiB |`,
  );
  lines.push(
    `| .vsix | ${r.vsix ? `${mib(r.vsix.bytes)} MiB (dist/anf-lint.vsix of ${r.vsix.mtime})` : 'not measured: dist/anf-lint.vsix missing (`npm run package`)'} |`,
  );
  lines.push('');
  lines.push('## CLI');
  lines.push('');
  lines.push('| Input | Files | Lines | MiB | Wall time ms | MiB/s |');
  lines.push('|---|---|---|---|---|---|');
  for (const scale of SCALES) {
    const w = r.cli.workspace[scale];
    if (w.skipped) {
      lines.push(
        `| workspace x${scale} | ${w.files} | ${w.lines.toLocaleString('en-US')} | ${mib(w.bytes)} | not measured: ${w.skipped} | |`,
      );
      continue;
    }
    lines.push(
      `| workspace x${scale} | ${w.files} | ${w.lines.toLocaleString('en-US')} | ${mib(w.bytes)} | ${ms(w.ms)} | ${(w.bytes / 1024 / 1024 / (w.ms / 1000)).toFixed(2)} |`,
    );
  }
  lines.push(
    `| one 200-line fstab (start-up) | 1 | 200 | | p50 ${ms(r.cli.smallFile.p50)}, max ${ms(r.cli.smallFile.max)} (${r.cli.smallFile.n} runs) | |`,
  );
  lines.push('');
  lines.push(
    `The 500-file workspace: ${ms(baseWs.ms)} ms (${(baseWs.bytes / 1024 / 1024 / (baseWs.ms / 1000)).toFixed(2)} MiB/s); the ${largeWs.files}-file one: ${largeWs.skipped ? 'not measured' : `${ms(largeWs.ms)} ms`}. Wall time includes Node start-up and reading the files; \`--format json\` to /dev/null.`,
  );
  lines.push('');
  lines.push('## Growth: per-line cost of the core');
  lines.push('');
  lines.push(
    "In-process parse + every rule on a fresh `Workspace` (median of 3 passes after a warm-up; 1 pass at the largest size). The sizes are 1x (1/10 of the issue's inputs), 10x (the inputs) and 100x (10 times them).",
  );
  lines.push('');
  lines.push(`| Input | ${SCALES.map((s) => `${Math.round(s * 10)}x: lines, ms, us/line`).join(' | ')} | 100x / 1x |`);
  lines.push(`|---|${SCALES.map(() => '---').join('|')}|---|`);
  for (const label of ['manifest', 'fstab', 'sysctl.d', 'workspace']) {
    const cells = SCALES.map((s) => {
      const c = g[label][s];
      return `${c.lines.toLocaleString('en-US')}, ${ms(c.ms)}, ${c.usPerLine.toFixed(1)}`;
    });
    lines.push(`| ${label} | ${cells.join(' | ')} | ${ratio(label).toFixed(2)}x |`);
  }
  lines.push('');
  lines.push('## How the waits were removed');
  lines.push('');
  lines.push(
    `- **yaml-language-server** waits \`validationDelayMs\` (${r.built.yamlDelayMs} ms) after every change before it validates (\`ValidationHandler.validate\` in \`out/server/src/languageserver/handlers/validationHandlers.js\`). It is not a setting or an initialization option: \`SettingsState\` sets \`this.validationDelayMs = 200\` in its constructor (\`out/server/src/yamlSettings.js\`). The benchmark copies the package from node_modules into a temporary folder, rewrites that one assignment to 0, and starts the copy with \`NODE_PATH\` pointing at our node_modules for its dependencies. Nothing of it is committed.`,
  );
  lines.push(
    `- **anf-lint** waits \`DIAGNOSTICS_DEBOUNCE_MS\` (${r.built.shippedDebounceMs} ms, server/src/lsp/limits.ts) after the last change. The benchmark builds the server from the sources with the options of scripts/build.mjs into a temporary folder and writes a second copy with that constant set to 0.`,
  );
  lines.push(
    '- Each server gets the same edits; ours reports the document version in publishDiagnostics and is matched on it; yaml-language-server does not, and each edit waits for its next publishDiagnostics before the next edit is sent.',
  );
  lines.push('');
  lines.push('## Inputs');
  lines.push('');
  lines.push(
    'bench/generate.mjs, seeded (the same bytes every run): a manifest of N volumes in 25 capacity pools (accounts of 10 pools; Standard, Premium, Ultra and Flexible; workloads, protocols, mount targets, requirements on 60% of volumes, comments); an fstab of NFS mounts of those volumes with mixed options, local disks, comments and `# anf:` annotations; a sysctl.d set in files of 200 lines; and a configuration repository of per-host fstab, sysctl.d, autofs and modprobe files, mount scripts, Markdown runbooks, systemd mount units, manifests and an `.anf-lint.yaml`. For the Terraform row: a 5,000-line module (`terraform()`: variables, locals, 2 accounts, 12 capacity pools and about 220 `azurerm_netapp_volume` resources, each with an `export_policy_rule` block, tags and a `# anf: workload=` annotation) and, as its yardstick, a manifest of 512 volumes (about 5,000 lines).',
  );
  lines.push('');
  lines.push('| Size | Manifest volumes | fstab lines | sysctl.d lines | Workspace files |');
  lines.push('|---|---|---|---|---|');
  for (const scale of SCALES) {
    const s = r.inputs[scale].sizes;
    lines.push(
      `| ${Math.round(scale * 10)}x | ${s.volumes.toLocaleString('en-US')} | ${s.fstabLines.toLocaleString('en-US')} | ${s.sysctlLines.toLocaleString('en-US')} | ${s.workspaceFiles.toLocaleString('en-US')} |`,
    );
  }
  lines.push('');
  // The analysis of the misses is written by hand (bench/notes.md) and kept with the numbers.
  const notes = join(ROOT, 'bench', 'notes.md');
  if (existsSync(notes)) lines.push(readFileSync(notes, 'utf8').trimEnd(), '');
  return lines.join('\n');
}

/** Rows of the issue 17 and 18 targets: name, goal, measured, pass (undefined: not measured). */
function targetsOf17(r) {
  if (!r.baselines || !r.manifestSmallNoWait) return [];
  const t = TARGETS_17;
  const rows = [];
  const ratio = (a, b) => a / b;
  for (const [label, run] of [
    ['2,200-line (200-volume)', r.manifestSmallNoWait],
    ['22,000-line (2,000-volume)', r.manifestNoWait],
  ]) {
    const p99 = ratio(run.ours.p99, run.theirs.p99);
    const p50 = ratio(run.ours.p50, run.theirs.p50);
    rows.push([
      `${label} manifest edit p99 vs yaml-language-server`,
      `<= ${t.manifestP99Ratio}x`,
      `${p99.toFixed(2)}x (${ms(run.ours.p99)} / ${ms(run.theirs.p99)} ms)`,
      p99 <= t.manifestP99Ratio,
    ]);
    rows.push([
      `${label} manifest edit p50 vs yaml-language-server`,
      `<= ${t.manifestP50Ratio}x`,
      `${p50.toFixed(2)}x (${ms(run.ours.p50)} / ${ms(run.theirs.p50)} ms)`,
      p50 <= t.manifestP50Ratio,
    ]);
    rows.push([
      `${label} manifest peak RSS vs yaml-language-server`,
      '<= 1x',
      `${run.ours.rss.toFixed(0)} / ${run.theirs.rss.toFixed(0)} MiB`,
      run.ours.rss <= run.theirs.rss,
    ]);
  }
  const rssGrowth = r.manifestNoWait.ours.rss / r.manifestSmallNoWait.ours.rss;
  rows.push([
    'manifest peak RSS at 22,000 lines vs 2,200 lines',
    `<= ${t.rssGrowth}x`,
    `${rssGrowth.toFixed(2)}x`,
    rssGrowth <= t.rssGrowth,
  ]);
  rows.push([
    '200-line fstab edit p99 (typing pause removed)',
    `<= ${t.fstabSmallP99Ms} ms`,
    `${ms(r.smallNoDebounce.p99)} ms`,
    r.smallNoDebounce.p99 <= t.fstabSmallP99Ms,
  ]);
  rows.push([
    `${r.baselines.fstabLines.toLocaleString('en-US')}-line fstab edit p99 (typing pause removed)`,
    `<= ${t.fstabLargeP99Ms} ms`,
    `${ms(r.largeFstab.p99)} ms`,
    r.largeFstab.p99 <= t.fstabLargeP99Ms,
  ]);
  // anf-lint's own target for scripts: the 10,000-line fstab's (issue 17 names shell among the line-based files).
  if (r.largeScript)
    rows.push([
      `${r.largeScript.lines.toLocaleString('en-US')}-line shell script edit p99 (typing pause removed; the large fstab's target)`,
      `<= ${t.fstabLargeP99Ms} ms`,
      `${ms(r.largeScript.p99)} ms`,
      r.largeScript.p99 <= t.fstabLargeP99Ms,
    ]);
  const b = r.baselines;
  rows.push([
    'CLI, one 200-line fstab vs `node -e 0`',
    `<= ${t.cliSmallRatio}x`,
    `${(b.smallMs / b.nodeMs).toFixed(2)}x (${ms(b.smallMs)} / ${ms(b.nodeMs)} ms)`,
    b.smallMs / b.nodeMs <= t.cliSmallRatio,
  ]);
  rows.push([
    `CLI \`--staged\`, ${b.stagedFiles.toLocaleString('en-US')}-file repository`,
    `<= ${t.stagedMs} ms`,
    `${ms(b.stagedMs)} ms`,
    b.stagedMs <= t.stagedMs,
  ]);
  rows.push([
    `CLI, ${b.fstabLines.toLocaleString('en-US')}-line fstab vs \`findmnt --verify --nocanonicalize\``,
    `<= ${t.findmntRatio}x`,
    b.findmntMs === undefined
      ? 'findmnt missing'
      : `${(b.fstabMs / b.findmntMs).toFixed(2)}x (${ms(b.fstabMs)} / ${ms(b.findmntMs)} ms)`,
    b.findmntMs === undefined ? undefined : b.fstabMs / b.findmntMs <= t.findmntRatio,
  ]);
  const tf = r.terraform;
  rows.push([
    '5,000-line `.tf` edit p99 within the manifest target (yaml-language-server on a manifest of as many lines)',
    `<= ${t.manifestP99Ratio}x yaml-language-server`,
    tf
      ? `${(tf.ours.p99 / tf.theirs.p99).toFixed(2)}x (${ms(tf.ours.p99)} / ${ms(tf.theirs.p99)} ms; p50 ${ms(tf.ours.p50)} / ${ms(tf.theirs.p50)} ms)`
      : 'not measured',
    tf ? tf.ours.p99 <= tf.theirs.p99 * t.manifestP99Ratio : undefined,
  ]);
  for (const row of Object.values(r.iacRepos ?? {})) {
    const goal = row.label.includes('Bicep') ? TARGETS_29.bicepRepoRatio : TARGETS_29.terraformRepoRatio;
    rows.push([
      `CLI, ${row.label} (${mib(row.bytes)} MiB) vs \`node -e 0\` (issue 29)`,
      `<= ${goal}x`,
      `${row.ratio.toFixed(1)}x (${ms(row.ms)} / ${ms(row.nodeMs)} ms; CPU ${ms(row.cpuMs)} ms)`,
      row.ratio <= goal,
    ]);
  }
  for (const row of r.scale ?? []) {
    rows.push([
      `${row.label}, ${row.format} report: time and peak RSS`,
      `< ${t.scaleMs / 1000} s, < ${t.scaleRssMiB} MiB`,
      `${(row.ms / 1000).toFixed(1)} s, ${row.rssMiB.toFixed(0)} MiB`,
      row.ms < t.scaleMs && row.rssMiB < t.scaleRssMiB,
    ]);
  }
  return rows;
}

/** `--tf-only`: the .tf editing row alone, for trying a change to the Terraform path. */
async function terraformOnly() {
  const { servers } = await builds();
  log(
    `server: ${COUNTS.terraformEdits} edits of the ${TERRAFORM_LINES.toLocaleString('en-US')}-line .tf, yaml-language-server on a manifest of as many lines interleaved, waits removed`,
  );
  const result = await terraformEdits(servers.nodebounce, servers.yamlNowait, COUNTS.terraformEdits, 34);
  const machine = { loadavg: readFileSync('/proc/loadavg', 'utf8').trim() };
  process.stdout.write(`${JSON.stringify({ ...result, machine }, null, 1)}\n`);
}

const renderFrom = process.argv.indexOf('--render');
const run = TF_ONLY
  ? terraformOnly
  : IAC_ONLY
    ? iacOnly
    : renderFrom > 0
      ? async () => {
          const results = JSON.parse(readFileSync(process.argv[renderFrom + 1], 'utf8'));
          SCALES.splice(
            0,
            SCALES.length,
            ...Object.keys(results.inputs)
              .map(Number)
              .sort((a, b) => a - b),
          );
          const markdown = render(results);
          process.stdout.write(`${markdown}\n`);
          if (WRITE) writeFileSync(join(ROOT, 'docs', 'benchmarks.md'), markdown);
        }
      : main;

run().then(
  () => process.exit(0),
  (error) => {
    log(`failed: ${error?.stack ?? error}`);
    process.exit(1);
  },
);
