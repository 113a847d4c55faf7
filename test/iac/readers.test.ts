import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** How each reader evaluates what it can, and leaves unknown what it cannot. */
const config = resolveConfig(configSchema.parse({}));

function lint(files: Record<string, string>) {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return Object.fromEntries(
    // ANF411 (a hint that a name loosely suggests a workload) has its own fixture; these volumes are named `eda-tools`.
    Object.keys(files).map((path) => [
      path,
      visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config))
        .filter((d) => d.code !== 'ANF411')
        .map((d) => `${d.range.start.line + 1} ${d.code}`),
    ]),
  );
}

const POOL_FROM_VARIABLE = `
variable "pool_tib" {
  type = number
}

locals {
  prefix = "eda"
}

resource "azurerm_netapp_pool" "p" {
  name          = "\${local.prefix}-premium"
  account_name  = "eda-prod"
  service_level = "Premium"
  size_in_tb    = var.pool_tib
}

resource "azurerm_netapp_volume" "v" {
  name                = "\${local.prefix}-tools"
  account_name        = "eda-prod"
  pool_name           = azurerm_netapp_pool.p.name
  service_level       = "Premium"
  volume_path         = "eda-tools"
  storage_quota_in_gb = 10 * 1024
  protocols           = ["NFSv3"]
}
`;

