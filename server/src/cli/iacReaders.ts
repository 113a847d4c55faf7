import { initIacParsers, shareTrees } from '../core/iac/treeSitter';
import { loadIacWasm } from '../iacWasm';
import type { CliIo } from './io';

/** The file names the tree-sitter readers parse (Terraform, its variables, Bicep); the kind follows the name (core/fileKind.ts). */
const TREE_SITTER_NAME = /\.(?:tf|tfvars|bicep)$/i;

let loading: Promise<void> | undefined;

/**
 * Loads the Terraform and Bicep readers (WebAssembly, asynchronous) once per process. The lint
 * command calls it only when a file it reads is Terraform or Bicep: compiling the WebAssembly is
 * start-up time a run over fstab or sysctl files does not need (issue 17).
 */
export function loadIacReaders(io: Pick<CliIo, 'stderr'>): Promise<void> {
  // One run, then exit: a file's tree is parsed once and shared by the readings that need it.
  shareTrees(true);
  loading ??= initIacParsers(loadIacWasm).catch((error: unknown) => {
    io.stderr.write(
      `anf-lint: Terraform/Bicep reader not loaded: ${error instanceof Error ? error.message : String(error)}\n`,
    );
  });
  return loading;
}

/** Whether any of these files needs the tree-sitter readers. */
export function needIacReaders(paths: Iterable<string>): boolean {
  for (const path of paths) if (TREE_SITTER_NAME.test(path)) return true;
  return false;
}
