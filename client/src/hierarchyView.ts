import * as vscode from 'vscode';
import { State, type LanguageClient } from 'vscode-languageclient/node';
import {
  HIERARCHY_METHOD,
  type DiagnosticCounts,
  type HierarchyAccount,
  type HierarchyFigure,
  type HierarchyFigureKey,
  type HierarchyLocation,
  type HierarchyMount,
  type HierarchyParams,
  type HierarchyPool,
  type HierarchyResult,
  type HierarchyVolume,
} from './protocol';
import { HIERARCHY_REFRESH_DEBOUNCE_MS } from './timing';

export const HIERARCHY_VIEW_ID = 'anfLint.hierarchy';
export const REVEAL_COMMAND = 'anfLint.hierarchy.reveal';

/** One row of the tree. The data is exactly what the server's `anf/hierarchy` answered. */
export type HierarchyNode =
  | {
      readonly kind: 'account';
      readonly account: HierarchyAccount;
      readonly manifestUri: string;
      readonly manifestCount: number;
      readonly index: number;
    }
  | { readonly kind: 'pool'; readonly pool: HierarchyPool; readonly parentId: string; readonly index: number }
  | { readonly kind: 'volume'; readonly volume: HierarchyVolume; readonly parentId: string; readonly index: number }
  | { readonly kind: 'mount'; readonly mount: HierarchyMount; readonly parentId: string; readonly index: number }
  | { readonly kind: 'unlinked'; readonly mounts: readonly HierarchyMount[] }
  | { readonly kind: 'message'; readonly text: string; readonly command?: vscode.Command };

const ICONS = {
  account: 'azure',
  pool: 'layers',
  volume: 'database',
  mount: 'plug',
  unlinked: 'debug-disconnect',
} as const;

/**
 * The "ANF Hierarchy" view: accounts -> capacity pools -> volumes -> the mounts that reach each
 * volume, across the workspace's manifests. Fed only by the server's `anf/hierarchy` request; the
 * client never reads the files itself. Refreshes when diagnostics or files change.
 */
