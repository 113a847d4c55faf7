import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { VolumeSummary } from '../../server/src/core/manifest/volumeSummary';
import { parseFile, Workspace } from '../../server/src/core';
import { classifyArmString } from '../../server/src/core/iac/arm/expressions';

/** ARM and Bicep evaluation: the values a template's own files hold are known; the others say why not. */

const SCHEMA = 'https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#';
const TiB = 1024 ** 4;

function arm(template: object) {
  return parseFile(
    'file:///repo/azuredeploy.json',
    JSON.stringify({ $schema: SCHEMA, contentVersion: '1.0.0.0', ...template }, null, 2),
  );
}

describe('ARM expressions', () => {
  it('parses escapes, nested calls, property access and indexing', () => {
    expect(classifyArmString('[[not an expression]')).toEqual({ kind: 'literal', text: '[not an expression]' });
    expect(classifyArmString('[test] value')).toEqual({ kind: 'literal', text: '[test] value' });
    const e = classifyArmString("[concat(parameters('a')[0].name, 'it''s')]");
    expect(e.kind).toBe('expression');
    expect(classifyArmString("[concat('a']")).toMatchObject({ kind: 'invalid' });
  });

  it('reads a 2,000-deep expression without a stack overflow, as unknown with a reason', () => {
    const deep = `[${'array('.repeat(2000)}1${')'.repeat(2000)}]`;
    const r = classifyArmString(deep);
    expect(r).toMatchObject({ kind: 'invalid' });
    const file = arm({
      resources: [
        {
          type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
          apiVersion: '2025-06-01',
          name: deep,
          properties: { size: 4 * TiB, serviceLevel: 'Premium' },
        },
      ],
    });
    expect(file.iac!.pools[0]!.name?.unknown).toMatch(/nested more than/);
  });
});

