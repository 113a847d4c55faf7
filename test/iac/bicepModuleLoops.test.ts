import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { moduleCallHover } from '../../server/src/core/iac/hover';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';

/**
 * A Bicep `module` declaration with a local path in a `[for ...]` loop over an array anf-lint can
 * evaluate (a var or param default written as literals, inline, or `range(0, n)`): the module is
 * read once per element, the loop's item bound in `params`, and a finding on a value from the item
 * lands on that element in the caller's array, naming the instance.
 */
const config = resolveConfig(configSchema.parse({}));

// One SAP HANA system's ANF account, pool and log volume: the module a repository calls per system.
const MODULE = `param sid string
param logQuotaGiB int
param location string = resourceGroup().location

resource account 'Microsoft.NetApp/netAppAccounts@2024-07-01' = {
  name: 'sap-anf-\${sid}'
  location: location
}

resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2024-07-01' = {
  parent: account
  name: '\${sid}-pool'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    size: 4 * 1024 * 1024 * 1024 * 1024
  }
}

resource log 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2024-07-01' = {
  parent: pool
  name: '\${sid}-log-mnt00001'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: '\${sid}-log-mnt00001'
    usageThreshold: logQuotaGiB * 1024 * 1024 * 1024
    protocolTypes: [ 'NFSv4.1' ]
  }
}
`;

const LOOP = `var systems = [
  {
    sid: 'hp1'
    logQuotaGiB: 2048
  }
  {
    sid: 'hq1'
    logQuotaGiB: 1024
  }
]

module hana './modules/hana-anf.bicep' = [for (system, i) in systems: {
  name: 'hana-anf-\${i}'
  params: {
    sid: system.sid
    logQuotaGiB: system.logQuotaGiB
  }
}]
`;

const EXPLICIT = `module hp1 './modules/hana-anf.bicep' = {
  name: 'hana-anf-0'
  params: {
    sid: 'hp1'
    logQuotaGiB: 2048
  }
}

module hq1 './modules/hana-anf.bicep' = {
  name: 'hana-anf-1'
  params: {
    sid: 'hq1'
    logQuotaGiB: 1024
  }
}
`;

function workspaceOf(main: string) {
  const workspace = new Workspace(config);
  workspace.set('file:///repo/main.bicep', main);
  workspace.set('file:///repo/modules/hana-anf.bicep', MODULE);
  return workspace;
}

