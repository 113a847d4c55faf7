/**
 * In-process edit latency of a line-based file (issue 17): the server's per-change work without the
 * transport: Workspace.set, lintFile, LSP conversion and JSON of the result. Edits as bench/run.mjs
 * types them (a character typed at a random place, then deleted). Also checks, every `check` edits,
 * that the findings equal a whole read and lint of the same text in a fresh workspace.
 * Usage: node <bundle> <file> <kind> <edits> [seed] [check]; <file> may be `sysctl:<lines>` for a
 * generated sysctl.d file of that many lines (bench/generate.mjs, sysctlSet), e.g. `sysctl:200 sysctl 400`
 * and `sysctl:10000 sysctl 100`.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { LintMemo, lintFile, resolveConfig, Workspace, type FileKind } from '../server/src/core';
import { toLspDiagnostic } from '../server/src/lsp/convert';
import { sysctlSet, typingEdits } from './generate.mjs';

const [, , path, kindArg, countArg, seedArg, checkArg] = process.argv;
const generated = /^sysctl:(\d+)$/.exec(path!);
const text0 = generated ? Object.values(sysctlSet(Number(generated[1]), Number(generated[1]), 3))[0]! : readFileSync(path!, 'utf8');
const kind = kindArg as FileKind;
const count = Number(countArg ?? 200);
const check = Number(checkArg ?? 0);
const uri = generated ? 'file:///bench/etc/sysctl.d/90-bench.conf' : pathToFileURL(path!).href;
const config = resolveConfig();

function* editsOf(text: string, n: number, seed: number): Generator<string> {
  for (const { lines } of typingEdits(text, n, seed)) yield lines.join('\n');
}

const workspace = new Workspace(config);
// As the language server keeps one per open document. BEFORE=1 measures without it.
const memo = process.env.BEFORE ? undefined : new LintMemo();
const lint = () => lintFile(workspace, uri, config, memo ? { memo } : {});
workspace.set(uri, text0, 0, kind);
lint();
const times: number[] = [];
// CPU time too: on a shared, loaded machine wall time mostly measures the other processes.
const cpu: number[] = [];
let version = 0;
let mismatches = 0;
for (const text of editsOf(text0, count / 2, Number(seedArg ?? 21))) {
  version++;
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  workspace.set(uri, text, version, kind);
  const diagnostics = lint();
  const json = JSON.stringify(diagnostics.filter((d) => !d.suppressed).map(toLspDiagnostic));
  times.push(performance.now() - started);
  const used = process.cpuUsage(cpuStarted);
  cpu.push((used.user + used.system) / 1000);
  if (check > 0 && version % check === 0) {
    const fresh = new Workspace(config);
    fresh.set(uri, text, version, kind);
    const whole = JSON.stringify(lintFile(fresh, uri, config));
    if (whole !== JSON.stringify(diagnostics)) mismatches++;
  }
  if (json.length < 0) throw new Error('unreachable');
}
const sorted = [...times].sort((a, b) => a - b);
const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
const cpuSorted = [...cpu].sort((a, b) => a - b);
const cpuAt = (q: number) => cpuSorted[Math.min(cpuSorted.length - 1, Math.floor(q * cpuSorted.length))]!.toFixed(2);
if (memo) console.error(`memo: ${memo.reused} lints reused, ${memo.rejudged} items (mounts, settings) judged again`);
console.log(JSON.stringify({ file: path, lines: text0.split('\n').length - 1, edits: times.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted[sorted.length - 1]!.toFixed(2), cpuP50: cpuAt(0.5), cpuP99: cpuAt(0.99), mismatches }));
