import { describe, expect, it } from 'vitest';
import { readTerraform } from '../../server/src/core/iac/terraform';
import { localCallsFromText } from '../../server/src/core/iac/terraformLocalCalls';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Issue 29: a `.tf` file that only calls local modules is not parsed alone; its calls are read from
 * its text (terraformLocalCalls.ts). Each call must be the one the parse gives, and any text the
 * line test cannot be sure of must go to the parser.
 */
const STACK = `locals {
  tags = {
    stack = "s1"
  }
}

resource "azurerm_resource_group" "this" {
  name     = "rg-s1"
  location = var.location
}

module "network" {
  source   = "../../modules/platform-3"
  location = var.location
  tags     = local.tags
}

module "anf" {
  source              = "./anf"
  for_each            = toset(["a", "b"])
  name_prefix         = "s1-\${each.key}"
  resource_group_name = azurerm_resource_group.this.name

  providers = {
    azurerm = azurerm.hub
  }
}
`;

/** The calls the parser gives: the same text with a word that makes the reader parse it, after the last byte. */
function parsedCalls(text: string) {
  const forced = `${text}\n# netapp\n`;
  return readTerraform(new SourceText(forced), [], 'file:///repo/stacks/s1/main.tf')?.calls;
}

function textCalls(text: string) {
  return readTerraform(new SourceText(text), [], 'file:///repo/stacks/s1/main.tf')?.calls;
}

describe('module calls read from the text of a .tf file', () => {
  it('gives the calls the parse gives, spans included', () => {
    const fromText = localCallsFromText(STACK);
    expect(fromText).toHaveLength(2);
    expect(fromText).toEqual(parsedCalls(STACK));
    expect(textCalls(STACK)).toEqual(fromText);
  });

  it('tells a count of the block from a count key inside a map argument', () => {
    const text = STACK.replace(
      '  tags     = local.tags\n',
      '  tags     = local.tags\n  settings = {\n    count = 3\n  }\n',
    );
    const fromText = localCallsFromText(text);
    expect(fromText?.map((c) => c.repeated)).toEqual([false, true]);
    expect(fromText).toEqual(parsedCalls(text));
  });

  it('reads Windows line ends and a tab before the brace', () => {
    const text = STACK.replace('module "network" {', 'module "network"\t{').replace(/\n/g, '\r\n');
    expect(localCallsFromText(text)).toEqual(parsedCalls(text));
  });

  it.each([
    ['a registry module', STACK.replace('"./anf"', '"Azure/avm-res-netapp-netappaccount/azurerm"')],
    ['a git source', STACK.replace('"./anf"', '"git::https://example.com/anf.git"')],
    ['a templated source', STACK.replace('"./anf"', '"./${var.flavour}"')],
    ['an escape in the source', STACK.replace('"./anf"', '"./a\\\\nf"')],
    ['a module block on one line', `${STACK}\nmodule "x" { source = "./x" }\n`],
    ['an indented module block', `${STACK}\n  module "x" {\n    source = "./x"\n  }\n`],
    ['a label without quotes', `${STACK}\nmodule x {\n  source = "./x"\n}\n`],
    ['the word module in a comment', `# the platform module "network"\n${STACK}`],
    ['a block comment', `/* module "old" {\n  source = "./old"\n} */\n${STACK}`],
    ['a heredoc', STACK.replace('tags     = local.tags', 'tags     = local.tags\n  script   = <<EOT\n}\nEOT')],
    ['two source lines', STACK.replace('  location = var.location\n  tags', '  source   = "./y"\n  tags')],
    ['no source', STACK.replace('  source   = "../../modules/platform-3"\n', '')],
    ['a block left open', STACK.replace(/\n\}\n$/, '\n')],
    [
      'a comment after the closing brace',
      `${STACK.replace(/\n\}\n$/, '\n} # anf\n')}\nresource "azurerm_resource_group" "more" {\n  count = 2\n}\n`,
    ],
  ])('leaves %s to the parser', (_, text) => {
    expect(localCallsFromText(text)).toBeUndefined();
  });

  it('reads a stack that calls a local NetApp module from its text, without parsing it', () => {
    // `netapp` in a module's path is no resource type: a broken line elsewhere shows the file was not parsed.
    const text = `${STACK.replace('"./anf"', '"../../modules/netapp-hana"')}\nlocals {\n  broken = \n}\n`;
    const problems: unknown[] = [];
    const calls = readTerraform(new SourceText(text), problems as never[], 'file:///repo/stacks/s1/main.tf')?.calls;
    expect(calls?.map((c) => c.source)).toEqual(['../../modules/platform-3', '../../modules/netapp-hana']);
    expect(problems).toEqual([]);
  });

  it('parses a file with a NetApp resource type, whatever its module blocks', () => {
    const text = `${STACK}\nresource "azurerm_netapp_account" "a" {\n  name = "a"\n}\n`;
    expect(localCallsFromText(text)).toHaveLength(2);
    expect(readTerraform(new SourceText(text), [], 'file:///repo/main.tf')?.accounts).toHaveLength(1);
  });
});
