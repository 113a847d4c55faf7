import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { computeHover } from '../../server/src/core/features/hover';
import { readIac } from '../../server/src/core/iac/read';
import { forgetBlockResults, lastBlockReuse } from '../../server/src/core/iac/reuse';
import { forgetKeptTrees } from '../../server/src/core/iac/treeSitter';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Application volume groups (SAP HANA, Oracle) declare their volumes inside one resource. Each
 * volume is read as an ordinary volume: its workload from the volume spec name, its pool from the
 * capacity pool ID, its throughput the one assigned in the group's manual QoS pool.
 */
const config = resolveConfig(configSchema.parse({}));
const FIXTURES = join(__dirname, '..', 'fixtures');
const read = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

function lint(files: Record<string, string>): Record<string, string[]> {
  const workspace = new Workspace(config);
  for (const [path, text] of Object.entries(files)) workspace.set(`file:///repo/${path}`, text);
  return Object.fromEntries(
    Object.keys(files).map((path) => [
      path,
      visibleDiagnostics(lintFile(workspace, `file:///repo/${path}`, config)).map(
        (d) => `${d.range.start.line + 1} ${d.code}`,
      ),
    ]),
  );
}

const HANA_TF = read('rules/ANF408-hana-storage-kpi/terraform-volume-group/main.tf');
const HANA_CLEAN_TF = read('iac/volume-groups/hana-group-clean.tf');
const HANA_BICEP = read('rules/ANF408-hana-storage-kpi/bicep-volume-group/main.bicep');
const ORACLE_ARM = read('iac/volume-groups/oracle-group.json');

