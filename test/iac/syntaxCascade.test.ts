import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { IAC_SYNTAX_CODE } from '../../server/src/core/iac/common';

/**
 * One syntax error gives one ANF400, on the line of the error; the valid declarations after it give
 * none (issue 27: after one real error, tree-sitter's recovery wrapped valid lines in error nodes
 * and each gave a finding). Realistic files (test/fixtures/iac/valid/) with one error typed at the
 * start, in the middle and at the end.
 */
const VALID = join(__dirname, '..', 'fixtures', 'iac', 'valid');
const config = resolveConfig(configSchema.parse({}));

/** The lines (1-based) of the ANF400 findings of `text` read as `path`. */
function syntaxLines(path: string, text: string): number[] {
  const uri = `file:///repo/infra/${path}`;
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config))
    .filter((d) => d.code === IAC_SYNTAX_CODE)
    .map((d) => d.range.start.line + 1);
}

type Edit = readonly [name: string, line: number, how: 'insert' | 'replace', text: string];

/** `text` with one line inserted before (or replacing) line `line` (1-based; one past the end appends). */
function edited(text: string, [, line, how, replacement]: Edit): string {
  const lines = text.split('\n');
  lines.splice(line - 1, how === 'replace' ? 1 : 0, replacement);
  return lines.join('\n');
}

const BICEP = readFileSync(join(VALID, 'bicep', 'main.bicep'), 'utf8');
const BICEP_END = BICEP.split('\n').length;
const BICEP_EDITS: readonly Edit[] = [
  ['an unfinished resource line at the start', 1, 'insert', "resource vol '"],
  [
    'an unclosed resource body at the start',
    1,
    'insert',
    "resource vol 'Microsoft.NetApp/netAppAccounts@2024-03-01' = {",
  ],
  ['an operator without an operand in the middle', 71, 'insert', 'var broken = 4 * * 2'],
  ['a declaration without a value in the middle', 71, 'insert', 'var broken = '],
  ['an unterminated string inside a resource in the middle', 124, 'replace', "    networkFeatures: 'Standard"],
  ['an unfinished output at the end', BICEP_END, 'insert', 'output last string = '],
];

const TERRAFORM = readFileSync(join(VALID, 'terraform', 'main.tf'), 'utf8');
const TERRAFORM_END = TERRAFORM.split('\n').length;
const TERRAFORM_EDITS: readonly Edit[] = [
  ['an unclosed block at the start', 1, 'insert', 'resource "azurerm_netapp_volume" "draft" {'],
  ['a doubled equals sign inside a block in the middle', 129, 'replace', '  qos_type            = = "Auto"'],
  ['an unclosed block in the middle', 122, 'insert', 'resource "azurerm_netapp_pool" "draft" {'],
  ['an attribute without a value in the middle', 129, 'replace', '  qos_type            ='],
  ['an unclosed block at the end', TERRAFORM_END, 'insert', 'output "draft" {'],
];

describe('one syntax error, one finding', () => {
  it('the files are valid as they are', () => {
    expect(syntaxLines('main.bicep', BICEP)).toEqual([]);
    expect(syntaxLines('main.tf', TERRAFORM)).toEqual([]);
  });

  it.each(BICEP_EDITS)('Bicep: %s', (...edit) => {
    expect(syntaxLines('main.bicep', edited(BICEP, edit))).toEqual([edit[1]]);
  });

  it.each(TERRAFORM_EDITS)('Terraform: %s', (...edit) => {
    expect(syntaxLines('main.tf', edited(TERRAFORM, edit))).toEqual([edit[1]]);
  });

  it('two errors in two declarations give two findings', () => {
    const twice = edited(edited(BICEP, ['', 71, 'insert', 'var broken = 4 * * 2']), [
      '',
      1,
      'insert',
      "resource vol '",
    ]);
    expect(syntaxLines('main.bicep', twice)).toEqual([1, 72]);
  });

  it('a declaration keyword inside a multi-line string or heredoc does not split the file', () => {
    const bicep =
      "var script = '''\nresource x 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {\n'''\nvar broken = 4 * * 2\n";
    expect(syntaxLines('script.bicep', bicep)).toEqual([4]);
    const terraform = 'locals {\n  script = <<EOT\nresource "azurerm_netapp_account" "y" {\nEOT\n  broken = = 1\n}\n';
    expect(syntaxLines('script.tf', terraform)).toEqual([5]);
  });
});
