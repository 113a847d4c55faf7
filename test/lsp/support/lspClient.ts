/**
 * A small LSP client for the protocol tests: starts the bundled server (dist/server/server.js) over
 * stdio, speaks JSON-RPC to it with vscode-jsonrpc, answers the server's own requests
 * (workspace/configuration, client/registerCapability, refreshes) and records its notifications.
 * Every process it starts is stopped by PID in `close()`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';

export const SERVER_JS = join(__dirname, '..', '..', '..', 'dist', 'server', 'server.js');

export interface LspDiagnostic {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string | number;
  codeDescription?: { href: string };
  source?: string;
  message: string;
  tags?: number[];
  relatedInformation?: { location: { uri: string; range: LspDiagnostic['range'] }; message: string }[];
}

export interface PublishedDiagnostics {
  uri: string;
  version?: number;
  diagnostics: LspDiagnostic[];
}

export interface TextEditLike {
  range: LspDiagnostic['range'];
  newText: string;
}

/** Capabilities of a client like Neovim 0.7: push diagnostics only. */
export const PUSH_CLIENT_CAPABILITIES = {
  textDocument: {
    synchronization: { dynamicRegistration: false },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    publishDiagnostics: {
      relatedInformation: true,
      tagSupport: { valueSet: [1, 2] },
      codeDescriptionSupport: true,
      versionSupport: true,
    },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source', 'source.fixAll'] } } },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    inlayHint: {},
    foldingRange: {},
  },
  workspace: {
    configuration: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    workspaceFolders: true,
  },
};

