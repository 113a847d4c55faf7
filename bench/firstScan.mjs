// The language server's first scan (issue 29): on a generated 1,000-file repository, the time from
// `initialize` to the first diagnostics of an open file, and to the last workspace diagnostic
// (every indexed file reported by `workspace/diagnostic`, pulled as VS Code's client pulls: parts
// on a partial-result token, the next pull 2 s after an answer). Targets: 500 ms and 3 s. A second
// start on the same folder with the same cache folder shows the scan cache (results kept by
// content hash across editor restarts).
//
//   node bench/firstScan.mjs [--server dist/server/server.js] [--files 1000] [--runs 1] [--logs] [--dump FILE] [--eager-pulls] [--ipc]
//                            [--node-args "--cpu-prof --cpu-prof-dir=DIR"] [--no-scan-worker | --scan-worker]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { workspaceFiles, writeFiles } from './generate.mjs';
import { Client, PULL_CAPABILITIES } from './lsp.mjs';

export const FIRST_DIAGNOSTICS_TARGET_MS = 500;
export const LAST_WORKSPACE_DIAGNOSTIC_TARGET_MS = 3000;
/** How long VS Code's client waits after a workspace pull's answer before the next pull (vscode-languageclient 9). */
const VSCODE_PULL_INTERVAL_MS = 2000;

const CAPABILITIES = { ...PULL_CAPABILITIES, window: { workDoneProgress: true } };

/**
 * One start of the server on `folder`: resolves with the two times (ms after `initialize` was
 * sent), the number of files reported and the progress notifications seen.
 */
export async function firstScan(
  serverCommand,
  folder,
  openPath,
  { storage, diagnostics, initializationOptions, pulls = 'vscode' } = {},
) {
  const [command, args, env] = serverCommand;
  const client = new Client(command, args, { env, settings: { anfLint: {} } });
  const progress = [];
  // `$/progress` carries the scan's work-done progress and the parts of workspace pulls (by token).
  const parts = new Map();
  client.connection.onNotification('$/progress', (params) => {
    const part = parts.get(params.token);
    if (part) part(params.value);
    else progress.push(params.value?.kind);
  });
  // The server's log lines with their time after `initialize` was sent (the phases of the scan).
  const timedLogs = [];
  let started = performance.now();
  client.connection.onNotification('window/logMessage', (params) => {
    client.logs.push(params.message);
    timedLogs.push({ ms: Math.round(performance.now() - started), message: params.message });
  });
  let cleanExit = false;
  try {
    const rootUri = pathToFileURL(folder).href;
    started = performance.now();
    await client.initialize({
      rootUri,
      capabilities: CAPABILITIES,
      initializationOptions: { ...initializationOptions, ...(storage ? { storagePath: storage } : {}) },
    });
    const initializedMs = performance.now() - started;
    const uri = pathToFileURL(join(folder, openPath)).href;
    client.open(uri, readFileSync(join(folder, openPath), 'utf8'), 'fstab');
    const document = await client.request('textDocument/diagnostic', { textDocument: { uri } });
    const firstMs = performance.now() - started;
    // Workspace pulls until every indexed file has a report. `pulls: 'vscode'` acts as VS Code's
    // client (vscode-languageclient 9, lib/common/diagnostic.js): each pull carries a partial-result
    // token, parts on it are taken as they come, and the next pull goes 2 s after an answer.
    // `pulls: 'eager'` pulls again at once without a token (this benchmark's client before session 16).
    const seen = new Map();
    let indexed;
    const take = (items, what) => {
      timedLogs.push({
        ms: Math.round(performance.now() - started),
        message: `(client) workspace/diagnostic ${what}: ${items.length} reports, ${items.filter((i) => i.kind === 'full').length} full`,
      });
      for (const item of items) {
        seen.set(item.uri, item.resultId);
        if (diagnostics && item.kind === 'full') diagnostics.set(item.uri, item.items);
      }
    };
    const complete = () => {
      indexed ??= indexedCount(client.logs);
      return indexed !== undefined && seen.size >= indexed;
    };
    let lastMs;
    while (lastMs === undefined) {
      const previousResultIds = [...seen].map(([u, value]) => ({ uri: u, value }));
      let answered;
      if (pulls === 'vscode') {
        const token = randomUUID();
        let partsComplete;
        const completedByParts = new Promise((resolve) => (partsComplete = resolve));
        parts.set(token, (value) => {
          take(value.items, 'part');
          if (complete()) partsComplete();
        });
        answered = client
          .request('workspace/diagnostic', { previousResultIds, partialResultToken: token })
          .then((report) => take(report.items, 'answered'));
        await Promise.race([answered, completedByParts]);
        if (complete()) lastMs = performance.now() - started;
        await answered;
        parts.delete(token);
      } else {
        take((await client.request('workspace/diagnostic', { previousResultIds })).items, 'answered');
      }
      if (lastMs === undefined && complete()) lastMs = performance.now() - started;
      if (performance.now() - started > 300_000) throw new Error('the workspace diagnostics did not complete');
      if (lastMs === undefined && pulls === 'vscode')
        await new Promise((resolve) => setTimeout(resolve, VSCODE_PULL_INTERVAL_MS));
    }
    if (diagnostics) diagnostics.set(`open:${uri}`, document.items);
    const cpuMs = cpuMsOf(client.process.pid);
    // A clean exit lets `node --cpu-prof` write its profile (dispose kills the process).
    await client.request('shutdown', null);
    const exited = new Promise((resolve) => client.process.once('exit', resolve));
    client.notify('exit');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    cleanExit = true;
    return {
      initializedMs,
      firstMs,
      lastMs,
      cpuMs,
      files: seen.size,
      findingsInOpenFile: document.items?.length ?? 0,
      progress,
      logs: timedLogs,
    };
  } finally {
    if (!cleanExit) client.dispose();
    else client.connection.dispose();
  }
}

