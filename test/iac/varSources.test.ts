import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * Where variable values come from besides terraform.tfvars and *.auto.tfvars (issue 27 §2): var
 * files named in `.anf-lint.yaml` (`terraform.varFiles`, as `-var-file`), and example files
 * (`*.tfvars.example`, `*.tfvars.sample`) only where nothing else gives a value, saying so.
 */
const config = resolveConfig(configSchema.parse({}));

const MAIN = `variable "quota_gib" {
  type = number
}

resource "azurerm_netapp_volume" "data" {
  name                = "data"
  account_name        = "acct"
  pool_name           = "pool"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "data"
  storage_quota_in_gb = var.quota_gib
  protocols           = ["NFSv3"]
}
`;

function quotaOf(files: Record<string, string>, path = 'infra/main.tf') {
  const workspace = new Workspace(config);
  for (const [p, text] of Object.entries(files)) workspace.set(`file:///repo/${p}`, text);
  const volume = workspace.file(`file:///repo/${path}`)!.iac!.volumes[0]!;
  return { quota: volume.quota!, workspace };
}

describe('variable values from named var files and examples', () => {
  it('stays unknown, with the reason, when nothing sets the variable', () => {
    const { quota } = quotaOf({ 'infra/main.tf': MAIN, 'infra/other.tf': '' });
    expect(quota.value).toBeUndefined();
    expect(quota.unknown).toContain('`var.quota_gib` has no value in this folder');
  });

  it('reads a var file named in .anf-lint.yaml for its module folder', () => {
    const { quota } = quotaOf({
      'infra/main.tf': MAIN,
      'environments/prod.tfvars': 'quota_gib = 4096\n',
      '.anf-lint.yaml': 'terraform:\n  varFiles:\n    infra: [environments/prod.tfvars]\n',
    });
    expect(quota.value).toBe(4096);
    expect(quota.origin).toContain('prod.tfvars line 1 (a var file named in .anf-lint.yaml)');
  });

  it('reports a syntax error in a named var file, which is not parsed alone', () => {
    const files = {
      'infra/main.tf': MAIN,
      'environments/prod.tfvars': 'quota_gib = \n',
      '.anf-lint.yaml': 'iac:\n  varFiles:\n    infra: [environments/prod.tfvars]\n',
    };
    const { workspace } = quotaOf(files);
    const syntax = (path: string) =>
      visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config))
        .filter((d) => d.code === 'ANF400')
        .map((d) => d.range.start.line + 1);
    expect(syntax('environments/prod.tfvars')).toEqual([1]);
    // Named by no configuration: its values reach nothing anf-lint reads, and it is not parsed.
    const { workspace: unnamed } = quotaOf({ ...files, '.anf-lint.yaml': 'rules: {}\n' });
    expect(
      visibleDiagnostics(lintFile(unnamed, 'file:///repo/environments/prod.tfvars', config)).filter(
        (d) => d.code === 'ANF400',
      ),
    ).toEqual([]);
  });

  it('reads the var files named under iac: (iac.varFiles), which win over the old terraform.varFiles', () => {
    const { quota } = quotaOf({
      'infra/main.tf': MAIN,
      'environments/prod.tfvars': 'quota_gib = 4096\n',
      'environments/old.tfvars': 'quota_gib = 100\n',
      '.anf-lint.yaml':
        'iac:\n  varFiles:\n    infra: [environments/prod.tfvars]\nterraform:\n  varFiles:\n    infra: [environments/old.tfvars]\n',
    });
    expect(quota.value).toBe(4096);
    expect(quota.origin).toContain('prod.tfvars line 1 (a var file named in .anf-lint.yaml)');
  });

  it("never reads a named file outside the configuration file's folder", () => {
    const { quota } = quotaOf(
      {
        'repo2/infra/main.tf': MAIN,
        'outside.tfvars': 'quota_gib = 4096\n',
        'repo2/.anf-lint.yaml': 'terraform:\n  varFiles:\n    infra: [../outside.tfvars]\n',
      },
      'repo2/infra/main.tf',
    );
    expect(quota.value).toBeUndefined();
  });

  it('uses an example value only when nothing else gives one, and every message says it is an example', () => {
    const hanaLog = MAIN.replace(
      'resource "azurerm_netapp_volume"',
      '# anf: workload=sap-hana-log\nresource "azurerm_netapp_volume"',
    );
    const files = { 'infra/main.tf': hanaLog, 'infra/terraform.tfvars.example': 'quota_gib = 512\n' };
    const { quota, workspace } = quotaOf(files);
    expect(quota.value).toBe(512);
    expect(quota.origin).toContain(
      'an EXAMPLE value in terraform.tfvars.example line 1, which Terraform does not load',
    );
    // A finding that uses it says so (512 GiB of Premium is below SAP HANA's log KPI: ANF408).
    const messages = visibleDiagnostics(lintFile(workspace, 'file:///repo/infra/main.tf', config)).map(
      (d) => d.message,
    );
    expect(messages.some((m) => m.includes('EXAMPLE value'))).toBe(true);

    const real = quotaOf({ ...files, 'infra/terraform.tfvars': 'quota_gib = 2048\n' }).quota;
    expect(real.value).toBe(2048);
    expect(real.origin).not.toContain('EXAMPLE');
  });
});
