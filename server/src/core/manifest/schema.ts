import * as z from '../zod';
import { manifestSchema } from './model';
import { EXTENSION_PREFIX } from './parse';

/** Where the generated schema lives in the repository, and the name editors know it by. */
export const MANIFEST_SCHEMA_PATH = 'schemas/anf-manifest.schema.json';

/**
 * The JSON Schema of the sizing manifest, generated from the zod model (draft-07, which
 * yaml-language-server and VS Code's JSON support both read). Keys starting with `x-` are
 * allowed everywhere, for anchors and notes.
 */
export function manifestJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(manifestSchema, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.type === 'object' && record.additionalProperties === false) {
      record.patternProperties = { [`^${EXTENSION_PREFIX}`]: {} };
    }
    if (record.type === 'integer' && record.maximum === Number.MAX_SAFE_INTEGER) delete record.maximum;
    if (record.type === 'number' && record.maximum === Number.MAX_VALUE) delete record.maximum;
    for (const value of Object.values(record)) visit(value);
  };
  visit(schema);
  return { ...schema, $id: 'https://github.com/anf-lint/anf-lint/blob/main/schemas/anf-manifest.schema.json' };
}
