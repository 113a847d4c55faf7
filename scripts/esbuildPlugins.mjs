// esbuild plugins shared by scripts/build.mjs and bench/run.mjs.
import { dirname } from 'node:path';

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
