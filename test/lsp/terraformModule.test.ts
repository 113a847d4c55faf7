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
  const ws = new TempWorkspace({ 'infra/variables.tf': VARIABLES(1024), 'infra/pools.tf': POOLS, 'infra/volumes.tf': VOLUMES });
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
    const hover = await client.request<{ contents: { value: string } } | null>('textDocument/hover', { textDocument: { uri: volumes }, position: { line: 6, character: 28 } });
    expect(hover?.contents.value).toContain('`var.tools_quota_gib` = 1024, from its default in variables.tf line 3');

    await client.openAndWait(variables, VARIABLES(1024));
    const next = client.nextDiagnostics(volumes, (p) => quotaFinding(p.diagnostics) !== undefined);
    client.change(variables, [{ text: VARIABLES(20) }]);
    const finding = quotaFinding((await next).diagnostics)!;
    expect(finding.range.start.line).toBe(6);
    expect(finding.message).toContain('`var.tools_quota_gib` = 20, from its default in variables.tf line 3');
  });
});
