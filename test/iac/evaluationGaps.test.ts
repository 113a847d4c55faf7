import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * The evaluation gaps issue 27 left (docs/status.md): deep expressions, module outputs, files read
 * by `file()`, undeclared `.tfvars` keys, unknown conditions, `templateLink` deployments.
 */
const config = resolveConfig(configSchema.parse({}));

function workspaceOf(files: Record<string, string>): Workspace {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return workspace;
}

function findings(workspace: Workspace, path: string): string[] {
  return visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config)).map(
    (d) => `${d.range.start.line + 1}:${d.range.start.character} ${d.code} ${d.message}`,
  );
}

function volume(workspace: Workspace, path: string, index = 0) {
  const v = workspace.file(`file:///repo/${path}`)?.iac?.volumes[index];
  if (!v) throw new Error(`no volume ${index} in ${path}`);
  return v;
}

const VOLUME = (quota: string, extra = '') => `resource "azurerm_netapp_volume" "data" {
  name                = "data"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "data"
  subnet_id           = "/subscriptions/0/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v/subnets/anf"
  storage_quota_in_gb = ${quota}${extra}
}
`;

describe('a Terraform expression nested 2,000 levels deep', () => {
  const shapes: [string, string][] = [
    ['parentheses', `${'('.repeat(2000)}1024${')'.repeat(2000)}`],
    ['function calls', `${'max('.repeat(2000)}1024${', 1)'.repeat(2000)}`],
    ['conditionals', `${'true ? '.repeat(2000)}1024${' : 1'.repeat(2000)}`],
  ];
  it.each(shapes)('%s: an ANF422 on the value, unknown, no crash (ANF002/ANF003)', (_name, expr) => {
    const workspace = workspaceOf({ 'main.tf': VOLUME(expr) });
    const found = findings(workspace, 'main.tf');
    expect(found.filter((f) => / ANF00[23] /.test(f))).toEqual([]);
    expect(found.filter((f) => f.includes('ANF422'))).toEqual([
      expect.stringMatching(/^10:24 ANF422 anf-lint stopped evaluating this expression: it nests more than 200 levels/),
    ]);
    expect(volume(workspace, 'main.tf').quota?.value).toBeUndefined();
  });

  it('in a local of another file of the module: the ANF422 is on the value that uses it', () => {
    const workspace = workspaceOf({
      'locals.tf': `locals {\n  quota = ${'{ a = '.repeat(2000)}1024${' }'.repeat(2000)}\n}\n`,
      'main.tf': VOLUME('local.quota'),
    });
    const found = findings(workspace, 'main.tf');
    expect(found.filter((f) => / ANF00[23] /.test(f))).toEqual([]);
    expect(found.filter((f) => f.includes('ANF422'))).toHaveLength(1);
  });

  it('a shallow expression is still evaluated', () => {
    const workspace = workspaceOf({ 'main.tf': VOLUME(`${'('.repeat(20)}1024${')'.repeat(20)}`) });
    expect(volume(workspace, 'main.tf').quota?.value).toBe(1024);
    expect(findings(workspace, 'main.tf').filter((f) => f.includes('ANF422'))).toEqual([]);
  });
});
