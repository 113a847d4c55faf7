// Rebuilds server/grammars/tree-sitter-terraform.wasm: the Terraform dialect of tree-sitter-hcl,
// from the generated C sources of the npm package @tree-sitter-grammars/tree-sitter-hcl (the
// version server/grammars/grammars.json names) with server/grammars/tree-sitter-hcl-scanner.patch
// applied. Needs Emscripten's `emcc` and `patch` on PATH (Debian: `apt-get install emscripten`);
// CI and `npm run build` do not: the built file is committed. See server/grammars/README.md.
//
//   node scripts/build-grammar.mjs           build, write the .wasm and record its checksums
//   node scripts/build-grammar.mjs --check   build into a temp folder; fail if it differs from the committed .wasm
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const GRAMMARS = join(ROOT, 'server', 'grammars');
const MANIFEST = join(GRAMMARS, 'grammars.json');
const check = process.argv.includes('--check');

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
const entry = manifest['tree-sitter-terraform.wasm'];
const packageDir = join(ROOT, 'node_modules', ...entry.package.split('/'));
const installed = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
if (installed !== entry.version) {
  throw new Error(
    `${entry.package} ${installed} is installed, the grammar was built from ${entry.version}: check that ` +
      `${entry.patch} still applies and is still needed (upstream may have fixed the scanner), then set ` +
      `"version" in server/grammars/grammars.json to ${installed} and run this script again.`,
  );
}

const work = mkdtempSync(join(tmpdir(), 'anf-lint-grammar-'));
try {
  // The package ships the HCL dialect's generated parser; the Terraform dialect is the same
  // grammar under another name (upstream generates dialects/terraform/src/ from the same
  // make_grammar.js, and its parser.c and scanner.c differ from src/ only in these names).
  mkdirSync(join(work, 'src', 'tree_sitter'), { recursive: true });
  for (const file of ['parser.c', 'scanner.c', 'tree_sitter/parser.h', 'tree_sitter/alloc.h', 'tree_sitter/array.h']) {
    copyFileSync(join(packageDir, 'src', file), join(work, 'src', file));
  }
  const sources = {
    'src/parser.c': sha256(readFileSync(join(work, 'src', 'parser.c'))),
    'src/scanner.c': sha256(readFileSync(join(work, 'src', 'scanner.c'))),
  };
  execFileSync('patch', ['-p1', '--forward', '--batch', '--no-backup-if-mismatch', '-d', work, '-i', join(GRAMMARS, entry.patch)], { stdio: 'inherit' });
  for (const file of ['parser.c', 'scanner.c']) {
    const path = join(work, 'src', file);
    const text = readFileSync(path, 'utf8');
    const renamed = text.replaceAll('tree_sitter_hcl', `tree_sitter_${entry.dialect}`).replace('.name = "hcl"', `.name = "${entry.dialect}"`);
    if (!renamed.includes(`tree_sitter_${entry.dialect}_external_scanner_scan`)) throw new Error(`${file}: the scanner's functions were not found to rename`);
    writeFileSync(path, renamed);
  }

  // The flags of tree-sitter's own emscripten build of a grammar: a side module that exports only
  // the language function, optimised for size, no C++ exceptions.
  const emccVersion = /emcc \(.*?\) (\d+\.\d+\.\d+)/.exec(execFileSync('emcc', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
  // Relative paths from the temp folder: assert() writes the source file's path into the .wasm,
  // and the same path in every build keeps the build reproducible.
  const output = join(work, 'tree-sitter-terraform.wasm');
  execFileSync(
    'emcc',
    ['-o', 'tree-sitter-terraform.wasm', '-Os', '-fno-exceptions', '-fvisibility=hidden', '-s', 'WASM=1', '-s', 'SIDE_MODULE=2',
      '-s', `EXPORTED_FUNCTIONS=["_tree_sitter_${entry.dialect}"]`, '-I', 'src', 'src/parser.c', 'src/scanner.c'],
    { stdio: 'inherit', cwd: work },
  );
  const wasm = readFileSync(output);
  const built = { ...entry, sources, patchSha256: sha256(readFileSync(join(GRAMMARS, entry.patch))), emcc: emccVersion, sha256: sha256(wasm) };

  if (check) {
    const committed = sha256(readFileSync(join(GRAMMARS, 'tree-sitter-terraform.wasm')));
    if (committed !== built.sha256) {
      console.error(`tree-sitter-terraform.wasm: the committed file (${committed}) differs from this build (${built.sha256}, emcc ${emccVersion}; recorded: emcc ${entry.emcc}).`);
      process.exitCode = 1;
    } else console.log(`tree-sitter-terraform.wasm: this build is byte-identical to the committed file (${committed}).`);
  } else {
    copyFileSync(output, join(GRAMMARS, 'tree-sitter-terraform.wasm'));
    manifest['tree-sitter-terraform.wasm'] = built;
    writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
    console.log(`server/grammars/tree-sitter-terraform.wasm: ${wasm.length} bytes, sha256 ${built.sha256} (emcc ${emccVersion})`);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
