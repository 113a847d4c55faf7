// One build for the three entry points. Everything is bundled so that the VS Code
// extension, the language server and the CLI run without node_modules.
import { build } from 'esbuild';
import { mkdir } from 'node:fs/promises';
import { buildCli } from './cliBundle.mjs';
import { buildServer } from './serverBundle.mjs';
import { copyIacWasm, webTreeSitterCjs, webTreeSitterLazy } from './iacWasm.mjs';
import { jsoncParserEsm, yamlWithoutEnvReads, zodEnglishOnly } from './esbuildPlugins.mjs';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  minify: process.argv.includes('--minify'),
  // Without comments and indentation the CLI's bundle is 1.6 MB instead of 2.1 MB: every start reads
  // and decodes less (a run's start-up 200 to 178 ms against `node -e 0`'s 105; issue 29). Names stay,
  // so a stack trace still names its functions; the linked source map gives the lines.
  minifyWhitespace: true,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [zodEnglishOnly, jsoncParserEsm, yamlWithoutEnvReads],
  alias: webTreeSitterCjs,
};
// The server and the CLI require web-tree-sitter's JavaScript from a file next to them (the CLI on its first .tf or .bicep).
const lazyTreeSitter = { ...common, plugins: [...common.plugins, webTreeSitterLazy] };

await mkdir('dist', { recursive: true });
// The Terraform and Bicep readers' WebAssembly, loaded at run time from dist/wasm/ (before the code-cache runs).
await copyIacWasm();
await Promise.all([
  build({
    ...common,
    entryPoints: { 'client/extension': 'client/src/extension.ts' },
    outdir: 'dist',
    external: ['vscode'],
  }),
  // dist/server/server.js (a small loader), server-bundle.js, its V8 code cache and web-tree-sitter.js.
  buildServer('dist/server', lazyTreeSitter),
  // dist/cli/anf-lint.js (a small loader), anf-lint-bundle.js, its V8 code cache and web-tree-sitter.js.
  buildCli('dist/cli', lazyTreeSitter),
]);
