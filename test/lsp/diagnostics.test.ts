import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  applyTextEdits,
  LspClient,
  PULL_CLIENT_CAPABILITIES,
  TempWorkspace,
  type LspDiagnostic,
  type TextEditLike,
} from './support/lspClient';

/**
 * The bundled server over stdio, as a push-diagnostics client (like Neovim) sees it: open, change,
 * diagnostics with codes and links, code actions applied to the text, configuration, shutdown.
 * The engine's own rule ANF001 (unused suppression, safe fix, Unnecessary tag) keeps these tests
 * independent of the domain rules.
 */
const FSTAB = [
  '# anf-lint disable-next-line ANF299 -- legacy',
  'UUID=0a1b /data xfs defaults 0 0',
  '  # anf-lint disable-next-line ANF298',
  'UUID=2c3d /scratch xfs defaults 0 0',
  '',
].join('\n');

type CodeAction = {
  title: string;
  kind?: string;
  edit?: { changes?: Record<string, TextEditLike[]> };
  isPreferred?: boolean;
  diagnostics?: LspDiagnostic[];
};

describe('language server over stdio: push diagnostics and code actions', () => {
  const ws = new TempWorkspace({ 'etc/fstab': FSTAB });
  const uri = ws.uriOf('etc/fstab');
  let client: LspClient;
  let capabilities: Record<string, unknown>;

  beforeAll(async () => {
    ({ client, capabilities } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('announces incremental sync and the features, but no pull diagnostics to a push client', () => {
    expect(capabilities).toMatchObject({
      textDocumentSync: { openClose: true, change: 2 },
      hoverProvider: true,
      codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll.anf-lint'] },
      documentSymbolProvider: true,
      foldingRangeProvider: true,
      inlayHintProvider: true,
    });
    expect(capabilities.diagnosticProvider).toBeUndefined();
  });

  it('registers file watchers and configuration changes dynamically, and asks for the anfLint settings', () => {
    expect(client.registrations.map((r) => r.method)).toEqual(
      expect.arrayContaining(['workspace/didChangeWatchedFiles', 'workspace/didChangeConfiguration']),
    );
    expect(client.serverRequests).toContain('workspace/configuration');
  });

  it('pushes diagnostics on open with code, rule link, source and tags', async () => {
    const published = await client.openAndWait(uri, FSTAB);
    expect(published.version).toBe(1);
    expect(published.diagnostics).toHaveLength(2);
    const [first] = published.diagnostics;
    expect(first).toMatchObject({
      code: 'ANF001',
      source: 'anf-lint',
      severity: 2,
      codeDescription: { href: expect.stringMatching(/docs\/rules\/ANF001\.md$/) },
      tags: [1],
      range: { start: { line: 0, character: 0 } },
    });
  });

  it('applies incremental changes; only the latest version is reported', async () => {
    const next = client.nextDiagnostics(uri, (p) => p.version === 3);
    // Two quick edits: delete the second suppression comment line, then type into line 1.
    client.change(uri, [{ range: { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, text: '' }]);
    client.change(uri, [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '' }]);
    const published = await next;
    expect(published.diagnostics.map((d) => d.code)).toEqual(['ANF001']);
    // The debounce swallowed version 2: no diagnostics were published for it.
    expect(client.published.filter((p) => p.uri === uri).map((p) => p.version)).not.toContain(2);
  });

  it('offers the fix and fix-all; applying the fix removes the comment', async () => {
    const text = FSTAB.split('\n')
      .filter((_, i) => i !== 2)
      .join('\n');
    const diagnostic = client.published.filter((p) => p.uri === uri).at(-1)!.diagnostics[0]!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    const titles = actions.map((a) => a.title);
    expect(titles).toContain('Remove the unused suppression comment');
    // A comment cannot silence ANF001 (it is found after suppressions apply): no "disable" for it.
    expect(titles).not.toContain('Disable ANF001 on this line');
    const fix = actions.find((a) => a.title === 'Remove the unused suppression comment')!;
    expect(fix).toMatchObject({ kind: 'quickfix', isPreferred: true });
    expect(applyTextEdits(text, fix.edit!.changes![uri]!)).toBe(
      'UUID=0a1b /data xfs defaults 0 0\nUUID=2c3d /scratch xfs defaults 0 0\n',
    );
  });

  it('answers source.fixAll.anf-lint with every safe fix at once', async () => {
    const fresh = 'file:///tmp/anf-lsp-fixall/etc/fstab';
    await client.openAndWait(fresh, FSTAB);
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: fresh },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ['source.fixAll.anf-lint'] },
    });
    expect(actions.map((a) => a.kind)).toEqual(['source.fixAll.anf-lint']);
    expect(applyTextEdits(FSTAB, actions[0]!.edit!.changes![fresh]!)).toBe(
      'UUID=0a1b /data xfs defaults 0 0\nUUID=2c3d /scratch xfs defaults 0 0\n',
    );
    const fixAllOfRule = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: fresh },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } },
      context: { diagnostics: [], only: ['quickfix'] },
    });
    expect(fixAllOfRule.map((a) => a.title)).toContain('Fix all ANF001 problems in this file (2)');
    client.close(fresh);
  });

  it('re-lints when the settings change (workspace/configuration pulled again)', async () => {
    client.settings = { rules: { ANF001: 'error' } };
    const next = client.nextDiagnostics(uri, (p) => p.diagnostics.some((d) => d.severity === 1));
    client.notify('workspace/didChangeConfiguration', { settings: null });
    expect((await next).diagnostics[0]).toMatchObject({ code: 'ANF001', severity: 1 });
    client.settings = { rules: { ANF001: 'off' }, region: 42 };
    const off = client.nextDiagnostics(uri, (p) => p.diagnostics.length === 0);
    client.notify('workspace/didChangeConfiguration', { settings: null });
    await off;
    // The bad setting is logged and ignored; the good one applies.
    expect(client.logs.some((l) => /ignoring the setting anfLint\.region/.test(l))).toBe(true);
    client.settings = {};
    const back = client.nextDiagnostics(uri, (p) => p.diagnostics.length === 1);
    client.notify('workspace/didChangeConfiguration', { settings: null });
    await back;
  });

  it('validates an open .anf-lint.yaml and applies it to the other files', async () => {
    const configUri = ws.uriOf('.anf-lint.yaml');
    const onConfig = client.nextDiagnostics(configUri);
    const onFstab = client.nextDiagnostics(uri, (p) => p.diagnostics.length === 0);
    client.open(configUri, 'rules:\n  ANF001: off\nregoin: eastus\n');
    const configDiagnostics = (await onConfig).diagnostics;
    expect(configDiagnostics.map((d) => d.code)).toEqual(['ANF901']);
    expect(configDiagnostics[0]!.range.start.line).toBe(2);
    await onFstab;
    const restored = client.nextDiagnostics(uri, (p) => p.diagnostics.length === 1);
    client.close(configUri);
    await restored;
  });

  it('never goes down on requests about documents never opened or on malformed input', async () => {
    const nowhere = { textDocument: { uri: 'file:///never/opened.anf.yaml' }, position: { line: 3, character: 4 } };
    expect(await client.request('textDocument/hover', nowhere)).toBeNull();
    expect(
      await client.request('textDocument/codeAction', {
        ...nowhere,
        range: { start: nowhere.position, end: nowhere.position },
        context: { diagnostics: [] },
      }),
    ).toEqual([]);
    expect(await client.request('textDocument/documentSymbol', nowhere)).toEqual([]);
    client.change('file:///never/opened/etc/fstab', [{ text: 'x' }]);
    await expect(client.request('textDocument/hover', { textDocument: null })).resolves.toBeNull();
    // A binary-looking document is just text that matches nothing.
    const garbage = 'file:///tmp/anf-lsp-garbage/etc/fstab';
    const published = await client.openAndWait(garbage, '\u0000\u0001 :: / nfs ,,,=,= \\\n'.repeat(50));
    expect(Array.isArray(published.diagnostics)).toBe(true);
    // Still answering.
    expect(await client.request('textDocument/foldingRange', { textDocument: { uri } })).toBeInstanceOf(Array);
  });

  it('answers requests after shutdown with InvalidRequest, then exits with code 0 (issue 18.8)', async () => {
    await client.requestShutdown();
    const INVALID_REQUEST = -32600; // JSON-RPC's code, which the LSP asks for after shutdown
    expect(
      await client.requestErrorCode('textDocument/hover', {
        textDocument: { uri },
        position: { line: 0, character: 0 },
      }),
    ).toBe(INVALID_REQUEST);
    expect(await client.requestErrorCode('anf/hierarchy', {})).toBe(INVALID_REQUEST);
    expect(await client.shutdown()).toBe(0);
  });
});

