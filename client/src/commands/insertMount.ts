import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { HierarchyProvider } from '../hierarchyView';
import {
  RECOMMENDED_MOUNT_METHOD,
  type HierarchyVolume,
  type MountStyle,
  type RecommendedMountParams,
  type RecommendedMountResult,
} from '../protocol';

interface VolumePick extends vscode.QuickPickItem {
  readonly volume: HierarchyVolume;
  readonly account: string;
  readonly pool: string;
}

interface StylePick extends vscode.QuickPickItem {
  readonly style: MountStyle;
}

/** The host format that fits the active document, offered first. */
function preferredStyle(document: vscode.TextDocument | undefined): MountStyle {
  const language = document?.languageId;
  if (language === 'fstab') return 'fstab';
  if (language === 'systemd-mount') return 'systemd';
  return 'command';
}

/**
 * "ANF: Insert mount command for volume...": picks a manifest volume (from the server's hierarchy),
 * asks the server for the recommended mount for its workload, server and export path, and inserts
 * it at the cursor as an fstab line, a mount command or a systemd unit.
 */
export async function insertMountCommand(
  client: LanguageClient | undefined,
  hierarchy: HierarchyProvider,
  preselected?: HierarchyVolume,
): Promise<void> {
  if (!client?.isRunning()) {
    void vscode.window.showWarningMessage('The anf-lint server is not running.');
    return;
  }
  const result = await hierarchy.current();
  // The same estate can be written down more than once (a manifest and its Terraform or Bicep):
  // with several, each volume says which file it is from.
  const several = (result?.manifests.length ?? 0) > 1;
  const picks: VolumePick[] = (result?.manifests ?? []).flatMap((m) =>
    m.accounts.flatMap((a) =>
      a.pools.flatMap((p) =>
        p.volumes.map((v) => ({
          label: v.name,
          description: `${a.name} / ${p.name}${several ? ` · ${vscode.workspace.asRelativePath(vscode.Uri.parse(m.uri))}` : ''}`,
          detail: [
            v.workload ?? 'no workload',
            v.serviceLevel ?? 'service level unknown',
            ...v.figures.slice(0, 2).map((f) => f.value),
          ].join(' · '), // not a fact: two figures fit a quick-pick line
          volume: v,
          account: a.name,
          pool: p.name,
        })),
      ),
    ),
  );
  let chosen = preselected
    ? picks.find((p) => p.volume.location.uri === preselected.location.uri && p.volume.name === preselected.name)
    : undefined;
  if (!chosen) {
    if (picks.length === 0) {
      void vscode.window.showInformationMessage(
        'No volume in any ANF manifest (*.anf.yaml, *.anf.json) of this workspace.',
      );
      return;
    }
    chosen = await vscode.window.showQuickPick(picks, {
      title: 'Insert mount command for volume',
      placeHolder: 'Which volume?',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (!chosen) return;
  }

  const editor = vscode.window.activeTextEditor;
  const first = preferredStyle(editor?.document);
  const styles: StylePick[] = [
    { style: 'command', label: 'mount command', description: 'for a shell script or runbook' },
    { style: 'fstab', label: '/etc/fstab line', description: 'mounted at boot' },
    { style: 'systemd', label: 'systemd mount unit', description: 'a .mount file' },
  ];
  styles.sort((a, b) => Number(b.style === first) - Number(a.style === first));
  const style = await vscode.window.showQuickPick(styles, {
    title: `Mount ${chosen.label}`,
    placeHolder: 'Write it as',
  });
  if (!style) return;

  // The active document's host: a mount of the volume there gives the address and mount point to reuse.
  const target = editor && !editor.document.isUntitled ? { targetUri: editor.document.uri.toString() } : {};
  const params: RecommendedMountParams = {
    uri: chosen.volume.location.uri,
    account: chosen.account,
    pool: chosen.pool,
    volume: chosen.volume.name,
    style: style.style,
    ...target,
  };
  const answer = await client.sendRequest<RecommendedMountResult | { readonly error: string } | null>(
    RECOMMENDED_MOUNT_METHOD,
    params,
  );
  if (!answer || !('text' in answer)) {
    void vscode.window.showWarningMessage(
      `anf-lint has no mount recommendation for ${chosen.label}${answer && 'error' in answer ? `: ${answer.error}` : '.'}`,
    );
    return;
  }
  const text = answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`;
  // Into the active file, unless that is a manifest (a mount line does not belong there).
  const manifestActive =
    editor !== undefined && ['anf-manifest', 'anf-manifest-json'].includes(editor.document.languageId);
  if (editor && !editor.document.isClosed && !manifestActive) {
    await editor.insertSnippet(new vscode.SnippetString().appendText(text), editor.selection.active);
  } else {
    const language = style.style === 'fstab' ? 'fstab' : style.style === 'systemd' ? 'systemd-mount' : 'shellscript';
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language, content: text }));
  }
  if (answer.notes && answer.notes.length > 0)
    void vscode.window.setStatusBarMessage(`anf-lint: ${answer.notes[0]}`, NOTE_VISIBLE_MS);
}

const NOTE_VISIBLE_MS = 8000; // not a fact: how long a status-bar note stays
