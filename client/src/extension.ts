/**
 * The VS Code extension: starts the bundled anf-lint language server and shows what it returns.
 * Thin by design (docs/architecture.md): diagnostics, hovers, quick fixes and completion come from
 * the server through the protocol; the tree view and the commands ask the server's custom requests
 * and never parse a file themselves.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { insertMountCommand } from './commands/insertMount';
import { recommendSizing } from './commands/recommendSizing';
import { RULE_DOC_SCHEME, RuleDocumentProvider, showRuleDocumentation } from './commands/ruleDocumentation';
import { CLIENT_NAME, createLanguageClient } from './languageClient';
import {
  HIERARCHY_VIEW_ID,
  HierarchyProvider,
  REVEAL_COMMAND,
  revealLocation,
  type HierarchyNode,
} from './hierarchyView';
import { ServerStatus } from './status';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel(CLIENT_NAME, { log: true });
  const status = new ServerStatus();
  const hierarchy = new HierarchyProvider(() => client);
  const view = vscode.window.createTreeView(HIERARCHY_VIEW_ID, { treeDataProvider: hierarchy, showCollapseAll: true });
  hierarchy.attach(view);
  context.subscriptions.push(output, status, hierarchy, view);

  client = createLanguageClient(context, output);
  context.subscriptions.push(
    status.track(client),
    client.onDidChangeState(() => hierarchy.scheduleRefresh()),
    vscode.commands.registerCommand('anfLint.restartServer', async () => {
      if (!client) return;
      status.starting();
      await client.restart();
    }),
    vscode.commands.registerCommand('anfLint.showOutput', () => output.show(true)),
    vscode.workspace.registerTextDocumentContentProvider(
      RULE_DOC_SCHEME,
      new RuleDocumentProvider(context.extensionUri),
    ),
    vscode.commands.registerCommand('anfLint.showRuleDocumentation', (code?: unknown) =>
      showRuleDocumentation(context.extensionUri, code),
    ),
    vscode.commands.registerCommand('anfLint.recommendSizing', () => recommendSizing(client, hierarchy)),
    vscode.commands.registerCommand('anfLint.insertMountCommand', () => insertMountCommand(client, hierarchy)),
    vscode.commands.registerCommand('anfLint.hierarchy.insertMount', (node?: HierarchyNode) =>
      insertMountCommand(client, hierarchy, node?.kind === 'volume' ? node.volume : undefined),
    ),
    vscode.commands.registerCommand('anfLint.hierarchy.refresh', () => hierarchy.refresh()),
    vscode.commands.registerCommand(REVEAL_COMMAND, (location?: Parameters<typeof revealLocation>[0] | HierarchyNode) =>
      revealLocation(locationOf(location)),
    ),
  );

  try {
    await client.start();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    status.stopped(`the server did not start: ${message}`);
    output.error(`anf-lint: the language server did not start: ${message}`);
  }
}

export async function deactivate(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) await running.stop();
}

/** The reveal command gets a location from a row's click, or the node from its context menu. */
function locationOf(arg: Parameters<typeof revealLocation>[0] | HierarchyNode): Parameters<typeof revealLocation>[0] {
  if (!arg || !('kind' in arg)) return arg;
  switch (arg.kind) {
    case 'account':
      return arg.account.location;
    case 'pool':
      return arg.pool.location;
    case 'volume':
      return arg.volume.location;
    case 'mount':
      return arg.mount.location;
    default:
      return undefined;
  }
}
