import { describe, expect, it } from 'vitest';
import { Language, Parser, type Tree } from 'web-tree-sitter';
import { terraform } from '../../bench/generate.mjs';
import { editBetween } from '../../server/src/core/iac/treeSitter';
import { loadIacWasm } from '../../server/src/iacWasm';

/**
 * The Terraform grammar is built here (server/grammars/README.md) because tree-sitter-hcl 1.2.0's
 * scanner, offered every token during error recovery, took the next word for a heredoc's name:
 * the rest of the file then lexed as template text, and re-parsing after an edit that broke the
 * syntax read the whole rest of the file again instead of reusing the old tree (about half the
 * file's tokens for an edit in the middle). With the fix such an edit lexes a few blocks' worth.
 * The count comes from tree-sitter's own parse log ("lexed_lookahead" per token read).
 */
const TEXT = terraform(1500);
const LINES = TEXT.split('\n');
const MIDDLE = Math.floor(LINES.length / 2);

/** The first line at or after the middle of the file that matches, edited as a person might. */
function editNearMiddle(match: RegExp, edit: (line: string) => string): string {
  const index = LINES.findIndex((line, i) => i >= MIDDLE && match.test(line));
  expect(index, `no line like ${match} after line ${MIDDLE}`).toBeGreaterThan(0);
  return [...LINES.slice(0, index), edit(LINES[index]!), ...LINES.slice(index + 1)].join('\n');
}

// Each edit breaks the syntax in the middle of the file.
const BREAKING: readonly (readonly [string, string])[] = [
  ['a character typed after a number', editNearMiddle(/^ +rule_index += \d+$/, (line) => `${line}x`)],
  ['a comma after a value', editNearMiddle(/^ {2}service_level += "/, (line) => `${line},`)],
  ['a digit before a reference', editNearMiddle(/= local\./, (line) => line.replace('= local.', '= 9local.'))],
  ['a character after a closing brace', editNearMiddle(/^}$/, () => '}=')],
  ['an equals sign inside a block name', editNearMiddle(/^resource "azurerm_netapp_volume"/, (line) => line.replace('resource ', 'resource ='))],
];

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

function tokensLexed(parse: () => Tree, lexed: () => number): { tree: Tree; tokens: number } {
  const before = lexed();
  const tree = parse();
  return { tree, tokens: lexed() - before };
}

describe('the Terraform grammar after an edit that breaks the syntax', () => {
  it.each(BREAKING)('re-parses only near the edit: %s', async (_name, broken) => {
    const { parser, lexed } = await terraformParser();
    const whole = tokensLexed(() => parser.parse(TEXT)!, lexed);
    const old = whole.tree.copy();
    old.edit(editBetween(TEXT, broken));
    const incremental = tokensLexed(() => parser.parse(broken, old)!, lexed);
    const fresh = parser.parse(broken)!;

    expect(incremental.tree.rootNode.hasError).toBe(true);
    // What the old scanner re-read: everything after the edit, about half the file's tokens.
    expect(incremental.tokens).toBeLessThan(whole.tokens / 20);
    // Reusing the old tree does not change what a broken file reads as.
    expect(incremental.tree.rootNode.toString()).toBe(fresh.rootNode.toString());

    for (const tree of [whole.tree, old, incremental.tree, fresh]) tree.delete();
    parser.delete();
  });

  it('still reads heredocs and templates (the scanner declines only during error recovery)', async () => {
    const { parser } = await terraformParser();
    const tree = parser.parse(
      'resource "azurerm_netapp_volume" "v" {\n  name = "vol-${var.sid}"\n  description = <<-EOT\n    Data volume for ${var.sid} %{ if var.ha }(HA)%{ endif }\n  EOT\n}\n',
    )!;
    expect(tree.rootNode.hasError).toBe(false);
    const text = tree.rootNode.toString();
    expect(text).toContain('(heredoc_template (heredoc_start) (heredoc_identifier)');
    expect(text).toContain('(template_interpolation (template_interpolation_start)');
    expect(text).toContain('(template_directive (template_if');
    tree.delete();
    parser.delete();
  });
});
