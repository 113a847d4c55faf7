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
      /[/\\]node_modules[/\\]zod[/\\]/.test(args.importer)
        ? { path: args.importer, namespace: 'zod-locales', pluginData: dirname(args.importer) }
        : undefined,
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

/**
 * yaml's Node build (`dist/`, what `platform: 'node'` resolves) reads `process.env.LOG_TOKENS` once
 * per token in its parser (and `LOG_STREAM` per document): a debugging switch, and `process.env`
 * is a slow property (each read asks the C library). Its `browser/` build is the same source as ES
 * modules without those reads, and parses a 19,000-line manifest about a quarter faster (issue 17,
 * bench/notes.md "Session 7"). Its other differences do not reach anf-lint: warnings go to
 * `console.warn` instead of `process.emitWarning` (anf-lint asks for none, `logLevel: 'error'`),
 * and YAML 1.1's `!!binary` decodes with `atob` instead of Buffer (anf-lint reads the core schema).
 */
export const yamlWithoutEnvReads = {
  name: 'yaml-without-env-reads',
  setup(build) {
    const require = createRequire(import.meta.url);
    const path = join(dirname(require.resolve('yaml/package.json')), 'browser', 'index.js');
    // Only imports from outside the package: its own files import each other by relative path.
    build.onResolve({ filter: /^yaml$/ }, () => ({ path }));
  },
};

/**
 * Packages whose start-up code runs only when first used. esbuild runs every bundled module's
 * top-level code when the bundle starts; for `yaml` and `jsonc-parser` that is a few ms of a CLI
 * run that reads neither YAML nor JSON (one fstab). Each named export becomes a stand-in that
 * loads the package on first call, construction or property read and then rebinds every export
 * to the real one (importers of an ES module in a bundle share its bindings), so later calls pay
 * nothing. The export names are read from the package at build time.
 */
export function lazyPackages(packages) {
  const require = createRequire(import.meta.url);
  const filter = new RegExp(`^(${packages.map((p) => p.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})$`);
  return {
    name: 'lazy-packages',
    setup(build) {
      build.onResolve({ filter }, (args) =>
        args.namespace === 'lazy-package' ? undefined : { path: args.path, namespace: 'lazy-package' },
      );
      build.onLoad({ filter: /.*/, namespace: 'lazy-package' }, (args) => {
        const names = Object.keys(require(args.path)).filter(
          (name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name),
        );
        const contents = [
          'let real;',
          `function load() {`,
          `  real = require(${JSON.stringify(args.path)});`,
          ...names.map((name) => `  ${name} = real.${name};`),
          '}',
          'const standIn = (name) =>',
          '  new Proxy(function () {}, {',
          '    apply: (_, self, params) => (real || load(), Reflect.apply(real[name], self, params)),',
          '    construct: (_, params) => (real || load(), Reflect.construct(real[name], params)),',
          '    get: (_, key) => (real || load(), real[name][key]),',
          '  });',
          ...names.map((name) => `export let ${name} = standIn(${JSON.stringify(name)});`),
        ].join('\n');
        return { contents, loader: 'js', resolveDir: dirname(require.resolve(`${args.path}/package.json`)) };
      });
    },
  };
}