export class HierarchyProvider implements vscode.TreeDataProvider<HierarchyNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<HierarchyNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [this.changed];
  private result: HierarchyResult | undefined;
  private error: string | undefined;
  private pending: Promise<void> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private view: vscode.TreeView<HierarchyNode> | undefined;

  constructor(private readonly client: () => LanguageClient | undefined) {}

  attach(view: vscode.TreeView<HierarchyNode>): void {
    this.view = view;
    this.disposables.push(
      vscode.languages.onDidChangeDiagnostics(() => this.scheduleRefresh()),
      vscode.workspace.onDidSaveTextDocument(() => this.scheduleRefresh()),
      view.onDidChangeVisibility((e) => e.visible && this.scheduleRefresh()),
    );
  }

  /** The latest answer (for commands that pick a volume). Asks the server when there is none yet. */
  async current(): Promise<HierarchyResult | undefined> {
    if (!this.result) await this.load();
    return this.result;
  }

  scheduleRefresh(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, HIERARCHY_REFRESH_DEBOUNCE_MS);
  }

  async refresh(): Promise<void> {
    // A request already on its way may predate the change that asked for this refresh.
    if (this.pending) await this.pending;
    await this.load();
    this.changed.fire(undefined);
  }

  private load(): Promise<void> {
    this.pending ??= this.fetch().finally(() => (this.pending = undefined));
    return this.pending;
  }

  private async fetch(): Promise<void> {
    const client = this.client();
    if (!client || client.state !== State.Running) {
      this.result = undefined;
      this.error = client?.state === State.Starting ? undefined : 'The anf-lint server is not running.';
      this.updateBadge();
      return;
    }
    try {
      const params: HierarchyParams = {};
      this.result = await client.sendRequest<HierarchyResult>(HIERARCHY_METHOD, params);
      this.error = undefined;
    } catch (error) {
      this.result = undefined;
      this.error = `The server could not answer the hierarchy request: ${error instanceof Error ? error.message : String(error)}`;
    }
    this.updateBadge();
  }

  private updateBadge(): void {
    if (!this.view) return;
    const totals = this.result?.totals;
    const problems = totals ? totals.error + totals.warning : 0;
    this.view.badge = problems > 0 ? { value: problems, tooltip: countsText(totals!) } : undefined;
    this.view.message = totals && problems > 0 ? `${countsText(totals)} in the workspace` : undefined;
  }

  async getChildren(node?: HierarchyNode): Promise<HierarchyNode[]> {
    if (!node) {
      if (!this.result && !this.error) await this.load();
      if (this.error)
        return [
          { kind: 'message', text: this.error, command: { title: 'Restart server', command: 'anfLint.restartServer' } },
        ];
      const result = this.result;
      if (!result) return [];
      const manifestCount = result.manifests.length;
      const roots: HierarchyNode[] = result.manifests.flatMap((m) =>
        m.accounts.map((account, index) => ({
          kind: 'account' as const,
          account,
          manifestUri: m.uri,
          manifestCount,
          index,
        })),
      );
      if (result.unlinkedMounts.length > 0 && roots.length > 0)
        roots.push({ kind: 'unlinked', mounts: result.unlinkedMounts });
      return roots;
    }
    switch (node.kind) {
      case 'account':
        return node.account.pools.map((pool, index) => ({ kind: 'pool', pool, parentId: idOf(node), index }));
      case 'pool':
        return node.pool.volumes.map((volume, index) => ({ kind: 'volume', volume, parentId: idOf(node), index }));
      case 'volume':
        return node.volume.mounts.map((mount, index) => ({ kind: 'mount', mount, parentId: idOf(node), index }));
      case 'unlinked':
        return node.mounts.map((mount, index) => ({ kind: 'mount', mount, parentId: idOf(node), index }));
      default:
        return [];
    }
  }

  getTreeItem(node: HierarchyNode): vscode.TreeItem {
    if (node.kind === 'message') {
      const item = new vscode.TreeItem(node.text, vscode.TreeItemCollapsibleState.None);
      item.iconPath = new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'));
      if (node.command) item.command = node.command;
      return item;
    }
    if (node.kind === 'unlinked') {
      const item = new vscode.TreeItem('Mounts without a manifest volume', vscode.TreeItemCollapsibleState.Collapsed);
      item.id = idOf(node);
      item.description = `${node.mounts.length}`;
      item.tooltip =
        'NFS mounts in the workspace that reach no volume of any manifest (by server and export path, or by mount path).';
      item.iconPath = new vscode.ThemeIcon(ICONS.unlinked);
      item.contextValue = 'unlinked';
      return item;
    }
    const { label, figures, counts, location, collapsible, headline } = describe(node);
    const item = new vscode.TreeItem(label, collapsible);
    item.id = idOf(node);
    // Counts first: a narrow sidebar cuts the end of the description.
    item.description = [countsBadge(counts), ...headline].filter(Boolean).join(' · ');
    item.tooltip = tooltip(node, label, figures, counts, location);
    item.iconPath = new vscode.ThemeIcon(ICONS[node.kind], severityColor(counts));
    item.contextValue = node.kind;
    item.command = { title: 'Go to definition', command: REVEAL_COMMAND, arguments: [location] };
    item.accessibilityInformation = { label: `${node.kind} ${label}, ${item.description}` };
    return item;
  }

  getParent(): undefined {
    return undefined;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}

/** A row of a tooltip's table: a figure from the server, or a fact the client shows as is. */
interface Row {
  readonly label: string;
  readonly value: string;
}

interface Described {
  readonly label: string;
  /** Every figure, for the tooltip. */
  readonly figures: readonly Row[];
  /** The key figures, for the description, the most telling first (a narrow sidebar cuts the end). */
  readonly headline: readonly string[];
  readonly counts: DiagnosticCounts;
  readonly location: HierarchyLocation;
  readonly collapsible: vscode.TreeItemCollapsibleState;
}

