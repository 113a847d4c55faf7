// A minimal LSP client for the benchmark: starts a server process over stdio, speaks JSON-RPC with
// vscode-jsonrpc, answers the server's requests (configuration, registrations, refreshes), and
// resolves waits on publishDiagnostics. Every process it starts is stopped by PID in dispose().
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const {
  createMessageConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
} = require('vscode-jsonrpc/node');

export class Client {
  /** `args` with `--node-ipc`: the server speaks over Node's IPC channel, as VS Code starts it; otherwise stdio. */
  constructor(command, args, { env, settings = {} } = {}) {
    this.started = performance.now();
    const ipc = args.includes('--node-ipc');
    this.process = spawn(command, args, {
      stdio: ipc ? ['pipe', 'pipe', 'pipe', 'ipc'] : ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
    this.stderr = '';
    this.process.stderr.on('data', (chunk) => {
      if (this.stderr.length < 100_000) this.stderr += chunk;
    });
    this.exited = false;
    this.process.on('exit', () => (this.exited = true));
    this.settings = settings;
    this.waiters = [];
    this.versions = new Map();
    this.logs = [];
    const connection = ipc
      ? createMessageConnection(new IPCMessageReader(this.process), new IPCMessageWriter(this.process))
      : createMessageConnection(
          new StreamMessageReader(this.process.stdout),
          new StreamMessageWriter(this.process.stdin),
        );
    connection.onNotification('textDocument/publishDiagnostics', (params) => {
      const at = performance.now();
      this.waiters = this.waiters.filter((w) => {
        if (!w.match(params)) return true;
        w.resolve({ params, at });
        return false;
      });
    });
    connection.onNotification('window/logMessage', (params) => this.logs.push(params.message));
    connection.onNotification(() => undefined);
    connection.onRequest('workspace/configuration', (params) =>
      params.items.map((item) => (item.section ? (this.settings[item.section] ?? null) : this.settings)),
    );
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('client/unregisterCapability', () => null);
    connection.onRequest('workspace/diagnostic/refresh', () => null);
    connection.onRequest('workspace/codeLens/refresh', () => null);
    connection.onRequest('workspace/inlayHint/refresh', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.onRequest(() => null);
    connection.listen();
    this.connection = connection;
  }

  async initialize({ rootUri = null, capabilities, initializationOptions } = {}) {
    const result = await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri,
      workspaceFolders: rootUri ? [{ uri: rootUri, name: 'bench' }] : null,
      capabilities,
      ...(initializationOptions ? { initializationOptions } : {}),
    });
    await this.connection.sendNotification('initialized', {});
    this.capabilities = result.capabilities;
    const sync = result.capabilities.textDocumentSync;
    this.incremental = (typeof sync === 'number' ? sync : sync?.change) === 2;
    return result;
  }

  /** Resolves with the next publishDiagnostics for `uri` that matches. */
  nextDiagnostics(uri, match = () => true, timeoutMs = 120_000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no diagnostics for ${uri} in ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`)),
        timeoutMs,
      );
      this.waiters.push({
        match: (p) => p.uri === uri && match(p),
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
      });
    });
  }

  open(uri, text, languageId) {
    this.versions.set(uri, 1);
    void this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId, version: 1, text },
    });
  }

  /** Sends one edit (incremental or full, as the server asked) and returns the new version. */
  change(uri, edit, fullText) {
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    const contentChanges = this.incremental ? [edit] : [{ text: fullText }];
    void this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
    return version;
  }

  notify(method, params) {
    void this.connection.sendNotification(method, params);
  }

  request(method, params) {
    return this.connection.sendRequest(method, params);
  }

  /** Peak resident set size of the server process (VmHWM), in MiB. */
  peakRssMiB() {
    const status = readFileSync(`/proc/${this.process.pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  }

  dispose() {
    try {
      this.connection.dispose();
    } catch {
      // already closed
    }
    if (!this.exited && this.process.pid !== undefined) {
      try {
        process.kill(this.process.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
}

export const PUSH_CAPABILITIES = {
  textDocument: {
    synchronization: { dynamicRegistration: false },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { snippetSupport: true, documentationFormat: ['markdown', 'plaintext'] } },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true },
  },
  workspace: { configuration: true, workspaceFolders: true },
};

export const PULL_CAPABILITIES = {
  ...PUSH_CAPABILITIES,
  textDocument: {
    ...PUSH_CAPABILITIES.textDocument,
    diagnostic: { dynamicRegistration: false, relatedDocumentSupport: false },
  },
  workspace: { ...PUSH_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
};
