/**
 * The language server: a thin protocol adapter over the pure core. This file negotiates the
 * connection and holds the method table; each method's work is one file in ./handlers.
 *
 * Every handler runs behind `guard`: a fault is logged and answered with an empty result, so bad
 * input, a malformed configuration or a request about a document never opened cannot take the
 * server down.
 */
import {
  createConnection,
  ErrorCodes,
  ProposedFeatures,
  ResponseError,
  type CancellationToken,
  type Connection,
} from 'vscode-languageserver/node';
import { codeActions } from './handlers/codeActions';
import { codeLens } from './handlers/codeLens';
import { completion } from './handlers/completion';
import { didChangeConfiguration, fetchSettings, registerConfigurationChanges } from './handlers/configuration';
import { documentDiagnostics, workspaceDiagnostics } from './handlers/diagnostics';
import { documentSymbols } from './handlers/documentSymbols';
import { foldingRanges } from './handlers/foldingRanges';
import { adviseSizing, hierarchy, recommendedMount, workloads } from './handlers/custom';
import { hover } from './handlers/hover';
import { initialize } from './handlers/initialize';
import { inlayHints } from './handlers/inlayHints';
import { didChange, didClose, didOpen } from './handlers/textSync';
import { didChangeWatchedFiles, registerFileWatchers } from './handlers/watchedFiles';
import type { Rule } from '../core';
import { Session } from './session';

type Handler = (session: Session, params: never, token: CancellationToken) => unknown;

/** Requests: method -> handler, and what to answer if the handler fails. */
const REQUESTS: Record<string, { handle: Handler; onFault: unknown }> = {
  'textDocument/diagnostic': { handle: documentDiagnostics, onFault: { kind: 'full', items: [] } },
  'workspace/diagnostic': { handle: workspaceDiagnostics, onFault: { items: [] } },
  'textDocument/codeAction': { handle: codeActions, onFault: [] },
  'textDocument/hover': { handle: hover, onFault: null },
  'textDocument/completion': { handle: completion, onFault: [] },
  'textDocument/documentSymbol': { handle: documentSymbols, onFault: [] },
  'textDocument/foldingRange': { handle: foldingRanges, onFault: [] },
  'textDocument/codeLens': { handle: codeLens, onFault: [] },
  'textDocument/inlayHint': { handle: inlayHints, onFault: [] },
  'anf/hierarchy': {
    handle: hierarchy,
    onFault: { manifests: [], unlinkedMounts: [], totals: { error: 0, warning: 0, info: 0, hint: 0 } },
  },
  'anf/adviseSizing': { handle: adviseSizing, onFault: null },
  'anf/recommendedMount': { handle: recommendedMount, onFault: null },
  'anf/workloads': { handle: workloads, onFault: [] },
};

/** Notifications: method -> handler. */
const NOTIFICATIONS: Record<string, Handler> = {
  'textDocument/didOpen': didOpen,
  'textDocument/didChange': didChange,
  'textDocument/didClose': didClose,
  'workspace/didChangeConfiguration': didChangeConfiguration,
  'workspace/didChangeWatchedFiles': didChangeWatchedFiles,
};

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/**
 * Starts the server on `connection`, or on one made from the command line (`--stdio`,
 * `--node-ipc`, `--socket=N`, `--pipe=NAME`). `bin/anf-lint lsp --stdio` calls this too.
 */
export function startServer(
  connection: Connection = createConnection(ProposedFeatures.all),
  options: { rules?: readonly Rule[] } = {},
): Connection {
  const session = new Session(connection, options.rules);

  const guard = async (method: string, work: () => unknown, onFault: unknown) => {
    try {
      return await work();
    } catch (error) {
      session.error(`anf-lint: ${method} failed: ${describe(error)}`);
      return onFault;
    }
  };

  connection.onInitialize((params) => initialize(session, params));
  connection.onInitialized(() => {
    void guard(
      'initialized',
      async () => {
        await registerConfigurationChanges(session);
        await registerFileWatchers(session);
        if (session.support.workspaceFolders) {
          connection.workspace.onDidChangeWorkspaceFolders((event) => {
            void guard(
              'workspace folders',
              () =>
                session.changeFolders(
                  event.added.map((f) => f.uri),
                  event.removed.map((f) => f.uri),
                ),
              undefined,
            );
          });
        }
        await fetchSettings(session);
        await session.indexWorkspace();
      },
      undefined,
    ).finally(() => session.initializedHandled());
  });
  // After `shutdown` the protocol allows only `exit`: other requests get InvalidRequest, other
  // notifications are dropped.
  let shutDown = false;
  for (const [method, { handle, onFault }] of Object.entries(REQUESTS)) {
    connection.onRequest(method, (params: unknown, token: CancellationToken) => {
      if (shutDown)
        return new ResponseError(ErrorCodes.InvalidRequest, `${method} after shutdown: the server is shutting down`);
      // A large infrastructure-code document being typed in is read again when typing pauses: until
      // then its requests get the empty answer (positions in the last reading would be wrong), and
      // its diagnostics stay those of the last reading.
      const uri = (params as { textDocument?: { uri?: unknown } } | null)?.textDocument?.uri;
      if (typeof uri === 'string' && method !== 'textDocument/diagnostic' && session.isSettling(uri)) return onFault;
      // An edit that came before its project was parsed: the answer waits for the parse, in slices.
      if (session.editsPending)
        return guard(method, () => session.editsApplied().then(() => handle(session, params as never, token)), onFault);
      return guard(method, () => handle(session, params as never, token), onFault);
    });
  }
  for (const [method, handle] of Object.entries(NOTIFICATIONS)) {
    connection.onNotification(method, (params: unknown) => {
      if (!shutDown) void guard(method, () => handle(session, params as never, undefined as never), undefined);
    });
  }
  connection.onShutdown(() => {
    shutDown = true;
    session.dispose();
  });

  connection.listen();
  return connection;
}
