/**
 * In-process cost of one edit of the generated 5,000-line Terraform file (bench/generate.mjs):
 * the same edits as the editing benchmark (a character typed at a random place, then deleted),
 * each followed by `Workspace.set` (parse) and `lintFile` (every rule), as the language server
 * does on a change. For profiling (`node --cpu-prof`) and before/after comparisons without a
 * server process. Bundle and run:
 *
 *   npx esbuild bench/tfEdit.ts --bundle --platform=node --format=esm --main-fields=module,main \
 *     --banner:js="import { createRequire } from 'module'; const require = createRequire(import.meta.url);" \
 *     --outfile=/tmp/tfEdit.mjs && node /tmp/tfEdit.mjs [edits]
 *
 * (ES modules with a `require`: jsonc-parser's CommonJS build does not bundle, and web-tree-sitter's
 * ES build reads import.meta.url. bench/edits.ts and bench/shellEdit.ts bundle the same way.)
 *
 * --terraform-wasm PATH loads another build of the Terraform grammar (for a before/after of a
 * grammar change in the same conditions, e.g. the npm package's own tree-sitter-terraform.wasm).
 * Besides wall time it reports CPU time per edit (`process.cpuUsage`, less disturbed by other
 * processes on a shared machine), for every edit and for the edits that break the syntax.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lintFile, resolveConfig, Workspace } from '../server/src/core';
import { initIacParsers } from '../server/src/core/iac/treeSitter';
import { loadIacWasm } from '../server/src/iacWasm';
import { lastBlockReuse } from '../server/src/core/iac/reuse';
import { terraform, typingEdits } from './generate.mjs';

const count = Number(process.argv.slice(2).find((arg, i, all) => /^\d+$/.test(arg) && all[i - 1] !== '--seed') ?? 100);
// --check: after every edit, compare the estate and the findings with a whole parse of the same text.
const check = process.argv.includes('--check');
const wasmFlag = process.argv.indexOf('--terraform-wasm');
const terraformWasm = wasmFlag > 0 ? process.argv[wasmFlag + 1] : undefined;
// --seed N: the edits of another seed (bench/run.mjs's .tf row uses 34).
const seedFlag = process.argv.indexOf('--seed');
const seed = seedFlag > 0 ? Number(process.argv[seedFlag + 1]) : 41; // not a fact: the default seed of this script

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

async function main(): Promise<void> {
  await initIacParsers(() => ({ ...loadIacWasm(), ...(terraformWasm ? { terraform: readFileSync(terraformWasm) } : {}) }));
  const text: string = terraform();
  const uri = pathToFileURL('/tmp/anf-bench-tf/main.tf').href;
  const config = resolveConfig();
  const workspace = new Workspace(config);
  let started = performance.now();
  workspace.set(uri, text, 1);
  const first = lintFile(workspace, uri, config);
  console.log(`open: ${(performance.now() - started).toFixed(1)} ms, ${first.length} findings, ${text.split('\n').length} lines`);

  const parse: number[] = [];
  const lint: number[] = [];
  const total: number[] = [];
  const cpu: number[] = [];
  const cpuBreaking: number[] = [];
  let version = 1;
  for (const { lines, index, character, inserted, undo } of typingEdits(text, count / 2, seed)) {
    const t = lines.join('\n');
    started = performance.now();
    const cpuStarted = process.cpuUsage();
    workspace.set(uri, t, ++version);
    const parsed = performance.now();
    lintFile(workspace, uri, config);
    const done = performance.now();
    if (process.argv.includes('--verbose')) console.log(`edit ${version}: line ${index + 1}:${character} ${JSON.stringify(undo ? 'undo' : inserted)}, parse ${(parsed - started).toFixed(1)} ms, lint ${(done - parsed).toFixed(1)} ms, ${JSON.stringify(lastBlockReuse())}, ${workspace.file(uri)?.problems.length ?? 0} syntax problems`);
    const used = process.cpuUsage(cpuStarted);
    const cpuMs = (used.user + used.system) / 1000; // not a fact: microseconds to milliseconds
    cpu.push(cpuMs);
    if ((workspace.file(uri)?.problems.length ?? 0) > 0) cpuBreaking.push(cpuMs);
    if (check) {
      const fresh = new Workspace(config);
      const freshUri = pathToFileURL(`/tmp/anf-bench-tf/check-${version}/main.tf`).href;
      fresh.set(freshUri, t, version);
      const strip = (v: unknown) => JSON.stringify(v).replaceAll(freshUri, uri);
      const a = JSON.stringify({ iac: workspace.file(uri)?.iac, problems: workspace.file(uri)?.problems, lint: lintFile(workspace, uri, config) });
      const b = strip({ iac: fresh.file(freshUri)?.iac, problems: fresh.file(freshUri)?.problems, lint: lintFile(fresh, freshUri, config) });
      if (a !== b) {
        console.log(`MISMATCH after edit ${version} (line ${index + 1}, character ${character})`);
        process.exitCode = 1;
      }
    }
    parse.push(parsed - started);
    lint.push(done - parsed);
    total.push(done - started);
  }
  const row = (name: string, v: number[]) => v.length === 0 ? `${name}: none` : `${name}: p50 ${percentile(v, 50).toFixed(1)} p95 ${percentile(v, 95).toFixed(1)} p99 ${percentile(v, 99).toFixed(1)} ms`;
  console.log(`${total.length} edits${check ? ', each compared with a whole parse' : ''}`);
  console.log(row('parse (Workspace.set)', parse));
  console.log(row('lint (lintFile)', lint));
  console.log(row('total', total));
  console.log(row('CPU per edit', cpu));
  console.log(row(`CPU per edit that breaks the syntax (${cpuBreaking.length})`, cpuBreaking));
  const last = lintFile(workspace, uri, config);
  console.log(`findings after the edits: ${last.length} (as opened: ${first.length})`);
  (globalThis as { gc?: () => void }).gc?.(); // with --expose-gc: the heap that stays
  console.log(`heap ${(process.memoryUsage().heapUsed / 1048576).toFixed(0)} MiB, rss ${(process.memoryUsage().rss / 1048576).toFixed(0)} MiB`);
}

void main();
