/**
 * JSON Schemas generated from zod models, checked in under schemas/. The manifest schema joins
 * this list when the manifest model exists.
 */
export interface GeneratedSchema {
  readonly path: string;
  build(): unknown;
}

export const GENERATED_SCHEMAS: readonly GeneratedSchema[] = [];
