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
});
