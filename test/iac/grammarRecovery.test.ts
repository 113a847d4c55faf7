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
  [
    'an equals sign inside a block name',
    editNearMiddle(/^resource "azurerm_netapp_volume"/, (line) => line.replace('resource ', 'resource =')),
  ],
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

/**
 * The Bicep grammar built here (issue 32): tree-sitter-bicep 1.1.0's scanner, offered every token
 * during error recovery, read a multi-line string's content on to the next `'''` or the end of the
 * file each time, so an error near the top of a file (an unfinished `resource` line, what a user
 * types first) cost time proportional to the square of the file's length: 27-52 s for 76 KB. The
 * work is counted as the characters tree-sitter reads through its input callback, against the
 * text's length; it must not grow with the file (1.1.0: 413x the text at 8 KB, 1,544x at 32 KB).
 */
describe('the Bicep grammar after an error near the top of a file', () => {
  const HEADS = [
    "resource vol '",
    "resource vol 'Microsoft.NetApp/netAppAccounts@2024-03-01' = {",
    "resource vol 'Microsoft.NetApp/netAppAccounts@2024-03-01' = {\n  name: '",
  ];
  const declaration = (i: number): string =>
    [
      `param p${i} string = 'value-${i}'`,
      `var v${i} = '''\nline ${i}\n'''`,
      `resource r${i} 'Microsoft.NetApp/netAppAccounts@2024-03-01' = {\n  name: 'acc${i}'\n  location: 'westeurope'\n}`,
    ][i % 3]!;
  const file = (head: string, declarations: number): string =>
    `${head}\n${Array.from({ length: declarations }, (_, i) => declaration(i)).join('\n')}\n`;

  async function bicepParser(): Promise<Parser> {
    await Parser.init({ wasmBinary: loadIacWasm().runtime } as never);
    const parser = new Parser();
    parser.setLanguage(await Language.load(loadIacWasm().bicep));
    return parser;
  }

  /** Characters read through the input callback, per character of the text. */
  function readPerCharacter(parser: Parser, text: string): number {
    let read = 0;
    const tree = parser.parse((index: number) => {
      const chunk = text.slice(index, index + 1024); // not a fact: the callback's chunk size
      read += chunk.length;
      return chunk;
    })!;
    expect(tree.rootNode.hasError).toBe(true);
    tree.delete();
    return read / text.length;
  }

  it.each(HEADS)('reads the file a bounded number of times, however long it is: %s', async (head) => {
    const parser = await bicepParser();
    const small = readPerCharacter(parser, file(head, 300));
    const large = readPerCharacter(parser, file(head, 2400));
    expect(small).toBeLessThan(4);
    expect(large).toBeLessThan(4);
    expect(large).toBeLessThan(small * 1.5);
    parser.delete();
  });

  it('still reads multi-line strings (the scanner declines only during error recovery)', async () => {
    const parser = await bicepParser();
    const tree = parser.parse("var a = '''\nline 'one'\n// not a comment\n'''\nvar b = 'x'\n")!;
    expect(tree.rootNode.hasError).toBe(false);
    expect(tree.rootNode.namedChildren.map((n) => n?.type)).toEqual(['variable_declaration', 'variable_declaration']);
    tree.delete();
    parser.delete();
  });
});
