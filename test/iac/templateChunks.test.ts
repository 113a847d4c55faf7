import { describe, expect, it } from 'vitest';
import { Language, Parser } from 'web-tree-sitter';
import { loadIacWasm } from '../../server/src/iacWasm';

/**
 * Issue 32: tree-sitter-hcl 1.2.0's scanner returned the text of a string or a heredoc one character
 * per token, so a 10 MiB heredoc or line of strings was ten million tokens (minutes, gigabytes).
 * The grammar built here (server/grammars/README.md, "Template text in runs") takes a run of such
 * characters as one token, with the visible tree unchanged. Counted with tree-sitter's own parse log
 * ("lexed_lookahead" per token read), as test/iac/grammarRecovery.test.ts does.
 */

async function terraformParser(): Promise<{ parser: Parser; lexed: () => number }> {
  await Parser.init({ wasmBinary: loadIacWasm().runtime } as never);
  const parser = new Parser();
  parser.setLanguage(await Language.load(loadIacWasm().terraform));
  let tokens = 0;
  parser.setLogger((message) => {
    if (message.startsWith('lexed_lookahead')) tokens++;
  });
  return { parser, lexed: () => tokens };
}

const LINE = 'runcmd: mount -t nfs 10.0.1.4:/vol1 /mnt/vol1 ${var.options} %{ if true }x%{ endif } $${not} "q" \\n';

describe('template text is lexed in runs', () => {
  it('a heredoc of 2,000 lines: a few tokens per word, not one per character', async () => {
    const { parser, lexed } = await terraformParser();
    const text = `locals {\n  x = <<-EOT\n${`    ${LINE}\n`.repeat(2000)}  EOT\n}\n`;
    const before = lexed();
    const tree = parser.parse(text)!;
    const tokens = lexed() - before;
    try {
      expect(tree.rootNode.hasError).toBe(false);
      // About 20 tokens a line (words, interpolations, directives, escapes) against about 100 characters.
      expect(tokens).toBeLessThan(text.length / 3);
      const s = tree.rootNode.toString();
      expect(s).toContain('(heredoc_template (heredoc_start) (heredoc_identifier)');
      expect(s).toContain('(template_interpolation (template_interpolation_start)');
      expect(s).toContain('(template_directive (template_if');
    } finally {
      tree.delete();
    }
  });

  it('a quoted string keeps its ranges: literal text, escapes and interpolations where they were', async () => {
    const { parser } = await terraformParser();
    const value = 'a  b\\"c ${x} d$e %f \\u00e9 end';
    const text = `x = " ${value} "\n`;
    const tree = parser.parse(text)!;
    try {
      expect(tree.rootNode.hasError).toBe(false);
      const literals: string[] = [];
      const cursor = tree.walk();
      let down = true;
      for (;;) {
        if (cursor.nodeType === 'template_literal' && down) literals.push(cursor.currentNode.text);
        if (down && cursor.gotoFirstChild()) continue;
        if (cursor.gotoNextSibling()) {
          down = true;
          continue;
        }
        if (!cursor.gotoParent()) break;
        down = false;
      }
      cursor.delete();
      // Whitespace before and after a literal is outside it, as the one-character scanner left it.
      expect(literals).toEqual(['a  b\\"c', 'd$e %f \\u00e9 end']);
    } finally {
      tree.delete();
    }
  });
});
