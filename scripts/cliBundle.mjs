// The CLI's build, shared by scripts/build.mjs, the CLI tests' set-up and bench/run.mjs: the
// bundle (anf-lint-bundle.js), the small loader that runs it (anf-lint.js, scripts/bundleLoader.cjs)
// and V8's code cache for the bundle, made by running the built CLI once on a small input.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmod, copyFile, cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lazyPackages } from './esbuildPlugins.mjs';
import { buildWebTreeSitter, placeIacWasmFor, webTreeSitterLazy } from './iacWasm.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Builds the CLI into `outdir` with esbuild `options` (bundle, platform, plugins...). With the
 * `webTreeSitterLazy` plugin, web-tree-sitter's JavaScript goes into a file of its own next to the
 * bundle, read only when a run reads Terraform or Bicep.
 */
export async function buildCli(folder, options) {
  const outdir = resolve(folder);
  await mkdir(outdir, { recursive: true });
  await Promise.all([
    // A run on an fstab or sysctl file reads no YAML or JSON: those parsers start on first use.
    build({
      ...options,
      plugins: [lazyPackages(['yaml', 'jsonc-parser']), ...(options.plugins ?? [])],
      entryPoints: { 'anf-lint-bundle': join(ROOT, 'server/src/cli/main.ts') },
      outdir,
    }),
    options.plugins?.includes(webTreeSitterLazy) ? buildWebTreeSitter(outdir, options) : undefined,
  ]);
  const loader = join(outdir, 'anf-lint.js');
  await copyFile(join(ROOT, 'scripts/bundleLoader.cjs'), loader);
  // Node reads the nearest package.json to learn whether anf-lint.js is CommonJS: without this one
  // it parses the repository's (20 KB of VS Code contributions) on every run.
  await writeFile(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  await chmod(loader, 0o755);
  await makeCodeCache(outdir);
}

/**
 * The code cache: V8 keeps the functions a run compiled, so a run on a small fstab and sysctl file
 * (the usual start-up), or on Terraform and Bicep files, finds them compiled. Made by the Node that
 * builds; another Node version rejects it and compiles as usual.
 */
export async function makeCodeCache(folder) {
  const outdir = resolve(folder);
  const cache = join(outdir, 'anf-lint-bundle.js.cache');
  await rm(cache, { force: true });
  // The run reads a .tf and a .bicep file.
  await placeIacWasmFor(outdir);
  // Outside any git work tree, so that the run reads these files (and the modules they call) and nothing else.
  const scratch = await mkdtemp(join(tmpdir(), 'anf-lint-code-cache-'));
  await mkdir(join(scratch, 'etc', 'sysctl.d'), { recursive: true });
  await copyFile(join(ROOT, 'examples/eda/etc/fstab'), join(scratch, 'etc', 'fstab'));
  await copyFile(
    join(ROOT, 'examples/eda/etc/sysctl.d/90-nfs-client.conf'),
    join(scratch, 'etc', 'sysctl.d', '90-nfs-client.conf'),
  );
  // A Terraform and a Bicep file too: a run over infrastructure code compiles the readers, the
  // evaluators and the estate rules, as much JavaScript again (issue 29).
  await copyFile(join(ROOT, 'examples/eda/terraform/main.tf'), join(scratch, 'main.tf'));
  await copyFile(join(ROOT, 'examples/eda/bicep/main.bicep'), join(scratch, 'main.bicep'));
  // And local modules called in loops, as repositories lay them out (scripts/code-cache/README.md):
  // a whole repository's run compiled those paths on the spot, 25 ms of 800 (issue 29).
  await cp(join(ROOT, 'scripts/code-cache'), join(scratch, 'modules'), { recursive: true });
  const result = spawnSync(
    process.execPath,
    [
      join(outdir, 'anf-lint.js'),
      '--format',
      'json',
      '--exit-zero',
      'etc/fstab',
      'etc/sysctl.d/90-nfs-client.conf',
      'main.tf',
      'main.bicep',
      'modules/bicep/main.bicep',
      'modules/terraform/main.tf',
    ],
    {
      cwd: scratch,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ANF_LINT_BUILD_CODE_CACHE: cache },
    },
  );
  await rm(scratch, { recursive: true, force: true });
  if (result.status !== 0) throw new Error(`the code cache run failed (${result.status}): ${result.stderr}`);
}