describe('Terraform', () => {
  it('evaluates locals, interpolation, arithmetic and references; a variable without a default stays unknown', () => {
    const file = parseFile('file:///repo/main.tf', POOL_FROM_VARIABLE);
    const pool = file.manifest!.accounts[0]!.pools[0]!;
    expect(pool.name?.value).toBe('eda-premium');
    expect(pool.size).toBeUndefined();
    expect(pool.unknown).toContain('size');
    expect(pool.volumes.map((v) => [v.name?.value, v.quota?.value.bytes])).toEqual([['eda-tools', 10 * 1024 ** 4]]);
    expect(file.volumes[0]).toMatchObject({
      name: 'eda-tools',
      exportPath: '/eda-tools',
      throughputMiBps: 640,
      serviceLevel: 'Premium',
    });
    // 10 TiB of volumes in a pool of unknown size: nothing to say about the pool.
    expect(lint({ 'main.tf': POOL_FROM_VARIABLE })['main.tf']).toEqual([]);
  });

  it('a variable default is used, but a fix never edits it', () => {
    const text = POOL_FROM_VARIABLE.replace('type = number', 'type    = number\n  default = 4');
    const file = parseFile('file:///repo/main.tf', text);
    const pool = file.manifest!.accounts[0]!.pools[0]!;
    expect(pool.size?.value.bytes).toBe(4 * 1024 ** 4);
    expect(pool.size?.editSpan).toBeUndefined();
    expect(lint({ 'main.tf': text })['main.tf']).toEqual(['15 ANF112']);
  });

  it('marks count and for_each resources whose instances are unknown as repeated and does not add up their quotas', () => {
    const text = POOL_FROM_VARIABLE.replace('type = number', 'type    = number\n  default = 4').replace(
      'resource "azurerm_netapp_volume" "v" {',
      'resource "azurerm_netapp_volume" "v" {\n  count = var.copies',
    );
    const file = parseFile('file:///repo/main.tf', text);
    expect(file.manifest!.accounts[0]!.pools[0]!.volumes[0]!.repeated).toBe(true);
    expect(lint({ 'main.tf': text })['main.tf']).toEqual([]);
  });

  it('reads a count it can evaluate as that many volumes, and adds them up', () => {
    const text = POOL_FROM_VARIABLE.replace('type = number', 'type    = number\n  default = 40').replace(
      'resource "azurerm_netapp_volume" "v" {',
      'resource "azurerm_netapp_volume" "v" {\n  count = 3',
    );
    const file = parseFile('file:///repo/main.tf', text);
    const volumes = file.manifest!.accounts[0]!.pools[0]!.volumes;
    expect(volumes.map((v) => v.repeated ?? false)).toEqual([false, false, false]);
    expect(file.iac!.volumes.map((v) => v.address)).toEqual([
      'azurerm_netapp_volume.v[0]',
      'azurerm_netapp_volume.v[1]',
      'azurerm_netapp_volume.v[2]',
    ]);
  });

  it('reads azapi_resource bodies with ARM property names, through jsonencode', () => {
    const text = `
resource "azapi_resource" "pool" {
  type      = "Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01"
  name      = "hana-ultra"
  parent_id = azapi_resource.account.id
  body = jsonencode({
    properties = {
      serviceLevel = "Ultra"
      size         = 4 * 1024 * 1024 * 1024 * 1024
    }
  })
}

resource "azapi_resource" "account" {
  type = "Microsoft.NetApp/netAppAccounts@2025-06-01"
  name = "sap-prod"
}

resource "azapi_resource" "log" {
  type      = "Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01"
  name      = "HN1-log-mnt00001"
  parent_id = azapi_resource.pool.id
  body = {
    properties = {
      creationToken  = "HN1-log-mnt00001"
      usageThreshold = 512 * 1024 * 1024 * 1024
      protocolTypes  = ["NFSv4.1"]
    }
  }
}
`;
    const file = parseFile('file:///repo/azapi.tf', text);
    expect(file.volumes).toHaveLength(1);
    expect(file.volumes[0]).toMatchObject({
      account: 'sap-prod',
      pool: 'hana-ultra',
      name: 'HN1-log-mnt00001',
      quotaGiB: 512,
      serviceLevel: 'Ultra',
      workload: 'sap-hana-log',
      throughputMiBps: 64,
    });
    // The log volume gets 64 MiB/s of the 250 MB/s HANA asks (ANF408). The 4 TiB pool holds one 512 GiB
    // volume, but without Standard network features written on it 4 TiB is the smallest pool: no ANF405; ANF128 notes that growing the quota into the rest of that 4 TiB costs nothing more.
    expect(lint({ 'azapi.tf': text })['azapi.tf']).toEqual(['26 ANF408', '26 ANF128']);
  });

  it('.tfvars files are checked for syntax where their folder is read with NetApp resources', () => {
    const split = {
      'main.tf': POOL_FROM_VARIABLE.replace(/variable "pool_tib" \{[^}]*\}/, ''),
      'variables.tf': 'variable "pool_tib" {\n  type = number\n}\n',
    };
    expect(lint({ ...split, 'terraform.tfvars': 'pool_tib = 4\n' })['terraform.tfvars']).toEqual([]);
    // Its values reach the pool's size: a broken file is reported, and so is a broken variables.tf.
    expect(lint({ ...split, 'terraform.tfvars': 'pool_tib = \n' })['terraform.tfvars']).toContain('1 ANF400');
    const brokenVariables = {
      ...split,
      'variables.tf': 'variable "pool_tib" {\n  type = \n}\n',
      'terraform.tfvars': 'pool_tib = 4\n',
    };
    expect(lint(brokenVariables)['variables.tf']).toEqual(['2 ANF400']);
    // Alone, or beside files that hold nothing anf-lint reads, a .tfvars or .tf file is not parsed: Terraform checks it.
    expect(lint({ 'prod.tfvars': 'pool_tib = \n' })['prod.tfvars']).toEqual([]);
    expect(
      lint({
        'app.tf': 'variable "x" {}\n\nresource "azurerm_storage_account" "sa" {\n  name = \n}\n',
        'terraform.tfvars': 'x = \n',
      }),
    ).toEqual({ 'app.tf': [], 'terraform.tfvars': [] });
  });

  it('ANF423 finds an undeclared .tfvars key however its line starts (a byte-order mark, Unicode, an indent)', () => {
    const variables = 'variable "location" {}\n\nvariable "größe" {}\n';
    const keys = (tfvars: string) =>
      lint({ 'variables.tf': variables, 'terraform.tfvars': tfvars })['terraform.tfvars']!.filter((f) =>
        f.endsWith('ANF423'),
      );
    expect(keys('location = "westeurope"\ngröße = 4\n')).toEqual([]);
    expect(keys('\uFEFFlocaton = "westeurope"\n')).toEqual(['1 ANF423']);
    expect(keys('location = "westeurope"\ngrösse = 4\n')).toEqual(['2 ANF423']);
    expect(keys('location = "westeurope"\n  extra = 1\n')).toEqual(['2 ANF423']);
    // A block comment before the key on its line: the line test cannot see the key, the tree can.
    expect(keys('location = "westeurope"\n/* sizing */ extra = 1\n')).toEqual(['2 ANF423']);
    // A key inside a map value is not a variable: the tree says so.
    expect(keys('location = "westeurope"\ngröße = {\n  nested = 1\n}\n')).toEqual([]);
  });
});

