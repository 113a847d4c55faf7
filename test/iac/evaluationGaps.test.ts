import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { estateInventory } from '../../server/src/core/estate/inventory';
import { computeHover } from '../../server/src/core/features/hover';

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

describe('a condition anf-lint cannot evaluate decides whether a resource is deployed', () => {
  const ARM = JSON.stringify(
    {
      $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
      contentVersion: '1.0.0.0',
      parameters: { deployScratch: { type: 'bool' } },
      resources: [
        {
          type: 'Microsoft.NetApp/netAppAccounts',
          apiVersion: '2023-05-01',
          name: 'anf-hpc',
          location: 'westeurope',
        },
        {
          type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
          apiVersion: '2023-05-01',
          name: 'anf-hpc/pool1',
          location: 'westeurope',
          properties: { serviceLevel: 'Premium', size: 4398046511104 },
        },
        {
          condition: "[parameters('deployScratch')]",
          type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
          apiVersion: '2023-05-01',
          name: 'anf-hpc/pool1/scratch',
          location: 'westeurope',
          properties: { serviceLevel: 'Premium', usageThreshold: 1099511627776, creationToken: 'scratch' },
        },
      ],
    },
    null,
    2,
  );

  it('ARM `condition`: kept, with the note in the estate, the inventory and the hover', () => {
    const workspace = workspaceOf({ 'azuredeploy.json': ARM });
    const v = volume(workspace, 'azuredeploy.json');
    expect(v.deployedIf).toMatch(
      /^deployed only if `\[parameters\('deployScratch'\)\]`: its value is unknown: parameter `deployScratch` has no value/,
    );
    const listed = estateInventory(workspace, config).volumes.find((x) => x.name === 'scratch');
    expect(listed?.quotaGiB).toBe(1024);
    expect(listed?.unknown.some((u) => u.startsWith('deployed: deployed only if'))).toBe(true);
    const hover = computeHover(
      workspace,
      'file:///repo/azuredeploy.json',
      ARM.indexOf('anf-hpc/pool1/scratch') + 2,
      config,
    );
    expect(hover?.markdown).toContain('Deployed only if');
  });

  it("ARM: a child resource of a conditional pool shares its parent's note", () => {
    const template = JSON.parse(ARM);
    const [account, pool, scratch] = template.resources;
    const child = { ...scratch, name: 'data', properties: { ...scratch.properties, creationToken: 'data' } };
    delete child.condition;
    child.type = 'volumes';
    template.resources = [account, { ...pool, condition: "[parameters('deployScratch')]", resources: [child] }];
    const workspace = workspaceOf({ 'azuredeploy.json': JSON.stringify(template, null, 2) });
    const v = volume(workspace, 'azuredeploy.json');
    expect(v.name?.value).toBe('data');
    expect(v.deployedIf).toMatch(/^deployed only if `\[parameters\('deployScratch'\)\]`/);
  });

  it('Bicep `if`: kept with the note; a known false condition deploys nothing', () => {
    const workspace = workspaceOf({
      'main.bicep': `param deployScratch bool
param deployArchive bool = false

resource account 'Microsoft.NetApp/netAppAccounts@2023-05-01' = {
  name: 'anf-hpc'
  location: 'westeurope'
}

resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2023-05-01' = {
  parent: account
  name: 'pool1'
  location: 'westeurope'
  properties: {
    serviceLevel: 'Premium'
    size: 4398046511104
  }
}

resource scratch 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2023-05-01' = if (deployScratch) {
  parent: pool
  name: 'scratch'
  location: 'westeurope'
  properties: {
    serviceLevel: 'Premium'
    usageThreshold: 1099511627776
    creationToken: 'scratch'
  }
}

resource archive 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2023-05-01' = if (deployArchive) {
  parent: pool
  name: 'archive'
  location: 'westeurope'
  properties: {
    serviceLevel: 'Premium'
    usageThreshold: 1099511627776
    creationToken: 'archive'
  }
}
`,
    });
    const volumes = workspace.file('file:///repo/main.bicep')?.iac?.volumes ?? [];
    expect(volumes.map((v) => v.name?.value)).toEqual(['scratch']);
    expect(volumes[0]?.deployedIf).toMatch(/^deployed only if `deployScratch`: its value is unknown/);
  });

  it('Terraform `count = var.x ? 1 : 0`: one instance, with the note', () => {
    const workspace = workspaceOf({
      'main.tf': `variable "enable_backup_volume" {
  type = bool
}

resource "azurerm_netapp_volume" "backup" {
  count               = var.enable_backup_volume ? 1 : 0
  name                = "backup"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Standard"
  volume_path         = "backup"
  subnet_id           = "x"
  storage_quota_in_gb = 4096
}
`,
    });
    const v = volume(workspace, 'main.tf');
    expect(v.address).toBe('azurerm_netapp_volume.backup[0]');
    expect(v.repeated).toBe(false);
    expect(v.deployedIf).toMatch(
      /^deployed only if `var\.enable_backup_volume`: its value is unknown: `var\.enable_backup_volume` has no/,
    );
  });
});

describe('file(), templatefile() and fileexists() of a file of the repository', () => {
  const MAIN = `locals {
  volumes = yamldecode(file("\${path.module}/config/volumes.yaml"))
  tags    = jsondecode(templatefile("\${path.root}/config/tags.json.tpl", { env = "prod" }))
  has_dr  = fileexists("\${path.module}/config/dr.yaml")
}

resource "azurerm_netapp_volume" "v" {
  for_each            = local.volumes
  name                = "\${each.key}-\${local.tags.env}"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = each.key
  subnet_id           = "x"
  storage_quota_in_gb = each.value.quota_gib
}

resource "azurerm_netapp_volume" "outside" {
  name                = "outside"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "outside"
  subnet_id           = "x"
  storage_quota_in_gb = tonumber(file("/etc/anf/quota"))
}

resource "azurerm_netapp_volume" "missing" {
  name                = "missing"
  account_name        = "acct"
  pool_name           = "pool1"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "missing"
  subnet_id           = "x"
  storage_quota_in_gb = local.has_dr ? 1024 : 2048
}
`;

  it('reads the text the workspace holds, relative to the module; outside or missing stays unknown', () => {
    const workspace = workspaceOf({
      'main.tf': MAIN,
      'config/volumes.yaml': 'data:\n  quota_gib: 4096\nlog:\n  quota_gib: 1024\n',
      'config/tags.json.tpl': '{ "env": "${env}", "owner": "sap-basis" }\n',
    });
    const volumes = workspace.file('file:///repo/main.tf')?.iac?.volumes ?? [];
    expect(volumes.map((v) => [v.name?.value, v.quota?.value])).toEqual([
      ['data-prod', 4096],
      ['log-prod', 1024],
      ['outside', undefined],
      ['missing', undefined],
    ]);
    expect(volumes[2]?.quota?.unknown).toContain(
      'is an absolute path: anf-lint reads files inside the repository only',
    );
    expect(volumes[3]?.quota?.unknown).toContain('is not among the files anf-lint read');
  });
});
