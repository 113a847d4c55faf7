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

describe('Terraform module outputs', () => {
  const SIZING = {
    'modules/sizing/main.tf': `variable "memory_gib" {
  type = number
}

output "data_gib" {
  value = ceil(var.memory_gib * 1.2 / 100) * 100
}

output "created_id" {
  value = terraform_data.marker.id
}
`,
  };

  it('module.x.out evaluates the output in the instance scope (plain, count and for_each calls)', () => {
    const workspace = workspaceOf({
      ...SIZING,
      'main.tf': `module "one" {
  source     = "./modules/sizing"
  memory_gib = 1024
}

module "many" {
  source     = "./modules/sizing"
  count      = 2
  memory_gib = 512 * (count.index + 1)
}

module "keyed" {
  source     = "./modules/sizing"
  for_each   = { small = 256, large = 4096 }
  memory_gib = each.value
}

${VOLUME('module.one.data_gib')}
resource "azurerm_netapp_volume" "log" {
  name                = "log"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "log"
  subnet_id           = "x"
  storage_quota_in_gb = module.many[1].data_gib + module.keyed["large"].data_gib
}
`,
    });
    expect(volume(workspace, 'main.tf', 0).quota?.value).toBe(1300);
    expect(volume(workspace, 'main.tf', 1).quota?.value).toBe(1300 + 5000);
    expect(volume(workspace, 'main.tf', 0).quota?.origin).toContain('an output of module "one"');
  });

  it('stays unknown with the reason: an output known after apply, a missing output, a registry module', () => {
    const workspace = workspaceOf({
      ...SIZING,
      'main.tf': `module "one" {
  source     = "./modules/sizing"
  memory_gib = 1024
}

module "registry" {
  source  = "contoso/anf-sizing/azurerm"
  version = "1.0.0"
}

${VOLUME('module.one.created_id')}
resource "azurerm_netapp_volume" "b" {
  name                = "b"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "b"
  subnet_id           = "x"
  storage_quota_in_gb = module.one.no_such_output
}

resource "azurerm_netapp_volume" "c" {
  name                = "c"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "c"
  subnet_id           = "x"
  storage_quota_in_gb = module.registry.quota
}
`,
    });
    const [a, b, c] = [0, 1, 2].map((i) => volume(workspace, 'main.tf', i).quota);
    expect(a?.value).toBeUndefined();
    expect(a?.unknown).toMatch(/`module\.one\.created_id` \(the module's output\) is unknown/);
    expect(b?.unknown).toContain('has no output `no_such_output`');
    expect(c?.unknown).toContain(
      'comes from `contoso/anf-sizing/azurerm`: its code (and its outputs) is not in the repository',
    );
  });
});