function anf408(main: string) {
  return visibleDiagnostics(lintFile(workspaceOf(main), 'file:///repo/main.bicep', config))
    .filter((d) => d.code === 'ANF408')
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character} ${d.message}`);
}

function figures(main: string) {
  const file = workspaceOf(main).file('file:///repo/main.bicep')!;
  const f = computeManifestFigures(file.manifest!, config);
  return {
    pools: f.pools.map((p) => ({
      id: p.id,
      serviceLevel: p.serviceLevel,
      sizeTiB: p.sizeTiB,
      allocatedGiB: p.allocatedGiB,
      budgetMiBps: p.budgetMiBps,
      usedMiBps: p.usedMiBps,
      cost: p.monthlyCost?.totalUsd,
    })),
    volumes: f.volumes.map((v) => ({ id: v.id, quotaGiB: v.quotaGiB, throughputMiBps: v.throughput?.mibps })),
  };
}

describe('Bicep module declarations in a [for ...] loop', () => {
  it('reads the module once per element of a var array, the item bound in params', () => {
    const main = workspaceOf(LOOP).file('file:///repo/main.bicep')!;
    expect(main.iac!.volumes.map((v) => `${v.symbol} ${v.name?.value} ${v.quota?.value} ${v.repeated}`)).toEqual([
      'module.hana[0].log hp1-log-mnt00001 2199023255552 false',
      'module.hana[1].log hq1-log-mnt00001 1099511627776 false',
    ]);
  });

  it("reports the undersized log volume once, on its element in the caller's array, naming the instance", () => {
    const list = anf408(LOOP);
    expect(list).toHaveLength(1);
    // line 8 `    logQuotaGiB: 1024`: the second element's value.
    expect(list[0]).toMatch(/^8:17 Volume `hq1-log-mnt00001` is SAP HANA \/hana\/log .* gets 128 MiB\/s/);
    expect(list[0]).toContain(
      '(set by `logQuotaGiB` of module "hana", used as `usageThreshold` in modules/hana-anf.bicep line 27; the loop\'s `system` is `systems[1]`, instance `hana[1]`)',
    );
  });

  it("the declaration's hover counts what it read for each element", () => {
    const main = workspaceOf(LOOP).file('file:///repo/main.bicep')!;
    const hover = moduleCallHover(main.iac!, LOOP.indexOf('module hana') + 2);
    expect(hover?.markdown).toContain(
      "Read with this block's arguments: 2 NetApp accounts, 2 capacity pools, 2 volumes, for the 2 elements of its `[for ...]` loop.",
    );
    const unset = workspaceOf(LOOP.replace(/var systems = \[[\s\S]*?\n\]\n/, 'param systems array\n')).file(
      'file:///repo/main.bicep',
    )!;
    expect(moduleCallHover(unset.iac!, 'param systems array\n'.length + 2)?.markdown).toContain(
      '1 NetApp account, 1 capacity pool, 1 volume (repeated: a `[for ...]` loop over an array anf-lint cannot read, how many is unknown)',
    );
  });

  it("a module edit re-checks the loop's instances in the caller", () => {
    const workspace = workspaceOf(LOOP);
    expect(
      visibleDiagnostics(lintFile(workspace, 'file:///repo/main.bicep', config))
        .filter((d) => d.code === 'ANF408')
        .map((d) => d.range.start.line + 1),
    ).toEqual([8]);
    workspace.set('file:///repo/modules/hana-anf.bicep', MODULE.replaceAll("'Ultra'", "'Premium'"));
    // Premium gives 2 TiB 128 MiB/s: now the first element's log volume is short too, on its own element.
    expect(
      visibleDiagnostics(lintFile(workspace, 'file:///repo/main.bicep', config))
        .filter((d) => d.code === 'ANF408')
        .map((d) => d.range.start.line + 1),
    ).toEqual([4, 8]);
  });

  it('gives the same figures and findings as the same estate written as two declarations', () => {
    expect(figures(LOOP)).toEqual(figures(EXPLICIT));
    expect(anf408(LOOP).map((f) => f.replace(/^\S+ /, '').replace(/ \(set by.*/, ''))).toEqual(
      anf408(EXPLICIT).map((f) => f.replace(/^\S+ /, '').replace(/ \(set by.*/, '')),
    );
    expect(anf408(EXPLICIT)).toHaveLength(1);
  });

  it('reads a param default that is a literal array, an inline array and range(0, n)', () => {
    const param = LOOP.replace('var systems = [', 'param systems array = [');
    expect(anf408(param).map((f) => f.split(' ')[0])).toEqual(['8:17']);
    const inline = `module hana './modules/hana-anf.bicep' = [for sid in [ 'hp1', 'hq1' ]: {
  name: 'hana-anf-\${sid}'
  params: {
    sid: sid
    logQuotaGiB: sid == 'hq1' ? 1024 : 2048
  }
}]
`;
    const list = anf408(inline);
    expect(list.map((f) => f.split(' ')[0])).toEqual(['5:17']);
    // Every instance's `logQuotaGiB` is this one expression: the note says it differs per element; the volume's name says which.
    expect(list[0]).toContain(
      '(set by `logQuotaGiB` of module "hana", used as `usageThreshold` in modules/hana-anf.bicep line 27; differs per element of the loop (`sid`))',
    );
    const ranged = `module hana './modules/hana-anf.bicep' = [for i in range(0, 2): {
  name: 'hana-anf-\${i}'
  params: {
    sid: 'hq\${i}'
    logQuotaGiB: 1024
  }
}]
`;
    const file = workspaceOf(ranged).file('file:///repo/main.bicep')!;
    expect(file.iac!.volumes.map((v) => `${v.symbol} ${v.name?.value}`)).toEqual([
      'module.hana[0].log hq0-log-mnt00001',
      'module.hana[1].log hq1-log-mnt00001',
    ]);
    expect(anf408(ranged).map((f) => f.split(' ')[0])).toEqual(['5:17', '5:17']);
    // More elements than anf-lint reads one by one (64): read once, as repeated.
    const many = workspaceOf(ranged.replace('range(0, 2)', 'range(0, 65)')).file('file:///repo/main.bicep')!;
    expect(many.iac!.volumes.map((v) => `${v.symbol} ${v.repeated}`)).toEqual(['module.hana.log true']);
  });

  it('a filter `if` it can evaluate skips elements; one it cannot keeps the loop read once, as repeated', () => {
    const filtered = LOOP.replace(
      '[for (system, i) in systems: {',
      "[for (system, i) in systems: if (system.sid != 'hq1') {",
    );
    expect(
      workspaceOf(filtered)
        .file('file:///repo/main.bicep')!
        .iac!.volumes.map((v) => v.symbol),
    ).toEqual(['module.hana[0].log']);
    expect(anf408(filtered)).toEqual([]);
    const unknown = LOOP.replace(
      '[for (system, i) in systems: {',
      '[for (system, i) in systems: if (deployQa) {',
    ).replace('var systems', 'param deployQa bool\nvar systems');
    const volumes = workspaceOf(unknown).file('file:///repo/main.bicep')!.iac!.volumes;
    expect(volumes.map((v) => `${v.symbol} ${v.repeated}`)).toEqual(['module.hana.log true']);
    expect(anf408(unknown)).toEqual([]);
  });

  it('a loop whose elements deploy into their own resource groups (`scope`) is read once, as repeated', () => {
    const scoped = LOOP.replace(
      "  name: 'hana-anf-${i}'\n",
      "  name: 'hana-anf-${i}'\n  scope: resourceGroup('rg-sap-${system.sid}')\n",
    );
    expect(scoped).toContain('scope: resourceGroup');
    const volumes = workspaceOf(scoped).file('file:///repo/main.bicep')!.iac!.volumes;
    expect(volumes.map((v) => `${v.symbol} ${v.repeated}`)).toEqual(['module.hana.log true']);
    // A scope that does not use the item is one resource group for all: read per element.
    const one = LOOP.replace(
      "  name: 'hana-anf-${i}'\n",
      "  name: 'hana-anf-${i}'\n  scope: resourceGroup('rg-sap')\n",
    );
    expect(
      workspaceOf(one)
        .file('file:///repo/main.bicep')!
        .iac!.volumes.map((v) => v.symbol),
    ).toEqual(['module.hana[0].log', 'module.hana[1].log']);
  });

  it('a loop over a param without a default is read once, as repeated, and gives no finding from the item', () => {
    const unset = LOOP.replace(/var systems = \[[\s\S]*?\n\]\n/, 'param systems array\n');
    const volumes = workspaceOf(unset).file('file:///repo/main.bicep')!.iac!.volumes;
    expect(volumes.map((v) => `${v.symbol} ${v.quota?.value} ${v.repeated}`)).toEqual([
      'module.hana.log undefined true',
    ]);
    expect(anf408(unset)).toEqual([]);
  });
});