describe('language server: pull diagnostics for clients that support them', () => {
  const ws = new TempWorkspace({ 'etc/fstab': FSTAB, 'sysctl.d/90-nfs.conf': '# anf-lint disable-file ANF399\n' });
  let client: LspClient;
  let capabilities: Record<string, unknown>;

  beforeAll(async () => {
    ({ client, capabilities } = await LspClient.startIndexed({
      rootUri: ws.uri,
      capabilities: PULL_CLIENT_CAPABILITIES,
    }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('announces a diagnostic provider with workspace diagnostics', () => {
    expect(capabilities.diagnosticProvider).toEqual({
      identifier: 'anf-lint',
      interFileDependencies: true,
      workspaceDiagnostics: true,
    });
  });

  it('answers textDocument/diagnostic and reports an unchanged result as unchanged; never pushes', async () => {
    const uri = ws.uriOf('etc/fstab');
    client.open(uri, FSTAB);
    const report = await client.request<{ kind: string; resultId: string; items: LspDiagnostic[] }>(
      'textDocument/diagnostic',
      { textDocument: { uri } },
    );
    expect(report.kind).toBe('full');
    expect(report.items.map((d) => d.code)).toEqual(['ANF001', 'ANF001']);
    const again = await client.request<{ kind: string }>('textDocument/diagnostic', {
      textDocument: { uri },
      previousResultId: report.resultId,
    });
    expect(again.kind).toBe('unchanged');
    await new Promise((r) => setTimeout(r, 400));
    expect(client.published).toEqual([]);
  });

  it('answers workspace/diagnostic for every indexed file, open or not', async () => {
    const report = await client.request<{ items: { uri: string; kind: string; items: LspDiagnostic[] }[] }>(
      'workspace/diagnostic',
      { previousResultIds: [] },
    );
    const byUri = Object.fromEntries(report.items.map((i) => [i.uri, i.items.map((d) => d.code)]));
    expect(byUri[ws.uriOf('sysctl.d/90-nfs.conf')]).toEqual(['ANF001']);
    expect(byUri[ws.uriOf('etc/fstab')]).toEqual(['ANF001', 'ANF001']);
  });

  it('holds workspace/diagnostic until something changes, then reports untouched files as unchanged', async () => {
    type Report = { items: { uri: string; kind: string; resultId: string }[] };
    const first = await client.request<Report>('workspace/diagnostic', { previousResultIds: [] });
    const previousResultIds = first.items.map((i) => ({ uri: i.uri, value: i.resultId }));
    let answered = false;
    const held = client.request<Report>('workspace/diagnostic', { previousResultIds }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(answered).toBe(false);
    const uri = ws.uriOf('etc/fstab');
    client.change(uri, [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# edited\n' },
    ]);
    const kinds = Object.fromEntries((await held).items.map((i) => [i.uri, i.kind]));
    expect(kinds[uri]).toBe('full');
    // The sysctl file holds no settings, mounts or manifest: nothing it reads changed.
    expect(kinds[ws.uriOf('sysctl.d/90-nfs.conf')]).toBe('unchanged');
  });

  it('asks the client to pull again when the configuration changes', async () => {
    const before = client.serverRequests.filter((r) => r === 'workspace/diagnostic/refresh').length;
    client.settings = { rules: { ANF001: 'off' } };
    client.notify('workspace/didChangeConfiguration', { settings: null });
    await client.until(
      () => client.serverRequests.filter((r) => r === 'workspace/diagnostic/refresh').length > before,
      5000,
      'a diagnostic refresh',
    );
    const report = await client.request<{ items: LspDiagnostic[] }>('textDocument/diagnostic', {
      textDocument: { uri: ws.uriOf('etc/fstab') },
    });
    expect(report.items).toEqual([]);
  });
});

describe('language server: Deprecated tags and cross-file related information', () => {
  const ws = new TempWorkspace({
    'a/etc/fstab': '10.0.0.4:/tools /tools nfs rw,vers=3,hard,nconnect=8,_netdev 0 0\n',
    'a/etc/fstab.scratch': '10.0.0.4:/scratch /scratch nfs rw,vers=3,hard,nconnect=4,_netdev 0 0\n',
    'etc/sysctl.d/90-old.conf': 'net.ipv4.tcp_fack = 1\n',
  });
  let client: LspClient;
  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('tags a removed kernel key as Deprecated, and one the kernel ignores as Unnecessary', async () => {
    const uri = ws.uriOf('etc/sysctl.d/90-old.conf');
    const published = await client.openAndWait(uri, 'net.ipv4.tcp_tw_recycle = 0\nnet.ipv4.tcp_fack = 1\n');
    const obsolete = published.diagnostics.filter((d) => d.code === 'ANF309');
    expect(obsolete.map((d) => d.tags)).toEqual([[2], [1]]);
  });

  it('points a cross-file finding at the other file with relatedInformation', async () => {
    const uri = ws.uriOf('a/etc/fstab.scratch');
    const published = await client.openAndWait(
      uri,
      '10.0.0.4:/scratch /scratch nfs rw,vers=3,hard,nconnect=4,_netdev 0 0\n',
    );
    const differs = published.diagnostics.find((d) => d.code === 'ANF217');
    expect(differs?.relatedInformation).toEqual([
      {
        location: {
          uri: ws.uriOf('a/etc/fstab'),
          range: expect.objectContaining({ start: expect.objectContaining({ line: 0 }) }),
        },
        message: expect.stringContaining('First mount to 10.0.0.4'),
      },
    ]);
  });

  it('offers "disable" with an HTML comment in Markdown', async () => {
    const uri = 'file:///tmp/anf-lsp-md/docs/mounts.md';
    const text = '# Mounts\n\n```sh\nmount -t nfs -o soft 10.0.0.4:/vol /mnt/vol\n```\n';
    const published = await client.openAndWait(uri, text);
    const soft = published.diagnostics.find((d) => d.code === 'ANF207')!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: soft.range,
      context: { diagnostics: [soft] },
    });
    const disable = actions.find((a) => a.title === 'Disable ANF207 on this line')!;
    const applied = applyTextEdits(text, disable.edit!.changes![uri]!);
    expect(applied.split('\n')[3]).toBe('<!-- anf-lint disable-next-line ANF207 -- reason -->');
    const next = client.nextDiagnostics(uri, (p) => p.version === 2);
    client.change(uri, [{ text: applied }]);
    expect((await next).diagnostics.map((d) => d.code)).not.toContain('ANF207');
  });
});
