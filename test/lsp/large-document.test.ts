import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_DOCUMENT_MAX_CHARS as LIMIT_CHARS } from '../../server/src/lsp/limits';
import { LspClient, TempWorkspace } from './support/lspClient';

/**
 * Issue 18, item 7: an open document above the editor limit (server/src/lsp/limits.ts) is not
 * parsed; the server says so once (ANF011) and keeps serving the rest of the workspace.
 */
const MOUNT = '10.0.0.4:/vol /mnt/vol nfs rw,soft,vers=3 0 0\n';

describe('language server: a document too large to check', () => {
  const ws = new TempWorkspace({ 'small/etc/fstab': MOUNT });
  let client: LspClient;

  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('gets one ANF011 finding, no hover, and the other documents are still checked', async () => {
    const big = MOUNT.repeat(Math.ceil((LIMIT_CHARS * 1.5) / MOUNT.length));
    const bigUri = ws.uriOf('big/etc/fstab');
    const published = await client.openAndWait(bigUri, big);
    expect(published.diagnostics.map((d) => d.code)).toEqual(['ANF011']);
    expect(published.diagnostics[0]!.message).toMatch(/does not check this one/);
    expect(
      await client.request('textDocument/hover', {
        textDocument: { uri: bigUri },
        position: { line: 0, character: 30 },
      }),
    ).toBeNull();
    // Not the minutes a parse of every line would take: the test's timeout guards that, the bench times it.

    const small = await client.openAndWait(ws.uriOf('small/etc/fstab'), MOUNT);
    expect(small.diagnostics.map((d) => d.code)).toContain('ANF207');
  });

  it('checks the document again once it is small enough', async () => {
    const uri = ws.uriOf('shrinking/etc/fstab');
    const first = await client.openAndWait(uri, MOUNT.repeat(Math.ceil((LIMIT_CHARS * 1.2) / MOUNT.length)));
    expect(first.diagnostics.map((d) => d.code)).toEqual(['ANF011']);
    const next = client.nextDiagnostics(uri);
    client.change(uri, [{ text: MOUNT }]);
    expect((await next).diagnostics.map((d) => d.code)).toContain('ANF207');
  });
});