/** A figure by its stable key (never by its display label). */
function figure(figures: readonly HierarchyFigure[], key: HierarchyFigureKey): string | undefined {
  return figures.find((f) => f.key === key)?.value;
}

function present(values: readonly (string | undefined)[]): string[] {
  return values.filter((v): v is string => Boolean(v));
}

function describe(node: Exclude<HierarchyNode, { kind: 'message' | 'unlinked' }>): Described {
  const { Expanded, Collapsed, None } = vscode.TreeItemCollapsibleState;
  switch (node.kind) {
    case 'account': {
      const a = node.account;
      const file = node.manifestCount > 1 ? [baseName(node.manifestUri)] : [];
      const cost = figure(a.figures, 'monthlyCost');
      // What the account costs, then how many pools.
      const headline = [
        ...(cost ? [`${cost}/month`] : []),
        `${a.pools.length} ${a.pools.length === 1 ? 'pool' : 'pools'}`,
        ...file,
      ];
      return {
        label: a.name,
        figures: a.figures,
        headline,
        counts: a.diagnostics,
        location: a.location,
        collapsible: a.pools.length > 0 ? Expanded : None,
      };
    }
    case 'pool': {
      const p = node.pool;
      // Throughput used of the budget (what runs out first), then the capacity allocated, then the level.
      const used = figure(p.figures, 'used');
      const budget = figure(p.figures, 'budget');
      const headline = present([
        used && budget ? `${used} of ${budget}` : used,
        figure(p.figures, 'allocated'),
        p.serviceLevel,
      ]);
      return {
        label: p.name,
        figures: p.figures,
        headline,
        counts: p.diagnostics,
        location: p.location,
        collapsible: p.volumes.length > 0 ? Expanded : None,
      };
    }
    case 'volume': {
      const v = node.volume;
      // The throughput (with what the requirement asks when it is not met), then the quota, then the level.
      const throughput = figure(v.figures, 'throughput');
      const required = figure(v.figures, 'required');
      const short = required?.endsWith('(not met)')
        ? `${throughput ?? '?'} (needs ${required.replace(/\s*\(not met\)$/, '')})`
        : throughput;
      const headline = present([short, figure(v.figures, 'quota'), v.serviceLevel]);
      return {
        label: v.name,
        figures: v.figures,
        headline,
        counts: v.diagnostics,
        location: v.location,
        collapsible: v.mounts.length > 0 ? Collapsed : None,
      };
    }
    case 'mount': {
      const m = node.mount;
      const figures: Row[] = [
        ...(m.server ? [{ label: 'Server', value: m.server }] : []),
        ...(m.exportPath ? [{ label: 'Export path', value: m.exportPath }] : []),
        ...(m.mountPoint ? [{ label: 'Mount point', value: m.mountPoint }] : []),
        { label: 'Written as', value: m.origin },
        { label: 'Options', value: m.options || '(none)' },
      ];
      return {
        label: m.label,
        figures,
        headline: [m.options, m.origin],
        counts: m.diagnostics,
        location: m.location,
        collapsible: None,
      };
    }
  }
}

