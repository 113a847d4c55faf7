import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { computeHover } from '../../server/src/core/features/hover';
import { MemoryEnvironment, Project } from '../../server/src/core/project';

/**
 * A Terraform module split across files (variables.tf, locals.tf, terraform.tfvars, pools.tf,
 * volumes.tf) is evaluated as Terraform evaluates it: variables, locals and resource references
 * resolve across the folder, .tfvars values win over defaults, findings stay where the value is written.
 */
const config = resolveConfig(configSchema.parse({}));

const MODULE: Record<string, string> = {
  'variables.tf': `variable "data_quota_gib" {
  type    = number
  default = 2048
}

variable "pool_tib" {
  type = number
}

variable "level" {
  type    = string
  default = "Premium"
}
`,
  'locals.tf': `locals {
  prefix = "eda"
}
`,
  'terraform.tfvars': `pool_tib       = 4
data_quota_gib = 40
`,
  'pools.tf': `resource "azurerm_netapp_pool" "p" {
  name                = "\${local.prefix}-pool"
  account_name        = "eda-prod"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = var.level
  size_in_tb          = var.pool_tib
}
`,
  'volumes.tf': `resource "azurerm_netapp_volume" "tools" {
  name                = "\${local.prefix}-tools"
  account_name        = "eda-prod"
  pool_name           = azurerm_netapp_pool.p.name
  service_level       = "Standard"
  volume_path         = "eda-tools"
  storage_quota_in_gb = var.data_quota_gib
  protocols           = ["NFSv3"]
}
`,
};

function workspaceOf(files: Record<string, string>, folder = 'file:///repo/infra/') {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`${folder}${path}`, text);
  return workspace;
}

function findings(workspace: Workspace, uri: string) {
  return visibleDiagnostics(lintFile(workspace, uri, config)).map(
    (d) => `${d.range.start.line + 1} ${d.code} ${d.message}`,
  );
}

describe('Terraform module across files', () => {
  it('resolves variables, locals, .tfvars values and the pool of another file', () => {
    const workspace = workspaceOf(MODULE);
    const volumes = workspace.file('file:///repo/infra/volumes.tf')!;
    const volume = volumes.manifest!.accounts[0]!.pools[0]!.volumes[0]!;
    expect(volume.name?.value).toBe('eda-tools');
    expect(volume.quota?.value.amount).toBe(40); // terraform.tfvars wins over the default 2048
    const pool = workspace.file('file:///repo/infra/pools.tf')!.manifest!.accounts[0]!.pools[0]!;
    expect(pool.name?.value).toBe('eda-pool');
    expect(pool.size?.value.amount).toBe(4);
    expect(pool.serviceLevel?.value).toBe('Premium');
  });

  it('reports on the attribute where the value is used, with where it came from on hover', () => {
    const workspace = workspaceOf(MODULE);
    const uri = 'file:///repo/infra/volumes.tf';
    const list = findings(workspace, uri);
    expect(list).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^5 ANF401 .*`Standard`.*`Premium`/),
        expect.stringMatching(/^7 ANF111 /),
      ]),
    );
    const text = workspace.file(uri)!.source.text;
    const hover = computeHover(workspace, uri, text.indexOf('var.data_quota_gib') + 4, config);
    expect(hover?.markdown).toContain('`var.data_quota_gib` = 40, from terraform.tfvars line 2');
    const pool = computeHover(workspace, uri, text.indexOf('azurerm_netapp_pool.p.name') + 2, config);
    expect(pool?.markdown).toContain('**Capacity pool ?/eda-pool** · Premium');
    expect(pool?.markdown).toContain('Pool: from `azurerm_netapp_pool.p` in pools.tf line 1.');
  });

  it('a file added to or removed from the folder after a reading changes the next reading', () => {
    const { 'terraform.tfvars': tfvars, ...rest } = MODULE;
    const workspace = workspaceOf(rest);
    const quota = () =>
      workspace.file('file:///repo/infra/volumes.tf')!.manifest!.accounts[0]!.pools[0]!.volumes[0]!.quota?.value.amount;
    expect(quota()).toBe(2048); // the default
    workspace.set('file:///repo/infra/terraform.tfvars', tfvars!);
    expect(quota()).toBe(40);
    workspace.delete('file:///repo/infra/terraform.tfvars');
    expect(quota()).toBe(2048);
  });

  it('a file alone still gives what it gives alone', () => {
    const workspace = workspaceOf({ 'volumes.tf': MODULE['volumes.tf']! });
    const volume = workspace.file('file:///repo/infra/volumes.tf')!.iac!.volumes[0]!;
    expect(volume.quota?.value).toBeUndefined();
    expect(volume.name?.value).toBeUndefined();
  });
});

