import { parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { Document, Pair, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';

/**
 * A JSON manifest as the `yaml` library's document, built from jsonc-parser's tree: the `yaml`
 * library reads JSON's flow collections about ten times slower than jsonc-parser (a 10 MiB JSON
 * manifest spent most of its time there, issue 18.6). The nodes carry the same ranges and scalar
 * types as `yaml`'s own parse of the same text, so the manifest reader cannot tell them apart.
 *
 * Only strict JSON takes this path: with a syntax error, a comment or a trailing comma (where
 * `yaml`'s messages, recovery and reading differ from jsonc-parser's), or nesting deeper than
 * MAX_DEPTH, the answer is undefined and the caller parses with `yaml` as before.
 */
export function strictJsonDocument(text: string): Document.Parsed | undefined {
  const errors: ParseError[] = [];
  let root: JsonNode | undefined;
  try {
    root = parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch {
    return undefined; // a stack overflow on pathological nesting: yaml reports it as today
  }
  if (!root || errors.length > 0) return undefined;
  const contents = yamlNode(root, 0);
  if (!contents) return undefined;
  const doc = new Document();
  doc.contents = contents;
  return doc as Document.Parsed;
}

const MAX_DEPTH = 64; // not a fact: deeper than any manifest; yaml's own parse handles the rest

function yamlNode(node: JsonNode, depth: number): Node | undefined {
  if (depth > MAX_DEPTH) return undefined;
  const range: [number, number, number] = [node.offset, node.offset + node.length, node.offset + node.length];
  if (node.type === 'object') {
    const map = new YAMLMap();
    map.flow = true;
    map.range = range;
    for (const property of node.children ?? []) {
      const [keyNode, valueNode] = property.children ?? [];
      if (!keyNode) return undefined;
      const key = scalar(keyNode);
      const value = valueNode ? yamlNode(valueNode, depth + 1) : null;
      if (value === undefined) return undefined;
      map.items.push(new Pair(key, value));
    }
    return map;
  }
  if (node.type === 'array') {
    const seq = new YAMLSeq();
    seq.flow = true;
    seq.range = range;
    for (const item of node.children ?? []) {
      const value = yamlNode(item, depth + 1);
      if (!value) return undefined;
      seq.items.push(value);
    }
    return seq;
  }
  return scalar(node);
}

function scalar(node: JsonNode): Scalar {
  const value = new Scalar(node.value as unknown);
  value.range = [node.offset, node.offset + node.length, node.offset + node.length];
  value.type = node.type === 'string' ? Scalar.QUOTE_DOUBLE : Scalar.PLAIN;
  return value;
}