/** Capabilities of a client like VS Code: pull diagnostics with refresh. */
export const PULL_CLIENT_CAPABILITIES = {
  ...PUSH_CLIENT_CAPABILITIES,
  textDocument: {
    ...PUSH_CLIENT_CAPABILITIES.textDocument,
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
  },
  workspace: { ...PUSH_CLIENT_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
};

/** A temporary workspace folder with files written into it. */
export class TempWorkspace {
  readonly root: string;
  constructor(files: Record<string, string> = {}) {
    this.root = mkdtempSync(join(tmpdir(), 'anf-lsp-'));
    for (const [path, text] of Object.entries(files)) this.write(path, text);
  }
  get uri(): string {
    return pathToFileURL(this.root).href;
  }
  uriOf(path: string): string {
    return pathToFileURL(join(this.root, path)).href;
  }
  write(path: string, text: string): string {
    const full = join(this.root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    return this.uriOf(path);
  }
  remove(): void {
    if (existsSync(this.root)) rmSync(this.root, { recursive: true, force: true });
  }
}

type Waiter = { match: (p: PublishedDiagnostics) => boolean; resolve: (p: PublishedDiagnostics) => void };

export class LspClient {
  readonly process: ChildProcess;
  readonly connection: MessageConnection;
  readonly published: PublishedDiagnostics[] = [];
  readonly logs: string[] = [];
  readonly registrations: { method: string; registerOptions?: unknown }[] = [];
  readonly serverRequests: string[] = [];
  stderr = '';
  /** What the client answers to workspace/configuration for the `anfLint` section. */
  settings: unknown = {};
  private waiters: Waiter[] = [];
  private versions = new Map<string, number>();
  exitCode: number | null | undefined;

  /**
   * `script`: the Node script to run (default: the bundled server); `args` its arguments;
   * `transport`: stdio (default) or node IPC (`--node-ipc`, as VS Code starts it).
   */
  constructor(options: { script?: string; args?: string[]; transport?: 'stdio' | 'ipc' } = {}) {
    const script = options.script ?? SERVER_JS;
    const ipc = options.transport === 'ipc';
    if (!existsSync(script)) throw new Error(`${script} is missing: run npm run build first`);
    const args = options.args ?? [ipc ? '--node-ipc' : '--stdio'];
    this.process = spawn(process.execPath, [script, ...args], {
      stdio: ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'],
    });
    this.process.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.connection = ipc
      ? createMessageConnection(new IPCMessageReader(this.process), new IPCMessageWriter(this.process))
      : createMessageConnection(
          new StreamMessageReader(this.process.stdout!),
          new StreamMessageWriter(this.process.stdin!),
        );
    // A server that dies fails the pending requests at once (with its stderr), rather than hanging the test.
    this.process.on('exit', (code) => {
      this.exitCode = code;
      if (code !== 0) this.connection.dispose();
    });
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishedDiagnostics) => {
      this.published.push(params);
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(params)) return true;
        w.resolve(params);
        return false;
      });
    });
    this.connection.onNotification('window/logMessage', (params: { message: string }) => {
      this.logs.push(params.message);
    });
    this.connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) => {
      this.serverRequests.push('workspace/configuration');
      return params.items.map(() => this.settings);
    });
    this.connection.onRequest(
      'client/registerCapability',
      (params: { registrations: { method: string; registerOptions?: unknown }[] }) => {
        this.registrations.push(...params.registrations);
        return null;
      },
    );
    this.connection.onRequest('workspace/diagnostic/refresh', () => {
      this.serverRequests.push('workspace/diagnostic/refresh');
      return null;
    });
    this.connection.onRequest('workspace/codeLens/refresh', () => null);
    this.connection.onRequest('workspace/inlayHint/refresh', () => null);
    this.connection.listen();
  }

  /** Starts the bundled server, initializes it on a folder and waits until its workspace index is done. */
  static async startIndexed(options: {
    rootUri: string;
    capabilities?: unknown;
    initializationOptions?: unknown;
  }): Promise<{ client: LspClient; capabilities: Record<string, unknown> }> {
    const client = new LspClient();
    try {
      const { capabilities } = await client.initialize(options);
      await client.indexed();
      return { client, capabilities };
    } catch (error) {
      client.dispose();
      throw error;
    }
  }

  async initialize(
    options: { rootUri?: string; capabilities?: unknown; initializationOptions?: unknown } = {},
  ): Promise<{ capabilities: Record<string, unknown> }> {
    const result = await this.withStderr(
      this.connection.sendRequest<{ capabilities: Record<string, unknown> }>('initialize', {
        processId: process.pid,
        rootUri: options.rootUri ?? null,
        workspaceFolders: options.rootUri ? [{ uri: options.rootUri, name: 'ws' }] : null,
        capabilities: options.capabilities ?? PUSH_CLIENT_CAPABILITIES,
        ...(options.initializationOptions !== undefined
          ? { initializationOptions: options.initializationOptions }
          : {}),
      }),
    );
    await this.connection.sendNotification('initialized', {});
    return result;
  }

  /** Resolves once the server logged its index line (so the disk files are known). */
  async indexed(timeoutMs = 20000): Promise<void> {
    await this.until(() => this.logs.some((l) => /indexed \d+ files/.test(l)), timeoutMs, 'the workspace index');
  }

  async until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const started = Date.now();
    while (!condition()) {
      if (Date.now() - started > timeoutMs)
        throw new Error(`timed out waiting for ${what}; stderr: ${this.stderr}; logs: ${this.logs.join(' | ')}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** The next publishDiagnostics for a URI (optionally: one that matches). */
  nextDiagnostics(
    uri: string,
    match: (p: PublishedDiagnostics) => boolean = () => true,
    timeoutMs = 20000,
  ): Promise<PublishedDiagnostics> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no diagnostics for ${uri} within ${timeoutMs} ms; got ${JSON.stringify(this.published.map((p) => p.uri))}; stderr: ${this.stderr}`,
            ),
          ),
        timeoutMs,
      );
      this.waiters.push({
        match: (p) => p.uri === uri && match(p),
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  }

  open(uri: string, text: string, languageId = 'plaintext'): void {
    this.versions.set(uri, 1);
    void this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
  }

  /** Opens and waits for the first diagnostics of that version. */
  async openAndWait(uri: string, text: string): Promise<PublishedDiagnostics> {
    const next = this.nextDiagnostics(uri, (p) => p.version === undefined || p.version === 1);
    this.open(uri, text);
    return next;
  }

  /** Sends an incremental change (or a full one without `range`) and returns the new version. */
  change(uri: string, changes: ({ range: LspDiagnostic['range']; text: string } | { text: string })[]): number {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    void this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: changes,
    });
    return version;
  }

  close(uri: string): void {
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  request<T>(method: string, params: unknown): Promise<T> {
    return this.withStderr(this.connection.sendRequest<T>(method, params));
  }

  /** A failed request says what the server printed before it failed. */
  private async withStderr<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; server exit ${String(this.exitCode)}; stderr: ${this.stderr}`,
      );
    }
  }

  notify(method: string, params: unknown): void {
    void this.connection.sendNotification(method, params);
  }

  /** Sends a request that should fail; returns the JSON-RPC error code it failed with. */
  async requestErrorCode(method: string, params: unknown): Promise<number | undefined> {
    try {
      await this.connection.sendRequest(method, params);
      return undefined;
    } catch (error) {
      return (error as { code?: number }).code;
    }
  }

  /** The `shutdown` request alone (no `exit`). */
  async requestShutdown(): Promise<void> {
    await this.connection.sendRequest('shutdown');
  }

  /** shutdown + exit, then waits for the process to end. Returns its exit code. */
  async shutdown(): Promise<number | null> {
    await this.connection.sendRequest('shutdown');
    await this.connection.sendNotification('exit');
    await this.until(() => this.exitCode !== undefined, 5000, 'the server to exit');
    return this.exitCode ?? null;
  }

  /** Stops the server by PID if it still runs. */
  dispose(): void {
    this.connection.dispose();
    if (this.exitCode === undefined && this.process.pid !== undefined) {
      try {
        process.kill(this.process.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

/** Applies LSP text edits to a text (edits must not overlap), as an editor would. */
export function applyTextEdits(text: string, edits: readonly TextEditLike[]): string {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
  const offset = (p: { line: number; character: number }) =>
    Math.min((lineStarts[p.line] ?? text.length) + p.character, text.length);
  const sorted = [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let result = text;
  for (const edit of sorted)
    result = result.slice(0, offset(edit.range.start)) + edit.newText + result.slice(offset(edit.range.end));
  return result;
}
