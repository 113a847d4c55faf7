import * as vscode from 'vscode';
import {
  LanguageClient,
  RevealOutputChannelOn,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { documentSelector } from './documentSelector';

export const CLIENT_ID = 'anfLint';
export const CLIENT_NAME = 'anf-lint';

/**
 * The language client: the bundled server (dist/server/server.js, no node_modules needed) in a
 * child process over node IPC. Everything else (diagnostics, hovers, quick fixes, completion,
 * inlay hints, code lenses) comes from the server through the standard protocol.
 */
export function createLanguageClient(
  context: vscode.ExtensionContext,
  outputChannel: vscode.LogOutputChannel,
): LanguageClient {
  const module = context.asAbsolutePath('dist/server/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } }, // not a fact: the debug port of the server process
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(),
    outputChannel,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    // No `synchronize`: the server registers its own file watchers and configuration listener
    // (dynamic registration) and pulls `anfLint` settings with workspace/configuration.
    // retriggerSuggestCommand: choosing `nconnect=` from the suggestions lists its values at once.
    initializationOptions: {
      settings: vscode.workspace.getConfiguration(CLIENT_ID),
      retriggerSuggestCommand: 'editor.action.triggerSuggest',
      // The server keeps its first scan's results here across restarts (server/src/lsp/scanCache.ts).
      storagePath: (context.storageUri ?? context.globalStorageUri).fsPath,
    },
    diagnosticPullOptions: { onChange: true, onSave: true },
    markdown: { isTrusted: false, supportHtml: false },
  };
  return new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
}