describe('Terraform application volume groups', () => {
  it('reads each volume block as a volume in the pool its capacity_pool_id names, with the workload of its volume_spec_name', () => {
    const file = parseFile('file:///repo/main.tf', HANA_TF);
    const pools = file.manifest!.accounts.flatMap((a) => a.pools);
    expect(pools.map((p) => [p.name?.value, p.qos?.value, p.volumes.map((v) => v.name?.value)])).toEqual([
      ['hb2-ultra-manual', 'manual', ['hb2-data-vol', 'hb2-log-vol', 'hb2-shared-vol']],
    ]);
    expect(file.volumes.map((v) => [v.name, v.workload, v.throughputMiBps, v.exportPath])).toEqual([
      ['hb2-data-vol', 'sap-hana-data', 420, '/hb2-data-vol'],
      ['hb2-log-vol', 'sap-hana-log', 150, '/hb2-log-vol'],
      ['hb2-shared-vol', 'sap-hana-shared', 64, '/hb2-shared-vol'],
    ]);
    const estate = readIac(new SourceText(HANA_TF), 'file:///repo/main.tf', 'terraform').estate!;
    const log = estate.volumes[1]!;
    expect(log.workload?.from).toBe("its volume group's `volume_spec_name` 'log'");
    expect(HANA_TF.slice(log.workload!.span.start, log.workload!.span.end)).toBe('"log"');
    expect(HANA_TF.slice(log.quota!.span.start, log.quota!.span.end)).toBe('512');
    expect(log.exportRules[0]).toMatchObject({
      allowedClients: { value: '10.20.1.0/24' },
      nfsv3: { value: false },
      nfsv41: { value: true },
    });
    expect(log.volumeGroup).toBe('azurerm_netapp_volume_group_sap_hana.hb2');
  });

  it('finds the pool a volume names by instance: `count` (`[0]`) and `for_each` (`["key"]`)', () => {
    // `count = var.enabled ? 1 : 0` on the pool is a common switch; its volumes were in no pool.
    const pools = (text: string) =>
      parseFile('file:///repo/main.tf', text)
        .manifest!.accounts.flatMap((a) => a.pools)
        .map((p) => [p.name?.value, p.volumes.length]);
    const counted = HANA_CLEAN_TF.replace(
      'resource "azurerm_netapp_pool" "hana" {',
      'resource "azurerm_netapp_pool" "hana" {\n  count = 1',
    ).replace(/azurerm_netapp_pool\.hana\.id/g, 'azurerm_netapp_pool.hana[0].id');
    expect(pools(counted)).toEqual([[pools(HANA_CLEAN_TF)[0]![0], 3]]);
    const keyed = HANA_CLEAN_TF.replace(
      'resource "azurerm_netapp_pool" "hana" {',
      'resource "azurerm_netapp_pool" "hana" {\n  for_each = toset(["main"])',
    ).replace(/azurerm_netapp_pool\.hana\.id/g, 'azurerm_netapp_pool.hana["main"].id');
    expect(pools(keyed)).toEqual([[pools(HANA_CLEAN_TF)[0]![0], 3]]);
    // As findings-free as the original.
    expect(lint({ 'main.tf': counted })['main.tf']).toEqual([]);
  });

  it('a correctly sized group gives no findings', () => {
    expect(lint({ 'main.tf': HANA_CLEAN_TF })['main.tf']).toEqual([]);
  });

  it('a group whose pool is not in the file is in a manual QoS pool: the assigned throughput counts, not quota x rate', () => {
    // 250 MiB/s assigned to a 1 TiB log volume: at Premium with auto QoS it would get 64 MiB/s.
    const text = HANA_CLEAN_TF.replace(
      /capacity_pool_id {13}= azurerm_netapp_pool\.hana\.id/g,
      'capacity_pool_id             = data.azurerm_netapp_pool.existing.id',
    ).replace(/"Ultra"/g, '"Premium"');
    const file = parseFile('file:///repo/main.tf', text);
    const pools = file.manifest!.accounts.flatMap((a) => a.pools).filter((p) => p.volumes.length > 0);
    expect(pools.map((p) => [p.qos?.value, p.unknown, p.volumes.length])).toEqual([['manual', ['size'], 3]]);
    expect(file.volumes.map((v) => v.throughputMiBps)).toEqual([400, 250, 118]);
    expect(lint({ 'main.tf': text })['main.tf']!.filter((d) => d.endsWith('ANF408'))).toEqual([]);
    // A pool written out as a resource ID is found by the ID's last segment.
    const byId = HANA_CLEAN_TF.replace(
      /azurerm_netapp_pool\.hana\.id/g,
      '"/subscriptions/1111/resourceGroups/rg-sap-hd4/providers/Microsoft.NetApp/netAppAccounts/sap-hd4/capacityPools/hd4-ultra-manual"',
    );
    const found = parseFile('file:///repo/main.tf', byId).manifest!.accounts.flatMap((a) => a.pools);
    expect(found.map((p) => [p.name?.value, p.size?.value.amount, p.volumes.length])).toEqual([
      ['hd4-ultra-manual', 6, 3],
    ]);
  });

  it('an annotation on a volume block overrides its volume spec; backup volumes are general', () => {
    const text = HANA_CLEAN_TF.replace(
      '  volume {\n    name                         = "hd4-shared-vol"',
      '  # anf: workload=general\n  volume {\n    name                         = "hd4-shared-vol"',
    ).replace('volume_spec_name             = "log"', 'volume_spec_name             = "log-backup"');
    const file = parseFile('file:///repo/main.tf', text);
    expect(file.volumes.map((v) => v.workload)).toEqual(['sap-hana-data', 'general', 'general']);
  });

  it('an Oracle group: ora-* volume specs are Oracle volumes', () => {
    const text = HANA_CLEAN_TF.replace('azurerm_netapp_volume_group_sap_hana', 'azurerm_netapp_volume_group_oracle')
      .replace('"data"', '"ora-data1"')
      .replace('"log"', '"ora-log"')
      .replace('"shared"', '"ora-binary"');
    expect(parseFile('file:///repo/main.tf', text).volumes.map((v) => v.workload)).toEqual([
      'oracle',
      'oracle',
      'oracle',
    ]);
  });

  it("a rule that depends on a group volume's workload says it came from the volume spec and where to override it", () => {
    const text = HANA_CLEAN_TF.replace(
      'azurerm_netapp_volume_group_sap_hana',
      'azurerm_netapp_volume_group_oracle',
    ).replace('"data"', '"ora-data1"');
    const workspace = new Workspace(config);
    workspace.set('file:///repo/main.tf', text);
    const messages = visibleDiagnostics(lintFile(workspace, 'file:///repo/main.tf', config))
      .filter((d) => d.code === 'ANF119')
      .map((d) => d.message);
    expect(messages.length).toBeGreaterThan(0);
    for (const message of messages)
      expect(message).toMatch(
        /\(from its volume group's `volume_spec_name` '[\w-]+'; write `# anf: workload=<kind>` above its `volume` block/,
      );
    expect(messages.some((m) => m.includes("'ora-data1'"))).toBe(true);
  });

  it('hovers on a group volume show its figures', () => {
    const workspace = new Workspace(config);
    workspace.set('file:///repo/main.tf', HANA_CLEAN_TF);
    for (const at of [
      HANA_CLEAN_TF.indexOf('  volume {\n    name                         = "hd4-log-vol"') + 3,
      HANA_CLEAN_TF.indexOf('"hd4-log-vol"') + 2,
    ]) {
      const hover = computeHover(workspace, 'file:///repo/main.tf', at, config);
      expect(hover?.markdown).toContain('**Volume sap-hd4/hd4-ultra-manual/hd4-log-vol** · Ultra · manual QoS');
      expect(hover?.markdown).toContain('Throughput limit: **250 MiB/s** (assigned)');
    }
  });

  it('mounts reach a group volume by its volume_path', () => {
    const workspace = new Workspace(config);
    workspace.set('file:///repo/main.tf', HANA_CLEAN_TF);
    workspace.set(
      'file:///repo/etc/fstab',
      '10.20.1.5:/hd4-log-vol /hana/log/HD4 nfs rw,hard,vers=4.1,rsize=262144,wsize=262144,nconnect=4 0 0\n',
    );
    const mount = workspace.file('file:///repo/etc/fstab')!.mounts[0]!;
    expect(workspace.volumeForMount(mount)).toMatchObject({
      name: 'hd4-log-vol',
      throughputMiBps: 250,
      workload: 'sap-hana-log',
    });
  });

  it('a group in one file of a module finds its pool in another', () => {
    const [before, after] = HANA_CLEAN_TF.split('resource "azurerm_netapp_volume_group_sap_hana"');
    const pools = before!;
    const group = `resource "azurerm_netapp_volume_group_sap_hana"${after!}`;
    const workspace = new Workspace(config);
    workspace.set('file:///repo/pools.tf', pools);
    workspace.set('file:///repo/groups.tf', group);
    const file = workspace.file('file:///repo/groups.tf')!;
    expect(file.volumes.map((v) => [v.name, v.serviceLevel, v.throughputMiBps])).toEqual([
      ['hd4-data-vol', 'Ultra', 400],
      ['hd4-log-vol', 'Ultra', 250],
      ['hd4-shared-vol', 'Ultra', 118],
    ]);
    expect(lint({ 'pools.tf': pools, 'groups.tf': group })).toEqual({ 'pools.tf': [], 'groups.tf': [] });
  });

  it('an edit outside the group reuses what the group block read; an edit in it reads it again', () => {
    forgetKeptTrees();
    forgetBlockResults();
    const uri = 'file:///repo/reuse-group.tf';
    const base = `${HANA_CLEAN_TF}\nresource "azurerm_proximity_placement_group" "hd4" {\n  name                = "ppg-hd4"\n  location            = "northeurope"\n  resource_group_name = "rg-sap-hd4"\n}\n`;
    const versions = [
      base,
      base.replace('name                = "ppg-hd4"', 'name                = "ppg-hd4-zone1"'),
      base.replace('throughput_in_mibps          = 250', 'throughput_in_mibps          = 200'),
    ];
    const counts = versions.map((text, i) => {
      const incremental = readIac(new SourceText(text), uri, 'terraform', true);
      const reuse = lastBlockReuse();
      const whole = readIac(new SourceText(text), `file:///fresh/${i}/reuse-group.tf`, 'terraform');
      expect(JSON.stringify(incremental.estate)).toBe(JSON.stringify(whole.estate));
      return reuse;
    });
    expect(counts).toEqual([
      { reused: 0, read: 4 },
      { reused: 3, read: 1 },
      { reused: 3, read: 1 },
    ]);
    expect(
      readIac(new SourceText(versions[2]!), uri, 'terraform', true).estate!.volumes[1]!.throughputMiBps?.value,
    ).toBe(200);
    forgetKeptTrees();
    forgetBlockResults();
  });
});

describe('Bicep and ARM application volume groups', () => {
  it('Bicep: properties.volumes[] in the pool `capacityPoolResourceId: pool.id` names', () => {
    const file = parseFile('file:///repo/main.bicep', HANA_BICEP);
    const pools = file.manifest!.accounts.flatMap((a) => a.pools);
    expect(pools.map((p) => [p.name?.value, p.qos?.value, p.volumes.map((v) => v.name?.value)])).toEqual([
      ['hc3-premium-manual', 'manual', ['HC3-data-vol', 'HC3-log-vol']],
    ]);
    expect(file.volumes.map((v) => [v.workload, v.throughputMiBps, v.exportPath, v.quotaGiB])).toEqual([
      ['sap-hana-data', 300, '/HC3-data-vol', 1024],
      ['sap-hana-log', 250, '/HC3-log-vol', 512],
    ]);
  });

  it('Bicep: an annotation above an entry of `volumes` overrides its volume spec', () => {
    const text = HANA_BICEP.replace(
      "      {\n        name: '${sid}-data-vol'",
      "      // anf: workload=general\n      {\n        name: '${sid}-data-vol'",
    );
    expect(text).not.toBe(HANA_BICEP);
    expect(parseFile('file:///repo/main.bicep', text).volumes.map((v) => v.workload)).toEqual([
      'general',
      'sap-hana-log',
    ]);
  });

  it('ARM: an Oracle group, its pool named by resourceId() with parameters; sized right, it gives no findings', () => {
    const file = parseFile('file:///repo/oracle.json', ORACLE_ARM);
    expect(file.kind).toBe('arm-template');
    const pools = file.manifest!.accounts.flatMap((a) => a.pools);
    expect(pools.map((p) => [p.name?.value, p.size?.value.amount, p.volumes.map((v) => v.name?.value)])).toEqual([
      ['ora-ultra-manual', 4398046511104, ['ora-data1', 'ora-log']],
    ]);
    expect(file.volumes.map((v) => [v.workload, v.throughputMiBps, v.exportPath])).toEqual([
      ['oracle', 384, '/ora-data1'],
      ['oracle', 128, '/ora-log'],
    ]);
    expect(lint({ 'oracle.json': ORACLE_ARM })['oracle.json']).toEqual([]);
  });

  it("az output: `az netappfiles volume-group show` with its volumes' properties flattened", () => {
    const az = JSON.stringify({
      name: 'anf-hc5/HC5-avg-00001',
      type: 'Microsoft.NetApp/netAppAccounts/volumeGroups',
      groupMetaData: { applicationType: 'SAP-HANA', applicationIdentifier: 'HC5' },
      volumes: [
        {
          name: 'HC5-log-vol',
          volumeSpecName: 'log',
          creationToken: 'HC5-log-vol',
          serviceLevel: 'Premium',
          usageThreshold: 549755813888,
          throughputMibps: 200,
          protocolTypes: ['NFSv4.1'],
          capacityPoolResourceId:
            '/subscriptions/5555/resourceGroups/rg-hc5/providers/Microsoft.NetApp/netAppAccounts/anf-hc5/capacityPools/hc5-pool',
        },
      ],
    });
    const file = parseFile('file:///repo/volume-group.json', az);
    expect(file.kind).toBe('az-netappfiles-json');
    expect(file.volumes.map((v) => [v.name, v.workload, v.throughputMiBps, v.exportPath])).toEqual([
      ['HC5-log-vol', 'sap-hana-log', 200, '/HC5-log-vol'],
    ]);
    expect(file.manifest!.accounts.flatMap((a) => a.pools).map((p) => [p.name?.value, p.qos?.value])).toEqual([
      ['hc5-pool', 'manual'],
    ]);
    expect(lint({ 'volume-group.json': az })['volume-group.json']).toEqual(['1 ANF408']);
  });

  it('half-written groups: empty placeholders, no volume blocks, dynamic volume blocks give no volumes and no crash', () => {
    const text = `resource "azurerm_netapp_volume_group_sap_hana" "empty" {
  count = 0
}

resource "azurerm_netapp_volume_group_sap_hana" "dynamic" {
  name         = "HX1-avg"
  account_name = "anf-hx1"

  dynamic "volume" {
    for_each = var.volumes
    content {
      name                = volume.value.name
      volume_spec_name    = volume.value.spec
      storage_quota_in_gb = volume.value.quota
    }
  }
}

resource "azurerm_netapp_volume_group_sap_hana" "placeholder" {
  name = ""

  volume {
    name                = ""
    capacity_pool_id    = ""
    volume_spec_name    = ""
    service_level       = ""
    storage_quota_in_gb = 0
    throughput_in_mibps = 0
    protocols           = []
  }
}
`;
    const file = parseFile('file:///repo/main.tf', text);
    const volumes = file.manifest!.accounts.flatMap((a) => a.pools.flatMap((p) => p.volumes));
    expect(volumes.map((v) => [v.path[0], v.workload?.value])).toEqual([
      ['azurerm_netapp_volume_group_sap_hana.placeholder.volume[0]', undefined],
    ]);
    for (let end = 0; end <= text.length; end += 37)
      expect(() => lint({ 'main.tf': text.slice(0, end) })).not.toThrow();
  });
});
