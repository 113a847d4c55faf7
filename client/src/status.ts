import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import { documentSelector } from './documentSelector';
import { SCAN_PROGRESS_METHOD, type ScanProgressParams } from './protocol';

/**
 * The language-status item ({} in the status bar next to the language mode): whether the server is
 * starting, running or stopped, with a way to restart it or read its log.
 */
export class ServerStatus implements vscode.Disposable {
  private readonly item: vscode.LanguageStatusItem;

  constructor() {
    this.item = vscode.languages.createLanguageStatusItem('anfLint.server', documentSelector());
    this.item.name = 'anf-lint';
    this.starting();
  }

  starting(): void {
    this.item.text = '$(sync~spin) anf-lint';
    this.item.detail = 'starting the language server';
    this.item.severity = vscode.LanguageStatusSeverity.Information;
    this.item.busy = true;
    this.item.command = { title: 'Show output', command: 'anfLint.showOutput' };
  }

  running(version?: string): void {
    this.item.text = '$(check) anf-lint';
    this.item.detail = version ? `server ${version} running` : 'server running';
    this.item.severity = vscode.LanguageStatusSeverity.Information;
    this.item.busy = false;
    this.item.command = { title: 'Restart', command: 'anfLint.restartServer' };
  }

  stopped(reason?: string): void {
    this.item.text = '$(error) anf-lint';
    this.item.detail = reason ?? 'server stopped';
    this.item.severity = vscode.LanguageStatusSeverity.Error;
    this.item.busy = false;
    this.item.command = { title: 'Restart', command: 'anfLint.restartServer' };
  }

  /** The first scan of the workspace (the server's `anf/scanProgress` notification). */
  scanning(progress: ScanProgressParams, version?: string): void {
    if (progress.done) {
      this.running(version);
      return;
    }
    this.item.text = `$(sync~spin) anf-lint ${progress.checked}/${progress.total}`;
    this.item.detail = `checking the workspace: ${progress.checked} of ${progress.total} files (open files first)`;
    this.item.severity = vscode.LanguageStatusSeverity.Information;
    this.item.busy = true;
    this.item.command = { title: 'Show output', command: 'anfLint.showOutput' };
  }

  /** Follows the client's state changes and the server's first scan. */
  track(client: LanguageClient): vscode.Disposable {
    const version = () => client.initializeResult?.serverInfo?.version;
    const scan = client.onNotification(SCAN_PROGRESS_METHOD, (progress: ScanProgressParams) =>
      this.scanning(progress, version()),
    );
    const state = client.onDidChangeState(({ newState }) => {
      if (newState === State.Starting) this.starting();
      else if (newState === State.Running) this.running(version());
      else this.stopped();
    });
    return vscode.Disposable.from(scan, state);
  }

  dispose(): void {
    this.item.dispose();
  }
}
