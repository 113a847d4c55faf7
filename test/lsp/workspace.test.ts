import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LspClient,
  PULL_CLIENT_CAPABILITIES,
  PUSH_CLIENT_CAPABILITIES,
  TempWorkspace,
  type LspDiagnostic,
} from './support/lspClient';

/**
 * The workspace index and file watching: files never opened take part in cross-file rules, disk
 * changes reach the server through didChangeWatchedFiles, dependents are re-checked, and an open
 * document's text wins over the disk.
 */
const FIXTURE = join(__dirname, 'fixtures', 'eda');
type Hover = { contents: { value: string } } | null;

describe('workspace index and watched files', () => {
  const ws = new TempWorkspace();
  cpSync(FIXTURE, ws.root, { recursive: true });
  // Never indexed: the walk skips node_modules (and .git, dist, ...).
  ws.write('node_modules/some-package/etc/fstab', '10.10.1.4:/eda-proj /x nfs soft 0 0\n');
  const manifestPath = join(ws.root, 'eda.anf.yaml');
  const original = readFileSync(manifestPath, 'utf8');
  const manifest = ws.uriOf('eda.anf.yaml');
  const fstab = ws.uriOf('etc/fstab');
  let client: LspClient;
  let opened: LspDiagnostic[];

  const sourceHover = async () =>
    (
      await client.request<Hover>('textDocument/hover', {
        textDocument: { uri: fstab },
        position: { line: 0, character: 5 },
      })
    )?.contents.value ?? '';
  const nconnectMessage = (diagnostics: LspDiagnostic[]) => diagnostics.find((d) => d.code === 'ANF214')?.message ?? '';

  beforeAll(async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
    opened = (await client.openAndWait(fstab, readFileSync(join(ws.root, 'etc/fstab'), 'utf8'))).diagnostics;
  });
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('indexes the folder on start: an fstab line links to a manifest that was never opened', async () => {
    expect(client.logs).toContainEqual(expect.stringMatching(/^anf-lint: indexed 3 files in \d+ ms\.$/));
    expect(nconnectMessage(opened)).toContain('eda-scratch');
    expect(await sourceHover()).toContain('**Volume eda-prod/eda-premium/eda-proj**');
  });

  it('re-checks the mounts when the manifest changes on disk (didChangeWatchedFiles)', async () => {
    writeFileSync(manifestPath, original.replace('workload: eda-scratch', 'workload: hpc'));
    const next = client.nextDiagnostics(fstab, (p) => nconnectMessage(p.diagnostics).includes('hpc'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: manifest, type: 2 }] });
    expect(nconnectMessage((await next).diagnostics)).toContain('hpc');
  });

  it('lets an open document win over the disk, and goes back to the disk when it closes', async () => {
    const openText = original.replace('workload: eda-scratch', 'workload: eda-tools');
    const next = client.nextDiagnostics(
      fstab,
      (p) => nconnectMessage(p.diagnostics).includes('eda-tools') || !p.diagnostics.some((d) => d.code === 'ANF214'),
    );
    client.open(manifest, openText);
    await next;
    expect(await sourceHover()).toContain('`eda-tools`');
    // A disk event for the open manifest changes nothing: the editor's text wins.
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: manifest, type: 2 }] });
    await new Promise((r) => setTimeout(r, 300));
    expect(await sourceHover()).toContain('`eda-tools`');
    const back = client.nextDiagnostics(fstab, (p) => nconnectMessage(p.diagnostics).includes('hpc'));
    client.close(manifest);
    await back;
  });

  it('forgets a deleted manifest: the mount no longer reaches a volume', async () => {
    rmSync(manifestPath);
    const next = client.nextDiagnostics(fstab, (p) => !nconnectMessage(p.diagnostics).includes('hpc'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: manifest, type: 3 }] });
    await next;
    expect(await sourceHover()).toContain('reaches no volume');
    writeFileSync(manifestPath, original);
    const restored = client.nextDiagnostics(fstab, (p) => nconnectMessage(p.diagnostics).includes('eda-scratch'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: manifest, type: 1 }] });
    await restored;
  });

  it('reads .anf-lint.yaml from the workspace root when it changes on disk', async () => {
    writeFileSync(join(ws.root, '.anf-lint.yaml'), 'rules:\n  ANF214: off\n');
    const next = client.nextDiagnostics(fstab, (p) => !p.diagnostics.some((d) => d.code === 'ANF214'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: ws.uriOf('.anf-lint.yaml'), type: 1 }] });
    await next;
    rmSync(join(ws.root, '.anf-lint.yaml'));
    const back = client.nextDiagnostics(fstab, (p) => p.diagnostics.some((d) => d.code === 'ANF214'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: ws.uriOf('.anf-lint.yaml'), type: 3 }] });
    await back;
  });
});

