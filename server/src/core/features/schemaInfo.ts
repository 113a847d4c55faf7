/**
 * Reading the manifest's zod schema for completion: the keys of an object, the values of an enum,
 * the description of a field. zod 4 keeps a schema's definition in `_zod.def`.
 */
import type * as z from '../zod';
import { metaOf as registeredMeta } from '../zod';

type AnySchema = z.core.$ZodType;
type Def = Record<string, unknown> & { type: string };

function defOf(schema: AnySchema): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

export function unwrap(schema: AnySchema): AnySchema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (
      (def.type === 'optional' ||
        def.type === 'default' ||
        def.type === 'nullable' ||
        def.type === 'prefault' ||
        def.type === 'pipe') &&
      (def.innerType ?? def.in)
    ) {
      current = (def.innerType ?? def.in) as AnySchema;
    } else return current;
  }
}

/** The alternatives of a union (or the schema itself). */
function branches(schema: AnySchema): AnySchema[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  return def.type === 'union' ? (def.options as AnySchema[]).map(unwrap) : [inner];
}

export interface SchemaMeta {
  readonly title?: string;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly default?: unknown;
}

export function metaOf(schema: AnySchema): SchemaMeta {
  return { ...registeredMeta(unwrap(schema)), ...registeredMeta(schema) } as SchemaMeta;
}

/** The default a field declares with `.default(...)`, if any. */
export function defaultOf(schema: AnySchema): unknown {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'default')
      return typeof def.defaultValue === 'function' ? (def.defaultValue as () => unknown)() : def.defaultValue;
    if ((def.type === 'optional' || def.type === 'nullable') && def.innerType) current = def.innerType as AnySchema;
    else return undefined;
  }
}

/** The schema at a path of keys and list indexes. */
export function schemaAtPath(root: AnySchema, path: readonly (string | number)[]): AnySchema | undefined {
  let current: AnySchema | undefined = root;
  for (const segment of path) {
    if (!current) return undefined;
    const wanted = typeof segment === 'number' ? 'array' : 'object';
    const branch: AnySchema | undefined = branches(current).find((b) => defOf(b).type === wanted);
    if (!branch) return undefined;
    const def = defOf(branch);
    current =
      typeof segment === 'number' ? (def.element as AnySchema) : (def.shape as Record<string, AnySchema>)[segment];
  }
  return current;
}

/** The fields of an object schema (the object branch of a union), with their schemas. */
export function fieldsOf(schema: AnySchema): [string, AnySchema][] {
  const object = branches(schema).find((b) => defOf(b).type === 'object');
  return object ? Object.entries(defOf(object).shape as Record<string, AnySchema>) : [];
}

/**
 * The values a field takes when it is a closed set, as values: enum values, literals, booleans,
 * and one-element lists of an enum's values. Each editor syntax writes them its own way.
 */
export function valueLiterals(schema: AnySchema): unknown[] {
  const values: unknown[] = [];
  for (const branch of branches(schema)) {
    const def = defOf(branch);
    if (def.type === 'enum') values.push(...Object.values(def.entries as Record<string, string | number>));
    else if (def.type === 'literal') values.push(...(def.values as unknown[]));
    else if (def.type === 'boolean') values.push(true, false);
    else if (def.type === 'array') values.push(...valueLiterals(def.element as AnySchema).map((v) => [v]));
  }
  return values;
}

/** The values of a closed set as YAML writes them: `Premium`, `true`, `[NFSv3]`. */
export function valuesOf(schema: AnySchema): string[] {
  const flow = (value: unknown): string => (Array.isArray(value) ? `[${value.map(flow).join(', ')}]` : String(value));
  return [...new Set(valueLiterals(schema).map(flow))];
}

/** Whether a field may be left out (optional, or has a default). */
export function isOptional(schema: AnySchema): boolean {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if (def.type === 'optional' || def.type === 'default' || def.type === 'prefault') return true;
    if ((def.type === 'nullable' || def.type === 'pipe') && (def.innerType ?? def.in))
      current = (def.innerType ?? def.in) as AnySchema;
    else return false;
  }
}

/** Whether every value of a field is a string (so JSON writes it in quotes). */
export function isStringValued(schema: AnySchema): boolean {
  return branches(schema).every((b) => {
    const def = defOf(b);
    if (def.type === 'string') return true;
    if (def.type === 'enum')
      return Object.values(def.entries as Record<string, unknown>).every((v) => typeof v === 'string');
    if (def.type === 'literal') return (def.values as unknown[]).every((v) => typeof v === 'string');
    return false;
  });
}

/** A field's documentation in Markdown: title, description, default, examples. */
/** What a key's completion item takes from its schema field (YAML and JSON manifests alike). */
export function keyItem(key: string, field: AnySchema) {
  return { label: key, kind: 'key' as const, detail: metaOf(field).title ?? key, documentation: fieldDoc(field) };
}

export function fieldDoc(schema: AnySchema): string {
  const meta = metaOf(schema);
  const parts = [meta.title ? `**${meta.title}**` : undefined, meta.description].filter(Boolean);
  const fallback = defaultOf(schema);
  if (fallback !== undefined && !(Array.isArray(fallback) && fallback.length === 0))
    parts.push(`Default: \`${JSON.stringify(fallback)}\``);
  if (meta.examples?.length)
    parts.push(
      `Examples: ${meta.examples.map((e) => `\`${typeof e === 'string' ? e : JSON.stringify(e)}\``).join(', ')}`,
    );
  return parts.join('\n\n');
}

/** Whether a field holds a block (object or list) rather than a scalar. */
export function isBlock(schema: AnySchema): 'object' | 'array' | undefined {
  const types = branches(schema).map((b) => defOf(b).type);
  if (types.length === 1 && types[0] === 'object') return 'object';
  if (types.length === 1 && types[0] === 'array') return 'array';
  return undefined;
}

/** The unit a string field takes, read from its pattern (the manifest's size, rate, duration patterns). */
export function unitOf(schema: AnySchema, patterns: Readonly<Record<string, string>>): string | undefined {
  for (const branch of branches(schema)) {
    const def = defOf(branch);
    if (def.type !== 'string') continue;
    for (const check of (def.checks as { _zod: { def: { pattern?: RegExp } } }[] | undefined) ?? []) {
      const source = check._zod.def.pattern?.source;
      const unit = Object.entries(patterns).find(([, pattern]) => new RegExp(pattern).source === source)?.[0];
      if (unit) return unit;
    }
  }
  return undefined;
}
