import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyInto, git, run, tempProject } from './helpers';

/** `anf-lint estate`: the inventory of what a repository deploys (docs/cli.md). */

interface VolumeJson {
  account: string | null;
  pool: string | null;
  name: string;
  instance: string | null;
  file: string;
  line: number;
  source: string;
  serviceLevel: string | null;
  quotaGiB: number | null;
  throughputMiBps: number | null;
  iops: number | null;
  monthlyUsd: number | null;
  unknown: string[];
}

interface EstateJson {
  accounts: Record<string, unknown>[];
  pools: Record<string, unknown>[];
  volumes: VolumeJson[];
  totals: Record<string, number>;
}

function fixture(): string {
  const dir = tempProject({});
  copyInto(dir, 'test/cli/fixtures/estate', '.');
  return dir;
}

function estateJson(cwd: string, ...args: string[]): EstateJson {
  const result = run(['estate', '--format', 'json', ...args], { cwd });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as EstateJson;
}

describe('anf-lint estate', () => {
  it('lists each volume once with its source, figures and the reason for each unknown value', () => {
    const json = estateJson(fixture());
    expect(Object.keys(json)).toEqual(['accounts', 'pools', 'volumes', 'totals']);
    for (const volume of json.volumes) {
      expect(Object.keys(volume)).toEqual([
        'account',
        'pool',
        'name',
        'instance',
        'file',
        'line',
        'source',
        'serviceLevel',
        'qos',
        'quotaGiB',
        'throughputMiBps',
        'iops',
        'iopsBlockSizeKiB',
        'monthlyUsd',
        'unknown',
      ]);
    }
    const rows = json.volumes.map(
      (v) =>
        `${v.file}:${v.line} ${v.source} ${v.account}/${v.pool}/${v.name} ${v.instance} ${v.quotaGiB} ${v.throughputMiBps} ${v.monthlyUsd}`,
    );
    expect(rows).toEqual([
      // The manifest and the Terraform describe the same estate: two sources, both listed.
      'estate.anf.yaml:9 manifest acct-main/pool-premium/home null 1024 64 301.25',
      'infra/main.tf:34 terraform acct-main/pool-premium/home azurerm_netapp_volume.home 1024 64 301.25',
      // The module's volumes are listed as the caller's instances, not again under modules/anf.
      // for_each instances come in key order, as `terraform plan` lists them.
      'infra/main.tf:62 terraform acct-main/pool-premium/team-blue module.team["blue"].azurerm_netapp_volume.team 1024 64 301.25',
      'infra/main.tf:62 terraform acct-main/pool-premium/team-red module.team["red"].azurerm_netapp_volume.team 512 32 150.63',
      // Its name is a variable without a value: shown by its address, never "(unnamed)" or empty; its pool's size is unknown, so is its cost.
      'infra/main.tf:46 terraform acct-main/pool-open/azurerm_netapp_volume.data azurerm_netapp_volume.data 2048 32 null',
    ]);
    const data = json.volumes.find((v) => v.instance === 'azurerm_netapp_volume.data')!;
    expect(data.unknown).toEqual([
      'name: `var.data_name` has no value in this folder: it has no default; set it in terraform.tfvars or a *.auto.tfvars file',
      "monthly cost: follows the pool's size, unknown",
    ]);
    expect(json.volumes.filter((v) => v.unknown.length === 0)).toHaveLength(4);
    const open = json.pools.find((p) => p.name === 'pool-open')!;
    expect(open).toMatchObject({
      sizeTiB: null,
      throughputMiBps: null,
      monthlyUsd: null,
      file: 'infra/main.tf',
      line: 25,
      source: 'terraform',
    });
    expect(open.unknown).toEqual([
      'size: `var.pool_size_tb` has no value in this folder: it has no default; set it in terraform.tfvars or a *.auto.tfvars file',
      'monthly cost: follows the size, unknown',
    ]);
    expect(json.accounts.map((a) => `${a.file}:${a.line} ${a.name}`)).toEqual([
      'estate.anf.yaml:3 acct-main',
      'infra/main.tf:10 acct-main',
    ]);
    // The pools' cost (what Azure bills), the unknown one counted apart.
    expect(json.totals).toEqual({
      accounts: 2,
      pools: 3,
      volumes: 5,
      quotaGiB: 5632,
      unknownQuota: 0,
      throughputMiBps: 256,
      unknownThroughput: 0,
      monthlyUsd: 2410,
      unknownMonthlyUsd: 1,
    });
  });

  it('prints text, Markdown and CSV from the same inventory', () => {
    const dir = fixture();
    const text = run(['estate'], { cwd: dir });
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^Account +Pool +Volume +Level +Quota +Throughput +IOPS +Monthly +Where$/m);
    expect(text.stdout).toMatch(
      /^acct-main +pool-open +azurerm_netapp_volume\.data +Standard +2 TiB +32 MiB\/s +4,096 @ 8 KiB +unknown +infra\/main\.tf:46 \(terraform\)$/m,
    );
    expect(text.stdout).toContain(
      'Total: 2 accounts, 3 pools, 5 volumes; quota 5.5 TiB, throughput 256 MiB/s, pools $2,410.00/month (+ 1 pool cost unknown)',
    );
    expect(text.stdout).not.toMatch(/unnamed|\b0 MiB\/s/);
    const markdown = run(['estate', '--format', 'markdown'], { cwd: dir }).stdout;
    expect(markdown).toContain(
      '| `acct-main/pool-premium/team-red` | Premium | 0.5 TiB | 32 MiB/s | 4,096 @ 8 KiB | $150.63 | `infra/main.tf:62` terraform |',
    );
    const csv = run(['estate', '--format', 'csv'], { cwd: dir }).stdout.split('\r\n');
    expect(csv[0]).toBe(
      'account,pool,name,instance,file,line,source,serviceLevel,qos,quotaGiB,throughputMiBps,iops,iopsBlockSizeKiB,monthlyUsd,unknown',
    );
    expect(csv).toContain(
      'acct-main,pool-premium,team-red,"module.team[""red""].azurerm_netapp_volume.team",infra/main.tf,62,terraform,Premium,auto,512,32,4096,8,150.63,',
    );
    expect(csv).toHaveLength(7);
  });

  it("lint's text report lists each file's estate from the same inventory", () => {
    const report = run(['--exit-zero', 'infra'], { cwd: fixture() }).stdout;
    expect(report).toContain(
      '  pool acct-main/pool-open  Standard, size unknown, 2,048 GiB allocated, monthly cost unknown\n    azurerm_netapp_volume.data  2,048 GiB, 32 MiB/s, 4,096 IOPS at 8 KiB (assumed), monthly cost unknown\n',
    );
    expect(report).toContain(
      '    team-red  512 GiB, 32 MiB/s, 4,096 IOPS at 8 KiB (assumed), $150.63 a month, NFSv3\n',
    );
    // The module is read through its caller: its own file lists nothing again.
    expect(report).toContain(
      'infra/modules/anf/main.tf\n  a module: its volumes are listed where it is called, with the values its callers give\n',
    );
    expect(report).not.toMatch(/\?\/\?|unnamed/);
  });

  it('takes paths like lint, and says what it cannot read', () => {
    const dir = fixture();
    const json = estateJson(dir, 'estate.anf.yaml');
    expect(json.volumes.map((v) => v.file)).toEqual(['estate.anf.yaml']);
    const missing = run(['estate', 'nope'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('nope: no such file or folder');
    expect(run(['estate', '--format', 'sarif'], { cwd: dir }).stderr).toContain(
      '--format: "sarif" is not a format of anf-lint estate',
    );
    const empty = run(['estate'], { cwd: tempProject({ 'etc/fstab': '10.0.0.4:/vol1 /data nfs rw,hard 0 0\n' }) });
    expect(empty.stdout).toBe('No Azure NetApp Files accounts, pools or volumes found.\n');
  });

  it('lists every volume of the examples once per source', () => {
    const dir = tempProject({});
    copyInto(dir, 'examples', '.');
    const json = estateJson(dir);
    const places = json.volumes.map((v) => `${v.file}:${v.line}:${v.instance}`);
    expect(new Set(places).size).toBe(places.length);
    // Each example estate is written three times: manifest, Terraform, Bicep.
    for (const example of ['eda', 'sap-hana']) {
      const bySource = (source: string) =>
        json.volumes
          .filter((v) => v.file.startsWith(`${example}/`) && v.source === source)
          .map((v) => v.name)
          .sort();
      expect(bySource('terraform').length).toBeGreaterThan(0);
      expect(bySource('terraform')).toEqual(bySource('manifest'));
      expect(bySource('bicep')).toEqual(bySource('manifest'));
    }
    for (const volume of json.volumes) {
      expect(volume.name).not.toBe('');
      if (volume.unknown.length === 0)
        expect([volume.quotaGiB, volume.throughputMiBps, volume.iops, volume.monthlyUsd]).not.toContain(null);
    }
  });
});

describe('anf-lint estate --diff', () => {
  const POOL = (size: number) => `resource "azurerm_netapp_pool" "p" {
  name                = "pool1"
  account_name        = "acct"
  location            = "eastus"
  resource_group_name = "rg"
  service_level       = "Premium"
  size_in_tb          = ${size}
}
`;
  const VOLUME = (name: string, gib: number) => `resource "azurerm_netapp_volume" "${name}" {
  name                = "${name}"
  location            = "eastus"
  resource_group_name = "rg"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  volume_path         = "${name}"
  service_level       = "Premium"
  subnet_id           = "/subscriptions/x/subnet"
  protocols           = ["NFSv3"]
  storage_quota_in_gb = ${gib}
}
`;

  it('prints what changes in throughput, capacity and monthly cost, per volume and in total', () => {
    const dir = tempProject({ 'infra/main.tf': POOL(4) + VOLUME('data', 1024) + VOLUME('logs', 512) }, { git: true });
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    // The change under review: data doubles, logs goes, scratch comes, the pool grows.
    writeFileSync(join(dir, 'infra/main.tf'), POOL(6) + VOLUME('data', 2048) + VOLUME('scratch', 1024));
    const result = run(['estate', '--diff', 'main'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        '## Azure NetApp Files estate: changes against `main`',
        '',
        '| Volume | Level | Throughput | Capacity (quota) | Monthly cost | Where |',
        '|---|---|---:|---:|---:|---|',
        '| `acct/pool1/data` | Premium | 64 MiB/s → 128 MiB/s (+64 MiB/s) | 1 TiB → 2 TiB (+1 TiB) | $301.25 → $602.50 (+$301.25) | `infra/main.tf:10` |',
        '| ➖ `acct/pool1/logs` | Premium | 32 MiB/s (removed) | 0.5 TiB (removed) | $150.63 (removed) | `infra/main.tf:22` |',
        '| ➕ `acct/pool1/scratch` | Premium | 64 MiB/s (new) | 1 TiB (new) | $301.25 (new) | `infra/main.tf:22` |',
        '',
        '| Total | Before | After | Change |',
        '|---|---:|---:|---:|',
        '| Volumes | 2 | 2 | 0 |',
        '| Throughput | 96 MiB/s | 192 MiB/s | +96 MiB/s |',
        '| Capacity (quota) | 1.5 TiB | 3 TiB | +1.5 TiB |',
        '| Monthly cost (pools) | $1,205.00 | $1,807.50 | +$602.50 |',
        '',
        "<sub>Monthly cost is what the capacity pools are billed at list prices (a pool is billed for its size, not its volumes' quotas); per volume, its share. From `anf-lint estate --diff`.</sub>",
        '',
      ].join('\n'),
    );
    const json = JSON.parse(run(['estate', '--diff', 'main', '--format', 'json'], { cwd: dir }).stdout) as {
      volumes: { change: string }[];
      totals: { before: { monthlyUsd: number }; after: { monthlyUsd: number } };
    };
    expect(json.volumes.map((v) => v.change)).toEqual(['changed', 'removed', 'added']);
    expect(json.totals.after.monthlyUsd - json.totals.before.monthlyUsd).toBeCloseTo(602.5, 2);
  });

  it('says when nothing changes, and refuses a ref that is not a commit', () => {
    const dir = tempProject({ 'infra/main.tf': POOL(4) + VOLUME('data', 1024) }, { git: true });
    git(dir, 'add', '.');
    git(dir, 'commit', '-q', '-m', 'base');
    expect(run(['estate', '--diff', 'HEAD'], { cwd: dir }).stdout).toContain(
      'No volume changes its throughput, capacity, service level or monthly cost.',
    );
    const bad = run(['estate', '--diff', 'no-such-branch'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--diff: "no-such-branch" is not a commit, branch or tag in this repository');
    const outside = run(['estate', '--diff', 'main'], { cwd: tempProject({ 'a.anf.yaml': 'accounts: []\n' }) });
    expect(outside.stderr).toContain('--diff needs a git work tree');
  });
});