describe('ARM templates', () => {
  const template = {
    parameters: {
      account: { type: 'string', defaultValue: 'ora-prod' },
      pool: { type: 'string', defaultValue: 'ultra' },
      volumeCount: { type: 'int', defaultValue: 3 },
      quotaGiB: { type: 'int', defaultValue: 1024 },
      deployLogs: { type: 'bool', defaultValue: false },
      secretSize: { type: 'int' },
    },
    variables: {
      tib: 1099511627776,
      poolName: "[format('{0}/{1}', parameters('account'), parameters('pool'))]",
      copy: [{ name: 'sizes', count: 2, input: "[mul(add(copyIndex('sizes'), 1), 100)]" }],
    },
    resources: [
      {
        type: 'Microsoft.NetApp/netAppAccounts',
        apiVersion: '2025-06-01',
        name: "[parameters('account')]",
        location: '[resourceGroup().location]',
      },
      {
        type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
        apiVersion: '2025-06-01',
        name: "[variables('poolName')]",
        dependsOn: ["[resourceId('Microsoft.NetApp/netAppAccounts', parameters('account'))]"],
        properties: { serviceLevel: 'Ultra', size: "[mul(4, variables('tib'))]", qosType: 'Manual' },
      },
      {
        type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
        apiVersion: '2025-06-01',
        name: "[concat(parameters('account'), '/', parameters('pool'), '/', format('ora-data{0:D2}', copyIndex(1)))]",
        copy: { name: 'dataLoop', count: "[parameters('volumeCount')]" },
        properties: {
          serviceLevel: 'Ultra',
          creationToken: "[toLower(format('ORA-DATA{0}', copyIndex(1)))]",
          usageThreshold: "[mul(parameters('quotaGiB'), 1073741824)]",
          throughputMibps: "[variables('sizes')[if(equals(copyIndex(), 0), 0, 1)]]",
          protocolTypes: ['NFSv4.1'],
          exportPolicy: {
            copy: [
              {
                name: 'rules',
                count: 2,
                input: {
                  ruleIndex: "[add(copyIndex('rules'), 1)]",
                  allowedClients: "[concat('10.1.', copyIndex('rules'), '.0/24')]",
                  nfsv41: true,
                  hasRootAccess: true,
                },
              },
            ],
          },
        },
      },
      {
        condition: "[parameters('deployLogs')]",
        type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
        apiVersion: '2025-06-01',
        name: "[concat(variables('poolName'), '/ora-log')]",
        properties: {
          serviceLevel: 'Ultra',
          creationToken: 'ora-log',
          usageThreshold: 107374182400,
          throughputMibps: 100,
        },
      },
      {
        type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
        apiVersion: '2025-06-01',
        name: "[concat(variables('poolName'), '/ora-secret')]",
        properties: {
          serviceLevel: 'Ultra',
          creationToken: 'ora-secret',
          usageThreshold: "[parameters('secretSize')]",
          throughputMibps: "[parameters('nope')]",
        },
      },
    ],
  };

  it('makes one volume per copy index, names built with concat/format, under the pool named by segments', () => {
    const file = arm(template);
    const volumes = file.iac!.volumes;
    expect(volumes.map((v) => v.name?.value)).toEqual(['ora-data01', 'ora-data02', 'ora-data03', 'ora-secret']);
    expect(volumes.every((v) => !v.repeated)).toBe(true);
    expect(volumes.slice(0, 3).map((v) => [v.quota?.value, v.throughputMiBps?.value, v.creationToken?.value])).toEqual([
      [TiB, 100, 'ora-data1'],
      [TiB, 200, 'ora-data2'],
      [TiB, 200, 'ora-data3'],
    ]);
    expect(volumes[0]!.exportRules.map((r) => r.allowedClients?.value)).toEqual(['10.1.0.0/24', '10.1.1.0/24']);
    const pool = file.manifest!.accounts[0]!.pools[0]!;
    expect(pool.name?.value).toBe('ultra');
    expect(pool.size?.value.bytes).toBe(4 * TiB);
    expect(pool.volumes.map((v) => v.name?.value)).toEqual(['ora-data01', 'ora-data02', 'ora-data03', 'ora-secret']);
    expect(file.manifest!.accounts[0]!.name?.value).toBe('ora-prod');
  });

  it('a false condition deploys nothing', () => {
    expect(arm(template).iac!.volumes.some((v) => v.name?.value === 'ora-log')).toBe(false);
    const on = {
      ...template,
      parameters: { ...template.parameters, deployLogs: { type: 'bool', defaultValue: true } },
    };
    expect(arm(on).iac!.volumes.some((v) => v.name?.value === 'ora-log')).toBe(true);
  });

  it('says why a value is unknown, and reports an undeclared parameter (ANF421)', () => {
    const file = arm(template);
    const secret = file.iac!.volumes.find((v) => v.name?.value === 'ora-secret')!;
    expect(secret.quota?.unknown).toBe(
      'parameter `secretSize` has no value: no default and no parameters file names it',
    );
    expect(secret.throughputMiBps?.unknown).toBe("parameter `nope` is not declared in the template's `parameters`");
    expect(file.problems.filter((p) => p.code === 'ANF421').map((p) => p.message)).toEqual([
      "`parameters('nope')` names a parameter the template does not declare: Azure rejects the deployment. Declare `nope` under `parameters` or fix the name.",
    ]);
  });

  it('a copy count it cannot evaluate reads the resource once, as repeated, its address shown', () => {
    const file = arm({ ...template, parameters: { ...template.parameters, volumeCount: { type: 'int' } } });
    const data = file.iac!.volumes.filter((v) => v.repeated);
    expect(data).toHaveLength(1);
    expect(data[0]!.name?.unknown).toMatch(/copy count is unknown: parameter `volumeCount` has no value/);
    expect(data[0]!.address).toBe("resources[2] (copy 'dataLoop')");
    expect(data[0]!.quota?.value).toBe(TiB);
  });

  it('reads nested deployments: inner scope with the parameters passed, outer scope with the parent template', () => {
    const file = arm({
      parameters: { account: { type: 'string', defaultValue: 'hpc' } },
      variables: { gib: 1073741824 },
      resources: [
        {
          type: 'Microsoft.Resources/deployments',
          apiVersion: '2022-09-01',
          name: 'inner',
          properties: {
            mode: 'Incremental',
            expressionEvaluationOptions: { scope: 'inner' },
            parameters: { accountName: { value: "[parameters('account')]" }, sizeGiB: { value: 500 } },
            template: {
              $schema: SCHEMA,
              parameters: {
                accountName: { type: 'string' },
                sizeGiB: { type: 'int' },
                level: { type: 'string', defaultValue: 'Premium' },
              },
              resources: [
                {
                  type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
                  apiVersion: '2025-06-01',
                  name: "[format('{0}/p1/scratch', parameters('accountName'))]",
                  properties: {
                    serviceLevel: "[parameters('level')]",
                    creationToken: 'scratch',
                    usageThreshold: "[mul(parameters('sizeGiB'), 1073741824)]",
                  },
                },
              ],
            },
          },
        },
        {
          type: 'Microsoft.Resources/deployments',
          apiVersion: '2022-09-01',
          name: 'outer',
          properties: {
            mode: 'Incremental',
            template: {
              $schema: SCHEMA,
              resources: [
                {
                  type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
                  apiVersion: '2025-06-01',
                  name: "[format('{0}/p1/home', parameters('account'))]",
                  properties: {
                    serviceLevel: 'Premium',
                    creationToken: 'home',
                    usageThreshold: "[mul(200, variables('gib'))]",
                  },
                },
              ],
            },
          },
        },
      ],
    });
    expect(
      file.iac!.volumes.map((v) => [v.name?.value, v.quota?.value, v.serviceLevel?.value, v.pool?.name?.value]),
    ).toEqual([
      ['scratch', 500 * 1024 ** 3, 'Premium', 'p1'],
      ['home', 200 * 1024 ** 3, 'Premium', 'p1'],
    ]);
  });

  it('a volume group volume finds its pool by resourceId()', () => {
    const file = arm({
      parameters: { pool: { type: 'string', defaultValue: 'hana-pool' } },
      resources: [
        {
          type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
          apiVersion: '2025-06-01',
          name: "[concat('sap/', parameters('pool'))]",
          properties: { serviceLevel: 'Premium', size: 4 * TiB, qosType: 'Manual' },
        },
        {
          type: 'Microsoft.NetApp/netAppAccounts/volumeGroups',
          apiVersion: '2025-06-01',
          name: 'sap/hn1',
          properties: {
            groupMetaData: { applicationType: 'SAP-HANA' },
            volumes: [
              {
                name: 'hn1-data-mnt00001',
                properties: {
                  volumeSpecName: 'data',
                  creationToken: 'hn1-data',
                  serviceLevel: 'Premium',
                  usageThreshold: TiB,
                  throughputMibps: 400,
                  capacityPoolResourceId:
                    "[resourceId('Microsoft.NetApp/netAppAccounts/capacityPools', 'sap', parameters('pool'))]",
                },
              },
            ],
          },
        },
      ],
    });
    expect(file.manifest!.accounts[0]!.pools.map((p) => [p.name?.value, p.volumes.map((v) => v.name?.value)])).toEqual([
      ['hana-pool', ['hn1-data-mnt00001']],
    ]);
  });
});

