import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LspClient, TempWorkspace, type LspDiagnostic } from './support/lspClient';

/**
 * A Terraform module in the editor: volumes.tf reads its quota from variables.tf and its pool from
 * pools.tf; editing variables.tf (open, not saved) re-checks volumes.tf.
 */
const VARIABLES = (quota: number) => `variable "tools_quota_gib" {\n  type    = number\n  default = ${quota}\n}\n`;
const POOLS = `resource "azurerm_netapp_pool" "p" {\n  name          = "eda-premium"\n  account_name  = "eda-prod"\n  service_level = "Premium"\n  size_in_tb    = 4\n}\n`;
const VOLUMES = `resource "azurerm_netapp_volume" "tools" {\n  name                = "eda-tools"\n  account_name        = "eda-prod"\n  pool_name           = azurerm_netapp_pool.p.name\n  service_level       = "Premium"\n  volume_path         = "eda-tools"\n  storage_quota_in_gb = var.tools_quota_gib\n  protocols           = ["NFSv3"]\n}\n`;

describe('Terraform module in the language server', () => {
  const ws = new TempWorkspace({
    'infra/variables.tf': VARIABLES(1024),
    'infra/pools.tf': POOLS,
    'infra/volumes.tf': VOLUMES,
  });
  const variables = ws.uriOf('infra/variables.tf');
  const volumes = ws.uriOf('infra/volumes.tf');
  let client: LspClient;
  const quotaFinding = (diagnostics: LspDiagnostic[]) => diagnostics.find((d) => d.code === 'ANF111');

  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('reads the quota from variables.tf, and re-checks volumes.tf when variables.tf is edited', async () => {
    const opened = await client.openAndWait(volumes, VOLUMES);
    expect(quotaFinding(opened.diagnostics)).toBeUndefined();
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri: volumes },
      position: { line: 6, character: 28 },
    });
    expect(hover?.contents.value).toContain('`var.tools_quota_gib` = 1024, from its default in variables.tf line 3');

    await client.openAndWait(variables, VARIABLES(1024));
    const next = client.nextDiagnostics(volumes, (p) => quotaFinding(p.diagnostics) !== undefined);
    client.change(variables, [{ text: VARIABLES(20) }]);
    const finding = quotaFinding((await next).diagnostics)!;
    expect(finding.range.start.line).toBe(6);
    expect(finding.message).toContain('`var.tools_quota_gib` = 20, from its default in variables.tf line 3');
  });
});

/**
 * A root module calling a local module: the module's volume is the caller's instance, sized by the
 * caller's argument. Editing the module re-checks the caller; editing the caller re-checks the module.
 */
const CALLER = (quota: number) =>
  `module "hn1_log" {\n  source    = "./modules/hana-log"\n  sid       = "hn1"\n  quota_gib = ${quota}\n}\n`;
const CALLED = (level: string) =>
  `variable "sid" {\n  type    = string\n  default = "hn1"\n}\n\nvariable "quota_gib" {\n  type    = number\n  default = 100\n}\n\nresource "azurerm_netapp_volume" "log" {\n  name                = "\${var.sid}-log-mnt00001"\n  account_name        = "sap-anf"\n  pool_name           = "hana-pool"\n  service_level       = "${level}"\n  volume_path         = "\${var.sid}-log-mnt00001"\n  storage_quota_in_gb = var.quota_gib\n  protocols           = ["NFSv4.1"]\n}\n`;

describe('Terraform module blocks in the language server', () => {
  const ws = new TempWorkspace({ 'main.tf': CALLER(2048), 'modules/hana-log/main.tf': CALLED('Premium') });
  const caller = ws.uriOf('main.tf');
  const called = ws.uriOf('modules/hana-log/main.tf');
  let client: LspClient;
  const kpi = (diagnostics: LspDiagnostic[]) => diagnostics.filter((d) => d.code === 'ANF408');

  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it("reports the instance on the caller's argument, and re-checks the caller when the module is edited", async () => {
    const opened = await client.openAndWait(caller, CALLER(2048));
    // Premium: 64 MiB/s per TiB, 128 MiB/s at 2 TiB, below SAP HANA's log KPI.
    expect(kpi(opened.diagnostics).map((d) => d.range.start.line)).toEqual([3]);
    expect(kpi(opened.diagnostics)[0]!.message).toContain(
      'set by `quota_gib` of module "hn1_log", used as `storage_quota_in_gb` in modules/hana-log/main.tf line 17',
    );
    const module = await client.openAndWait(called, CALLED('Premium'));
    // The module's default (100) is only a default while a caller sets the quota.
    expect(kpi(module.diagnostics)).toEqual([]);

    const next = client.nextDiagnostics(caller, (p) => kpi(p.diagnostics).length === 0);
    client.change(called, [{ text: CALLED('Ultra') }]);
    expect(kpi((await next).diagnostics)).toEqual([]);
  });

  it("re-checks the module when its caller is edited (no caller left: the module's default is judged there)", async () => {
    const next = client.nextDiagnostics(called, (p) => kpi(p.diagnostics).length > 0);
    client.change(caller, [{ text: '# the SAP HANA volumes moved to another repository\n' }]);
    const finding = kpi((await next).diagnostics)[0]!;
    expect(finding.range.start.line).toBe(16);
    expect(finding.message).toContain('`var.quota_gib` = 100, from its default in main.tf line 8');
  });
});
