import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { computeHover } from '../../server/src/core/features/hover';
import { MemoryEnvironment, Project } from '../../server/src/core/project';

/**
 * Terraform `module` blocks with a local source: the module's resources are the caller's, once per
 * block, its variables set by the block's arguments; a finding caused by a value the caller passes
 * lands on that argument; a value written in the module alone is judged in the module's own file.
 */
const config = resolveConfig(configSchema.parse({}));

const HANA_MODULE = {
  'modules/hana-anf/variables.tf': `variable "sid" {
  type = string
}

variable "pool_tib" {
  type = number
}

variable "log_quota_gib" {
  type = number
}

variable "data_quota_gib" {
  type    = number
  default = 4096
}
`,
  'modules/hana-anf/main.tf': `resource "azurerm_netapp_pool" "hana" {
  name                = "\${var.sid}-pool"
  account_name        = "sap-anf"
  resource_group_name = "rg-sap"
  location            = "westeurope"
  service_level       = "Ultra"
  size_in_tb          = var.pool_tib
}

resource "azurerm_netapp_volume" "data" {
  name                = "\${var.sid}-data-mnt00001"
  account_name        = "sap-anf"
  pool_name           = azurerm_netapp_pool.hana.name
  resource_group_name = "rg-sap"
  location            = "westeurope"
  service_level       = "Ultra"
  volume_path         = "\${var.sid}-data-mnt00001"
  storage_quota_in_gb = var.data_quota_gib
  protocols           = ["NFSv4.1"]
}

resource "azurerm_netapp_volume" "log" {
  name                = "\${var.sid}-log-mnt00001"
  account_name        = "sap-anf"
  pool_name           = azurerm_netapp_pool.hana.name
  resource_group_name = "rg-sap"
  location            = "westeurope"
  service_level       = "Ultra"
  volume_path         = "\${var.sid}-log-mnt00001"
  storage_quota_in_gb = var.log_quota_gib
  protocols           = ["NFSv4.1"]

  export_policy_rule {
    rule_index          = 1
    allowed_clients     = ["0.0.0.0/0"]
    protocols_enabled   = ["NFSv4.1"]
    root_access_enabled = true
  }
}
`,
};

