import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { HierarchyProvider } from '../hierarchyView';
import { STATUS_MESSAGE_MS } from '../timing';
import {
  ADVISE_SIZING_METHOD,
  WORKLOADS_METHOD,
  type AdviseSizingParams,
  type AdviseSizingResult,
  type AdvisedOption,
  type WorkloadChoice,
} from '../protocol';

const MANIFEST_LANGUAGES = new Set(['anf-manifest', 'anf-manifest-json']);

interface OptionPick extends vscode.QuickPickItem {
  readonly option: AdvisedOption;
}

async function ask(title: string, prompt: string, placeHolder: string, optional = false): Promise<string | undefined> {
  const value = await vscode.window.showInputBox({
    title,
    prompt,
    placeHolder,
    ignoreFocusOut: true,
    validateInput: (text) => (optional || text.trim() !== '' ? undefined : 'Needed: write a value with its unit.'),
  });
  return value === undefined ? undefined : value.trim();
}

/**
 * "ANF: Recommend sizing...": asks capacity, throughput (or IOPS and block size) and workload, lets
 * the server's sizing advisor price every service level, and inserts the chosen capacity pool and
 * volume into the active manifest.
 */
export async function recommendSizing(client: LanguageClient | undefined, hierarchy: HierarchyProvider): Promise<void> {
  if (!client?.isRunning()) {
    void vscode.window.showWarningMessage('The anf-lint server is not running.');
    return;
  }
  const title = 'Recommend sizing';
  const capacity = await ask(title, 'Capacity the volume must hold', 'e.g. 10 TiB or 800 GiB');
  if (capacity === undefined) return;
  const by = await vscode.window.showQuickPick(
    [
      { label: 'Throughput', description: 'e.g. 1600 MiB/s', by: 'throughput' as const },
      { label: 'IOPS and block size', description: 'e.g. 100k at 8 KiB', by: 'iops' as const },
    ],
    { title, placeHolder: 'Size the performance by' },
  );
  if (!by) return;
  const params: { -readonly [K in keyof AdviseSizingParams]: AdviseSizingParams[K] } = { capacity };
  if (by.by === 'throughput') {
    const throughput = await ask(
      title,
      'Throughput the workload needs from the volume',
      'e.g. 1600 MiB/s or 1.2 GiB/s',
    );
    if (throughput === undefined) return;
    params.throughput = throughput;
  } else {
    const iops = await ask(title, 'IOPS the workload needs', 'e.g. 100000 or 100k');
    if (iops === undefined) return;
    const blockSize = await ask(title, 'Typical I/O (block) size', 'e.g. 8 KiB for databases, 256 KiB for streaming');
    if (blockSize === undefined) return;
    params.iops = iops;
    params.blockSize = blockSize;
  }
  // The server sends the workloads and their titles (its facts table), so the list never falls behind.
  const choices = await client.sendRequest<readonly WorkloadChoice[] | null>(WORKLOADS_METHOD).catch(() => null);
  const workload = await vscode.window.showQuickPick(
    (choices ?? []).map(({ kind, title: label }) => ({ label, description: kind, workload: kind })),
    { title, placeHolder: 'Workload', matchOnDescription: true },
  );
  if (!workload) return;
  params.workload = workload.workload;

  const editor = vscode.window.activeTextEditor;
  const target = editor && MANIFEST_LANGUAGES.has(editor.document.languageId) ? editor : undefined;
  if (target) {
    params.uri = target.document.uri.toString();
    params.position = { line: target.selection.active.line, character: target.selection.active.character };
  }

  const answer = await client.sendRequest<AdviseSizingResult | readonly AdvisedOption[] | null>(
    ADVISE_SIZING_METHOD,
    params,
  );
  const options = Array.isArray(answer)
    ? (answer as readonly AdvisedOption[])
    : ((answer as AdviseSizingResult | null)?.options ?? []);
  if (options.length === 0) {
    const why = !Array.isArray(answer) ? (answer as AdviseSizingResult | null)?.error : undefined;
    void vscode.window.showWarningMessage(`anf-lint found no sizing option${why ? `: ${why}` : '.'}`);
    return;
  }
  const picks: OptionPick[] = options.map((option) => ({
    label: `${option.feasible ? '$(check)' : '$(close)'} ${option.serviceLevel}${option.largeVolume ? ' large volume' : ''}`,
    description: `${usd(option.monthlyCostUsd)} per month`,
    detail: option.feasible
      ? `pool ${option.poolSizeTiB} TiB, quota ${option.quotaGiB.toLocaleString('en-US')} GiB, ${option.qos} QoS: ${option.throughputMiBps.toLocaleString('en-US', { maximumFractionDigits: 0 })} MiB/s${option.headroomPercent !== undefined ? ` (${option.headroomPercent.toLocaleString('en-US', { maximumFractionDigits: 0 })}% headroom)` : ''}`
      : `not possible: ${option.reason ?? 'the requirement is out of reach'}`,
    option,
  }));
  const chosen = await vscode.window.showQuickPick(picks, {
    title: `${title}: options by cost`,
    placeHolder: target
      ? `Insert the pool and volume into ${baseName(target.document.uri)}`
      : 'Open a new manifest with the pool and volume',
    matchOnDetail: true,
  });
  if (!chosen) return;
  if (!chosen.option.feasible) {
    const go = await vscode.window.showWarningMessage(
      `${chosen.option.serviceLevel} cannot meet the requirement: ${chosen.option.reason ?? ''}. Insert it anyway?`,
      'Insert',
      'Cancel',
    );
    if (go !== 'Insert') return;
  }
  await insertOption(chosen.option, target, params);
  hierarchy.scheduleRefresh();
}

/**
 * Writes the chosen option: into the manifest through the edit the server computed for its
 * structure (the `pools:` list of the account at the cursor, checked to parse afterwards), or into
 * a new manifest when no manifest is active.
 */
async function insertOption(
  option: AdvisedOption,
  target: vscode.TextEditor | undefined,
  params: AdviseSizingParams,
): Promise<void> {
  if (target) {
    if (!option.edit) {
      void vscode.window.showWarningMessage(
        `anf-lint cannot add the pool to ${baseName(target.document.uri)}: ${option.editError ?? 'no edit for this file'}.`,
      );
      return;
    }
    const { start, end } = option.edit.range;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(
      target.document.uri,
      new vscode.Range(start.line, start.character, end.line, end.character),
      option.edit.newText,
    );
    if (await vscode.workspace.applyEdit(edit))
      void vscode.window.setStatusBarMessage(
        `anf-lint: added the ${option.serviceLevel} pool to ${option.edit.where}`,
        STATUS_MESSAGE_MS,
      );
    return;
  }
  // A new, unsaved manifest named like one (so the server lints it) in the first workspace folder.
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const name = `sizing-${params.workload ?? 'volume'}.anf.yaml`;
  const uri = folder
    ? vscode.Uri.joinPath(folder, name).with({ scheme: 'untitled' })
    : vscode.Uri.from({ scheme: 'untitled', path: name });
  const document = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(document);
  await editor.edit((builder) => builder.insert(new vscode.Position(0, 0), option.newManifest ?? ''));
  if (document.languageId !== 'anf-manifest') await vscode.languages.setTextDocumentLanguage(document, 'anf-manifest');
}

function usd(value: number): string {
  return value.toLocaleString('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });
}

function baseName(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}