describe('parameters files', () => {
  const template = JSON.stringify(
    {
      $schema: SCHEMA,
      contentVersion: '1.0.0.0',
      parameters: {
        accountName: { type: 'string' },
        poolSizeTiB: { type: 'int' },
        scratchGiB: { type: 'int' },
        level: { type: 'string', defaultValue: 'Premium' },
      },
      resources: [
        {
          type: 'Microsoft.NetApp/netAppAccounts/capacityPools',
          apiVersion: '2025-06-01',
          name: "[format('{0}/pool1', parameters('accountName'))]",
          properties: {
            serviceLevel: "[parameters('level')]",
            size: "[mul(parameters('poolSizeTiB'), 1099511627776)]",
          },
        },
        {
          type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
          apiVersion: '2025-06-01',
          name: "[format('{0}/pool1/scratch', parameters('accountName'))]",
          properties: {
            serviceLevel: "[parameters('level')]",
            creationToken: 'scratch',
            usageThreshold: "[mul(parameters('scratchGiB'), 1073741824)]",
          },
        },
      ],
    },
    null,
    2,
  );
  const parameters = (values: Record<string, unknown>) =>
    JSON.stringify(
      {
        $schema: 'https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#',
        contentVersion: '1.0.0.0',
        parameters: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])),
      },
      null,
      2,
    );

  function workspace(files: Record<string, string>, config: { parameterFiles?: string[] } = {}) {
    const ws = new Workspace(config);
    for (const [path, text] of Object.entries(files)) ws.set(`file:///repo/${path}`, text);
    return ws;
  }

  it('azuredeploy.parameters.json gives the template its values, and says where they come from', () => {
    const ws = workspace({
      'infra/azuredeploy.json': template,
      'infra/azuredeploy.parameters.json': parameters({ accountName: 'hpc', poolSizeTiB: 4, scratchGiB: 2048 }),
    });
    expect(ws.file('file:///repo/infra/azuredeploy.parameters.json')!.kind).toBe('arm-parameters');
    const file = ws.file('file:///repo/infra/azuredeploy.json')!;
    const volume = file.iac!.volumes[0]!;
    expect([volume.name?.value, volume.quota?.value, volume.pool?.name?.value]).toEqual([
      'scratch',
      2048 * 1024 ** 3,
      'pool1',
    ]);
    expect(volume.quota?.origin).toBe("`parameters('scratchGiB')` from azuredeploy.parameters.json line 11");
    expect(file.manifest!.accounts[0]!.pools[0]!.size?.value.bytes).toBe(4 * TiB);
    expect(file.volumes[0]).toMatchObject({ name: 'scratch', quotaGiB: 2048 });
  });

  it('without a parameters file, a parameter without a default is unknown and says why', () => {
    const volume = workspace({ 'infra/azuredeploy.json': template }).file('file:///repo/infra/azuredeploy.json')!.iac!
      .volumes[0]!;
    expect(volume.name?.unknown).toBe(
      'parameter `accountName` has no value: no default and no parameters file names it',
    );
  });

  it('an example file gives a value only where nothing else does, and says it is an example', () => {
    const ws = workspace({
      'infra/azuredeploy.json': template,
      'infra/azuredeploy.parameters.json': parameters({ accountName: 'hpc', poolSizeTiB: 4 }),
      'infra/azuredeploy.parameters.example.json': parameters({
        accountName: 'example',
        scratchGiB: 100,
        level: 'Ultra',
      }),
    });
    const volume = ws.file('file:///repo/infra/azuredeploy.json')!.iac!.volumes[0]!;
    expect([volume.name?.value, volume.quota?.value, volume.serviceLevel?.value]).toEqual([
      'scratch',
      100 * 1024 ** 3,
      'Premium',
    ]);
    expect(volume.quota?.origin).toBe(
      "`parameters('scratchGiB')` from the example file azuredeploy.parameters.example.json line 8 (nothing else sets it)",
    );
  });

  it('another parameters file of the folder is used only when .anf-lint.yaml names it', () => {
    const files = {
      'infra/azuredeploy.json': template,
      'infra/prod.parameters.json': parameters({ accountName: 'prod', poolSizeTiB: 8, scratchGiB: 4096 }),
    };
    expect(workspace(files).file('file:///repo/infra/azuredeploy.json')!.iac!.volumes[0]!.quota?.value).toBeUndefined();
    const configured = workspace(files, { parameterFiles: ['infra/prod.parameters.json'] }).file(
      'file:///repo/infra/azuredeploy.json',
    )!;
    expect(configured.iac!.volumes[0]!.quota?.value).toBe(4096 * 1024 ** 3);
  });

  it('a parameters file key the template does not declare is ANF421 on that key', () => {
    const ws = workspace({
      'infra/azuredeploy.json': template,
      'infra/azuredeploy.parameters.json': parameters({ accountName: 'hpc', poolSizeTIB: 4, poolSzie: 8 }),
    });
    const problems = ws
      .file('file:///repo/infra/azuredeploy.parameters.json')!
      .problems.filter((p) => p.code === 'ANF421');
    expect(problems.map((p) => p.message)).toEqual([
      '`poolSzie` is not a parameter of azuredeploy.json: Azure rejects the deployment. Remove it here or declare it in the template.',
    ]);
  });

  it('a .bicepparam file with `using` gives the Bicep file its params', () => {
    const bicep = `param account string
param sizes object
param count int

resource volumes 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for i in range(0, count): {
  name: '\${account}/pool1/vol\${i}'
  location: 'westeurope'
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'vol\${i}'
    usageThreshold: sizes.gib * 1073741824
  }
}]
`;
    const params = `using './main.bicep'

var base = 512
param account = 'hpc'
param sizes = {
  gib: base * 2
}
param count = 2
param extra = 'x'
`;
    const ws = workspace({ 'infra/main.bicep': bicep, 'infra/main.bicepparam': params });
    const volumes = ws.file('file:///repo/infra/main.bicep')!.iac!.volumes;
    expect(volumes.map((v) => [v.name?.value, v.quota?.value, v.repeated])).toEqual([
      ['vol0', 1024 * 1024 ** 3, false],
      ['vol1', 1024 * 1024 ** 3, false],
    ]);
    expect(ws.file('file:///repo/infra/main.bicepparam')!.problems.map((p) => p.message)).toEqual([
      '`extra` is not a parameter of main.bicep: Azure rejects the deployment. Remove it here or declare it in the template (`param extra ...`).',
    ]);
  });
});