const ROOT = `module "hana_hn1" {
  source        = "./modules/hana-anf"
  sid           = "hn1"
  pool_tib      = 8
  log_quota_gib = 1024
}

module "hana_hn2" {
  source        = "./modules/hana-anf"
  sid           = "hn2"
  pool_tib      = 8
  log_quota_gib = 2048
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

describe('a root module calling a local module twice with different sizes', () => {
  const workspace = workspaceOf({ 'main.tf': ROOT, ...HANA_MODULE });

  it("makes the module's resources the caller's, once per module block, with the values each block passes", () => {
    const root = workspace.file('file:///repo/main.tf')!;
    expect(root.iac!.volumes.map((v) => `${v.symbol} ${v.name?.value} ${v.quota?.value}`)).toEqual([
      'module.hana_hn1.azurerm_netapp_volume.data hn1-data-mnt00001 4096',
      'module.hana_hn1.azurerm_netapp_volume.log hn1-log-mnt00001 1024',
      'module.hana_hn2.azurerm_netapp_volume.data hn2-data-mnt00001 4096',
      'module.hana_hn2.azurerm_netapp_volume.log hn2-log-mnt00001 2048',
    ]);
    const pools = root.manifest!.accounts.flatMap((a) => a.pools);
    expect(
      pools.map((p) => `${p.name?.value} ${p.size?.value.amount} ${p.volumes.map((v) => v.name?.value).join(',')}`),
    ).toEqual(['hn1-pool 8 hn1-data-mnt00001,hn1-log-mnt00001', 'hn2-pool 8 hn2-data-mnt00001,hn2-log-mnt00001']);
    // The workspace's volumes (mounts reach them by export path): the four instances.
    expect(
      workspace
        .volumes()
        .map((v) => v.exportPath)
        .filter(Boolean),
    ).toEqual(['/hn1-data-mnt00001', '/hn1-log-mnt00001', '/hn2-data-mnt00001', '/hn2-log-mnt00001']);
  });

  it('reports the undersized log volume on the argument that sets its quota, saying where the module uses it', () => {
    const list = findings(workspace, 'main.tf').filter((f) => / ANF408 /.test(f));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(
      /^5:18 ANF408 Volume `hn1-log-mnt00001` is SAP HANA \/hana\/log .* gets 128 MiB\/s, below the 250 MB\/s/,
    );
    expect(list[0]).toContain(
      '(set by `log_quota_gib` of module "hana_hn1", used as `storage_quota_in_gb` in modules/hana-anf/main.tf line 30)',
    );
  });

  it('the hover on the argument shows the volume it sizes', () => {
    const text = workspace.file('file:///repo/main.tf')!.source.text;
    const hover = computeHover(workspace, 'file:///repo/main.tf', text.indexOf('1024') + 1, config);
    expect(hover?.markdown).toContain('Throughput limit at this quota: **128 MiB/s**');
    expect(hover?.markdown).toContain(
      'set by `log_quota_gib` of module "hana_hn1", used as `storage_quota_in_gb` in modules/hana-anf/main.tf line 30',
    );
  });

  it("the module's own file judges what is written in it alone, once, and leaves values its callers set to them", () => {
    const list = findings(workspace, 'modules/hana-anf/main.tf');
    // Root access for 0.0.0.0/0 is written in the module: reported there, not in main.tf once per call.
    expect(list.filter((f) => / ANF403 /.test(f)).map((f) => f.split(' ')[0])).toEqual(['35:26']);
    expect(findings(workspace, 'main.tf').filter((f) => / ANF403 /.test(f))).toEqual([]);
    // No finding on `var.log_quota_gib` in the module: each caller's value is judged in the caller.
    expect(list.filter((f) => / ANF408 /.test(f))).toEqual([]);
  });
});

describe("a value the caller leaves at the module's default", () => {
  it('is reported on the module block, saying which argument it does not set', () => {
    const module = {
      ...HANA_MODULE,
      'modules/hana-anf/variables.tf': HANA_MODULE['modules/hana-anf/variables.tf'].replace(
        'default = 4096',
        'default = 512',
      ),
    };
    const workspace = workspaceOf({ 'main.tf': ROOT, ...module });
    const list = findings(workspace, 'main.tf').filter((f) => / ANF408 /.test(f));
    expect(list.map((f) => f.split(' ')[0])).toEqual(['1:0', '5:18', '8:0']);
    expect(list[0]).toContain('`hn1-data-mnt00001`');
    expect(list[0]).toContain(
      '(`var.data_quota_gib` = 512, from its default in modules/hana-anf/variables.tf line 15; module "hana_hn1" does not set `data_quota_gib`)',
    );
    // ... and not in the module, where the default is only a default.
    expect(findings(workspace, 'modules/hana-anf/main.tf').filter((f) => / ANF408 /.test(f))).toEqual([]);
  });
});

describe('a module calling a module', () => {
  const files = {
    'main.tf': `module "sap" {
  source        = "./modules/sap-hana"
  sid           = "hn1"
  log_quota_gib = 1024
}
`,
    'modules/sap-hana/main.tf': `variable "sid" {
  type = string
}

variable "log_quota_gib" {
  type = number
}

resource "azurerm_netapp_pool" "hana" {
  name          = "\${var.sid}-pool"
  account_name  = "sap-anf"
  service_level = "Ultra"
  size_in_tb    = 4
}

module "log" {
  source    = "../anf-volume"
  name      = "\${var.sid}-log-mnt00001"
  pool_name = azurerm_netapp_pool.hana.name
  quota_gib = var.log_quota_gib
}
`,
    'modules/anf-volume/main.tf': `variable "name" {
  type = string
}

variable "pool_name" {
  type = string
}

variable "quota_gib" {
  type    = number
  default = 100
}

