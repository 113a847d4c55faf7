import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import type { ParsedFile } from '../../server/src/core/workspace/parsedFile';
import { terraformRepository } from '../../bench/generate.mjs';

/**
 * Whole-workspace questions ask for what they read (issue 29): ANF423 for its folder's files read
 * alone, ANF412, ANF413 and the subnet rules for the files that may hold resources
 * (`estateFiles`), so linting one file does not read every Terraform module of the repository.
 * The counts are of folder readings (`moduleReadings`); the answers must be those of `files()`.
 */
const config = resolveConfig(configSchema.parse({}));
const ROOT = 'file:///repo/';

const PLATFORM = {
  'modules/platform/main.tf': `resource "azurerm_resource_group" "this" {
  name     = "\${var.name_prefix}-rg"
  location = var.location
}
`,
  'modules/platform/variables.tf':
    'variable "name_prefix" {\n  type = string\n}\n\nvariable "location" {\n  type = string\n}\n',
};

const ANF = {
  'modules/anf/main.tf': `resource "azurerm_netapp_pool" "p" {
  name                = "\${var.name_prefix}-pool"
  account_name        = "acct"
  resource_group_name = "rg"
  location            = var.location
  service_level       = "Premium"
  size_in_tb          = 4
}

resource "azurerm_netapp_volume" "v" {
  name                = "\${var.name_prefix}-data"
  account_name        = "acct"
  pool_name           = azurerm_netapp_pool.p.name
  resource_group_name = "rg"
  location            = var.location
  service_level       = "Premium"
  subnet_id           = var.subnet_id
  volume_path         = "\${var.name_prefix}-data"
  storage_quota_in_gb = 1024
}

resource "azurerm_netapp_pool" "spare" {
  name                = "\${var.name_prefix}-spare"
  account_name        = "acct"
  resource_group_name = "rg"
  location            = var.location
  service_level       = "Standard"
  size_in_tb          = 2
}
`,
  'modules/anf/variables.tf':
    'variable "name_prefix" {\n  type = string\n}\n\nvariable "location" {\n  type = string\n}\n\nvariable "subnet_id" {\n  type = string\n}\n',
};

function stack(i: number, module: 'platform' | 'anf'): Record<string, string> {
  return {
    [`stacks/s${i}/main.tf`]: `module "m" {
  source      = "../../modules/${module}"
  name_prefix = "s${i}"
  location    = var.location${module === 'anf' ? '\n  subnet_id   = var.subnet_id' : ''}
}
`,
    [`stacks/s${i}/variables.tf`]:
      'variable "location" {\n  type = string\n}\n\nvariable "subnet_id" {\n  type    = string\n  default = ""\n}\n',
    // `locaton`: a misspelt key (ANF423).
    [`stacks/s${i}/terraform.tfvars`]: 'location = "westeurope"\nlocaton  = "northeurope"\n',
  };
}

function repository(): Record<string, string> {
  const files: Record<string, string> = { ...PLATFORM, ...ANF };
  for (let i = 0; i < 12; i++) Object.assign(files, stack(i, i % 6 === 0 ? 'anf' : 'platform'));
  return files;
}

function workspaceOf(files: Record<string, string>): Workspace {
  const workspace = new Workspace();
  for (const [path, text] of Object.entries(files)) workspace.set(ROOT + path, text);
  return workspace;
}

/** What a finding says, without the objects that carry it. */
function findings(workspace: Workspace, path: string): string[] {
  return lintFile(workspace, ROOT + path, config).map(
    (d) => `${d.code} ${d.range.start.line}:${d.range.start.character} ${d.message}`,
  );
}

