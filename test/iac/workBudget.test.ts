import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { cpuMillisSince, startCpu } from '../support/cpuTime';

/**
 * Issue 32: one budget for Terraform reading. Three local modules each calling the next with
 * `for_each` over 64 keys would make 262,144 instances; the reading stops expanding past
 * MAX_INSTANCES (the loops left are read once, as repeated) and finishes in seconds.
 */
const config = resolveConfig(configSchema.parse({}));
const KEYS = `{ ${Array.from({ length: 64 }, (_, i) => `k${i} = ${i}`).join(', ')} }`;

function level(next: string | undefined): string {
  const call = next
    ? `module "next" {\n  source   = "${next}"\n  for_each = ${KEYS}\n  size     = 100 + each.value\n}\n`
    : '';
  return `variable "size" {\n  default = 100\n}\n\n${call}
resource "azurerm_netapp_volume" "v" {
  name                = "v-\${var.size}"
  account_name        = "a"
  pool_name           = "p"
  resource_group_name = "rg"
  location            = "westeurope"
  service_level       = "Premium"
  volume_path         = "v\${var.size}"
  storage_quota_in_gb = var.size
  protocols           = ["NFSv3"]
}
`;
}

describe('the work budget', () => {
  it('three modules each calling the next with for_each over 64 keys finish in seconds', () => {
    const workspace = new Workspace(config);
    workspace.set(
      'file:///repo/main.tf',
      `module "a" {\n  source   = "./m1"\n  for_each = ${KEYS}\n  size     = each.value + 100\n}\n`,
    );
    workspace.set('file:///repo/m1/main.tf', level('../m2'));
    workspace.set('file:///repo/m2/main.tf', level('../m3'));
    workspace.set('file:///repo/m3/main.tf', level(undefined));
    // CPU time, not wall time: on a shared machine the wall clock measures the neighbours (issue 31).
    const started = startCpu();
    const file = workspace.file('file:///repo/main.tf')!;
    lintFile(workspace, 'file:///repo/main.tf', config);
    const elapsed = cpuMillisSince(started);
    expect(file.iac!.volumes.length).toBeGreaterThan(64);
    expect(file.iac!.volumes.length).toBeLessThanOrEqual(1_000 + 64 * 3);
    expect(elapsed).toBeLessThan(20_000);
  });

  it('loops over modules that hold no NetApp resource take none of it', () => {
    // 20 calls of a platform module, each over 64 keys (1,280 instances that make nothing), then a
    // call of a NetApp module: the NetApp instances are read and no ANF422 says the reading stopped.
    const platform = Array.from(
      { length: 20 },
      (_, i) => `module "p${i}" {\n  source   = "./platform"\n  for_each = ${KEYS}\n  name     = each.key\n}\n`,
    ).join('\n');
    const workspace = new Workspace(config);
    workspace.set(
      'file:///repo/main.tf',
      `${platform}\nmodule "anf" {\n  source   = "./m3"\n  for_each = { a = 1, b = 2 }\n  size     = 100 + each.value\n}\n`,
    );
    workspace.set(
      'file:///repo/platform/main.tf',
      'variable "name" {}\n\nresource "azurerm_storage_account" "sa" {\n  name = var.name\n}\n',
    );
    workspace.set('file:///repo/m3/main.tf', level(undefined));
    const file = workspace.file('file:///repo/main.tf')!;
    expect(file.iac!.volumes.map((v) => v.name?.value)).toEqual(['v-101', 'v-102']);
    expect(file.iac!.stopped).toBeUndefined();
    expect(lintFile(workspace, 'file:///repo/main.tf', config).filter((d) => d.code === 'ANF422')).toEqual([]);
  });
});
