import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { IAC_SYNTAX_CODE } from '../../server/src/core/iac/common';

/**
 * Valid infrastructure code in current syntax gives no syntax finding (ANF400): on real
 * repositories most of anf-lint's findings were syntax errors on valid Bicep (issue 27). The files
 * under test/fixtures/iac/valid/ are written after the language references: Bicep (user-defined
 * types and functions, imports, extensions, spreads, lambdas, `x!`, `.?`, `??`, parameters files),
 * Terraform (optional object attributes, moved/import/removed/check blocks, for expressions,
 * heredocs and templates, provider functions) and an ARM template with languageVersion 2.0.
 */
const VALID = join(__dirname, '..', '..', 'test', 'fixtures', 'iac', 'valid');
const config = resolveConfig(configSchema.parse({}));

const FILES = readdirSync(VALID, { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.(?:bicep|tf|tfvars|json)$/.test(f))
  .map((f) => f.replaceAll('\\', '/'))
  .sort();

describe('valid infrastructure code', () => {
  it('has a corpus of each kind', () => {
    expect(FILES.filter((f) => f.endsWith('.bicep')).length).toBeGreaterThanOrEqual(5);
    expect(FILES.filter((f) => f.endsWith('.tf')).length).toBeGreaterThanOrEqual(1);
    expect(FILES.filter((f) => f.endsWith('.json')).length).toBeGreaterThanOrEqual(1);
  });

  it.each(FILES)('%s gives no syntax finding', (file) => {
    const uri = `file:///repo/infra/${file}`;
    const workspace = new Workspace(config);
    workspace.set(uri, readFileSync(join(VALID, file), 'utf8'));
    const syntax = visibleDiagnostics(lintFile(workspace, uri, config)).filter((d) => d.code === IAC_SYNTAX_CODE);
    expect(syntax.map((d) => `${d.range.start.line + 1}: ${d.message}`)).toEqual([]);
  });
});
