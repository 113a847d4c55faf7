import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BuildOptions } from 'esbuild';
import { jsoncParserEsm, yamlWithoutEnvReads } from '../../scripts/esbuildPlugins.mjs';
import { copyIacWasm, webTreeSitterCjs, webTreeSitterLazy } from '../../scripts/iacWasm.mjs';
import { buildCli } from '../../scripts/cliBundle.mjs';
import { buildServer } from '../../scripts/serverBundle.mjs';

/**
 * The CLI tests run the built CLI as a process. `npm test` builds first; when the bundle is
 * missing or older than the sources (a plain `npx vitest run test/cli`), this builds the CLI and
 * server bundles the way scripts/build.mjs does, without the VS Code client.
 */
const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli', 'anf-lint.js');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Only when the run includes test/cli (no file filter, or a filter that names it). */
function runIncludesCliTests(): boolean {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'run' && !/vitest/.test(a));
  return filters.length === 0 || filters.some((f) => f.includes('cli') || 'test/cli'.startsWith(f.replace(/\/$/, '')));
}

export default async function setup(): Promise<void> {
  if (!runIncludesCliTests()) return;
  const sources = Math.max(newestSource(join(ROOT, 'server', 'src')), statSync(join(ROOT, 'package.json')).mtimeMs);
  if (existsSync(CLI) && statSync(CLI).mtimeMs >= sources) return;
  const common: BuildOptions = {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: 'linked',
    logLevel: 'error',
    legalComments: 'none',
    absWorkingDir: ROOT,
    plugins: [jsoncParserEsm, yamlWithoutEnvReads, webTreeSitterLazy],
    alias: webTreeSitterCjs,
  };
  await copyIacWasm(ROOT);
  await Promise.all([buildCli(join(ROOT, 'dist', 'cli'), common), buildServer(join(ROOT, 'dist', 'server'), common)]);
}