function tooltip(
  node: HierarchyNode,
  label: string,
  figures: readonly Row[],
  counts: DiagnosticCounts,
  location: HierarchyLocation,
): vscode.MarkdownString {
  const md = new vscode.MarkdownString(undefined, true);
  const title = {
    account: 'NetApp account',
    pool: 'Capacity pool',
    volume: 'Volume',
    mount: 'NFS mount',
    unlinked: '',
    message: '',
  }[node.kind];
  md.appendMarkdown(`**${escapeMd(title)} ${escapeMd(label)}**\n\n`);
  const extra: Row[] = [];
  if (node.kind === 'volume') {
    const v = node.volume;
    extra.push({ label: 'Service level', value: v.serviceLevel ?? 'unknown' }, { label: 'QoS', value: v.qos });
    if (v.workload) extra.push({ label: 'Workload', value: v.workload });
    if (v.instance !== undefined && v.instance !== v.name) extra.push({ label: 'Address', value: v.instance });
  } else if (node.kind === 'pool') {
    extra.push({ label: 'Service level', value: node.pool.serviceLevel ?? 'unknown' });
  } else if (node.kind === 'mount' && node.mount.host !== undefined) {
    extra.push({ label: 'Host', value: node.mount.host });
  }
  // What anf-lint could not evaluate, and why: instead of a 0 or an empty name.
  const unknown =
    node.kind === 'volume'
      ? node.volume.unknown
      : node.kind === 'pool'
        ? node.pool.unknown
        : node.kind === 'account'
          ? node.account.unknown
          : undefined;
  for (const reason of unknown ?? []) {
    const colon = reason.indexOf(': ');
    extra.push(
      colon > 0
        ? { label: `Unknown ${reason.slice(0, colon)}`, value: reason.slice(colon + 2) }
        : { label: 'Unknown', value: reason },
    );
  }
  const rows = [...extra, ...figures];
  if (rows.length > 0) {
    md.appendMarkdown('| | |\n|---|---|\n');
    for (const f of rows) md.appendMarkdown(`| ${escapeMd(f.label)} | ${escapeMd(f.value)} |\n`);
    md.appendMarkdown('\n');
  }
  md.appendMarkdown(`${countsText(counts)}\n\n`);
  md.appendMarkdown(`$(go-to-file) ${escapeMd(baseName(location.uri))}:${location.range.start.line + 1}`);
  return md;
}

/** Stable across refreshes (expansion state survives), unique even when a manifest repeats a name. */
function idOf(node: HierarchyNode): string {
  switch (node.kind) {
    case 'account':
      return `${node.manifestUri}#account[${node.index}]=${node.account.name}`;
    case 'pool':
      return `${node.parentId}/pool[${node.index}]=${node.pool.name}`;
    case 'volume':
      return `${node.parentId}/volume[${node.index}]=${node.volume.name}`;
    case 'mount':
      return `${node.parentId}/mount[${node.index}]=${node.mount.location.uri}:${node.mount.location.range.start.line}:${node.mount.location.range.start.character}`;
    case 'unlinked':
      return 'unlinked-mounts';
    case 'message':
      return `message=${node.text}`;
  }
}

function countsBadge(c: DiagnosticCounts): string {
  const parts: string[] = [];
  if (c.error > 0) parts.push(`✖ ${c.error}`);
  if (c.warning > 0) parts.push(`⚠ ${c.warning}`);
  return parts.join(' ');
}

export function countsText(c: DiagnosticCounts): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const parts = [plural(c.error, 'error'), plural(c.warning, 'warning')];
  if (c.info > 0) parts.push(plural(c.info, 'info'));
  if (c.hint > 0) parts.push(plural(c.hint, 'hint'));
  return parts.join(', ');
}

function severityColor(c: DiagnosticCounts): vscode.ThemeColor | undefined {
  if (c.error > 0) return new vscode.ThemeColor('problemsErrorIcon.foreground');
  if (c.warning > 0) return new vscode.ThemeColor('problemsWarningIcon.foreground');
  return undefined;
}

function baseName(uri: string): string {
  return decodeURIComponent(uri.slice(uri.lastIndexOf('/') + 1));
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** Opens the document at a location and selects it. */
export async function revealLocation(location: HierarchyLocation | undefined): Promise<void> {
  if (!location) return;
  const { start, end } = location.range;
  const selection = new vscode.Range(start.line, start.character, end.line, end.character);
  await vscode.window.showTextDocument(vscode.Uri.parse(location.uri), { selection, preview: true });
}
