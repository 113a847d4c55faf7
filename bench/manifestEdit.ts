/**
 * In-process cost of editing a generated manifest (bench/generate.mjs `manifest`): the editing
 * benchmark's edits (a character typed at a random place, then deleted), each followed by
 * `Workspace.set` (parse), `lintFile` (every rule, with the server's memo) and the LSP conversion
 * and JSON of the result, as the language server does on a change, without the transport. Prints
 * the slowest edits with the time of each step and the typed line, then p50/p99 and memory.
 * For profiling (`node --cpu-prof`) and before/after comparisons. Bundle as bench/tfEdit.ts says,
 * with `--alias:yaml=./node_modules/yaml/browser/index.js` to parse with the build the bundles
 * use (scripts/esbuildPlugins.mjs, yamlWithoutEnvReads), and run:
 *
 *   node --expose-gc /tmp/manifestEdit.mjs [volumes=200] [edits=100] [seed=33] [passes=1]
 *
 * bench/run.mjs's rows: 200 volumes with seed 33 (2,046 lines), 2,000 with seed 31 (19,287 lines).
 * With passes > 1 the same edits run again and only the last pass is reported (warm code).
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { LintMemo, lintFile, resolveConfig, Workspace } from '../server/src/core';
import { toLspDiagnostic } from '../server/src/lsp/convert';
import { manifest, typingEdits } from './generate.mjs';

const [volumes, count, seed, passes] = [200, 100, 33, 1].map((fallback, i) => Number(process.argv[2 + i] ?? fallback));
const text0 = manifest(volumes!);
const uri = 'file:///bench/manifest/estate.anf.yaml';
const config = resolveConfig();
const workspace = new Workspace(config);
const memo = new LintMemo();
workspace.set(uri, text0, 0, 'manifest-yaml');
lintFile(workspace, uri, config, { memo });

interface Row {
  readonly set: number;
  readonly lint: number;
  readonly json: number;
  readonly total: number;
  readonly findings: number;
  readonly bytes: number;
  readonly at: string;
}

let rows: Row[] = [];
let version = 0;
for (let pass = 0; pass < passes!; pass++) {
  rows = [];
  for (const { lines, index, character, inserted, undo } of typingEdits(text0, count! / 2, seed!)) {
    const text = lines.join('\n');
    const started = performance.now();
    workspace.set(uri, text, ++version, 'manifest-yaml');
    const parsed = performance.now();
    const diagnostics = lintFile(workspace, uri, config, { memo });
    const linted = performance.now();
    const json = JSON.stringify(diagnostics.filter((d) => !d.suppressed).map(toLspDiagnostic));
    const done = performance.now();
    const at = `line ${index + 1}, column ${character + 1}: ${undo ? 'deleted' : 'typed'} ${JSON.stringify(inserted)} in ${JSON.stringify(lines[index]!.slice(0, 40))}`;
    rows.push({ set: parsed - started, lint: linted - parsed, json: done - linted, total: done - started, findings: diagnostics.length, bytes: json.length, at });
  }
}
const ms = (value: number) => value.toFixed(1);
for (const row of [...rows].sort((a, b) => b.total - a.total).slice(0, 10)) {
  console.log(`${ms(row.total)} ms (set ${ms(row.set)}, lint ${ms(row.lint)}, json ${ms(row.json)}), ${row.findings} findings, ${row.bytes} bytes; ${row.at}`);
}
const totals = rows.map((row) => row.total).sort((a, b) => a - b);
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(0);
const memory = process.memoryUsage();
const median = (step: 'set' | 'lint' | 'json') => ms(rows.map((row) => row[step]).sort((a, b) => a - b)[Math.floor(rows.length / 2)]!);
console.log(`steps' medians: set ${median('set')}, lint ${median('lint')}, json ${median('json')} ms`);
console.log(`p50 ${ms(totals[Math.floor(totals.length / 2)]!)} ms, p99 ${ms(totals[Math.ceil(totals.length * 0.99) - 1]!)} ms; rss ${mib(memory.rss)} MiB, heap ${mib(memory.heapUsed)} of ${mib(memory.heapTotal)} MiB`);
(globalThis as { gc?: () => void }).gc?.();
const spaces = getHeapSpaceStatistics().filter((space) => space.space_size > 0);
console.log(`after a full GC: rss ${mib(process.memoryUsage().rss)} MiB; ${spaces.map((s) => `${s.space_name} ${mib(s.space_used_size)}/${mib(s.space_size)}`).join(', ')} MiB`);
