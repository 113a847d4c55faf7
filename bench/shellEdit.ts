/**
 * In-process edit latency of a shell script (issue 17, the shell row): Workspace.set, lintFile with
 * the document's LintMemo, LSP conversion and JSON of the result, as the language server does per
 * change; edits as bench/run.mjs types them (a character typed at a random place, then deleted). The
 * parse and the lint are timed apart. Every `check` edits the findings are compared with a whole
 * read and lint of the same text in a fresh workspace.
 * Usage: node <bundle> <file|script:<lines>> <edits> [seed] [check]
 *   script:<lines>: bench/generate.mjs's provisioningScript of that many lines.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { LintMemo, lintFile, resolveConfig, Workspace } from '../server/src/core';
import { toLspDiagnostic } from '../server/src/lsp/convert';
import { provisioningScript, typingEdits } from './generate.mjs';

const [, , path, countArg, seedArg, checkArg] = process.argv;
const generated = /^script:(\d+)$/.exec(path!);
const text0 = generated ? provisioningScript(Number(generated[1])) : readFileSync(path!, 'utf8');
const count = Number(countArg ?? 200);
const check = Number(checkArg ?? 0);
const uri = generated ? 'file:///bench/scripts/provision.sh' : pathToFileURL(path!).href;
const config = resolveConfig();

function* editsOf(text: string, n: number, seed: number): Generator<string> {
  for (const { lines } of typingEdits(text, n, seed)) yield lines.join('\n');
}

const workspace = new Workspace(config);
const memo = new LintMemo();
workspace.set(uri, text0, 1, 'shell');
lintFile(workspace, uri, config, { memo });
const total: number[] = [];
const parse: number[] = [];
// CPU time too: on a shared, loaded machine wall time mostly measures the other processes.
const cpu: number[] = [];
let version = 1;
let mismatches = 0;
let lineReads = 0;
let rejudgedBefore = 0;
const slowest: { ms: number; parse: number; region: number; rejudged: number }[] = [];
for (const text of editsOf(text0, count / 2, Number(seedArg ?? 21))) {
  version++;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const file = workspace.set(uri, text, version, 'shell');
  const parsed = performance.now();
  const diagnostics = lintFile(workspace, uri, config, { memo });
  const json = JSON.stringify(diagnostics.filter((d) => !d.suppressed).map(toLspDiagnostic));
  total.push(performance.now() - started);
  parse.push(parsed - started);
  const used = process.cpuUsage(cpuStarted);
  cpu.push((used.user + used.system) / 1000);
  const region = file.lineEdit ? file.lineEdit.changed.end - file.lineEdit.changed.start : -1;
  slowest.push({ ms: total[total.length - 1]!, parse: parsed - started, region, rejudged: memo.rejudged - rejudgedBefore });
  rejudgedBefore = memo.rejudged;
  if (file.lineEdit) lineReads++;
  if (check > 0 && version % check === 0) {
    const fresh = new Workspace(config);
    fresh.set(uri, text, version, 'shell');
    if (JSON.stringify(lintFile(fresh, uri, config)) !== JSON.stringify(diagnostics)) mismatches++;
  }
  if (json.length < 0) throw new Error('unreachable');
}
const q = (list: number[], at: number) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(at * sorted.length))]!.toFixed(2);
};
const file = workspace.file(uri)!;
if (process.env.SLOWEST) console.error(slowest.sort((a, b) => b.ms - a.ms).slice(0, Number(process.env.SLOWEST)).map((e) => `${e.ms.toFixed(1)} ms (read ${e.parse.toFixed(1)} ms, region ${e.region} characters, ${e.rejudged} items judged again)`).join('\n'));
const cpuMean = (cpu.reduce((a, b) => a + b, 0) / cpu.length).toFixed(2);
console.log(JSON.stringify({ file: path, lines: text0.split('\n').length - 1, mounts: file.mounts.length, settings: file.settings.length, edits: total.length, lineReads, memoReused: memo.reused, contextRejudged: memo.contextRejudged, p50: q(total, 0.5), p95: q(total, 0.95), p99: q(total, 0.99), max: q(total, 1), cpuMean, cpuP50: q(cpu, 0.5), cpuP95: q(cpu, 0.95), cpuP99: q(cpu, 0.99), parseP50: q(parse, 0.5), parseP99: q(parse, 0.99), mismatches }));