describe('Bicep', () => {
  it('parses a file that names a NetApp or network type or calls a module, and leaves the rest to Bicep', () => {
    const broken = 'param location string = resourceGroup().location\nvar name = \n';
    // Nothing anf-lint reads: not parsed, no ANF400 (`az bicep build` reports it).
    expect(lint({ 'app.bicep': broken })['app.bicep']).toEqual([]);
    const withVolume = `${broken}\nresource v 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {\n  name: 'eda'\n  location: location\n}\n`;
    expect(lint({ 'anf.bicep': withVolume })['anf.bicep']).toContain('2 ANF400');
    const withModule = `${broken}\nmodule m './app.bicep' = {\n  name: 'm'\n}\n`;
    expect(lint({ 'main.bicep': withModule, 'app.bicep': broken })['main.bicep']).toContain('2 ANF400');
  });

  it('parses a virtual network only where its subnets may be delegated to Azure NetApp Files', () => {
    const vnet = (delegation: string) =>
      `// A hub network (no NetApp volumes here).\nparam location string\nvar x = \nresource vnet 'Microsoft.Network/virtualNetworks@2023-11-01' = {\n  name: 'hub'\n  location: location\n  properties: {\n    subnets: [\n      {\n        name: 'snet'\n        properties: {\n          addressPrefix: '10.0.1.0/29'\n${delegation}        }\n      }\n    ]\n  }\n}\n`;
    const delegated = (service: string) =>
      `          delegations: [\n            {\n              name: 'anf'\n              properties: {\n                serviceName: ${service}\n              }\n            }\n          ]\n`;
    // No subnet of it can be delegated to NetApp (the word is only in a comment): not parsed, nothing to say.
    expect(lint({ 'hub.bicep': vnet('') })['hub.bicep']).toEqual([]);
    expect(lint({ 'hub.bicep': vnet(delegated("'Microsoft.Sql/managedInstances'")) })['hub.bicep']).toEqual([]);
    // A delegation to NetApp, written out or composed: parsed, its syntax error and its /29 reported.
    expect(lint({ 'hub.bicep': vnet(delegated("'Microsoft.NetApp/volumes'")) })['hub.bicep']).toEqual(['3 ANF400']);
    const whole = (text: string) => text.replace('var x = \n', '');
    expect(lint({ 'hub.bicep': whole(vnet(delegated("'Microsoft.NetApp/volumes'"))) })['hub.bicep']).toEqual([
      '11 ANF414',
    ]);
    expect(
      lint({ 'hub.bicep': whole(vnet(delegated("format('Microsoft.{0}/volumes', 'NetApp')"))) })['hub.bicep'],
    ).toEqual(['11 ANF414']);
  });

  it('reads nested child resources, param defaults and loops', () => {
    const text = `
param poolTiB int = 4
var tib = 1024 * 1024 * 1024 * 1024

resource account 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: 'eda-prod'

  resource pool 'capacityPools' = {
    name: 'eda-premium'
    properties: {
      serviceLevel: 'Premium'
      size: poolTiB * tib
    }

    resource tools 'volumes' = {
      name: 'eda-tools'
      properties: {
        creationToken: 'eda-tools'
        usageThreshold: 2 * tib
        protocolTypes: [ 'NFSv3' ]
      }
    }
  }
}

resource scratch 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for i in range(0, 4): {
  parent: account::pool
  name: 'scratch-\${i}'
  properties: {
    creationToken: 'scratch-\${i}'
    usageThreshold: 4 * tib
  }
}]
`;
    const file = parseFile('file:///repo/main.bicep', text);
    const pools = file.manifest!.accounts.flatMap((a) => a.pools);
    const premium = pools.find((p) => p.name?.value === 'eda-premium')!;
    expect(premium.size?.value.bytes).toBe(4 * 1024 ** 4);
    expect(premium.volumes.map((v) => v.name?.value)).toEqual(['eda-tools']);
    const scratch = pools.flatMap((p) => p.volumes).find((v) => v.repeated);
    expect(scratch?.name).toBeUndefined(); // 'scratch-${i}': the loop variable is unknown
    expect(file.volumes.find((v) => v.name === 'eda-tools')).toMatchObject({ quotaGiB: 2048, throughputMiBps: 128 });
  });
});