resource "azurerm_netapp_volume" "this" {
  name                = var.name
  account_name        = "sap-anf"
  pool_name           = var.pool_name
  service_level       = "Ultra"
  volume_path         = var.name
  storage_quota_in_gb = var.quota_gib
  protocols           = ["NFSv4.1"]
}
`,
  };

  it("follows both calls: the root's argument sizes the inner module's volume, and the finding lands on it", () => {
    const workspace = workspaceOf(files);
    const root = workspace.file('file:///repo/main.tf')!;
    expect(root.iac!.volumes.map((v) => `${v.symbol} ${v.name?.value} ${v.quota?.value}`)).toEqual([
      'module.sap.module.log.azurerm_netapp_volume.this hn1-log-mnt00001 1024',
    ]);
    const list = findings(workspace, 'main.tf').filter((f) => / ANF408 /.test(f));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^4:18 ANF408 /);
    expect(list[0]).toContain(
      '(set by `log_quota_gib` of module "sap", used as `quota_gib` in modules/sap-hana/main.tf line 20)',
    );
    // The middle module passes the value on: nothing to report there.
    expect(findings(workspace, 'modules/sap-hana/main.tf').filter((f) => / ANF408 /.test(f))).toEqual([]);
    // The pool named by reference through the inner module's `pool_name` argument is found by name.
    expect(
      root
        .manifest!.accounts.flatMap((a) => a.pools)
        .map((p) => `${p.name?.value} ${p.volumes.map((v) => v.name?.value).join(',')}`),
    ).toEqual(['hn1-pool hn1-log-mnt00001']);
  });
});

describe('what is not read', () => {
  it('a registry or git source: nothing guessed, no finding', () => {
    const workspace = workspaceOf({
      'main.tf': `module "anf" {
  source  = "Azure/avm-res-netapp-netappaccount/azurerm"
  version = "0.1.0"
  name    = "anf-prod"
}
`,
    });
    expect(workspace.file('file:///repo/main.tf')!.iac!.volumes).toEqual([]);
    expect(findings(workspace, 'main.tf')).toEqual([]);
  });

  it('count on the module block: one instance per index when the count is known, repeated when not', () => {
    const workspace = workspaceOf({
      'main.tf': ROOT.replace('  sid           = "hn1"', '  count         = 2\n  sid           = "hn1"'),
      ...HANA_MODULE,
    });
    const volumes = workspace.file('file:///repo/main.tf')!.iac!.volumes;
    expect(volumes.map((v) => `${v.address} ${v.name?.value} ${v.repeated}`)).toEqual([
      'module.hana_hn1[0].azurerm_netapp_volume.data hn1-data-mnt00001 false',
      'module.hana_hn1[0].azurerm_netapp_volume.log hn1-log-mnt00001 false',
      'module.hana_hn1[1].azurerm_netapp_volume.data hn1-data-mnt00001 false',
      'module.hana_hn1[1].azurerm_netapp_volume.log hn1-log-mnt00001 false',
      'module.hana_hn2.azurerm_netapp_volume.data hn2-data-mnt00001 false',
      'module.hana_hn2.azurerm_netapp_volume.log hn2-log-mnt00001 false',
    ]);
    const unknownCount = workspaceOf({
      'main.tf': ROOT.replace('  sid           = "hn1"', '  count         = var.copies\n  sid           = "hn1"'),
      ...HANA_MODULE,
    });
    expect(
      unknownCount.file('file:///repo/main.tf')!.iac!.volumes.map((v) => `${v.name?.value} ${v.repeated}`),
    ).toEqual(['hn1-data-mnt00001 true', 'hn1-log-mnt00001 true', 'hn2-data-mnt00001 false', 'hn2-log-mnt00001 false']);
  });

  it('a module that calls itself is read once, without looping', () => {
    const workspace = workspaceOf({
      'main.tf': `module "a" {\n  source = "./modules/loop"\n}\n`,
      'modules/loop/main.tf': `module "again" {\n  source = "../loop"\n}\n\nresource "azurerm_netapp_account" "a" {\n  name = "loop"\n}\n`,
    });
    expect(workspace.file('file:///repo/main.tf')!.iac!.accounts.map((a) => a.symbol)).toEqual([
      'module.a.azurerm_netapp_account.a',
    ]);
    expect(findings(workspace, 'modules/loop/main.tf')).toEqual([]);
  });
});

describe('editing either side', () => {
  it('a change of the module re-reads its callers, and a change of a caller re-reads the module', () => {
    const workspace = workspaceOf({ 'main.tf': ROOT, ...HANA_MODULE });
    expect(findings(workspace, 'main.tf').filter((f) => / ANF408 /.test(f))).toHaveLength(1);
    workspace.set(
      'file:///repo/modules/hana-anf/main.tf',
      HANA_MODULE['modules/hana-anf/main.tf'].replaceAll('"Ultra"', '"Premium"'),
    );
    // Premium: 64 MiB/s per TiB; the 2 TiB log volume of hn2 is now below the KPI too, and the data
    // volumes at the module's 4 TiB default (reported on each module block, which does not set it).
    expect(
      findings(workspace, 'main.tf')
        .filter((f) => / ANF408 /.test(f))
        .map((f) => f.split(' ')[0]),
    ).toEqual(['1:0', '5:18', '8:0', '12:18']);
    workspace.set('file:///repo/main.tf', ROOT.replace('log_quota_gib = 2048', 'log_quota_gib = 4096'));
    expect(
      findings(workspace, 'main.tf')
        .filter((f) => / ANF408 /.test(f))
        .map((f) => f.split(' ')[0]),
    ).toEqual(['1:0', '5:18', '8:0']);
    // Without callers the module is a root module again: its own reading, its own findings.
    workspace.delete('file:///repo/main.tf');
    expect(workspace.file('file:///repo/modules/hana-anf/main.tf')!.iac!.calledBy).toBeUndefined();
  });
});

describe('the CLI in a repository (in-memory environment)', () => {
  it('naming only main.tf reads the modules it calls and reports the same as the workspace', () => {
    const files = Object.fromEntries(
      Object.entries({ 'main.tf': ROOT, ...HANA_MODULE }).map(([name, text]) => [`/repo/${name}`, text]),
    );
    const env = new MemoryEnvironment(files);
    env.repository('/repo', { known: Object.keys(files).map((p) => p.slice('/repo/'.length)) });
    const project = new Project(env);
    const found = project.discover('/repo/main.tf');
    const run = project.open([{ path: '/repo/main.tf', root: found.root, named: true }]);
    const cli = visibleDiagnostics(run.lint(env.uriOf('/repo/main.tf')).diagnostics).map(
      (d) => `${d.range.start.line + 1}:${d.range.start.character} ${d.code} ${d.message}`,
    );
    expect(cli.filter((f) => / ANF408 /.test(f))).toHaveLength(1);
    expect(cli).toEqual(findings(workspaceOf({ 'main.tf': ROOT, ...HANA_MODULE }), 'main.tf'));
  });
});

describe('editor features on a module block', () => {
  it("one inlay hint per argument and figure, however many of the module's volumes it sizes", async () => {
    const { computeInlayHints } = await import('../../server/src/core/features/outline');
    const module = {
      'modules/eda/main.tf': `variable "prefix" {}\nvariable "quota_gib" {}\n\nresource "azurerm_netapp_pool" "p" {\n  name          = "\${var.prefix}-pool"\n  service_level = "Premium"\n  size_in_tb    = 8\n}\n\nresource "azurerm_netapp_volume" "tools" {\n  name                = "\${var.prefix}-tools"\n  pool_name           = azurerm_netapp_pool.p.name\n  service_level       = "Premium"\n  volume_path         = "\${var.prefix}-tools"\n  storage_quota_in_gb = var.quota_gib\n  protocols           = ["NFSv3"]\n}\n\nresource "azurerm_netapp_volume" "libs" {\n  name                = "\${var.prefix}-libs"\n  pool_name           = azurerm_netapp_pool.p.name\n  service_level       = "Premium"\n  volume_path         = "\${var.prefix}-libs"\n  storage_quota_in_gb = var.quota_gib\n  protocols           = ["NFSv3"]\n}\n`,
    };
    const workspace = workspaceOf({
      'main.tf': `module "eda" {\n  source    = "./modules/eda"\n  prefix    = "eda"\n  quota_gib = 2048\n}\n`,
      ...module,
    });
    const file = workspace.file('file:///repo/main.tf')!;
    expect(file.iac!.volumes).toHaveLength(2);
    expect(
      computeInlayHints(file, config).map((h) => `${file.source.positionAt(h.offset).line + 1} ${h.label}`),
    ).toEqual(['4 → 128 MiB/s']);
  });
});

describe('hover on a module block', () => {
  it('says what anf-lint read through it, or why nothing', () => {
    const workspace = workspaceOf({
      'main.tf': `${ROOT}\nmodule "shared" {\n  source = "git::https://github.com/contoso/anf-modules.git//account?ref=v2.1.0"\n}\n\nmodule "missing" {\n  source = "./modules/not-here"\n}\n`,
      ...HANA_MODULE,
    });
    const text = workspace.file('file:///repo/main.tf')!.source.text;
    const at = (needle: string) =>
      computeHover(workspace, 'file:///repo/main.tf', text.indexOf(needle) + 2, config)?.markdown;
    expect(at('module "hana_hn1"')).toContain("Read with this block's arguments: 1 capacity pool, 2 volumes.");
    expect(at('"./modules/hana-anf"')).toContain('**module hana_hn1** · `./modules/hana-anf`');
    expect(at('"git::')).toContain('Not a local path');
    expect(at('module "missing"')).toContain(
      'anf-lint read no NetApp account, capacity pool or volume through this module',
    );
  });
});

describe('a module block with for_each over a map anf-lint can evaluate', () => {
  const VOLUME_MODULE = {
    'modules/volume/main.tf': `variable "name" {}\nvariable "quota_gib" {}\n\nresource "azurerm_netapp_volume" "this" {\n  name                = var.name\n  account_name        = "sap-anf"\n  pool_name           = "hana-pool"\n  service_level       = "Ultra"\n  volume_path         = var.name\n  storage_quota_in_gb = var.quota_gib\n  protocols           = ["NFSv4.1"]\n}\n`,
  };
  const ROOT_EACH = (volumes: string) =>
    `variable "volumes" {\n  default = ${volumes}\n}\n\nmodule "volumes" {\n  source    = "./modules/volume"\n  for_each  = var.volumes\n  name      = each.key\n  quota_gib = each.value.quota_gib\n}\n`;

  it('reads one instance per key, each.key and each.value bound, and reports on the argument', () => {
    const workspace = workspaceOf({
      'main.tf': ROOT_EACH(
        `{\n    "hn1-data-mnt00001" = { quota_gib = 4096 }\n    "hn1-log-mnt00001"  = { quota_gib = 1024 }\n  }`,
      ),
      ...VOLUME_MODULE,
    });
    const volumes = workspace.file('file:///repo/main.tf')!.iac!.volumes;
    expect(volumes.map((v) => `${v.symbol} ${v.name?.value} ${v.quota?.value} ${v.repeated}`)).toEqual([
      'module.volumes["hn1-data-mnt00001"].azurerm_netapp_volume.this hn1-data-mnt00001 4096 false',
      'module.volumes["hn1-log-mnt00001"].azurerm_netapp_volume.this hn1-log-mnt00001 1024 false',
    ]);
    const list = findings(workspace, 'main.tf').filter((f) => / ANF408 /.test(f));
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^12:14 ANF408 Volume `hn1-log-mnt00001`/);
    expect(list[0]).toContain(
      '(set by `quota_gib` of module "volumes", used as `storage_quota_in_gb` in modules/volume/main.tf line 10)',
    );
    const text = workspace.file('file:///repo/main.tf')!.source.text;
    expect(
      computeHover(workspace, 'file:///repo/main.tf', text.indexOf('module "volumes"') + 2, config)?.markdown,
    ).toContain("Read with this block's arguments: 2 volumes, for its 2 `for_each` keys.");
  });

  it('a map with an entry it cannot evaluate is read once, as repeated, with unknown values', () => {
    const workspace = workspaceOf({
      'main.tf': ROOT_EACH(
        `{\n    "hn1-log-mnt00001" = { quota_gib = 1024 }\n    "hn1-data-mnt00001" = data.external.sizes.result\n  }`,
      ),
      ...VOLUME_MODULE,
    });
    const volumes = workspace.file('file:///repo/main.tf')!.iac!.volumes;
    expect(volumes.map((v) => `${v.symbol} ${v.quota?.value} ${v.repeated}`)).toEqual([
      'module.volumes.azurerm_netapp_volume.this undefined true',
    ]);
    expect(findings(workspace, 'main.tf')).toEqual([]);
  });
});

describe('a volume whose pool anf-lint cannot see', () => {
  it('assigning a throughput is taken as a manual QoS pool, not flagged as ignored by an auto one (ANF114)', () => {
    const workspace = workspaceOf({
      'main.tf': `data "azurerm_netapp_pool" "shared" {\n  name                = "shared-manual"\n  account_name        = "anf-prod"\n  resource_group_name = "rg"\n}\n\nresource "azurerm_netapp_volume" "scratch" {\n  name                = "eda-scratch"\n  account_name        = "anf-prod"\n  pool_name           = data.azurerm_netapp_pool.shared.name\n  service_level       = "Premium"\n  volume_path         = "eda-scratch"\n  storage_quota_in_gb = 1024\n  throughput_in_mibps = 200\n  protocols           = ["NFSv3"]\n}\n`,
    });
    expect(
      workspace
        .file('file:///repo/main.tf')!
        .manifest!.accounts.flatMap((a) => a.pools)
        .map((p) => p.qos?.value),
    ).toEqual(['manual']);
    expect(findings(workspace, 'main.tf').filter((f) => / ANF114 /.test(f))).toEqual([]);
  });
});