describe('a finding on a value set through a variable', () => {
  it('names where the value came from', () => {
    const workspace = workspaceOf(MODULE);
    const list = findings(workspace, 'file:///repo/infra/volumes.tf');
    expect(list.find((f) => f.includes('ANF111'))).toContain(
      '(`var.data_quota_gib` = 40, from terraform.tfvars line 2)',
    );
  });
});

describe('the same module findings from the CLI project (in-memory environment) as from the workspace', () => {
  const files = Object.fromEntries(Object.entries(MODULE).map(([name, text]) => [`/repo/infra/${name}`, text]));
  const expected = findings(workspaceOf(MODULE, 'file:///repo/infra/'), 'file:///repo/infra/volumes.tf');

  it('inside git, naming only volumes.tf', () => {
    const env = new MemoryEnvironment(files);
    env.repository('/repo', { known: Object.keys(files).map((p) => p.slice('/repo/'.length)) });
    const project = new Project(env);
    const found = project.discover('/repo/infra/volumes.tf');
    const run = project.open([{ path: '/repo/infra/volumes.tf', root: found.root, named: true }]);
    expect(
      visibleDiagnostics(run.lint(env.uriOf('/repo/infra/volumes.tf')).diagnostics).map(
        (d) => `${d.range.start.line + 1} ${d.code} ${d.message}`,
      ),
    ).toEqual(expected);
  });

  it('outside git, naming the folder', () => {
    const env = new MemoryEnvironment(files);
    const project = new Project(env);
    const found = project.discover('/repo/infra');
    const run = project.open(found.paths.map((path) => ({ path, root: found.root })));
    expect(
      visibleDiagnostics(run.lint(env.uriOf('/repo/infra/volumes.tf')).diagnostics).map(
        (d) => `${d.range.start.line + 1} ${d.code} ${d.message}`,
      ),
    ).toEqual(expected);
  });

  it('outside git, naming only volumes.tf', () => {
    const env = new MemoryEnvironment(files);
    const project = new Project(env);
    const found = project.discover('/repo/infra/volumes.tf');
    const run = project.open([{ path: '/repo/infra/volumes.tf', root: found.root, named: true }]);
    expect(
      visibleDiagnostics(run.lint(env.uriOf('/repo/infra/volumes.tf')).diagnostics).map(
        (d) => `${d.range.start.line + 1} ${d.code} ${d.message}`,
      ),
    ).toEqual(expected);
  });
});

