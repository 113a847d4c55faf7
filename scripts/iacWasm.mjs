// The Terraform and Bicep readers (server/src/core/iac) run tree-sitter grammars compiled to
// WebAssembly. Shared by scripts/build.mjs and test/cli/globalSetup.ts.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** esbuild options: web-tree-sitter's ESM build reads import.meta.url, which a CommonJS bundle lacks. */
export const webTreeSitterCjs = { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' };

/** The file next to a bundle that holds the tree-sitter runtime's JavaScript (`webTreeSitterLazy`). */
export const WEB_TREE_SITTER_FILE = 'web-tree-sitter.js';

/**
 * esbuild plugin: web-tree-sitter's JavaScript (about 80 KiB minified, 170 KiB not) stays out of
 * the bundle, in a file next to it (`buildWebTreeSitter`), required on first use: by the CLI when
 * it first reads a Terraform or Bicep file (a run that reads none never reads, parses or compiles
 * it), by the language server at start (server/src/lsp/main.ts initializes the parsers before it
 * listens). Only server/src/core/iac/treeSitter.ts imports it, for three classes (`Parser`,
 * `Language`, `Edit`); the bundle gets stand-ins that load the file and forward to them.
 */
export const webTreeSitterLazy = {
  name: 'web-tree-sitter-lazy',
  setup(build) {
    build.onResolve({ filter: /^web-tree-sitter$|[/\\]web-tree-sitter\.cjs$/ }, (args) =>
      args.namespace === 'web-tree-sitter-lazy'
        ? undefined
        : { path: 'web-tree-sitter', namespace: 'web-tree-sitter-lazy' },
    );
    build.onResolve({ filter: /^\.\/web-tree-sitter\.js$/, namespace: 'web-tree-sitter-lazy' }, (args) => ({
      path: args.path,
      external: true,
    }));
    build.onLoad({ filter: /.*/, namespace: 'web-tree-sitter-lazy' }, () => ({
      loader: 'js',
      contents: `
let runtime;
const load = () => (runtime ??= require('./${WEB_TREE_SITTER_FILE}'));
const lazyClass = (name) =>
  new Proxy(function () {}, {
    get(_, key) {
      const real = load()[name];
      const value = real[key];
      return typeof value === 'function' ? value.bind(real) : value;
    },
    construct: (_, args) => new (load()[name])(...args),
  });
export const Parser = lazyClass('Parser');
export const Language = lazyClass('Language');
export const Edit = lazyClass('Edit');
`,
    }));
  },
};

/** Writes web-tree-sitter's runtime as `WEB_TREE_SITTER_FILE` into `outdir`, minified when `options.minify`. */
export function buildWebTreeSitter(outdir, options = {}) {
  return build({
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
    legalComments: 'none',
    minify: Boolean(options.minify),
    sourcemap: options.sourcemap,
    entryPoints: [join(ROOT, webTreeSitterCjs['web-tree-sitter'])],
    outfile: join(outdir, WEB_TREE_SITTER_FILE),
  });
}

const WASM = [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  // Built from tree-sitter-hcl and tree-sitter-bicep with fixes and committed (server/grammars/README.md).
  'server/grammars/tree-sitter-terraform.wasm',
  'server/grammars/tree-sitter-bicep.wasm',
];

/**
 * Copies the runtime and grammar .wasm files of the repository at `root` to `to` (dist/wasm/ by
 * default), where server/src/iacWasm.ts finds them: a bundle looks in `wasm/` next to it and one
 * folder up.
 */
export async function copyIacWasm(root = '.', to = join(root, 'dist', 'wasm')) {
  await mkdir(to, { recursive: true });
  await Promise.all(WASM.map((from) => copyFile(join(root, from), join(to, from.slice(from.lastIndexOf('/') + 1)))));
}

/**
 * Makes sure a bundle in `outdir` finds the WebAssembly (in `wasm/` next to it or one folder up):
 * dist/cli/ and dist/server/ find dist/wasm/ (copied first by scripts/build.mjs); a temporary build
 * (bench, lineServer) gets its own copy. The build's code-cache runs read Terraform and Bicep.
 */
export async function placeIacWasmFor(outdir) {
  if (['..', '.'].some((up) => existsSync(join(outdir, up, 'wasm', 'web-tree-sitter.wasm')))) return;
  await copyIacWasm(ROOT, join(outdir, 'wasm'));
}
