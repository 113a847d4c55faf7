import { findNodeAtLocation, getNodeValue, parseTree, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import { jsonSyntaxProblems } from './common';
import { Unknown } from './values';

/**
 * Parameter files: the values a deployment gives a template's parameters.
 * - ARM and Bicep JSON parameters files (`azuredeploy.parameters.json`, `main.parameters.json`):
 *   `{ "parameters": { "name": { "value": ... } } }`; a `reference` (Key Vault) is unknown.
 *   Reference: "Create Resource Manager parameters file",
 *   https://learn.microsoft.com/azure/azure-resource-manager/templates/parameter-files
 * - `.bicepparam` files: `using './main.bicep'` and `param name = <expression>` (vars allowed).
 *   Reference: "Create parameters files for Bicep deployment",
 *   https://learn.microsoft.com/azure/azure-resource-manager/bicep/parameter-files
 * Which template a file serves is decided in workspace/parameterFiles.ts.
 */
export interface ParameterValue {
  /** As written (case kept). */
  readonly name: string;
  /** The value, or an `Unknown` with its reason. */
  readonly value: unknown;
  /** The key, where an undeclared parameter is reported. */
  readonly keySpan: Span;
  /** 1-based line of the key, for origins ("main.parameters.json line 5"). */
  readonly line: number;
}

export interface ParameterFile {
  readonly values: readonly ParameterValue[];
  /** `.bicepparam`: the template its `using` names, as written. */
  readonly using?: string;
}

const MAX_SYNTAX_PROBLEMS = 20; // not a fact: bound on reported JSON errors

/** An ARM/Bicep JSON parameters file. Syntax errors go to `problems` (ANF400). */
export function readArmParameters(source: SourceText, problems: ParseProblem[]): ParameterFile {
  const errors: ParseError[] = [];
  const root = parseTree(source.text, errors, { allowTrailingComma: true, disallowComments: false });
  jsonSyntaxProblems(source, errors.slice(0, MAX_SYNTAX_PROBLEMS), problems);
  const params = root ? findNodeAtLocation(root, ['parameters']) : undefined;
  const values: ParameterValue[] = [];
  for (const p of params?.type === 'object' ? (params.children ?? []) : []) {
    const [k, v] = p.children ?? [];
    if (!k || !v || typeof k.value !== 'string') continue;
    const keySpan = { start: k.offset, end: k.offset + k.length };
    values.push({
      name: k.value,
      value: parameterValue(k.value, v),
      keySpan,
      line: source.positionAt(k.offset).line + 1,
    });
  }
  return { values };
}

function parameterValue(name: string, entry: JsonNode): unknown {
  const value = entry.type === 'object' ? findNodeAtLocation(entry, ['value']) : undefined;
  if (value) return getNodeValue(value) as unknown;
  if (entry.type === 'object' && findNodeAtLocation(entry, ['reference']))
    return new Unknown(`parameter \`${name}\` is a Key Vault reference, read at deployment`);
  return new Unknown(`parameter \`${name}\` has no \`value\` in its parameters file`);
}
