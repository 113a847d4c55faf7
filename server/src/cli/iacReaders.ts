import { setFlagsFromString } from 'node:v8';
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
export function loadIacReaders(io: Pick<CliIo, 'stderr'>, parsesLittle = false): Promise<void> {
  // One run, then exit: a file's tree is parsed once and shared by the readings that need it.
  shareTrees(true);
  if (parsesLittle && !loading) keepBaselineWasm();
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

/**
 * Less Terraform and Bicep text than this is parsed without optimising the parser: see
 * `keepBaselineWasm`. Our own judgement between two measurements (bench/notes.md, session 13): one
 * small `.tf` ran in 275 ms instead of 423 ms without the optimised parser, the 400-file Bicep
 * repository (0.94 MiB) in 1,427 ms instead of 1,300 ms.
 */
export const LITTLE_IAC_BYTES = 256 * 1024; // not a fact: our judgement, see above

/**
 * V8 runs WebAssembly first as baseline code and compiles the functions that run long with its
 * optimising compiler on a background thread; a process that exits while that compile runs waits
 * for it. A run that parses a few small files (a commit hook) then spent 100-150 ms, about a third
 * of the run, waiting at exit for code it would never use. With a tiering budget no small run
 * reaches, the parser stays baseline code. Set before the runtime is compiled (the budget is read
 * then), and after the bundle's code cache was read (V8 checks the flags when it reads a cache); not
 * in the build's code-cache run, whose cache must match the flags of every later start.
 */
function keepBaselineWasm(): void {
  if (process.env.ANF_LINT_BUILD_CODE_CACHE) return;
  setFlagsFromString(`--wasm-tiering-budget=${NEVER_TIER_UP}`);
}
const NEVER_TIER_UP = 2_000_000_000; // not a fact: past any small run's work (V8's default is 1,800,000)

/** Whether the files at these paths hold less Terraform and Bicep text than LITTLE_IAC_BYTES (sizes from `size`). */
export function parsesLittle(paths: Iterable<string>, size: (path: string) => number | undefined): boolean {
  let bytes = 0;
  for (const path of paths) {
    if (!TREE_SITTER_NAME.test(path)) continue;
    bytes += size(path) ?? 0;
    if (bytes >= LITTLE_IAC_BYTES) return false;
  }
  return true;
}