describe('realistic estates (test/fixtures/iac/estates)', () => {
  const ESTATES = join(__dirname, '..', 'fixtures', 'iac', 'estates');
  function load(name: string) {
    const ws = new Workspace({});
    const root = join(ESTATES, name);
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? walk(join(dir, e)) : [join(dir, e)]));
    for (const path of walk(root)) ws.set(pathToFileURL(path).href, readFileSync(path, 'utf8'));
    return { ws, uri: (rel: string) => pathToFileURL(join(root, rel)).href };
  }
  const row = (v: VolumeSummary) => [v.name, v.quotaGiB, v.throughputMiBps];

  it('Oracle landing zone (ARM + parameters file): every volume the files size has quota and throughput; the others say why', () => {
    const { ws, uri } = load('oracle-arm');
    const file = ws.file(uri('azuredeploy.json'))!;
    expect(file.volumes.map(row)).toEqual([
      ['erp01-data', 4096, 600],
      ['crm01-data', 2048, 300],
      ['dwh01-data', 8192, 900],
      ['erp01-redo', 512, 200],
      ['crm01-redo', 256, 100],
      ['dwh01-redo', 512, 150],
      ['ora-backup', 2048, 128],
    ]);
    const iac = file.iac!;
    // The two the summaries leave out (no quota, no name) are still read, and say why.
    expect(
      iac.volumes.map((v) => [v.name?.value, v.quota?.value === undefined ? undefined : v.quota.value / 1024 ** 3]),
    ).toContainEqual(['ora-archive', undefined]);
    expect(iac.volumes).toHaveLength(9);
    expect(iac.pools.map((p) => [p.name?.value, p.size?.value])).toEqual([
      ['ora-ultra', 20 * TiB],
      ['ora-premium', 4 * TiB],
    ]);
    const archive = iac.volumes.find((v) => v.name?.value === 'ora-archive')!;
    expect(archive.quota?.unknown).toBe(
      'parameter `archiveGiB` has no value: no default and azuredeploy.parameters.json does not set it',
    );
    const scratch = iac.volumes.find((v) => v.name?.value === undefined)!;
    expect(scratch.name?.unknown).toBe('`uniqueString()` is a hash Azure computes from deployment values');
    expect(scratch.address).toBe('resources[8]');
    expect(
      iac.volumes
        .find((v) => v.name?.value === 'erp01-redo')!
        .exportRules.map((r) => [r.allowedClients?.value, r.rootAccess?.value]),
    ).toEqual([
      ['10.40.0.0/24', true],
      ['10.40.1.0/24', false],
    ]);
    // Every volume sits in its pool: none in a pool of its own with an unknown size.
    expect(file.manifest!.accounts.flatMap((a) => a.pools).map((p) => [p.name?.value, p.volumes.length])).toEqual([
      ['ora-ultra', 6],
      ['ora-premium', 3],
    ]);
  });

  it('AVS/HPC estate (Bicep + .bicepparam): loops, conditions, an existing account, nested children, a module loop', () => {
    const { ws, uri } = load('avs-hpc-bicep');
    const file = ws.file(uri('main.bicep'))!;
    expect(file.volumes.map(row)).toEqual([
      ['hpc-prod-home', 1024, 128],
      ['hpc-prod-scratch-a', 4096, 1024],
      ['hpc-prod-scratch-b', 8192, 256],
      ['hpc-prod-scratch-c', 2048, 512],
      ['avs-ds01', 4096, 256],
      ['avs-ds02', 2048, 128],
    ]);
    expect(
      file
        .iac!.volumes.filter((v) => v.symbol.startsWith('module.tools'))
        .map((v) => [v.name?.value, v.quota?.value, v.throughputMiBps?.value]),
    ).toEqual([
      ['hpc-prod-tools1', undefined, 64],
      ['hpc-prod-tools2', undefined, 64],
    ]);
    const tools = file.iac!.volumes.find((v) => v.name?.value === 'hpc-prod-tools1')!;
    expect(tools.quota?.unknown).toBe(
      'parameter `toolsGiB` has no value: no default and main.bicepparam does not set it',
    );
    expect(file.iac!.pools.map((p) => [p.name?.value, p.size?.value])).toEqual([
      ['hpc-prod-ultra', 40 * TiB],
      ['hpc-prod-avs', 8 * TiB],
    ]);
  });
});

