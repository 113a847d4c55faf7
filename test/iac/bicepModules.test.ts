import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { dependentsOf } from '../../server/src/core/features/dependents';
import { bicepModuleUri } from '../../server/src/core/iac/bicep';

/**
 * Bicep `module` declarations with a local path: the module's resources are the caller's, once per
 * declaration, its params set by `params: {...}`; findings land as for Terraform module blocks.
 */
const config = resolveConfig(configSchema.parse({}));

const MODULE = `param sid string
param logQuotaGiB int
param dataQuotaGiB int = 4096
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
    size: 8 * 1024 * 1024 * 1024 * 1024
  }
}

resource data 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2024-07-01' = {
  parent: pool
  name: '\${sid}-data-mnt00001'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: '\${sid}-data-mnt00001'
    usageThreshold: dataQuotaGiB * 1024 * 1024 * 1024
    protocolTypes: [ 'NFSv4.1' ]
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

const MAIN = `module hn1 './modules/hana-anf.bicep' = {
  name: 'hana-hn1'
  params: {
    sid: 'hn1'
    logQuotaGiB: 1024
  }
}

module hn2 './modules/hana-anf.bicep' = {
  name: 'hana-hn2'
  params: {
    sid: 'hn2'
    logQuotaGiB: 2048
  }
}

module shared 'br/public:avm/res/net-app/net-app-account:0.8.0' = {
  name: 'shared-anf'
  params: {
    name: 'shared'
  }
}
`;

function workspaceOf(files: Record<string, string>) {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return workspace;
}

function findings(workspace: Workspace, path: string) {
  return visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config)).map(
    (d) => `${d.range.start.line + 1}:${d.range.start.character} ${d.code} ${d.message}`,
  );
}

describe('Bicep modules with a local path', () => {
  const workspace = workspaceOf({ 'main.bicep': MAIN, 'modules/hana-anf.bicep': MODULE });

  it("makes the module's resources the caller's, once per declaration, with the params each passes", () => {
    const main = workspace.file('file:///repo/main.bicep')!;
    expect(main.iac!.volumes.map((v) => `${v.symbol} ${v.name?.value} ${v.quota?.value}`)).toEqual([
      'module.hn1.data hn1-data-mnt00001 4398046511104',
      'module.hn1.log hn1-log-mnt00001 1099511627776',
      'module.hn2.data hn2-data-mnt00001 4398046511104',
      'module.hn2.log hn2-log-mnt00001 2199023255552',
    ]);
    expect(
      main.manifest!.accounts.map(
        (a) => `${a.name?.value}: ${a.pools.map((p) => `${p.name?.value} ${p.volumes.length}`).join(', ')}`,
      ),
    ).toEqual(['shared: ', 'sap-anf-hn1: hn1-pool 2', 'sap-anf-hn2: hn2-pool 2']);
    // The registry module is the AVM account module (iac/knownModules.ts): its account, without pools (none are written).
    expect(main.iac!.calls?.map((c) => `${c.name} ${c.local}`)).toEqual(['hn1 true', 'hn2 true', 'shared false']);
  });

  it("reports the undersized log volume on the param that sets it, and nothing through the module's own params there", () => {
    const list = findings(workspace, 'main.bicep').filter((f) => / ANF408 /.test(f));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^5:17 ANF408 Volume `hn1-log-mnt00001` is SAP HANA \/hana\/log .* gets 128 MiB\/s/);
    expect(list[0]).toContain(
      '(set by `logQuotaGiB` of module "hn1", used as `usageThreshold` in modules/hana-anf.bicep line 40)',
    );
    expect(findings(workspace, 'modules/hana-anf.bicep').filter((f) => / ANF408 /.test(f))).toEqual([]);
  });

  it('a default the declaration leaves is reported on the declaration', () => {
    const small = workspaceOf({
      'main.bicep': MAIN,
      'modules/hana-anf.bicep': MODULE.replace('param dataQuotaGiB int = 4096', 'param dataQuotaGiB int = 512'),
    });
    const list = findings(small, 'main.bicep').filter((f) => / ANF408 /.test(f));
    expect(list.map((f) => f.split(' ')[0])).toEqual(['1:0', '5:17', '9:0']);
    expect(list[0]).toContain('module "hn1" does not set `dataQuotaGiB`');
  });

  it('a module edit re-checks its callers, and a caller edit the module', () => {
    const files = [workspace.file('file:///repo/main.bicep')!, workspace.file('file:///repo/modules/hana-anf.bicep')!];
    expect(
      dependentsOf({ uri: files[1]!.uri, before: files[1]!, after: files[1]! }, workspace.parsedAlone()).map(
        (f) => f.uri,
      ),
    ).toContain('file:///repo/main.bicep');
    expect(
      dependentsOf({ uri: files[0]!.uri, before: files[0]!, after: files[0]! }, workspace.parsedAlone()).map(
        (f) => f.uri,
      ),
    ).toContain('file:///repo/modules/hana-anf.bicep');
    const edited = workspaceOf({ 'main.bicep': MAIN, 'modules/hana-anf.bicep': MODULE });
    edited.set('file:///repo/modules/hana-anf.bicep', MODULE.replaceAll("'Ultra'", "'Premium'"));
    expect(
      findings(edited, 'main.bicep')
        .filter((f) => / ANF408 /.test(f))
        .map((f) => f.split(' ')[0]),
    ).toEqual(['1:0', '5:17', '9:0', '13:17']);
  });
});

describe("a module's callers as they come and go", () => {
  // The module is judged by its callers while one calls it (`calledBy`), by its own defaults when
  // none does: the callers are kept by callee (terraformModules.ts `bicepCallers`), updated as files
  // change.
  const moduleUri = 'file:///repo/modules/hana-anf.bicep';
  const calledBy = (workspace: Workspace) => workspace.file(moduleUri)!.iac!.calledBy ?? [];

  it('follows added, edited and removed callers', () => {
    const workspace = workspaceOf({ 'modules/hana-anf.bicep': MODULE });
    expect(calledBy(workspace)).toEqual([]);
    workspace.set('file:///repo/main.bicep', MAIN);
    workspace.set('file:///repo/other.bicep', MAIN.replaceAll('hn1', 'hn3').replaceAll('hn2', 'hn4'));
    expect(calledBy(workspace)).toEqual(['file:///repo/main.bicep', 'file:///repo/other.bicep']);
    // The caller no longer declares the module: only the other one is left.
    workspace.set('file:///repo/main.bicep', "param location string = 'westeurope'\n");
    expect(calledBy(workspace)).toEqual(['file:///repo/other.bicep']);
    workspace.delete('file:///repo/other.bicep');
    expect(calledBy(workspace)).toEqual([]);
  });
});

describe('bicepModuleUri', () => {
  it('gives the same answer asked once or again (remembered by caller and path), registry paths and bad bases none', () => {
    const cases: [string, string, string | undefined][] = [
      ['file:///r/env/main.bicep', './modules/a.bicep', 'file:///r/env/modules/a.bicep'],
      ['file:///r/env/main.bicep', '../shared/b.bicep', 'file:///r/shared/b.bicep'],
      ['file:///r/other/main.bicep', './modules/a.bicep', 'file:///r/other/modules/a.bicep'],
      ['file:///r/env/main.bicep', 'br/public:avm/res/net-app/net-app-account:0.8.0', undefined],
      ['not a uri', './modules/a.bicep', undefined],
    ];
    for (let round = 0; round < 2; round++)
      for (const [caller, path, uri] of cases) expect(bicepModuleUri(caller, path), `${caller} ${path}`).toBe(uri);
  });
});
