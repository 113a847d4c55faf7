import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** Shapes of valid infrastructure code found on public repositories (docs/realworld.md). */
const config = resolveConfig(configSchema.parse({}));
const FIXTURES = join(__dirname, '..', 'fixtures', 'rules');

function findings(path: string, text: string): string[] {
  const workspace = new Workspace(config);
  workspace.set(`file:///repo/${path}`, text);
  return visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config)).map(
    (d) => `${d.range.start.line + 1} ${d.code}`,
  );
}

describe('Bicep the published tree-sitter grammar did not know', () => {
  const modern = readFileSync(join(FIXTURES, 'ANF400-iac-syntax-error', 'infra', 'modules-style.bicep'), 'utf8');

  it('reads nullable user types, resource-derived types, `x!` arguments and spreads without a syntax error, and still reads the volume', () => {
    const codes = findings('infra/modules-style.bicep', modern);
    expect(codes.filter((c) => c.endsWith('ANF400'))).toEqual([]);
    expect(codes).toContain('41 ANF401');
  });

  it('reads an `extension` statement and a typed variable without a syntax error', () => {
    const text =
      "extension microsoftGraphV1\nvar poolName string = 'pool-premium'\nresource account 'Microsoft.NetApp/netAppAccounts@2025-01-01' = {\n  name: 'anf-eda'\n  location: 'westeurope'\n}\n";
    expect(findings('infra/graph.bicep', text).filter((c) => c.endsWith('ANF400'))).toEqual([]);
  });

  it('still reports a real syntax error', () => {
    expect(
      findings(
        'infra/broken.bicep',
        "resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-01-01' = {\n  properties: {\n    size: 4 * * 1099511627776\n  }\n}\n",
      ),
    ).toContain('3 ANF400');
  });
});
