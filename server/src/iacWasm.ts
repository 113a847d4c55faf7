import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { IacWasm } from './core/iac/treeSitter';

/**
 * Finds the tree-sitter .wasm files for the IaC readers: next to the bundle (dist/wasm/, copied by
 * scripts/build.mjs and packed into the .vsix) or, when running from source, in the repository:
 * the runtime in node_modules, the Terraform and Bicep grammars in server/grammars/ (built here
 * from tree-sitter-hcl and tree-sitter-bicep with fixes; server/grammars/README.md).
 */
const FILES = {
  runtime: ['web-tree-sitter.wasm', 'node_modules/web-tree-sitter/web-tree-sitter.wasm'],
  terraform: ['tree-sitter-terraform.wasm', 'server/grammars/tree-sitter-terraform.wasm'],
  bicep: ['tree-sitter-bicep.wasm', 'server/grammars/tree-sitter-bicep.wasm'],
} as const;

function find(bundled: string, inRepository: string): Uint8Array {
  const here = typeof __dirname === 'string' ? __dirname : process.cwd();
  const candidates = [join(here, '..', 'wasm', bundled), join(here, 'wasm', bundled)];
  for (let dir = here; ; dir = dirname(dir)) {
    candidates.push(join(dir, inRepository));
    if (dirname(dir) === dir) break;
  }
  candidates.push(join(process.cwd(), inRepository));
  for (const path of candidates) if (existsSync(path)) return readFileSync(path);
  throw new Error(
    `anf-lint: ${bundled} not found (looked in ${candidates.slice(0, 2).join(', ')} and ${inRepository} above them)`,
  );
}

export function loadIacWasm(): IacWasm {
  return {
    runtime: find(FILES.runtime[0], FILES.runtime[1]),
    terraform: find(FILES.terraform[0], FILES.terraform[1]),
    bicep: find(FILES.bicep[0], FILES.bicep[1]),
  };
}
