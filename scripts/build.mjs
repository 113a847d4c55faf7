// One build for the three entry points. Everything is bundled so that the VS Code
// extension, the language server and the CLI run without node_modules.
import { build } from 'esbuild';
import { chmod, copyFile, mkdir } from 'node:fs/promises';
import { jsoncParserEsm, zodEnglishOnly } from './esbuildPlugins.mjs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [zodEnglishOnly, jsoncParserEsm],
  // web-tree-sitter's ESM build reads import.meta.url, which a CommonJS bundle does not have.
  alias: { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' },
};

await mkdir('dist', { recursive: true });
await Promise.all([
  build({ ...common, entryPoints: { 'client/extension': 'client/src/extension.ts' }, outdir: 'dist', external: ['vscode'] }),
  build({ ...common, entryPoints: { 'server/server': 'server/src/lsp/main.ts' }, outdir: 'dist' }),
  build({ ...common, entryPoints: { 'cli/anf-lint': 'server/src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } }),
]);
await chmod('dist/cli/anf-lint.js', 0o755);
// The Terraform and Bicep readers' WebAssembly (tree-sitter runtime and grammars), loaded at run time
// by server/src/iacWasm.ts from dist/wasm/.
await mkdir('dist/wasm', { recursive: true });
await Promise.all(
  [
    'node_modules/web-tree-sitter/web-tree-sitter.wasm',
    'node_modules/@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm',
    'node_modules/tree-sitter-bicep/tree-sitter-bicep.wasm',
  ].map((from) => copyFile(from, `dist/wasm/${from.slice(from.lastIndexOf('/') + 1)}`)),
);
