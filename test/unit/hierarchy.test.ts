/**
 * The `anf/hierarchy` tree lists manifests in a stable order: by URI, whatever order the files
 * reached the workspace in (that order changes when the workspace index finishes, and the tree
 * in the editor would reorder under the user).
 */
import { describe, expect, it } from 'vitest';
import { resolveConfig, Workspace } from '../../server/src/core';
import { buildHierarchy } from '../../server/src/core/features/buildHierarchy';
import { recommendedMountRequest } from '../../server/src/core/features/requests';

const config = resolveConfig();
const manifest = (account: string) =>
  `accounts:\n  - name: ${account}\n    pools:\n      - name: pool\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: v\n            quota: 1 TiB\n`;
const FILES = [
  { uri: 'file:///repo/sap/hana.anf.yaml', text: manifest('sap-prod') },
  { uri: 'file:///repo/eda/eda.anf.yaml', text: manifest('eda-prod') },
  { uri: 'file:///repo/hpc/hpc.anf.yaml', text: manifest('hpc-prod') },
];

function accountsInTree(files: typeof FILES): string[] {
  const workspace = new Workspace(config);
  for (const file of files) workspace.set(file.uri, file.text);
  return buildHierarchy(workspace, config, () => []).manifests.flatMap((m) => m.accounts.map((a) => a.name));
}

describe('anf/hierarchy order', () => {
  it('lists manifests by URI, whatever order they were added in', () => {
    const expected = ['eda-prod', 'hpc-prod', 'sap-prod'];
    expect(accountsInTree(FILES)).toEqual(expected);
    expect(accountsInTree([...FILES].reverse())).toEqual(expected);
  });
});

describe('anf/hierarchy figures', () => {
  it('carry stable keys that clients pick them by (the label is display text)', () => {
    const workspace = new Workspace(config);
    workspace.set(FILES[0]!.uri, FILES[0]!.text);
    const [account] = buildHierarchy(workspace, config, () => []).manifests[0]!.accounts;
    const pool = account!.pools[0]!;
    const volume = pool.volumes[0]!;
    expect(account!.figures.map((f) => f.key)).toEqual(['pools', 'monthlyCost']);
    expect(pool.figures.map((f) => f.key)).toEqual(expect.arrayContaining(['budget', 'used', 'allocated']));
    expect(volume.figures.map((f) => f.key)).toEqual(expect.arrayContaining(['throughput', 'quota']));
    expect(volume.figures.find((f) => f.key === 'throughput')?.value).toMatch(/MiB\/s$/);
  });
});

/**
 * The tree and `anf-lint estate` show the same inventory (core/estate/inventory.ts): the same
 * names or addresses, the reasons for unknown values in the tooltip, never "(unnamed)" or 0 MiB/s.
 */