describe('workspace index bounds', () => {
  const ws = new TempWorkspace({ 'a/etc/fstab': '# a\n', 'b/etc/fstab': '# b\n', 'c/etc/fstab': '# c\n' });
  let client: LspClient;
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('stops at its file bound with a clear log line', async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri, initializationOptions: { index: { maxFiles: 2 } } }));
    expect(client.logs).toContainEqual(
      'anf-lint: workspace index stopped early because it reached 2 files; 2 files indexed, the rest are checked only when opened.',
    );
    expect(await client.shutdown()).toBe(0);
  });
});

describe('transports', () => {
  it('speaks node IPC (--node-ipc), as the VS Code client starts it', async () => {
    const client = new LspClient({ transport: 'ipc' });
    try {
      const { capabilities } = await client.initialize();
      expect(capabilities.hoverProvider).toBe(true);
      const published = await client.openAndWait(
        'file:///tmp/anf-ipc/etc/fstab',
        '# anf-lint disable-next-line ANF299\nUUID=1 /data xfs defaults 0 0\n',
      );
      expect(published.diagnostics.map((d) => d.code)).toEqual(['ANF001']);
      expect(await client.shutdown()).toBe(0);
    } finally {
      client.dispose();
    }
  });

  it('starts from `bin/anf-lint lsp --stdio`', async () => {
    const client = new LspClient({ script: join(__dirname, '..', '..', 'bin', 'anf-lint'), args: ['lsp', '--stdio'] });
    try {
      const { capabilities } = await client.initialize();
      expect(capabilities.textDocumentSync).toEqual({ openClose: true, change: 2 });
      expect(await client.shutdown()).toBe(0);
    } finally {
      client.dispose();
    }
  });
});

describe('configuration file at start', () => {
  const ws = new TempWorkspace({
    '.anf-lint.yaml': 'rules:\n  ANF207: off\n',
    'etc/fstab': '10.0.0.4:/vol /mnt/vol nfs rw,vers=3,soft,_netdev 0 0\n',
  });
  let client: LspClient;
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('applies the .anf-lint.yaml found at the workspace root when the server starts', async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri }));
    const published = await client.openAndWait(
      ws.uriOf('etc/fstab'),
      '10.0.0.4:/vol /mnt/vol nfs rw,vers=3,soft,_netdev 0 0\n',
    );
    expect(published.diagnostics.map((d) => d.code)).not.toContain('ANF207');
  });

  it('indexes a workspace folder added later, and forgets a removed one', async () => {
    const other = new TempWorkspace({ 'etc/fstab': '10.0.0.4:/vol /mnt/vol nfs rw,vers=3,soft,_netdev 0 0\n' });
    try {
      const indexedBefore = client.logs.filter((l) => /indexed \d+ files/.test(l)).length;
      client.notify('workspace/didChangeWorkspaceFolders', {
        event: { added: [{ uri: other.uri, name: 'other' }], removed: [] },
      });
      await client.until(
        () => client.logs.filter((l) => /indexed \d+ files/.test(l)).length > indexedBefore,
        5000,
        'the second index',
      );
      type Report = { items: { uri: string }[] };
      const withOther = await client.request<Report>('workspace/diagnostic', { previousResultIds: [] });
      expect(withOther.items.map((i) => i.uri)).toContain(other.uriOf('etc/fstab'));
      client.notify('workspace/didChangeWorkspaceFolders', {
        event: { added: [], removed: [{ uri: other.uri, name: 'other' }] },
      });
      await client.until(
        () => client.logs.filter((l) => /indexed \d+ files/.test(l)).length > indexedBefore + 1,
        5000,
        'the third index',
      );
      const without = await client.request<Report>('workspace/diagnostic', { previousResultIds: [] });
      expect(without.items.map((i) => i.uri)).not.toContain(other.uriOf('etc/fstab'));
    } finally {
      other.remove();
    }
  });
});