describe('ARM templates and az netappfiles output', () => {
  it('evaluates parameters() and variables() defaults and functions; a deployment-time value stays unknown with its reason', () => {
    const text = JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#',
        parameters: { level: { type: 'string', defaultValue: 'Premium' } },
        variables: { tib: 1099511627776 },
        resources: [
          {
            type: 'Microsoft.NetApp/netAppAccounts',
            apiVersion: '2025-06-01',
            name: 'eda-prod',
            resources: [
              {
                type: 'capacityPools',
                apiVersion: '2025-06-01',
                name: 'eda-premium',
                properties: { serviceLevel: "[parameters('level')]", size: "[variables('tib')]" },
              },
              {
                type: 'capacityPools/volumes',
                apiVersion: '2025-06-01',
                name: 'eda-premium/eda-tools',
                properties: { creationToken: 'eda-tools', usageThreshold: "[mul(variables('tib'), 2)]" },
              },
              {
                type: 'capacityPools/volumes',
                apiVersion: '2025-06-01',
                name: 'eda-premium/eda-scratch',
                properties: {
                  creationToken: 'eda-scratch',
                  usageThreshold: "[mul(length(uniqueString(resourceGroup().id)), variables('tib'))]",
                },
              },
            ],
          },
        ],
      },
      null,
      2,
    );
    const file = parseFile('file:///repo/azuredeploy.json', text);
    expect(file.kind).toBe('arm-template');
    const pool = file.manifest!.accounts[0]!.pools[0]!;
    expect([pool.name?.value, pool.serviceLevel?.value, pool.size?.value.bytes]).toEqual([
      'eda-premium',
      'Premium',
      1024 ** 4,
    ]);
    expect(pool.volumes[0]!.quota?.value.bytes).toBe(2 * 1024 ** 4);
    expect(pool.volumes[1]!.unknown).toContain('quota');
    const scratch = file.iac!.volumes.find((v) => v.name?.value === 'eda-scratch')!;
    expect(scratch.quota?.unknown).toBe('`uniqueString()` is a hash Azure computes from deployment values');
  });

  it('az output: mounts reach the volume by mount target and creation token', () => {
    const az = JSON.stringify([
      {
        name: 'sap-prod/hana-ultra/hn1-data',
        type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
        serviceLevel: 'Ultra',
        usageThreshold: 4398046511104,
        creationToken: 'hn1-data',
        protocolTypes: ['NFSv4.1'],
        mountTargets: [{ ipAddress: '10.20.1.4' }],
      },
    ]);
    const workspace = new Workspace(config);
    workspace.set('file:///repo/volumes.json', az);
    workspace.set(
      'file:///repo/etc/fstab',
      '10.20.1.4:/hn1-data /hana/data/HN1 nfs rw,hard,vers=4.1,rsize=262144,wsize=262144 0 0\n',
    );
    expect(workspace.file('file:///repo/volumes.json')!.kind).toBe('az-netappfiles-json');
    const mount = workspace.file('file:///repo/etc/fstab')!.mounts[0]!;
    expect(workspace.volumeForMount(mount)).toMatchObject({
      name: 'hn1-data',
      throughputMiBps: 512,
      nfsVersions: ['4.1'],
    });
  });
});