describe('anf/hierarchy lists the estate inventory', () => {
  const MAIN = `variable "data_name" {
  type = string
}

variable "quota" {
  type = number
}

resource "azurerm_netapp_pool" "p" {
  name                = "pool1"
  account_name        = "acct"
  location            = "eastus"
  resource_group_name = "rg"
  service_level       = "Premium"
  size_in_tb          = 4
}

resource "azurerm_netapp_volume" "data" {
  name                = var.data_name
  location            = "eastus"
  resource_group_name = "rg"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  volume_path         = "data"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/x/subnet"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = var.quota
}

module "team" {
  source = "./modules/team"
}
`;
  const MODULE = `resource "azurerm_netapp_volume" "team" {
  name                = "team"
  location            = "eastus"
  resource_group_name = "rg"
  account_name        = "acct"
  pool_name           = "pool1"
  volume_path         = "team"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/x/subnet"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = 1024
  mount_ip_addresses  = ["10.0.0.9"]
}
`;

  it('names a volume of unknown name by its address and says why each value is unknown', () => {
    const workspace = new Workspace(config);
    workspace.set('file:///repo/infra/main.tf', MAIN);
    workspace.set('file:///repo/infra/modules/team/main.tf', MODULE);
    const tree = buildHierarchy(workspace, config, () => []);
    // The module is listed once, as its caller's instance: not again under modules/team.
    expect(tree.manifests.map((m) => m.uri)).toEqual(['file:///repo/infra/main.tf']);
    const volumes = tree.manifests[0]!.accounts.flatMap((a) => a.pools.flatMap((p) => p.volumes));
    expect(volumes.map((v) => v.name)).toEqual(['azurerm_netapp_volume.data', 'team']);
    const data = volumes[0]!;
    expect(data.unknown).toEqual([
      'name: `var.data_name` has no value in this folder: it has no default; set it in terraform.tfvars or a *.auto.tfvars file',
      'quota: `var.quota` has no value in this folder: it has no default; set it in terraform.tfvars or a *.auto.tfvars file',
      'throughput: follows the quota, unknown',
      'IOPS: follow the throughput, unknown',
      'monthly cost: follows the quota, unknown',
    ]);
    // Unknown is absent, not 0: no quota, throughput or cost, and no figure for them.
    expect(data.quotaGiB).toBeUndefined();
    expect(data.throughputMiBps).toBeUndefined();
    expect(data.monthlyCostUsd).toBeUndefined();
    expect(data.figures.map((f) => f.key)).toEqual([]);
    expect(volumes[1]).toMatchObject({
      name: 'team',
      instance: 'module.team.azurerm_netapp_volume.team',
      quotaGiB: 1024,
      throughputMiBps: 64,
    });
    expect(JSON.stringify(tree)).not.toMatch(/\(unnamed\)|"0 MiB\/s"/);
  });

  it('labels mounts host / path, and never counts snippets or placeholder addresses', () => {
    const workspace = new Workspace(config);
    workspace.set('file:///repo/infra/main.tf', MAIN);
    workspace.set('file:///repo/infra/modules/team/main.tf', MODULE);
    workspace.set('file:///repo/hosts/build01/etc/fstab', '10.0.0.9:/team /mnt/team nfs rw,hard,vers=3,tcp 0 0\n');
    workspace.set(
      'file:///repo/hosts/build02/etc/fstab',
      '<mount-target-ip>:/team /mnt/team nfs rw,hard,vers=3 0 0\n${ANF_IP}:/team /mnt/t2 nfs rw,hard 0 0\n{{ anf_ip }}:/team /mnt/t3 nfs rw,hard 0 0\n',
    );
    const tree = buildHierarchy(workspace, config, () => []);
    const team = tree.manifests[0]!.accounts.flatMap((a) => a.pools.flatMap((p) => p.volumes)).find(
      (v) => v.name === 'team',
    )!;
    expect(team.mounts.map((m) => m.label)).toEqual(['build01 / /mnt/team']);
    expect(team.mounts[0]).toMatchObject({
      host: 'build01',
      location: { uri: 'file:///repo/hosts/build01/etc/fstab', range: { start: { line: 0 } } },
    });
    expect(tree.unlinkedMounts).toEqual([]);
  });

  it('"Insert mount command" reuses the address and mount point a host already uses for the volume', () => {
    const manifest =
      'accounts:\n  - name: acct\n    pools:\n      - name: pool1\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: team\n            quota: 1 TiB\n            exportPath: /team\n            mountTarget: 10.0.0.9\n';
    const workspace = new Workspace(config);
    workspace.set('file:///repo/team.anf.yaml', manifest);
    const fresh = recommendedMountRequest(
      workspace,
      { uri: 'file:///repo/team.anf.yaml', volume: 'team', style: 'fstab' },
      config,
    );
    // No host mounts it yet: the estate's values.
    expect('text' in fresh && fresh.text).toMatch(/^10\.0\.0\.9:\/team \/mnt\/team nfs /);
    workspace.set('file:///repo/hosts/build01/etc/fstab', '10.0.0.9:/team /tools/team nfs rw,hard,vers=3,tcp 0 0\n');
    workspace.set(
      'file:///repo/hosts/build02/etc/fstab',
      '<mount-target-ip>:/team /scratch/team nfs rw,hard,vers=3 0 0\n',
    );
    const reused = recommendedMountRequest(
      workspace,
      {
        uri: 'file:///repo/team.anf.yaml',
        volume: 'team',
        style: 'fstab',
        targetUri: 'file:///repo/hosts/build01/etc/fstab',
      },
      config,
    );
    expect('text' in reused && reused.text).toMatch(/^10\.0\.0\.9:\/team \/tools\/team nfs /);
    // build02's only mount of it is a placeholder: nothing to copy, the estate's values.
    const other = recommendedMountRequest(
      workspace,
      {
        uri: 'file:///repo/team.anf.yaml',
        volume: 'team',
        style: 'fstab',
        targetUri: 'file:///repo/hosts/build02/etc/fstab',
      },
      config,
    );
    expect('text' in other && other.text).toMatch(/^10\.0\.0\.9:\/team \/mnt\/team nfs /);
  });
});
