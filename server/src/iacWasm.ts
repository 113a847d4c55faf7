import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IacWasm } from './core/iac/treeSitter';

/**
 * Finds the tree-sitter .wasm files for the IaC readers: next to the bundle (dist/wasm/, copied by
 * scripts/build.mjs and packed into the .vsix) or, when running from source, in node_modules.
 */
const FILES = {
  runtime: ['web-tree-sitter.wasm', 'web-tree-sitter/web-tree-sitter.wasm'],
  terraform: ['tree-sitter-terraform.wasm', '@tree-sitter-grammars/tree-sitter-hcl/tree-sitter-terraform.wasm'],
  bicep: ['tree-sitter-bicep.wasm', 'tree-sitter-bicep/tree-sitter-bicep.wasm'],
} as const;

function find(bundled: string, packaged: string): Uint8Array {
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  const candidates = [join(here, '..', 'wasm', bundled), join(here, 'wasm', bundled)];
  for (let dir = here; ; dir = dirname(dir)) {
    candidates.push(join(dir, 'node_modules', packaged));
    if (dirname(dir) === dir) break;
  }
  candidates.push(join(process.cwd(), 'node_modules', packaged));
  for (const path of candidates) if (existsSync(path)) return readFileSync(path);
  throw new Error(`anf-lint: ${bundled} not found (looked in ${candidates.slice(0, 2).join(', ')} and node_modules)`);
}

export function loadIacWasm(): IacWasm {
  return {
    runtime: find(FILES.runtime[0], FILES.runtime[1]),
    terraform: find(FILES.terraform[0], FILES.terraform[1]),
    bicep: find(FILES.bicep[0], FILES.bicep[1]),
  };
}
