/**
 * A large infrastructure-code document being typed in (issue 32): a 4 Mi-character `.tf` with a
 * heredoc cost 5-6 s per keystroke, and no request was answered meanwhile. Past LARGE_IAC_CHARS
 * the server reads such a document again only when typing pauses (LARGE_IAC_SETTLE_MS); requests
 * about it get the empty answer until then, and every other request is answered as usual.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_IAC_CHARS } from '../../server/src/lsp/limits';
import { LspClient, TempWorkspace } from './support/lspClient';

const HEAD = [
  'resource "azurerm_netapp_volume" "v" {',
  '  name                = "v"',
  '  service_level       = "Premium"',
  '  storage_quota_in_gb = 100',
  '}',
  '',
  'locals {',
  '  script = <<-EOT',
  '',
].join('\n');
const LINE = '    mount -t nfs -o rw,hard,vers=3 10.0.0.4:/vol /mnt/vol # ${var.x}\n';

describe('language server: a large Terraform document being edited', () => {
  const ws = new TempWorkspace({ 'etc/fstab': '10.0.0.4:/vol1 /mnt/vol1 nfs soft,vers=3 0 0\n' });
  let client: LspClient;
  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('is read again once typing pauses, and requests are answered while typing', async () => {
    const text = `${HEAD}${LINE.repeat(Math.ceil((4 * LARGE_IAC_CHARS) / LINE.length))}  EOT\n}\n`;
    const uri = ws.uriOf('big.tf');
    await client.openAndWait(uri, text);
    // Ten keystrokes at the end of the heredoc's first line, then a request about another file and one about this one.
    let version = 1;
    for (let i = 0; i < 10; i++)
      version = client.change(uri, [
        { range: { start: { line: 8, character: 4 }, end: { line: 8, character: 4 } }, text: 'x' },
      ]);
    const asked = Date.now();
    await client.request('textDocument/hover', {
      textDocument: { uri: ws.uriOf('etc/fstab') },
      position: { line: 0, character: 30 },
    });
    const symbols = await client.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
    const answeredMs = Date.now() - asked;
    expect(symbols).toEqual([]); // not read again yet
    expect(answeredMs).toBeLessThan(5000);
    // Once typing pauses: read again, diagnostics of the last version.
    const published = await client.nextDiagnostics(uri, (p) => p.version === version, 60_000);
    expect(published.version).toBe(11);
    const after = await client.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
    expect(after.length).toBeGreaterThan(0);
  }, 120_000);
});
