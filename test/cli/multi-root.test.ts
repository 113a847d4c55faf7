/**
 * Multi-root windows: the language server keeps one project per workspace folder, as the CLI keeps
 * one per repository. Two repositories that would interact if their files were merged (a manifest
 * in each naming the same mount address with other workloads, the same NFS export mounted with
 * other nconnect values, another default workload) are opened as two folders of one window; each
 * folder's workspace/diagnostic equals `anf-lint --format json .` run in that folder alone, and
 * stays so when a folder is added or removed while the server runs. The server runs in-process
 * (startServer over a pair of streams); the CLI is the built bundle.
 */
import { rmSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join, relative } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from '../../server/src/lsp/server';
import { MULTI_HOST_FILES, multiHostRepository, writeRepository } from '../support/generatedRepo';
import { PULL_CLIENT_CAPABILITIES, type LspDiagnostic } from '../lsp/support/lspClient';
import { run } from './helpers';

interface JsonFile {
  file: string;
  diagnostics: { code: string; message: string; line: number; column: number; endLine: number; endColumn: number }[];
}

const created: string[] = [];
afterAll(() => {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const HOST_A_FSTAB = MULTI_HOST_FILES['hostA/etc/fstab']!;

/** A second repository: the first one's mount address and export with nconnect=16, its own manifest and default workload. */
function hanaRepository(): string {
  const dir = writeRepository(
    {
      '.anf-lint.yaml': 'workload: sap-hana-data\n',
      'etc/fstab': '10.20.1.4:/eda-tools /hana/shared nfs rw,hard,vers=4.1,nconnect=16,_netdev 0 0\n',
      'hana.anf.yaml': [
        'region: westeurope',
        'accounts:',
        '  - name: hana-prod',
        '    pools:',
        '      - name: hana-ultra',
        '        serviceLevel: Ultra',
        '        size: 4 TiB',
        '        volumes:',
        '          - name: eda-tools',
        '            quota: 1 TiB',
        '            protocols: [NFSv4.1]',
        '            workload: sap-hana-log',
        '            exportPath: /eda-tools',
        '            mountTarget: 10.20.1.4',
        '',
      ].join('\n'),
    },
    { prefix: 'anf-lint-hana-' },
  );
  created.push(dir);
  return dir;
}

/** `file code l:c-l:c message` for the CLI run inside `repo`, file relative to it, sorted. */
function fromCli(repo: string, target = '.'): string[] {
  const result = run(['--format', 'json', '--exit-zero', target], { cwd: repo });
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as JsonFile[])
    .flatMap((f) =>
      f.diagnostics.map(
        (d) =>
          `${f.file.split('\\').join('/')} ${d.code} ${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.message}`,
      ),
    )
    .sort();
}

/** The language server in this process, over a pair of streams. */
class InProcessServer {
  private readonly toServer = new PassThrough();
  private readonly toClient = new PassThrough();
  readonly client: MessageConnection;
  readonly logs: string[] = [];

  constructor() {
    startServer(createConnection(ProposedFeatures.all, this.toServer, this.toClient));
    this.client = createMessageConnection(
      new StreamMessageReader(this.toClient),
      new StreamMessageWriter(this.toServer),
    );
    this.client.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
    });
    this.client.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
    this.client.onRequest('client/registerCapability', () => null);
    this.client.onRequest('workspace/diagnostic/refresh', () => null);
    this.client.onRequest('workspace/codeLens/refresh', () => null);
    this.client.onRequest('workspace/inlayHint/refresh', () => null);
    this.client.listen();
  }

  async start(folders: readonly string[]): Promise<void> {
    await this.client.sendRequest('initialize', {
      processId: null,
      rootUri: null,
      workspaceFolders: folders.map((f, i) => ({ uri: pathToFileURL(f).href, name: `f${i}` })),
      capabilities: PULL_CLIENT_CAPABILITIES,
    });
    await this.client.sendNotification('initialized', {});
    await this.indexes(1);
  }

  /** Waits until the server has logged `count` index lines. */
  async indexes(count: number): Promise<void> {
    const started = Date.now();
    while (this.logs.filter((l) => /indexed \d+ files/.test(l)).length < count) {
      if (Date.now() - started > 20000) throw new Error(`no index; logs: ${this.logs.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  async changeFolders(added: readonly string[], removed: readonly string[]): Promise<void> {
    const before = this.logs.filter((l) => /indexed \d+ files/.test(l)).length;
    const folder = (f: string) => ({ uri: pathToFileURL(f).href, name: f });
    await this.client.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: added.map(folder), removed: removed.map(folder) },
    });
    await this.indexes(before + 1);
  }

  /** workspace/diagnostic, as `file code l:c-l:c message` lines per folder (files outside every folder under ''). */
  async diagnostics(folders: readonly string[]): Promise<Map<string, string[]>> {
    const report = await this.client.sendRequest<{ items: { uri: string; items: LspDiagnostic[] }[] }>(
      'workspace/diagnostic',
      { previousResultIds: [] },
    );
    const byFolder = new Map<string, string[]>(folders.map((f) => [f, []]));
    for (const item of report.items) {
      const path = fileURLToPath(item.uri);
      const folder = folders.find((f) => !relative(f, path).startsWith('..')) ?? '';
      if (!byFolder.has(folder)) byFolder.set(folder, []);
      for (const d of item.items) {
        const { start, end } = d.range;
        byFolder
          .get(folder)!
          .push(
            `${relative(folder, path).split('\\').join('/')} ${String(d.code)} ${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1} ${d.message}`,
          );
      }
    }
    for (const lines of byFolder.values()) lines.sort();
    return byFolder;
  }

  dispose(): void {
    // No `exit` notification: in-process, the library would end the test runner's process.
    this.client.dispose();
  }
}

describe('a multi-root window: one project per workspace folder', () => {
  let server: InProcessServer | undefined;
  afterEach(() => {
    server?.dispose();
    server = undefined;
  });

  it("each folder's diagnostics equal the CLI's on that folder alone", async () => {
    const eda = multiHostRepository();
    created.push(eda);
    const hana = hanaRepository();
    const [edaAlone, hanaAlone] = [fromCli(eda), fromCli(hana)];
    // The two folders would interact if merged: both name a volume at 10.20.1.4:/eda-tools.
    expect(edaAlone.length).toBeGreaterThan(3);
    expect(hanaAlone.length).toBeGreaterThan(0);
    server = new InProcessServer();
    await server.start([eda, hana]);
    const byFolder = await server.diagnostics([eda, hana]);
    expect(byFolder.get(hana)).toEqual(hanaAlone);
    expect(byFolder.get(eda)).toEqual(edaAlone);
    // The tree covers both folders; each manifest's volume reaches only its own folder's mounts.
    type Tree = {
      manifests: {
        uri: string;
        accounts: { pools: { volumes: { name: string; mounts: { location: { uri: string } }[] }[] }[] }[];
      }[];
    };
    const tree = await server.client.sendRequest<Tree>('anf/hierarchy', {});
    const mountsOf = (manifest: string) =>
      tree.manifests
        .filter((m) => m.uri === pathToFileURL(manifest).href)
        .flatMap((m) =>
          m.accounts.flatMap((a) =>
            a.pools.flatMap((p) =>
              p.volumes
                .filter((v) => v.name === 'eda-tools')
                .flatMap((v) =>
                  v.mounts.map((mount) => relative(dirname(manifest), fileURLToPath(mount.location.uri))),
                ),
            ),
          ),
        )
        .sort();
    expect(mountsOf(join(eda, 'estate.anf.yaml'))).toEqual(['hostA/etc/fstab', 'hostB/etc/fstab']);
    expect(mountsOf(join(hana, 'hana.anf.yaml'))).toEqual(['etc/fstab']);
    // A file outside every folder is a project of its own: the folders' manifests do not size it.
    const outside = writeRepository({ 'etc/fstab': HOST_A_FSTAB }, { git: false, prefix: 'anf-lint-loose-' });
    created.push(outside);
    const uri = pathToFileURL(join(outside, 'etc/fstab')).href;
    await server.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'fstab', version: 1, text: HOST_A_FSTAB },
    });
    const report = await server.client.sendRequest<{ items: LspDiagnostic[] }>('textDocument/diagnostic', {
      textDocument: { uri },
    });
    expect(report.items.length).toBeGreaterThan(0);
    expect(
      report.items
        .map(
          (d) =>
            `etc/fstab ${String(d.code)} ${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${d.message}`,
        )
        .sort(),
    ).toEqual(fromCli(outside, 'etc/fstab'));
  }, 120_000);

  it('didChangeWorkspaceFolders adds and removes a project; the other folder keeps its findings', async () => {
    const eda = multiHostRepository();
    created.push(eda);
    const hana = hanaRepository();
    const [edaAlone, hanaAlone] = [fromCli(eda), fromCli(hana)];
    server = new InProcessServer();
    await server.start([eda]);
    expect((await server.diagnostics([eda])).get(eda)).toEqual(edaAlone);
    await server.changeFolders([hana], []);
    const both = await server.diagnostics([eda, hana]);
    expect(both.get(eda)).toEqual(edaAlone);
    expect(both.get(hana)).toEqual(hanaAlone);
    await server.changeFolders([], [eda]);
    const onlyHana = await server.diagnostics([eda, hana]);
    expect(onlyHana.get(eda)).toEqual([]);
    expect(onlyHana.get(hana)).toEqual(hanaAlone);
  }, 120_000);
});
