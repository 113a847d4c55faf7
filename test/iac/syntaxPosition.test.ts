import { describe, expect, it } from 'vitest';
import { terraform } from '../../bench/generate.mjs';
import { parseFile } from '../../server/src/core';

/**
 * ANF400 goes where the syntax breaks. tree-sitter's error recovery can wrap whole valid blocks
 * above the broken token into one error node that starts near the top of the file; the finding then
 * goes to the first token of that node that is not such a block (iac/common.ts firstUnexpected),
 * not to the node's first line.
 */
describe('where a Terraform syntax error is reported', () => {
  const lines = terraform(400).split('\n');
  const at = lines.findIndex((line, i) => i > 200 && /^ {2}tags = merge\(local\.tags/.test(line));

  it('a stray brace typed inside a function name is reported on its own line, not at the top of the file', () => {
    expect(at).toBeGreaterThan(200);
    const edited = [...lines.slice(0, at), lines[at]!.replace('merge', 'merg}e'), ...lines.slice(at + 1)].join('\n');
    const problemLines = parseFile('file:///repo/main.tf', edited)
      .problems.filter((p) => p.code === 'ANF400')
      .map((p) => edited.slice(0, p.span.start).split('\n').length - 1);
    expect(problemLines).toContain(at);
    expect(problemLines.filter((line) => line < at - 10)).toEqual([]);
  });
});
