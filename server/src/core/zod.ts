/**
 * zod for anf-lint's schemas (the sizing manifest, `.anf-lint.yaml`): zod's functional build,
 * `zod/mini`. Same core, same issues and messages as `zod`, but its schemas carry no methods, so
 * the bundles keep only what is used (about 25 KiB minified instead of 165) and building the
 * schemas at start-up is cheaper. Import it as a namespace (`import * as z from './zod'`) so that
 * esbuild can drop the rest.
 *
 * `zod/mini` loads no locale: the English messages (`Too small: expected number to be >0`) that
 * the manifest and configuration findings quote are set here, before any schema parses.
 */
import { config, globalRegistry, type core } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config(en());

export * from 'zod/mini';

/** Metadata (title, description, examples) for the JSON Schema and hovers: `schema.meta(...)` of `zod`, without the copy. */
export function withMeta<T extends core.$ZodType>(schema: T, metadata: core.GlobalMeta): T {
  globalRegistry.add(schema, metadata);
  return schema;
}

/** The metadata registered for a schema (`schema.meta()` of `zod`), or undefined. */
export function metaOf(schema: core.$ZodType): core.GlobalMeta | undefined {
  return globalRegistry.get(schema);
}