describe('a pool and its volumes in different files of a module', () => {
  const files: Record<string, string> = {
    'pools.tf': `resource "azurerm_netapp_pool" "p" {
  name          = "eda-premium"
  account_name  = "eda-prod"
  service_level = "Premium"
  size_in_tb    = 4
}
`,
    'volumes.tf': `resource "azurerm_netapp_volume" "tools" {
  name                = "eda-tools"
  account_name        = "eda-prod"
  pool_name           = azurerm_netapp_pool.p.name
  service_level       = "Premium"
  volume_path         = "eda-tools"
  storage_quota_in_gb = 3072
  protocols           = ["NFSv3"]
}

resource "azurerm_netapp_volume" "libs" {
  name                = "eda-libs"
  account_name        = "eda-prod"
  pool_name           = azurerm_netapp_pool.p.name
  service_level       = "Premium"
  volume_path         = "eda-libs"
  storage_quota_in_gb = 2048
  protocols           = ["NFSv3"]
}
`,
  };

  it('adds up the volumes of volumes.tf in the pool of pools.tf (ANF112 on the pool, related locations in volumes.tf)', () => {
    const workspace = workspaceOf(files);
    const diagnostics = visibleDiagnostics(lintFile(workspace, 'file:///repo/infra/pools.tf', config));
    const overcommitted = diagnostics.find((d) => d.code === 'ANF112');
    expect(overcommitted?.message).toContain("have 5,120 GiB (5 TiB) of quota, more than the pool's 4 TiB");
    expect(overcommitted?.range.start.line).toBe(4);
    expect(
      overcommitted?.related.map((r) => `${r.uri.split('/').pop()} ${r.range.start.line + 1} ${r.message}`),
    ).toEqual(['volumes.tf 7 eda-tools: 3072', 'volumes.tf 17 eda-libs: 2048']);
    // volumes.tf reports nothing about the pool's total: that finding is the pool's.
    expect(findings(workspace, 'file:///repo/infra/volumes.tf').filter((f) => / ANF112 /.test(f))).toEqual([]);
  });
});

describe('terraform.tfvars.json and *.auto.tfvars.json', () => {
  const module = (extra: Record<string, string>) => ({
    'variables.tf': MODULE['variables.tf']!,
    'locals.tf': MODULE['locals.tf']!,
    'pools.tf': MODULE['pools.tf']!,
    'volumes.tf': MODULE['volumes.tf']!,
    ...extra,
  });

  it('sets variables as Terraform does: terraform.tfvars, then terraform.tfvars.json, then the auto files by name', () => {
    const workspace = workspaceOf(
      module({
        'terraform.tfvars': 'pool_tib = 4\ndata_quota_gib = 40\n',
        'terraform.tfvars.json': '{\n  "data_quota_gib": 45,\n  "level": "Standard"\n}\n',
        'b.auto.tfvars.json': '{\n  "pool_tib": 6\n}\n',
        'a.auto.tfvars': 'pool_tib = 5\n',
        'prod.tfvars.json': '{ "pool_tib": 100 }\n',
      }),
    );
    const volume = workspace.file('file:///repo/infra/volumes.tf')!.manifest!.accounts[0]!.pools[0]!.volumes[0]!;
    expect(volume.quota?.value.amount).toBe(45);
    const pool = workspace.file('file:///repo/infra/pools.tf')!.manifest!.accounts[0]!.pools[0]!;
    expect(pool.size?.value.amount).toBe(6); // b.auto.tfvars.json comes after a.auto.tfvars; prod.tfvars.json needs -var-file
    expect(pool.serviceLevel?.value).toBe('Standard');
    const finding = findings(workspace, 'file:///repo/infra/volumes.tf').find((f) => / ANF111 /.test(f));
    expect(finding).toContain('(`var.data_quota_gib` = 45, from terraform.tfvars.json line 2)');
  });

  it('a .tfvars.json file is checked as JSON, with positions', () => {
    const workspace = workspaceOf({ 'terraform.tfvars.json': '{\n  "pool_tib": 4,\n  // not JSON\n}\n' });
    const list = findings(workspace, 'file:///repo/infra/terraform.tfvars.json');
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((f) => / ANF400 JSON syntax: /.test(f))).toBe(true);
    expect(list[0]).toMatch(/^3 /);
    expect(
      findings(
        workspaceOf({ 'terraform.tfvars.json': '{\n  "pool_tib": 4\n}\n' }),
        'file:///repo/infra/terraform.tfvars.json',
      ),
    ).toEqual([]);
  });
});
