/**
 * Completion in JSON manifests (`*.anf.json`): the same keys, values, examples and documentation as
 * in YAML (all read from the zod schema), written as JSON: `"serviceLevel": "$1"`, `"volumes": [$1]`,
 * `"Premium"`. The position comes from jsonPath.ts, which reads half-typed JSON.
 */
import { manifestSchema } from '../manifest/model';
import type { CoreCompletion } from './completionItem';
import { jsonContextAt, type JsonContext } from './jsonPath';
import { BLOCK_SNIPPETS, MANIFEST_SCHEMA_URL } from './manifestSnippets';
import {
  fieldDoc,
  fieldsOf,
  isBlock,
  isOptional,
  isStringValued,
  keyItem,
  metaOf,
  schemaAtPath,
  valueLiterals,
} from './schemaInfo';

type Schema = Parameters<typeof metaOf>[0];

/** Literal text inside a snippet. */
const escapeSnippet = (text: string) => text.replace(/[$}\\]/g, '\\$&');
const escapeChoice = (text: string) => text.replace(/[$}\\,|]/g, '\\$&');

/** The JSON texts of the values a field takes, or else of its examples (sizes and rates with their units). */
function jsonValues(schema: Schema): unknown[] {
  const values = valueLiterals(schema);
  if (values.length > 0) return values;
  return (metaOf(schema).examples ?? []).filter((e) => typeof e === 'string' || typeof e === 'number');
}

/** Where the value of a new key goes: `[$1]`, `{$1}`, `"$1"` or `$1`. */
function emptyValue(schema: Schema, tabstop: number): string {
  const block = isBlock(schema);
  if (block === 'array') return `[$${tabstop}]`;
  if (block === 'object') return `{$${tabstop}}`;
  return isStringValued(schema) ? `"$${tabstop}"` : `$${tabstop}`;
}

/** A value placeholder in a block: a choice of the enum values, the first example, or empty. */
function placeholder(schema: Schema, tabstop: number): string {
  if (isBlock(schema)) return emptyValue(schema, tabstop);
  const values = valueLiterals(schema).filter((v) => typeof v === 'string' || typeof v === 'boolean');
  if (values.length > 0) {
    const choice = `\${${tabstop}|${values.map((v) => escapeChoice(String(v))).join(',')}|}`;
    return values.every((v) => typeof v === 'string') ? `"${choice}"` : choice;
  }
  const example = (metaOf(schema).examples ?? []).find((e) => typeof e === 'string' || typeof e === 'number');
  if (example === undefined) return emptyValue(schema, tabstop);
  const text = `\${${tabstop}:${escapeSnippet(String(example))}}`;
  return typeof example === 'string' ? `"${text}"` : text;
}

/**
 * An object as a snippet: its required keys, and one item of each list that has a block snippet
 * (accounts > pools > volumes), so an account comes with a pool and a volume, as in YAML.
 */
function objectSnippet(schema: Schema, next: () => number, indent: string, extra: readonly string[] = []): string {
  const members = fieldsOf(schema).filter(
    ([key, field]) => key !== '$schema' && (!isOptional(field) || (isBlock(field) === 'array' && BLOCK_SNIPPETS[key])),
  );
  if (members.length === 0 && extra.length === 0) return `{$${next()}}`;
  const inner = `${indent}\t`;
  const lines = [...extra.map((line) => `${inner}${line}`)];
  for (const [key, field] of members) {
    const element = isBlock(field) === 'array' && BLOCK_SNIPPETS[key] ? schemaAtPath(field, [0]) : undefined;
    const value = element
      ? `[\n${inner}\t${objectSnippet(element, next, `${inner}\t`)}\n${inner}]`
      : placeholder(field, next());
    lines.push(`${inner}"${escapeSnippet(key)}": ${value}`);
  }
  return `{\n${lines.join(',\n')}\n${indent}}`;
}

function counter(): () => number {
  let n = 0;
  return () => ++n;
}

function skeleton(offset: number): CoreCompletion {
  const body = objectSnippet(manifestSchema, counter(), '', [`"\\$schema": "${MANIFEST_SCHEMA_URL}"`]);
  return {
    label: 'anf-manifest',
    kind: 'snippet',
    detail: 'Sizing manifest skeleton',
    documentation: 'An account, a pool and a volume, with the JSON Schema for other editors.',
    insertText: `${body}\n`,
    snippet: true,
    replace: { start: offset, end: offset },
  };
}

/** Fields every item shares: the range, the missing comma before it, the filter text when typing inside quotes. */
function placed(
  context: JsonContext,
  filterText: string,
): Pick<CoreCompletion, 'replace' | 'filterText' | 'additionalEdits'> {
  return {
    replace: context.replace,
    filterText,
    ...(context.commaBefore !== undefined
      ? { additionalEdits: [{ span: { start: context.commaBefore, end: context.commaBefore }, newText: ',' }] }
      : {}),
  };
}

function keyCompletions(context: JsonContext): CoreCompletion[] {
  const schema = schemaAtPath(manifestSchema, context.path);
  if (!schema) return [];
  const comma = context.commaAfter ? ',' : '';
  return fieldsOf(schema)
    .filter(([key]) => !context.siblings.includes(key))
    .map(([key, field]) => {
      const quotedKey = JSON.stringify(key);
      const insertText = context.colonFollows ? quotedKey : `"${escapeSnippet(key)}": ${emptyValue(field, 1)}${comma}`;
      return {
        ...keyItem(key, field),
        insertText,
        ...(context.colonFollows ? {} : { snippet: true }),
        ...placed(context, context.quoted ? quotedKey : key),
      };
    });
}

function valueCompletions(context: JsonContext): CoreCompletion[] {
  const segment = context.position === 'value' && context.valueKey !== undefined ? context.valueKey : context.index;
  if (segment === undefined) return [];
  const schema = schemaAtPath(manifestSchema, [...context.path, segment]);
  if (!schema) return [];
  const comma = context.commaAfter ? ',' : '';
  const documentation = fieldDoc(schema);
  const values = context.path.length === 0 && segment === '$schema' ? [MANIFEST_SCHEMA_URL] : jsonValues(schema);
  const items: CoreCompletion[] = [...new Set(values.map((v) => JSON.stringify(v)))].map((json) => ({
    label: json,
    kind: 'value' as const,
    documentation,
    insertText: `${json}${comma}`,
    ...placed(context, context.quoted ? json : json.replace(/^"|"$/g, '')),
  }));
  if (isBlock(schema) === 'object') {
    const listKey = typeof segment === 'number' ? context.path[context.path.length - 1] : undefined;
    const label = (typeof listKey === 'string' ? BLOCK_SNIPPETS[listKey]?.label : undefined) ?? '{}';
    const body = objectSnippet(schema, counter(), '');
    items.unshift({
      label,
      kind: 'snippet',
      detail: metaOf(schema).title ?? 'Object',
      documentation,
      insertText: `${body}${comma}`,
      snippet: true,
      ...placed(context, label),
    });
  }
  return items;
}

/** Completions at `offset` in the text of a JSON manifest. */
export function jsonManifestCompletions(text: string, offset: number): CoreCompletion[] {
  if (text.trim() === '') return [skeleton(offset)];
  const context = jsonContextAt(text, offset);
  if (!context) return [];
  return context.position === 'key' ? keyCompletions(context) : valueCompletions(context);
}
