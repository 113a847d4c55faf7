/** `initialize`: what the client can do, and what we offer in return. */
import {
  TextDocumentSyncKind,
  type ClientCapabilities,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import { FIX_ALL_KIND } from '../../core/features/codeActions';
import type { ClientSupport, Session } from '../session';
import { setRetriggerCommand } from './completion';

export const SERVER_NAME = 'anf-lint';

export function clientSupport(capabilities: ClientCapabilities): ClientSupport {
  const text = capabilities.textDocument;
  const workspace = capabilities.workspace;
  return {
    pullDiagnostics: text?.diagnostic !== undefined,
    diagnosticRefresh: workspace?.diagnostics?.refreshSupport === true,
    configuration: workspace?.configuration === true,
    configurationChangeRegistration: workspace?.didChangeConfiguration?.dynamicRegistration === true,
    watchedFilesRegistration: workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    workspaceFolders: workspace?.workspaceFolders === true,
    markdownHover: text?.hover?.contentFormat?.includes('markdown') ?? false,
    snippets: text?.completion?.completionItem?.snippetSupport === true,
    codeLensRefresh: workspace?.codeLens?.refreshSupport === true,
    inlayHintRefresh: workspace?.inlayHint?.refreshSupport === true,
    workDoneProgress: capabilities.window?.workDoneProgress === true,
  };
}

export function serverCapabilities(support: ClientSupport): ServerCapabilities {
  return {
    textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    hoverProvider: true,
    completionProvider: { triggerCharacters: [',', '=', '.', ':', ' ', '"'], resolveProvider: false },
    codeActionProvider: { codeActionKinds: ['quickfix', FIX_ALL_KIND], resolveProvider: false },
    documentSymbolProvider: true,
    foldingRangeProvider: true,
    codeLensProvider: { resolveProvider: false },
    inlayHintProvider: true,
    ...(support.pullDiagnostics
      ? { diagnosticProvider: { identifier: SERVER_NAME, interFileDependencies: true, workspaceDiagnostics: true } }
      : {}),
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };
}

export function initialize(session: Session, params: InitializeParams): InitializeResult {
  session.support = clientSupport(params.capabilities);
  const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
  session.folders = folders;
  const options = (params.initializationOptions ?? {}) as {
    settings?: unknown;
    index?: { maxFiles?: unknown; maxFileBytes?: unknown };
    retriggerSuggestCommand?: unknown;
    storagePath?: unknown;
    scanWorker?: unknown;
  };
  setRetriggerCommand(session, options.retriggerSuggestCommand);
  // The client's storage folder for this workspace: the scan cache is kept there (scanCache.ts).
  if (typeof options.storagePath === 'string' && options.storagePath !== '') session.storagePath = options.storagePath;
  if (options.settings !== undefined) session.setEditorSettings(options.settings);
  // The first scan's worker thread: `false` never (every file on the main thread), `true` always, else when a core is free.
  if (typeof options.scanWorker === 'boolean') session.scanWorkerMode = options.scanWorker ? 'on' : 'off';
  // Clients may lower the index bounds (never raise them): a huge monorepo, or a test.
  const lower = (value: unknown, bound: number) =>
    typeof value === 'number' && value >= 0 && value < bound ? value : bound;
  session.indexLimits = {
    ...session.indexLimits,
    maxFiles: lower(options.index?.maxFiles, session.indexLimits.maxFiles),
    maxFileBytes: lower(options.index?.maxFileBytes, session.indexLimits.maxFileBytes),
  };
  return { capabilities: serverCapabilities(session.support), serverInfo: { name: SERVER_NAME } };
}
