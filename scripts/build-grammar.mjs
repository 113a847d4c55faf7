// Rebuilds the grammars in server/grammars/ (server/grammars/README.md), each from the sources of
// the npm package server/grammars/grammars.json names, at the version it names, with the patch it
// names applied:
//
// - tree-sitter-terraform.wasm: the Terraform dialect of @tree-sitter-grammars/tree-sitter-hcl,
//   from the package's grammar.js, make_grammar.js and src/scanner.c, patched (number literals, the
//   scanner during error recovery).
// - tree-sitter-bicep.wasm: tree-sitter-bicep, from the package's grammar.js and src/scanner.c,
//   patched. That CLI version (0.22.6) generates the package's own src/parser.c byte for byte from
//   its unpatched grammar.js.
//
// Both patches change the grammar, so src/parser.c is generated again with the tree-sitter CLI of
// the version grammars.json names ("generator").
//
// Needs Emscripten's `emcc` and `patch` on PATH (Debian: `apt-get install emscripten`), and for a
// grammar that is generated the tree-sitter CLI (`tree-sitter` on PATH, or its path in
// $TREE_SITTER). CI and `npm run build` need none of them: the built files are committed.
//
//   node scripts/build-grammar.mjs [NAME...]           build, write the .wasm and record its checksums
//   node scripts/build-grammar.mjs --check [NAME...]   build into a temp folder; fail if it differs from the committed .wasm
//
// NAME is a file name in grammars.json (tree-sitter-bicep.wasm); without one, every grammar.
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
const names = process.argv.slice(2).filter((a) => !a.startsWith('--'));

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
for (const name of names) if (!manifest[name]) throw new Error(`${name} is not in server/grammars/grammars.json`);

const emccVersion = () =>
  /emcc \(.*?\) (\d+\.\d+\.\d+)/.exec(execFileSync('emcc', ['--version'], { encoding: 'utf8' }))?.[1] ?? 'unknown';
const treeSitter = process.env.TREE_SITTER || 'tree-sitter';

let failed = false;
for (const [file, entry] of Object.entries(manifest)) {
  if (names.length > 0 && !names.includes(file)) continue;
  if (!build(file, entry)) failed = true;
}
if (failed) process.exitCode = 1;

/** Builds one grammar; false when `--check` found the committed file different. */
function build(file, entry) {
  const packageDir = join(ROOT, 'node_modules', ...entry.package.split('/'));
  const installed = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).version;
  if (installed !== entry.version) {
    throw new Error(
      `${entry.package} ${installed} is installed, ${file} was built from ${entry.version}: check that ` +
        `${entry.patch} still applies and is still needed (upstream may have fixed what it fixes), then set ` +
        `"version" in server/grammars/grammars.json to ${installed} and run this script again.`,
    );
  }
  const language = entry.dialect ?? entry.language;
  const work = mkdtempSync(join(tmpdir(), 'anf-lint-grammar-'));
  try {
    // The package's files the build reads (`sources`, recorded with their checksums) and the
    // headers the C sources include.
    mkdirSync(join(work, 'src', 'tree_sitter'), { recursive: true });
    const sources = {};
    for (const source of Object.keys(entry.sources)) {
      copyFileSync(join(packageDir, source), join(work, source));
      sources[source] = sha256(readFileSync(join(work, source)));
    }
    for (const header of ['tree_sitter/parser.h', 'tree_sitter/alloc.h', 'tree_sitter/array.h']) {
      copyFileSync(join(packageDir, 'src', header), join(work, 'src', header));
    }
    execFileSync(
      'patch',
      ['-p1', '--forward', '--batch', '--no-backup-if-mismatch', '-d', work, '-i', join(GRAMMARS, entry.patch)],
      { stdio: 'inherit' },
    );

    let parserSha256;
    if (entry.generator) {
      // parser.c from the patched grammar.js. The CLI's version decides the generated tables, so a
      // different version would not rebuild the committed file.
      const version = /tree-sitter (\d+\.\d+\.\d+)/.exec(
        execFileSync(treeSitter, ['--version'], { encoding: 'utf8' }),
      )?.[1];
      if (version !== entry.generator) {
        throw new Error(
          `${file} is generated with tree-sitter ${entry.generator}; ${treeSitter} is ${version ?? 'unknown'} (set TREE_SITTER to the right CLI)`,
        );
      }
      execFileSync(treeSitter, ['generate', '--no-bindings', 'grammar.js'], { stdio: 'inherit', cwd: work });
      parserSha256 = sha256(readFileSync(join(work, 'src', 'parser.c')));
    }

    if (entry.dialect) {
      // grammar.js is the HCL dialect; the Terraform dialect is the same grammar under another name
      // (upstream generates dialects/terraform/src/ from the same make_grammar.js, and its parser.c
      // and scanner.c differ from src/ only in these names).
      for (const source of ['parser.c', 'scanner.c']) {
        const path = join(work, 'src', source);
        const text = readFileSync(path, 'utf8');
        const renamed = text
          .replaceAll('tree_sitter_hcl', `tree_sitter_${entry.dialect}`)
          .replace('.name = "hcl"', `.name = "${entry.dialect}"`);
        if (!renamed.includes(`tree_sitter_${entry.dialect}_external_scanner_scan`))
          throw new Error(`${source}: the scanner's functions were not found to rename`);
        writeFileSync(path, renamed);
      }
    }

    // The flags of tree-sitter's own emscripten build of a grammar: a side module that exports only
    // the language function, optimised for size, no C++ exceptions. Relative paths from the temp
    // folder: assert() writes the source file's path into the .wasm, and the same path in every
    // build keeps the build reproducible.
    const emcc = emccVersion();
    execFileSync(
      'emcc',
      [
        '-o',
        file,
        '-Os',
        '-fno-exceptions',
        '-fvisibility=hidden',
        '-s',
        'WASM=1',
        '-s',
        'SIDE_MODULE=2',
        '-s',
        `EXPORTED_FUNCTIONS=["_tree_sitter_${language}"]`,
        '-I',
        'src',
        'src/parser.c',
        'src/scanner.c',
      ],
      { stdio: 'inherit', cwd: work },
    );
    const wasm = readFileSync(join(work, file));
    const built = {
      ...entry,
      sources,
      patchSha256: sha256(readFileSync(join(GRAMMARS, entry.patch))),
      ...(parserSha256 ? { parserSha256 } : {}),
      emcc,
      sha256: sha256(wasm),
    };

    if (check) {
      const committed = sha256(readFileSync(join(GRAMMARS, file)));
      if (committed !== built.sha256) {
        console.error(
          `${file}: the committed file (${committed}) differs from this build (${built.sha256}, emcc ${emcc}; recorded: emcc ${entry.emcc}).`,
        );
        return false;
      }
      console.log(`${file}: this build is byte-identical to the committed file (${committed}).`);
    } else {
      copyFileSync(join(work, file), join(GRAMMARS, file));
      manifest[file] = built;
      writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
      console.log(`server/grammars/${file}: ${wasm.length} bytes, sha256 ${built.sha256} (emcc ${emcc})`);
    }
    return true;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