describe('input that controls depth (issue 32)', () => {
  it('ARM: 2,000-deep nested resources and values read without a stack overflow', () => {
    let resource: Record<string, unknown> = {
      type: 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes',
      apiVersion: '2025-06-01',
      name: 'a/p/v',
      properties: { usageThreshold: 107374182400, serviceLevel: 'Premium', creationToken: 'v' },
    };
    for (let i = 0; i < 2000; i++)
      resource = { type: 'Microsoft.Resources/tags', apiVersion: '2021-04-01', name: `t${i}`, resources: [resource] };
    let value: unknown = 1;
    for (let i = 0; i < 2000; i++) value = [value];
    const text = `{"$schema": "${SCHEMA}", "variables": {"deep": ${JSON.stringify(value)}}, "resources": [${JSON.stringify(resource)}, {"type": "Microsoft.NetApp/netAppAccounts", "apiVersion": "2025-06-01", "name": "[string(length(variables('deep')))]"}]}`;
    const file = parseFile('file:///repo/azuredeploy.json', text);
    expect(file.problems.filter((p) => p.code === 'ANF003')).toEqual([]);
    expect(file.iac!.accounts[0]!.name?.value).toBe('1');
  });

  it('Bicep: a 2,000-deep expression and 500-deep nested resources read without a stack overflow', () => {
    const deep = `${'('.repeat(2000)}1${')'.repeat(2000)}`;
    let nested = `resource v 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = { name: 'a/p/v'\n properties: { usageThreshold: ${deep} } }`;
    for (let i = 0; i < 500; i++)
      nested = `resource r${i} 'Microsoft.Resources/tags@2021-04-01' = {\n  name: 't${i}'\n  ${nested.replace(/^resource /, 'resource ')}\n}`;
    const file = parseFile('file:///repo/main.bicep', nested);
    expect(file.problems.filter((p) => p.code === 'ANF003')).toEqual([]);
  });
});