describe('multi-root workspaces', () => {
  const FSTAB = '10.0.0.4:/vol /mnt/vol nfs rw,vers=3,soft,_netdev 0 0\n';
  // The same mount line in two folders: the HANA team assumes SAP HANA data volumes and accepts
  // `soft` (ANF207 off); the EDA team makes `soft` an error.
  const hana = new TempWorkspace({
    '.anf-lint.yaml': 'workload: sap-hana-data\nrules:\n  ANF207: off\n',
    'etc/fstab': FSTAB,
  });
  const eda = new TempWorkspace({ '.anf-lint.yaml': 'rules:\n  ANF207: error\n', 'etc/fstab': FSTAB });
  const elsewhere = 'file:///tmp/anf-lsp-multi-root-elsewhere/etc/fstab';
  let client: LspClient;
  const codes = (diagnostics: LspDiagnostic[]) => diagnostics.map((d) => `${d.code}:${d.severity}`).sort();

  beforeAll(async () => {
    client = new LspClient();
    await client.request('initialize', {
      processId: process.pid,
      rootUri: hana.uri,
      workspaceFolders: [
        { uri: hana.uri, name: 'hana' },
        { uri: eda.uri, name: 'eda' },
      ],
      capabilities: PUSH_CLIENT_CAPABILITIES,
    });
    client.notify('initialized', {});
    await client.indexed();
  });
  afterAll(() => {
    client.dispose();
    hana.remove();
    eda.remove();
  });

  it("lints each file with its own workspace folder's .anf-lint.yaml; a file outside every folder with the first folder's", async () => {
    const inHana = await client.openAndWait(hana.uriOf('etc/fstab'), FSTAB);
    const inEda = await client.openAndWait(eda.uriOf('etc/fstab'), FSTAB);
    // HANA: no ANF207; NFSv3 for the configured workload sap-hana-data (ANF220, from that folder's `workload:`).
    expect(codes(inHana.diagnostics)).not.toContainEqual(expect.stringMatching(/^ANF207/));
    expect(inHana.diagnostics.find((d) => d.code === 'ANF220')?.message).toContain('the default in .anf-lint.yaml');
    // EDA: `soft` is an error, and no workload is assumed.
    expect(codes(inEda.diagnostics)).toEqual(['ANF207:1']);
    const outside = await client.openAndWait(elsewhere, FSTAB);
    expect(codes(outside.diagnostics)).toContain('ANF220:2');
    expect(codes(outside.diagnostics)).not.toContainEqual(expect.stringMatching(/^ANF207/));
  });

  it(".anf-lint.yaml changed on disk in one folder: that folder's files are checked again, the other folder's are not", async () => {
    // Opening a mount file re-checks the other mount files (cross-file rules): let that settle first.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const before = client.published.length;
    writeFileSync(join(eda.root, '.anf-lint.yaml'), 'rules:\n  ANF207: hint\n');
    const next = client.nextDiagnostics(eda.uriOf('etc/fstab'), (p) => codes(p.diagnostics).includes('ANF207:4'));
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: eda.uriOf('.anf-lint.yaml'), type: 2 }] });
    await next;
    // Any other re-check would have been published with the same pause.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(client.published.slice(before).map((p) => p.uri)).toEqual([eda.uriOf('etc/fstab')]);
    // The first folder's file changes: its files and the file outside every folder follow it.
    const hanaNext = client.nextDiagnostics(hana.uriOf('etc/fstab'), (p) => codes(p.diagnostics).includes('ANF207:2'));
    const outsideNext = client.nextDiagnostics(elsewhere, (p) => codes(p.diagnostics).includes('ANF207:2'));
    writeFileSync(join(hana.root, '.anf-lint.yaml'), 'workload: sap-hana-data\n');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: hana.uriOf('.anf-lint.yaml'), type: 2 }] });
    await Promise.all([hanaNext, outsideNext]);
  });

  it("drops the assumed workload when `workload:` leaves the folder's .anf-lint.yaml", async () => {
    const next = client.nextDiagnostics(hana.uriOf('etc/fstab'), (p) => !codes(p.diagnostics).includes('ANF220:2'));
    writeFileSync(join(hana.root, '.anf-lint.yaml'), 'rules:\n  ANF207: warning\n');
    client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: hana.uriOf('.anf-lint.yaml'), type: 2 }] });
    expect(codes((await next).diagnostics)).toEqual(['ANF207:2']);
  });
});

describe('nested configuration files', () => {
  const SOFT = '10.0.0.4:/vol /mnt/vol nfs rw,vers=3,soft,_netdev 0 0\n';
  const ws = new TempWorkspace({
    '.anf-lint.yaml': 'rules:\n  ANF207: error\n',
    'team/.anf-lint.yaml': 'rules:\n  ANF207: off\n',
    'team/etc/fstab': SOFT,
    'etc/fstab': SOFT,
    'bin/mount-vol': `#!/bin/sh\nmount -t nfs -o rw,vers=3,soft 10.0.0.4:/vol /mnt/vol\n`,
  });
  let client: LspClient;
  afterAll(() => {
    client.dispose();
    ws.remove();
  });

  it('lints each file with the nearest .anf-lint.yaml above it in its folder, as the CLI does; extension-less scripts are indexed', async () => {
    ({ client } = await LspClient.startIndexed({ rootUri: ws.uri, capabilities: PULL_CLIENT_CAPABILITIES }));
    type Report = { items: { uri: string; items: { code?: string | number; severity?: number }[] }[] };
    const report = await client.request<Report>('workspace/diagnostic', { previousResultIds: [] });
    const byUri = Object.fromEntries(
      report.items.map((i) => [i.uri, i.items.filter((d) => d.code === 'ANF207').map((d) => d.severity)]),
    );
    expect(byUri[ws.uriOf('etc/fstab')]).toEqual([1]);
    expect(byUri[ws.uriOf('team/etc/fstab')]).toEqual([]);
    expect(byUri[ws.uriOf('bin/mount-vol')]).toEqual([1]);
  });
});
