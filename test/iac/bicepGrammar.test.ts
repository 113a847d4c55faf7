import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Language, Parser, type Node } from 'web-tree-sitter';

/**
 * The Bicep grammar built here (server/grammars/README.md: tree-sitter-bicep 1.1.0 with
 * tree-sitter-bicep.patch) reads current Bicep. Each construct below is valid Bicep (the Bicep
 * language reference on learn.microsoft.com) that tree-sitter-bicep 1.1.0 reported as a syntax
 * error; the files under test/fixtures/iac/valid/bicep/ put them together as real modules do.
 */
const ROOT = join(__dirname, '..', '..');
const VALID = join(ROOT, 'test', 'fixtures', 'iac', 'valid', 'bicep');

async function bicepParser(): Promise<Parser> {
  await Parser.init({
    wasmBinary: readFileSync(join(ROOT, 'node_modules', 'web-tree-sitter', 'web-tree-sitter.wasm')),
  } as never);
  const parser = new Parser();
  parser.setLanguage(await Language.load(readFileSync(join(ROOT, 'server', 'grammars', 'tree-sitter-bicep.wasm'))));
  return parser;
}

/** Every ERROR and MISSING node, as `line:column text`. */
function syntaxErrors(root: Node): string[] {
  const found: string[] = [];
  const visit = (n: Node): void => {
    if (n.isError || n.isMissing) {
      found.push(
        `${n.startPosition.row + 1}:${n.startPosition.column + 1} ${n.isMissing ? `missing ${n.type}` : n.text.slice(0, 40)}`,
      );
      return;
    }
    if (n.hasError) for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  return found;
}

const CONSTRUCTS: readonly (readonly [string, string])[] = [
  ['an escaped backslash at the end of a string, then a comment', "var p = 'C:\\\\' // a comment\nvar q = 'x'\n"],
  ['a string that is only slashes', "var s = split(id ?? '////', '/')\nvar t = '//'\n"],
  ['a URL in a string', "var u = 'https://contoso.com/a' // and a comment\n"],
  ['a trailing non-null assertion', 'var a = first(items)!\nvar b = c!\n'],
  [
    'a non-null assertion in an argument and an array',
    "var a = split(id!, '/')\nvar b = [zone!]\nvar c = vault!.name\n",
  ],
  ['a nullable built-in type', 'param a string?\nparam b int?\n'],
  [
    'a nullable user-defined type, then another declaration',
    "param lock lockType?\nvar x = 1\nparam other otherType?\n\nresource r 'Microsoft.NetApp/netAppAccounts@2024-03-01' = {\n  name: 'a'\n}\n",
  ],
  [
    'a user-defined type with a nullable property, then another property',
    'type t = {\n  owner: ownerType?\n  name: string\n  tags: object?\n}\n',
  ],
  [
    'a union type and @sealed()',
    "@sealed()\ntype level = 'Standard' | 'Premium' | 'Ultra'\n@export()\ntype x = {\n  @minValue(1)\n  size: int\n  *: string\n}\n",
  ],
  [
    'a resource-derived type',
    "type tags = resourceInput<'Microsoft.NetApp/netAppAccounts@2024-03-01'>.tags\nparam p resourceOutput<'Microsoft.NetApp/netAppAccounts@2024-03-01'>.properties?\n",
  ],
  [
    'spreads in an object and an array',
    "var a = { ...base, name: 'x' }\nvar b = {\n  ...base\n  ...(cond ? { a: 1 } : {})\n}\nvar c = [...xs, ...ys]\n",
  ],
  [
    'lambdas',
    'var a = map(xs, x => x.name)\nvar b = reduce(xs, 0, (cur, next) => cur + next)\nvar c = toObject(xs, x => x.name, x => x)\n',
  ],
  ['import statements', "import { a, b as c } from './types.bicep'\nimport * as types from './types.bicep'\n"],
  [
    'extension statements',
    "extension microsoftGraphV1\nextension 'br:mcr.microsoft.com/bicep/extensions/microsoftgraph/v1.0:0.1.8-preview' as graph\nextension kubernetes with {\n  namespace: 'default'\n} as k8s\n",
  ],
  ['a typed variable', "var name string = 'pool'\nvar names string[] = []\n"],
  [
    'decorators on outputs and type properties',
    "@description('x')\noutput a string = 'a'\n@secure()\noutput b string = 'b'\ntype t = {\n  @description('y')\n  @maxLength(10)\n  name: string\n}\n",
  ],
  [
    'existing resources',
    "resource v 'Microsoft.Network/virtualNetworks@2023-09-01' existing = {\n  name: 'v'\n  resource s 'subnets' existing = {\n    name: 's'\n  }\n}\n",
  ],
  [
    'resource and module loops with a condition',
    "resource r 'Microsoft.Storage/storageAccounts@2023-01-01' = [for (x, i) in xs: if (x.enabled) {\n  name: x.name\n}]\nmodule m './m.bicep' = [for x in xs: if (x.on) {\n  name: x.name\n  params: {}\n}]\n",
  ],
  ['a multi-line string', "var s = '''\nline 'one'\n// not a comment\n'''\n"],
  ['safe dereference and coalescing', "var a = x.?b.?c ?? 'd'\nvar e = xs[?0] ?? {}\n"],
  [
    'a user-defined function',
    "func name(prefix string, n int) string => '${prefix}-${n}'\n@export()\nfunc orDefault(tags object?) object => tags ?? {}\n",
  ],
  ['assert statements', 'assert short = length(name) < 20\n'],
  [
    'a parameters file',
    "using './main.bicep'\n\nparam name = 'anf'\nparam size = 4\nparam list = [\n  'a'\n]\nvar v = 1\n",
  ],
  [
    'a parameters file tied to no template',
    "using none\nextends './base.bicepparam'\nparam name = readEnvironmentVariable('NAME', 'anf')\n",
  ],
  [
    'keywords as property names',
    "var o = {\n  type: 'a'\n  resource: 'b'\n  test: 'c'\n  func: 'd'\n  existing: true\n}\n",
  ],
];

describe('the Bicep grammar built here', () => {
  it.each(CONSTRUCTS)('reads %s without a syntax error', async (_name, text) => {
    const parser = await bicepParser();
    const tree = parser.parse(text)!;
    expect(syntaxErrors(tree.rootNode)).toEqual([]);
    tree.delete();
  });

  it.each(readdirSync(VALID))('reads test/fixtures/iac/valid/bicep/%s without a syntax error', async (file) => {
    const parser = await bicepParser();
    const tree = parser.parse(readFileSync(join(VALID, file), 'utf8'))!;
    expect(syntaxErrors(tree.rootNode)).toEqual([]);
    tree.delete();
  });

  it('keeps the node types of tree-sitter-bicep where the syntax is old', async () => {
    const parser = await bicepParser();
    const tree = parser.parse("param p string = 'a'\nvar v = p\nresource r 'T@1' = {\n  name: v\n}\n")!;
    expect(tree.rootNode.namedChildren.map((n) => n?.type)).toEqual([
      'parameter_declaration',
      'variable_declaration',
      'resource_declaration',
    ]);
    expect(tree.rootNode.namedChildren[0]!.namedChildren.map((n) => n?.type)).toEqual(['identifier', 'type', 'string']);
    tree.delete();
  });

  it('still reports real syntax errors', async () => {
    const parser = await bicepParser();
    for (const text of [
      'var a = 4 * * 2\n',
      "resource r 'T@1' = {\n  name: 'x'\n",
      'param\n',
      "var s = 'unterminated\n",
    ]) {
      const tree = parser.parse(text)!;
      expect(syntaxErrors(tree.rootNode), text).not.toEqual([]);
      tree.delete();
    }
  });
});
