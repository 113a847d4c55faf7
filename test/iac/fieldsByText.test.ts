import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fieldsByText, readTerraform } from '../../server/src/core/iac/terraform';
import { readIac } from '../../server/src/core/iac/read';
import { forgetBlockResults } from '../../server/src/core/iac/reuse';
import { forgetKeptTrees } from '../../server/src/core/iac/treeSitter';
import { SourceText } from '../../server/src/core/text/sourceText';
import { Workspace } from '../../server/src/core/workspace/workspace';
import type { ParseProblem } from '../../server/src/core/diagnostics';

/**
 * Issue 32: a field of an expression written as a reference chain or a plain literal
 * (`var.location`, `azurerm_netapp_pool.p.name`, `"Premium"`, `4`) is made from what the reader
 * said of the same text before, not from its tree again. Every reading must be the one the tree
 * gives: the same values, unknowns and their reasons, edit spans, origins, variables, and the same
 * "unresolved" marks, with each/count/dynamic bindings and names that are not declared.
 */

const REPEATED = `variable "location" {
  default = "eastus"
}
variable "quota" {
  type = number
}
locals {
  tags    = { env = "prod" }
  clients = ["10.0.0.0/24"]
  sizes   = { a = 100, b = 200 }
}

resource "azurerm_netapp_account" "acct" {
  name     = "acct"
  location = var.location
}

resource "azurerm_netapp_pool" "p" {
  name          = "pool"
  account_name  = azurerm_netapp_account.acct.name
  location      = var.location
  service_level = "Premium"
  size_in_tb    = 4
  tags          = local.tags
}

resource "azurerm_netapp_volume" "each" {
  for_each            = local.sizes
  name                = each.key
  account_name        = azurerm_netapp_account.acct.name
  pool_name           = azurerm_netapp_pool.p.name
  location            = var.location
  service_level       = azurerm_netapp_pool.p.service_level
  volume_path         = each.key
  storage_quota_in_gb = each.value
  protocols           = ["NFSv3"]
  tags                = local.tags
  dynamic "export_policy_rule" {
    for_each = local.clients
    content {
      rule_index          = 1
      allowed_clients     = export_policy_rule.value
      root_access_enabled = false
    }
  }
}

resource "azurerm_netapp_volume" "counted" {
  count               = 3
  name                = "counted"
  account_name        = azurerm_netapp_account.acct.name
  pool_name           = azurerm_netapp_pool.p.name
  location            = var.location
  service_level       = "Premium"
  volume_path         = "counted"
  storage_quota_in_gb = var.quota
  subnet_id           = azurerm_subnet.missing.id
  network_features    = local.missing
  protocols           = ["NFSv4.1"]
  tags                = local.tags
}

resource "azurerm_netapp_volume" "plain" {
  name                = " padded name "
  account_name        = azurerm_netapp_account.acct.name
  pool_name           = azurerm_netapp_pool.p.name
  location            = var.undeclared
  service_level       = "Premium"
  volume_path         = ""
  storage_quota_in_gb = 1.5
  network_features    = local.missing
  kerberos_enabled    = true
  subnet_id           = azurerm_subnet.missing.id
  export_policy_rule {
    rule_index          = 1
    allowed_clients     = local.clients
    root_access_enabled = false
  }
}

resource "azurerm_netapp_volume" "again" {
  name                = "again"
  account_name        = azurerm_netapp_account.acct.name
  pool_name           = azurerm_netapp_pool.p.name
  location            = var.undeclared
  service_level       = "Premium"
  volume_path         = "again"
  storage_quota_in_gb = var.quota
  network_features    = local.missing
  kerberos_enabled    = true
  subnet_id           = azurerm_subnet.missing.id
}
`;

/** A reading as data: an object constructor's fields listed (its functions would not compare). */
function shape(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v && typeof v === 'object' && typeof (v as { field?: unknown }).field === 'function') {
      const obj = v as { span: unknown; keys?: () => string[]; field: (k: string) => unknown };
      return { span: obj.span, entries: (obj.keys?.() ?? []).map((k) => [k, obj.field(k)]) };
    }
    return v;
  });
}

function readBothWays(text: string, uri: string): [string, string] {
  const read = () => {
    const problems: ParseProblem[] = [];
    const estate = readTerraform(new SourceText(text), problems, uri);
    return shape({ estate, problems });
  };
  fieldsByText(false);
  const fromTrees = read();
  fieldsByText(true);
  return [read(), fromTrees];
}

function tfFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...tfFiles(path));
    else if (name.endsWith('.tf')) out.push(path);
  }
  return out;
}

describe('fields made from what was said of the same text', () => {
  afterEach(() => {
    fieldsByText(true);
  });

  it('are the fields the tree gives, with bindings, unknowns and undeclared names', () => {
    const [byText, fromTrees] = readBothWays(REPEATED, 'file:///repo/main.tf');
    expect(byText).toBe(fromTrees);
    // The reading holds what the comparison is about: a padded string, an undeclared local read five times.
    expect(byText).toContain('"value":" padded name "');
    expect(byText.split('"raw":"local.missing"').length - 1).toBe(5);
  });

  it('read every .tf file of the fixtures and examples as the tree does', () => {
    const root = join(__dirname, '..', '..');
    const files = [...tfFiles(join(root, 'test', 'fixtures')), ...tfFiles(join(root, 'examples'))];
    expect(files.length).toBeGreaterThan(20);
    for (const path of files) {
      const [byText, fromTrees] = readBothWays(readFileSync(path, 'utf8'), `file://${path}`);
      expect(byText, path).toBe(fromTrees);
    }
  });

  it('give the same findings when a folder is read as a module', () => {
    const findings = () => {
      const workspace = new Workspace();
      workspace.set('file:///repo/main.tf', REPEATED);
      workspace.set('file:///repo/terraform.tfvars', 'quota = 4096\n');
      return shape(workspace.file('file:///repo/main.tf'));
    };
    fieldsByText(false);
    const fromTrees = findings();
    fieldsByText(true);
    const byText = findings();
    expect(byText).toBe(fromTrees);
    expect(byText).toContain('4096');
  });

  it('keep the unresolved mark of each block, which a later reading reuses', () => {
    // The only name left unresolved is the subnet, written in three blocks: the third is said by text.
    const volume = (name: string, subnet: string) => `
resource "azurerm_netapp_volume" "${name}" {
  name                = "${name}"
  account_name        = "acct"
  pool_name           = "pool"
  service_level       = "Premium"
  volume_path         = "${name}"
  storage_quota_in_gb = 100
  subnet_id           = ${subnet}
}
`;
    const missing = 'azurerm_subnet.missing.id';
    const before = volume('a', missing) + volume('b', missing) + volume('c', missing);
    // An edit of the first two blocks: the third block's reading is reused, with its mark.
    const after = volume('a', '"/subscriptions/s/x"') + volume('b', '"/subscriptions/s/x"') + volume('c', missing);
    forgetKeptTrees();
    forgetBlockResults();
    const uri = 'file:///repo/marks.tf';
    expect(readIac(new SourceText(before), uri, 'terraform', true).estate?.unresolved).toBe(true);
    const edited = readIac(new SourceText(after), uri, 'terraform', true).estate;
    const whole = readIac(new SourceText(after), 'file:///fresh/marks.tf', 'terraform').estate;
    forgetBlockResults();
    expect(whole?.unresolved).toBe(true);
    expect(edited?.unresolved).toBe(true);
  });
});
