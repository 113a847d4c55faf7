/**
 * In-process cost of the core (parse + every rule) per file, for the growth table: bundled by
 * bench/run.mjs with esbuild and run in its own process. Prints JSON: for each input, the median
 * time of `runs` passes over a fresh Workspace, after one warm-up pass.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { lintFile, resolveConfig, Workspace } from '../server/src/core';

interface Input {
  readonly label: string;
  readonly paths: readonly string[];
}

// The inputs come in a JSON file (thousands of paths do not fit in argv).
const [, , inputsFile, runsArg] = process.argv;
const inputs = JSON.parse(readFileSync(inputsFile!, 'utf8')) as Input[];
const runs = Number(runsArg ?? 3);
const config = resolveConfig();

const results = inputs.map(({ label, paths }) => {
  const files = paths.map((path) => ({ uri: pathToFileURL(path).href, text: readFileSync(path, 'utf8') }));
  const lines = files.reduce((n, f) => n + f.text.split('\n').length - 1, 0);
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  const pass = () => {
    const started = performance.now();
    const workspace = new Workspace(config);
    for (const file of files) workspace.set(file.uri, file.text);
    let findings = 0;
    for (const file of files) findings += lintFile(workspace, file.uri, config).length;
    return { ms: performance.now() - started, findings };
  };
  pass();
  const samples = Array.from({ length: runs }, pass);
  const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
  const ms = sorted[Math.floor(sorted.length / 2)]!;
  return { label, files: files.length, lines, bytes, ms, usPerLine: (ms * 1000) / lines, findings: samples[0]!.findings };
});
process.stdout.write(`${JSON.stringify(results)}\n`);
