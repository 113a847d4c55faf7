// esbuild plugins shared by scripts/build.mjs, bench/run.mjs and test/cli/globalSetup.ts.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * zod 4 re-exports every locale (`z.locales`, 64 languages, 258 KiB minified) and esbuild cannot
 * drop a namespace export; anf-lint writes its own messages and zod's default is English. This
 * replaces the locales index with English only, keeping the server bundle under 1 MiB.
 */
export const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /[/\\]locales[/\\]index\.js$/ }, (args) =>
      /[/\\]node_modules[/\\]zod[/\\]/.test(args.importer) ? { path: args.importer, namespace: 'zod-locales', pluginData: dirname(args.importer) } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "../locales/en.js";\n',
      resolveDir: args.pluginData,
      loader: 'js',
    }));
  },
};

/**
 * jsonc-parser's `main` is a UMD build whose `require('./impl/...')` calls esbuild cannot follow: the
 * bundle would still need node_modules ("Cannot find module './impl/format'", evanw/esbuild#1619,
 * microsoft/node-jsonc-parser#57). Its `module` entry, plain ES modules, bundles (and tree-shakes).
 * Only this package is redirected: `mainFields: ['module', 'main']` would change what others resolve to.
 */
export const jsoncParserEsm = {
  name: 'jsonc-parser-esm',
  setup(build) {
    const require = createRequire(import.meta.url);
    const manifest = require.resolve('jsonc-parser/package.json');
    const path = join(dirname(manifest), require(manifest).module);
    build.onResolve({ filter: /^jsonc-parser$/ }, () => ({ path }));
  },
};