describe('half-typed infrastructure code', () => {
  const examples = ['eda/terraform/main.tf', 'eda/bicep/main.bicep', 'sap-hana/terraform/main.tf'];
  it.each(examples)('%s: every prefix parses and lints without a crash', (path) => {
    const text = readFileSync(join(__dirname, '..', '..', 'examples', path), 'utf8');
    const uri = `file:///repo/${path.replace(/\//g, '-')}`;
    const workspace = new Workspace(config);
    const step = Math.max(1, Math.floor(text.length / 60));
    for (let end = 0; end <= text.length; end += step) {
      workspace.set(uri, text.slice(0, end));
      const codes = lintFile(workspace, uri, config).map((d) => d.code);
      expect(codes, `cut at ${end}`).not.toContain('ANF002');
    }
  });
});

describe('editor features on infrastructure code', () => {
  it('hover: figures on a Terraform quota, "unknown" on a value it cannot evaluate', async () => {
    const { computeHover } = await import('../../server/src/core/features/hover');
    const { computeSymbols } = await import('../../server/src/core/features/outline');
    const workspace = new Workspace(config);
    const uri = 'file:///repo/main.tf';
    workspace.set(uri, POOL_FROM_VARIABLE);
    const quota = POOL_FROM_VARIABLE.indexOf('10 * 1024');
    expect(computeHover(workspace, uri, quota, config)?.markdown).toContain('640 MiB/s');
    const size = POOL_FROM_VARIABLE.indexOf('var.pool_tib');
    expect(computeHover(workspace, uri, size, config)?.markdown).toContain('pool size: unknown');
    const symbols = computeSymbols(workspace.file(uri)!);
    // The volume is a block of its own, outside its pool's text: it is listed beside it, naming the pool.
    const all = (list: readonly (typeof symbols)[number][]): [string, string | undefined][] =>
      list.flatMap((s) => [[s.name, s.detail] as [string, string | undefined], ...all(s.children)]);
    expect(all(symbols).map(([name]) => name)).toEqual(expect.arrayContaining(['eda-premium', 'eda-tools']));
    expect(all(symbols).find(([name]) => name === 'eda-tools')?.[1]).toContain('in pool eda-premium');
  });
});

describe('fixes on infrastructure code', () => {
  it('never insert manifest (YAML) lines into Terraform', () => {
    // ANF119 offers `protocols: [NFSv4.1]` after the workload line in a manifest; in HCL it must not.
    const text = `
# anf: workload=sap-hana-data
resource "azurerm_netapp_volume" "data" {
  name                = "hn1-data"
  account_name        = "sap-prod"
  pool_name           = "hana-ultra"
  service_level       = "Ultra"
  volume_path         = "hn1-data"
  storage_quota_in_gb = 4096
}
`;
    const workspace = new Workspace(config);
    workspace.set('file:///repo/main.tf', text);
    const found = visibleDiagnostics(lintFile(workspace, 'file:///repo/main.tf', config));
    expect(found.map((d) => d.code)).toContain('ANF119');
    for (const d of found)
      for (const fix of d.fixes)
        for (const edit of fix.edits) expect(edit.newText, `${d.code}: ${fix.title}`).not.toMatch(/^\s*\w+: /);
  });
});
