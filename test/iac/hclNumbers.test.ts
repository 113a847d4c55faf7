import { describe, expect, it } from 'vitest';
import { Language, Parser, type Node } from 'web-tree-sitter';
import { loadIacWasm } from '../../server/src/iacWasm';

/**
 * HCL's native syntax specification ("Numeric Literals") allows an exponent without a fraction:
 * `1e9`, `2E3`, `1e+9`. tree-sitter-hcl 1.2.0 required a fraction before an exponent and reported
 * these as syntax errors; the grammar built here (server/grammars/tree-sitter-hcl.patch) reads them.
 */
async function terraformParser(): Promise<Parser> {
  await Parser.init({ wasmBinary: loadIacWasm().runtime } as never);
  const parser = new Parser();
  parser.setLanguage(await Language.load(loadIacWasm().terraform));
  return parser;
}

function numbers(n: Node, found: string[] = []): string[] {
  if (n.type === 'numeric_lit') found.push(n.text);
  for (const c of n.namedChildren) if (c) numbers(c, found);
  return found;
}

describe('HCL number literals', () => {
  it.each(['1e9', '2E3', '1e+9', '5e-1', '1.5e3', '0.25', '1073741824', '0x1F'])(
    'reads %s as one number',
    async (literal) => {
      const parser = await terraformParser();
      const tree = parser.parse(`locals {\n  x = ${literal}\n}\n`)!;
      expect(tree.rootNode.hasError).toBe(false);
      expect(numbers(tree.rootNode)).toEqual([literal]);
      tree.delete();
      parser.delete();
    },
  );

  it('still reads a number followed by a word as two tokens where that is the syntax', async () => {
    const parser = await terraformParser();
    const tree = parser.parse('locals {\n  x = 1 == 1 ? 2 : 3\n  y = [for e in [1] : e]\n}\n')!;
    expect(tree.rootNode.hasError).toBe(false);
    tree.delete();
    parser.delete();
  });
});
