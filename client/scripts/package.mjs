// Packages the extension (.vsix) with @vscode/vsce from a staging copy of the repository that
// leaves out node_modules, .e2e (code-server, ~600 MB), .git and test output: vsce walks every file
// before it applies .vscodeignore, and those trees made it take most of a minute.
// Usage: node client/scripts/package.mjs [--out FILE]   (default dist/anf-lint.vsix)
// Expects dist/ to be built (npm run package builds it minified first).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'dist', 'anf-lint.vsix'));
const SKIPPED = new Set(['node_modules', '.e2e', '.git', 'test-results', '.bench']);

for (const file of [
  'dist/client/extension.js',
  'dist/server/server.js',
  'dist/server/server-bundle.js',
  'dist/server/web-tree-sitter.js',
]) {
  if (!existsSync(join(root, file))) {
    console.error(`${file} is missing: run npm run build (or npm run package) first`);
    process.exit(2);
  }
}

const stage = mkdtempSync(join(tmpdir(), 'anf-lint-vsix-'));
try {
  cpSync(root, stage, {
    recursive: true,
    filter: (source) => {
      const rel = relative(root, source);
      const top = rel.split(sep)[0];
      return !SKIPPED.has(top) && !rel.endsWith('.vsix') && !rel.endsWith('.map');
    },
  });
  // package.json's `files` says what the npm tarball carries; the .vsix is chosen by .vscodeignore,
  // and vsce refuses a package that has both. The staged copy drops `files`.
  const stagedManifest = join(stage, 'package.json');
  const manifest = JSON.parse(readFileSync(stagedManifest, 'utf8'));
  delete manifest.files;
  writeFileSync(stagedManifest, `${JSON.stringify(manifest, null, 2)}\n`);
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const result = spawnSync(process.execPath, [vsce, 'package', '--no-dependencies', '--out', out], {
    cwd: stage,
    stdio: 'inherit',
  });
  if (result.status !== 0) process.exit(result.status ?? 1);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