describe('whole-workspace questions read what they need', () => {
  it('ANF423 reads the variable blocks of its own folder, and no module', () => {
    const workspace = workspaceOf(repository());
    const found = findings(workspace, 'stacks/s1/terraform.tfvars');
    expect(found.filter((f) => f.startsWith('ANF423'))).toHaveLength(1);
    expect(found.find((f) => f.startsWith('ANF423'))).toContain('`locaton`');
    // Its own folder is looked at once (a .tfvars file's syntax comes from its folder's reading), and found to need none.
    expect(workspace.moduleReadings).toBe(1);
    // The same findings as with every folder read first.
    const full = workspaceOf(repository());
    full.files();
    expect(findings(full, 'stacks/s1/terraform.tfvars')).toEqual(found);
  });

  it("a NetApp module's pools and volumes are looked for in the folders that can hold them", () => {
    const workspace = workspaceOf(repository());
    const found = findings(workspace, 'modules/anf/main.tf');
    // The module folder and the two stacks that call it; not the ten stacks that call the platform module.
    expect(workspace.moduleReadings).toBeLessThanOrEqual(3);
    const full = workspaceOf(repository());
    full.files();
    expect(full.moduleReadings).toBeGreaterThan(10);
    expect(findings(full, 'modules/anf/main.tf')).toEqual(found);
    // A stack that calls the NetApp module: its pools are looked for the same way.
    expect(findings(workspaceOf(repository()), 'stacks/s6/main.tf')).toEqual(findings(full, 'stacks/s6/main.tf'));
  });

  it("folderFiles gives a folder's files read alone, and a folder without files none", () => {
    const workspace = workspaceOf(repository());
    expect(workspace.folderFiles(`${ROOT}stacks/s3/`).map((f) => f.uri.slice(ROOT.length))).toEqual([
      'stacks/s3/main.tf',
      'stacks/s3/variables.tf',
      'stacks/s3/terraform.tfvars',
    ]);
    expect(workspace.folderFiles(`${ROOT}stacks/`)).toEqual([]);
    expect(workspace.moduleReadings).toBe(0);
    // A change gives a new list.
    const before = workspace.folderFiles(`${ROOT}stacks/s3/`);
    workspace.set(`${ROOT}stacks/s3/extra.tf`, 'variable "x" {}\n');
    expect(workspace.folderFiles(`${ROOT}stacks/s3/`)).not.toBe(before);
    expect(workspace.folderFiles(`${ROOT}stacks/s3/`)).toHaveLength(4);
  });

  /** The files `estateFiles` leaves out, as `files()` reads them: none may hold a resource the questions read. */
  function leftOut(workspace: Workspace): ParsedFile[] {
    const estate = workspace.estateFiles();
    const kept = new Set(estate.map((f) => f.uri));
    const all = workspace.files();
    // In the order of `files()`, and the same objects.
    expect(all.filter((f) => kept.has(f.uri))).toEqual(estate);
    return all.filter((f) => !kept.has(f.uri));
  }

  function holdsNothing(file: ParsedFile): void {
    const estate = file.iac;
    expect(estate?.accounts ?? [], file.uri).toEqual([]);
    expect(estate?.pools ?? [], file.uri).toEqual([]);
    expect(estate?.volumes ?? [], file.uri).toEqual([]);
    expect(estate?.subnets ?? [], file.uri).toEqual([]);
    expect(estate?.nsgAssociations ?? [], file.uri).toEqual([]);
  }

  it('estateFiles leaves out only files that hold no resource as their module reads them', () => {
    const workspace = workspaceOf(repository());
    const out = leftOut(workspace);
    for (const file of out) holdsNothing(file);
    // The platform module and its ten callers' `.tf` files are left out; the NetApp ones are not.
    expect(out.map((f) => f.uri)).toContain(`${ROOT}stacks/s1/main.tf`);
    expect(out.map((f) => f.uri)).not.toContain(`${ROOT}stacks/s6/main.tf`);
    expect(out.map((f) => f.uri)).not.toContain(`${ROOT}modules/anf/main.tf`);
  });

  it('keeps a file whose resources come from a registry module, a subnet, a loop back, or a named type', () => {
    const files: Record<string, string> = {
      ...repository(),
      // A registry module: its resources are made from its arguments.
      'reg/main.tf': `module "anf" {
  source  = "Azure/avm-res-netapp-netappaccount/azurerm"
  version = "0.1.0"
  name    = var.name
}
`,
      // A subnet only.
      'net/main.tf': `resource "azurerm_subnet" "anf" {
  name                 = "anf"
  resource_group_name  = "rg"
  virtual_network_name = "vnet"
  address_prefixes     = [var.prefix]
  delegation {
    name = "netapp"
    service_delegation {
      name = "Microsoft.Netapp/volumes"
    }
  }
}
`,
      // Two folders that call each other, one of them with a pool in another file.
      'loop/a/main.tf': 'module "b" {\n  source = "../b"\n}\n',
      'loop/a/pool.tf': ANF['modules/anf/main.tf'],
      'loop/b/main.tf': 'module "a" {\n  source = "../a"\n}\n',
      // A NetApp type named where the reader would not find a resource alone (a count the folder sets).
      'counted/main.tf': `resource "azurerm_netapp_account" "a" {
  count               = var.enabled ? 1 : 0
  name                = "acct"
  resource_group_name = "rg"
  location            = "westeurope"
}
`,
      'counted/terraform.tfvars': 'enabled = true\n',
    };
    const workspace = workspaceOf(files);
    const out = leftOut(workspace).map((f) => f.uri.slice(ROOT.length));
    for (const kept of ['reg/main.tf', 'net/main.tf', 'loop/a/main.tf', 'loop/b/main.tf', 'counted/main.tf'])
      expect(out).not.toContain(kept);
    for (const file of leftOut(workspace)) holdsNothing(file);
  });

  it('estateFiles leaves out nothing that holds a resource in the bench repository', () => {
    const workspace = workspaceOf(terraformRepository(600, 12));
    const out = leftOut(workspace);
    expect(out.length).toBeGreaterThan(0);
    for (const file of out) holdsNothing(file);
  });

  it('estateFiles leaves out nothing that holds a resource in the fixtures and examples', () => {
    for (const root of ['test/fixtures', 'examples']) {
      const files: Record<string, string> = {};
      for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.tf(?:vars(?:\.json)?)?$/.test(entry.name)) continue;
        const path = join(entry.parentPath, entry.name);
        files[relative(root, path)] = readFileSync(path, 'utf8');
      }
      expect(Object.keys(files).length, root).toBeGreaterThan(0);
      const workspace = workspaceOf(files);
      for (const file of leftOut(workspace)) holdsNothing(file);
    }
  });
});
