// The Terraform and Bicep readers (server/src/core/iac) run tree-sitter grammars compiled to
// WebAssembly. Shared by scripts/build.mjs and test/cli/globalSetup.ts.
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** esbuild options: web-tree-sitter's ESM build reads import.meta.url, which a CommonJS bundle lacks. */
export const webTreeSitterCjs = { 'web-tree-sitter': './node_modules/web-tree-sitter/web-tree-sitter.cjs' };

const WASM = [
  'node_modules/web-tree-sitter/web-tree-sitter.wasm',
  // Built from tree-sitter-hcl with a scanner fix and committed (server/grammars/README.md).
  'server/grammars/tree-sitter-terraform.wasm',
  'node_modules/tree-sitter-bicep/tree-sitter-bicep.wasm',
];

/** Copies the runtime and grammar .wasm files to dist/wasm/, where server/src/iacWasm.ts loads them. */
export async function copyIacWasm(root = '.') {
  await mkdir(join(root, 'dist', 'wasm'), { recursive: true });
  await Promise.all(WASM.map((from) => copyFile(join(root, from), join(root, 'dist', 'wasm', from.slice(from.lastIndexOf('/') + 1)))));
}
