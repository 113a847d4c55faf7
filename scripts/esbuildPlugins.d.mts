// Types for esbuildPlugins.mjs, which test/cli/globalSetup.ts imports too.
import type { Plugin } from 'esbuild';

export const zodEnglishOnly: Plugin;
export const jsoncParserEsm: Plugin;
export function lazyPackages(packages: readonly string[]): Plugin;
export const yamlWithoutEnvReads: Plugin;
