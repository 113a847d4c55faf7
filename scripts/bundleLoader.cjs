#!/usr/bin/env node
'use strict';
// A small loader, copied as dist/cli/anf-lint.js (the CLI) and dist/server/server.js (the language
// server). The bundle next to it, named after it (anf-lint-bundle.js, server-bundle.js), is
// compiled here with the V8 code cache the build made by running it once (`<bundle>.cache`,
// scripts/cliBundle.mjs and scripts/serverBundle.mjs): parsing and compiling 2 MB of JavaScript
// was most of a small run's start-up, and of the server's time to its first diagnostics. V8
// rejects a cache made by another Node version (VS Code's own, for one) or with other flags; the
// bundle is then compiled as usual.
const { readFileSync, writeFileSync } = require('node:fs');
const { basename, join } = require('node:path');
const Module = require('node:module');
const vm = require('node:vm');

const file = join(__dirname, `${basename(__filename, '.js')}-bundle.js`);
let source;
try {
  source = readFileSync(file, 'utf8');
} catch {
  process.stderr.write(`anf-lint: ${file} is missing: anf-lint is not built completely. Run \`npm run build\`.\n`);
  process.exit(3);
}
let cachedData;
try {
  cachedData = readFileSync(`${file}.cache`);
} catch {
  cachedData = undefined;
}
// The bundle never calls import(): scripts/build.mjs aliases web-tree-sitter to its CommonJS build.
const script = new vm.Script(Module.wrap(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
// The build writes the cache after a representative run, so that it holds the functions a run compiles.
const cacheOut = process.env.ANF_LINT_BUILD_CODE_CACHE;
if (cacheOut) process.once('exit', () => writeFileSync(cacheOut, script.createCachedData()));
const bundle = new Module(file, module);
bundle.filename = file;
bundle.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext()(bundle.exports, Module.createRequire(file), bundle, file, __dirname);