/** User and system CPU time of a process so far (Linux /proc; clock ticks of 10 ms), or NaN. */
function cpuMsOf(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

function indexedCount(logs) {
  for (const line of logs) {
    const match = /indexed (\d+) files/.exec(line);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/**
 * `runs` cold starts (each with an empty cache folder), each followed by a warm start on its
 * cache; each row is the start with the median time to the last workspace diagnostic, with every
 * start's time in `lastMsRuns` (the machine's swing between starts is larger than most changes).
 */
export async function firstScanRows(
  serverCommand,
  files = 1000,
  { dump, initializationOptions, runs = 1, pulls = 'vscode' } = {},
) {
  const folder = mkdtempSync(join(tmpdir(), 'anf-lint-first-scan-'));
  const storages = [];
  try {
    const written = writeFiles(folder, workspaceFiles(files));
    const open = 'hosts/node-0000/etc/fstab';
    const coldDiagnostics = dump ? new Map() : undefined;
    const warmDiagnostics = dump ? new Map() : undefined;
    const colds = [];
    const warms = [];
    for (let run = 0; run < runs; run++) {
      const storage = mkdtempSync(join(tmpdir(), 'anf-lint-scan-cache-'));
      storages.push(storage);
      // The first run's diagnostics are kept for `dump`; the warm start reads the cold one's cache.
      const start = (diagnostics) =>
        firstScan(serverCommand, folder, open, {
          storage,
          diagnostics: run === 0 ? diagnostics : undefined,
          initializationOptions,
          pulls,
        });
      colds.push(await start(coldDiagnostics));
      warms.push(await start(warmDiagnostics));
    }
    if (dump) {
      // Every reported file's diagnostics, by path relative to the folder (the folder is a new one each run).
      const root = pathToFileURL(folder).href;
      const relative = (map) =>
        Object.fromEntries(
          [...map].map(([uri, items]) => [uri.replace(root, ''), items]).sort(([a], [b]) => (a < b ? -1 : 1)),
        );
      const text = JSON.stringify({ cold: relative(coldDiagnostics), warm: relative(warmDiagnostics) }, null, 1);
      writeFileSync(dump, `${text.replaceAll(root, 'file:///FOLDER')}\n`);
    }
    return { written, cold: medianStart(colds), warm: medianStart(warms) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
    for (const storage of storages) rmSync(storage, { recursive: true, force: true });
  }
}

/** The start with the median time to the last workspace diagnostic, and every start's time. */
function medianStart(starts) {
  const sorted = [...starts].sort((a, b) => a.lastMs - b.lastMs);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], lastMsRuns: starts.map((start) => start.lastMs) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    return at >= 0 ? argv[at + 1] : fallback;
  };
  const server = option('--server', 'dist/server/server.js');
  const files = Number(option('--files', '1000'));
  // `--node-args "--cpu-prof --cpu-prof-dir=/tmp/prof"`: options for the server's node; `--logs`: the server's
  // log lines with their times (the phases); `--dump FILE`: every diagnostic reported, to compare two builds.
  const nodeArgs = option('--node-args', '').split(' ').filter(Boolean);
  const dump = option('--dump', undefined);
  // `--scan-worker`: the first scan's worker thread on (it is off by default; docs/server.md); `--no-scan-worker` says off explicitly.
  const initializationOptions = argv.includes('--no-scan-worker')
    ? { scanWorker: false }
    : argv.includes('--scan-worker')
      ? { scanWorker: true }
      : undefined;
  // `--runs N`: N cold and warm starts; the rows are the median ones.
  const runs = Number(option('--runs', '1'));
  // `--eager-pulls`: the client pulls again at once, without a partial-result token (not as VS Code does).
  const pulls = argv.includes('--eager-pulls') ? 'eager' : 'vscode';
  // `--ipc`: the server on Node's IPC channel (`--node-ipc`), as VS Code starts it; stdio otherwise.
  const transport = argv.includes('--ipc') ? '--node-ipc' : '--stdio';
  const { written, cold, warm } = await firstScanRows([process.execPath, [...nodeArgs, server, transport], {}], files, {
    dump,
    initializationOptions,
    runs,
    pulls,
  });
  const row = (name, r) =>
    `| ${name} | ${r.initializedMs.toFixed(0)} ms | ${r.firstMs.toFixed(0)} ms (target ${FIRST_DIAGNOSTICS_TARGET_MS}) | ${r.lastMs.toFixed(0)} ms (target ${LAST_WORKSPACE_DIAGNOSTIC_TARGET_MS})${runs > 1 ? ` (starts: ${r.lastMsRuns.map((t) => t.toFixed(0)).join(', ')})` : ''} | ${r.cpuMs} ms | ${r.files} | ${r.progress.filter((k) => k === 'report').length} |`;
  console.log(`Generated repository: ${written.files} files, ${(written.bytes / 1e6).toFixed(1)} MB`);
  console.log(
    '| Start | `initialize` answered | First diagnostics of an open file | Last workspace diagnostic | Server CPU | Files reported | Progress reports |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  console.log(row('cold (no cache)', cold));
  console.log(row('warm (scan cache)', warm));
  if (argv.includes('--logs'))
    for (const [name, r] of [
      ['cold', cold],
      ['warm', warm],
    ])
      for (const { ms, message } of r.logs) console.log(`${name} ${ms} ms: ${message}`);
}
