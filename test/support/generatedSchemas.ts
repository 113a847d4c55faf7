import { manifestJsonSchema, MANIFEST_SCHEMA_PATH } from '../../server/src/core/manifest/schema';

/**
 * JSON Schemas generated from zod models, checked in under schemas/.
 */
export interface GeneratedSchema {
  readonly path: string;
  build(): unknown;
}

export const GENERATED_SCHEMAS: readonly GeneratedSchema[] = [
  { path: MANIFEST_SCHEMA_PATH, build: manifestJsonSchema },
];
