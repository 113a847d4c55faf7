/**
 * Hover on a manifest key (`quota:`, `serviceLevel:`, `"qos":`): what it means, its unit, its
 * limits, its values and default, from the zod schema's titles and descriptions (the same text as
 * completion and the JSON schema). YAML through yaml's parser, JSON through jsonc-parser; the key
 * under the cursor and the path of keys above it decide the field.
 */
import { nestingPastBound } from '../text/nesting';
import { getLocation } from 'jsonc-parser';
import { isMap, isPair, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import {
  COUNT_PATTERN,
  DURATION_PATTERN,
  manifestSchema,
  RATE_PATTERN,
  SIZE_PATTERN,
  unitHelp,
  type UnitKind,
} from '../manifest/model';
import type { Span } from '../text/sourceText';
import type { FileKind } from '../fileKind';
import { fieldDoc, schemaAtPath, unitOf, valuesOf } from './schemaInfo';

type Path = readonly (string | number)[];

const UNIT_PATTERNS: Record<Exclude<UnitKind, 'count'>, string> = {
  size: SIZE_PATTERN,
  rate: RATE_PATTERN,
  duration: DURATION_PATTERN,
};

export interface KeyAt {
  readonly path: Path;
  readonly span: Span;
}

/** A plain YAML key (`quota:`, `- name:`) on the line, and where it is. */
const YAML_KEY_ON_LINE = /^[ \t]*(?:-[ \t]+)*([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)/;

/**
 * The last document parsed for key hovers: hovers come many to a version of the text, and parsing
 * a 20,000-line manifest for each took hundreds of milliseconds.
 */
let lastParsed: { readonly text: string; readonly doc: ReturnType<typeof parseDocument> | undefined } | undefined;

/** The key under `offset` in a YAML manifest, with the path of keys and indexes that leads to it. */
function yamlKeyAt(text: string, offset: number): KeyAt | undefined {
  // Only a cursor on a key's name needs the document: most hovers are on values.
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = YAML_KEY_ON_LINE.exec(text.slice(lineStart, lineEnd < 0 ? text.length : lineEnd));
  if (!line) return undefined;
  const keyStart = lineStart + line[0].indexOf(line[1]!, line[0].lastIndexOf('-') + 1);
  if (offset < keyStart || offset > keyStart + line[1]!.length) return undefined;
  if (lastParsed?.text !== text)
    lastParsed = {
      text,
      // Too deep for the parser (nesting.ts): no hover rather than a process abort.
      doc: nestingPastBound(text)
        ? undefined
        : parseDocument(text, { uniqueKeys: false, prettyErrors: false, logLevel: 'silent' }),
    };
  const doc = lastParsed.doc;
  if (!doc) return undefined;
  const walk = (node: unknown, path: Path): KeyAt | undefined => {
    if (isMap(node)) {
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as YamlNode | null;
        if (isScalar(key) && key.range && offset >= key.range[0] && offset <= key.range[1])
          return { path: [...path, String(key.value)], span: { start: key.range[0], end: key.range[1] } };
        const value = pair.value as YamlNode | null;
        if (
          isScalar(key) &&
          value &&
          (isMap(value) || isSeq(value)) &&
          value.range &&
          offset >= value.range[0] &&
          offset <= value.range[2]
        )
          return walk(value, [...path, String(key.value)]);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) {
        const range = (item as YamlNode | null)?.range;
        // Every item of a list has the same schema: the index does not matter.
        if (range && offset >= range[0] && offset <= range[2]) return walk(item, [...path, 0]);
      }
    }
    return undefined;
  };
  return walk(doc.contents, []);
}

/** The key under `offset` in a JSON manifest. */
function jsonKeyAt(text: string, offset: number): KeyAt | undefined {
  const location = getLocation(text, offset);
  if (
    !location.isAtPropertyKey ||
    !location.previousNode ||
    (location.previousNode.type !== 'property' && location.previousNode.type !== 'string')
  )
    return undefined;
  const node = location.previousNode;
  const key = location.path[location.path.length - 1];
  if (typeof key !== 'string' || key === '') return undefined;
  return {
    path: location.path.map((p) => (typeof p === 'number' ? 0 : p)),
    span: { start: node.offset, end: node.offset + node.length },
  };
}

export function manifestKeyAt(kind: FileKind, text: string, offset: number): KeyAt | undefined {
  if (kind === 'manifest-yaml') return yamlKeyAt(text, offset);
  if (kind === 'manifest-json') return jsonKeyAt(text, offset);
  return undefined;
}

/** The hover for the key at `offset`: its documentation, unit and values; undefined off a key or on an unknown one. */
export function manifestKeyHover(
  kind: FileKind,
  text: string,
  offset: number,
): { markdown: string; span: Span } | undefined {
  const at = manifestKeyAt(kind, text, offset);
  if (!at) return undefined;
  const schema = schemaAtPath(manifestSchema, at.path);
  if (!schema) return undefined;
  const key = String(at.path[at.path.length - 1]);
  const doc = fieldDoc(schema);
  const unit = unitOf(schema, UNIT_PATTERNS) as UnitKind | undefined;
  const values = valuesOf(schema);
  const lines = [doc || `**${key}**`];
  if (unit) lines.push(`Unit: ${unitHelp(unit)}.`);
  if (values.length > 0 && values.length <= MAX_VALUES_LISTED)
    lines.push(`Values: ${values.map((v) => `\`${v}\``).join(', ')}`);
  lines.push(
    `\`${at.path.filter((p) => typeof p === 'string').join('.')}\` in the sizing manifest (docs/manifest.md).`,
  );
  return { markdown: lines.join('\n\n'), span: at.span };
}

const MAX_VALUES_LISTED = 12; // not a fact: a hover lists a closed set of values up to this many
