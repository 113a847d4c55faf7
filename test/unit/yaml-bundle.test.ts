import { build } from 'esbuild';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lazyPackages, yamlWithoutEnvReads } from '../../scripts/esbuildPlugins.mjs';

const ROOT = join(__dirname, '..', '..');
const ENTRY =
  "import { parseDocument } from 'yaml';\nmodule.exports = (text) => parseDocument(text, { merge: true }).toJS();\n";

/** Bundles ENTRY as scripts/build.mjs bundles the server (the CLI adds lazyPackages in front) and loads it. */
async function bundled(
  plugins: Parameters<typeof build>[0]['plugins'],
): Promise<{ code: string; parse: (text: string) => unknown }> {
  const result = await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    plugins,
  });
  const code = result.outputFiles[0]!.text;
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', code)(module, module.exports, require);
  return { code, parse: module.exports as (text: string) => unknown };
}

/**
 * yaml's Node build reads process.env.LOG_TOKENS once per token (scripts/esbuildPlugins.mjs,
 * yamlWithoutEnvReads): the bundles take its browser build, which parses the same way.
 */
describe('yaml in the bundles', () => {
  it('takes the build without per-token process.env reads, in the server and in the CLI (lazy) bundles', async () => {
    for (const plugins of [[yamlWithoutEnvReads], [lazyPackages(['yaml']), yamlWithoutEnvReads]]) {
      const { code, parse } = await bundled(plugins);
      expect(code).not.toContain('LOG_TOKENS');
      expect(code).toContain('browser');
      expect(parse('base: &b { quota: 4 TiB }\nvolume:\n  <<: *b\n  name: tools\n')).toEqual({
        base: { quota: '4 TiB' },
        volume: { quota: '4 TiB', name: 'tools' },
      });
    }
  });

  it('without the plugin the Node build is what platform node resolves (the reason for the plugin)', async () => {
    const { code } = await bundled([]);
    expect(code).toContain('LOG_TOKENS');
  });
});
