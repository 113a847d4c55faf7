import type { ResolvedConfig } from '../config';
import type { Diagnostic } from '../diagnostics';
import type { MountEntry } from '../mounts/model';
import type { Span } from '../text/sourceText';
import { formatMiBps, formatNumber, formatSize, formatSizeIn, formatUsd, GiB, TiB } from '../units/units';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';
import type { DiagnosticCounts, HierarchyFigure, HierarchyManifest, HierarchyMount, HierarchyParams, HierarchyPool, HierarchyResult, HierarchyVolume } from './hierarchy';
import { figuresOf } from './manifestIndex';
import { unknownQuotasNote } from '../manifest/figures';

const ZERO: DiagnosticCounts = { error: 0, warning: 0, info: 0, hint: 0 };

function count(diagnostics: readonly Diagnostic[], span?: Span): DiagnosticCounts {
  const counts = { ...ZERO };
  for (const d of diagnostics) {
    if (d.suppressed) continue;
    if (span && (d.span.start < span.start || d.span.start > span.end)) continue;
    counts[d.severity]++;
  }
  return counts;
}

function add(a: DiagnosticCounts, b: DiagnosticCounts): DiagnosticCounts {
  return { error: a.error + b.error, warning: a.warning + b.warning, info: a.info + b.info, hint: a.hint + b.hint };
}

function location(file: ParsedFile, span: Span) {
  return { uri: file.uri, range: file.source.rangeOf(span) };
}

/**
 * The `anf/hierarchy` answer: accounts -> pools -> volumes -> the mounts that reach them, with the
 * same figures as the hover and code lens, diagnostic counts (of the node's own text, a pool's
 * including its volumes) and source locations. `diagnosticsOf` gives a file's diagnostics; `config`
 * may depend on the manifest (each workspace folder has its own).
 */
export function buildHierarchy(workspace: WorkspaceView, config: ResolvedConfig | ((uri: string) => ResolvedConfig), diagnosticsOf: (uri: string) => readonly Diagnostic[], params: HierarchyParams = {}): HierarchyResult {
  // By URI, not by the order files reached the workspace: that changes when the index finishes,
  // and the tree would reorder under the user.
  const files = [...workspace.files()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const mountNode = (mount: MountEntry): HierarchyMount => {
    const file = workspace.file(mount.uri)!;
    return {
      kind: 'mount',
      label: `${mount.source ?? '?'} -> ${mount.mountPoint ?? '?'}`,
      location: location(file, mount.span),
      ...(mount.server ? { server: mount.server } : {}),
      ...(mount.exportPath ? { exportPath: mount.exportPath } : {}),
      ...(mount.mountPoint ? { mountPoint: mount.mountPoint } : {}),
      origin: mount.origin,
      options: mount.options.map((o) => file.source.text.slice(o.span.start, o.span.end)).join(','),
      diagnostics: count(diagnosticsOf(mount.uri), mount.span),
    };
  };

  const manifests: HierarchyManifest[] = [];
  for (const file of files) {
    if (!file.manifest || (params.uri !== undefined && file.uri !== params.uri)) continue;
    const diagnostics = diagnosticsOf(file.uri);
    const figures = figuresOf(file.manifest, typeof config === 'function' ? config(file.uri) : config);
    const summaries = workspace.volumes().filter((v) => v.uri === file.uri);
    const accounts = file.manifest.accounts.map((account) => {
      const pools: HierarchyPool[] = account.pools.map((pool) => {
        const pf = figures.pool(pool);
        const volumes: HierarchyVolume[] = pool.volumes.map((volume) => {
          const vf = figures.volume(volume);
          // By name too: the volumes of a Terraform module instance may share a name's span (the `module` block's argument).
          const summary = summaries.find((s) => volume.name && s.nameSpan.start === volume.name.span.start && s.name === volume.name.value);
          const mounts = summary ? workspace.mountsOfVolume(summary).map(mountNode) : [];
          const volumeFigures: HierarchyFigure[] = [];
          if (vf?.throughput) volumeFigures.push({ key: 'throughput', label: 'Throughput', value: formatMiBps(vf.throughput.mibps) });
          if (vf?.quotaGiB !== undefined) volumeFigures.push({ key: 'quota', label: 'Quota', value: formatSizeIn(vf.quotaGiB * GiB, 'TiB') });
          if (vf?.iopsAtBlockSize !== undefined) volumeFigures.push({ key: 'iops', label: `IOPS @ ${formatSize(vf.blockSizeBytes)}`, value: formatNumber(vf.iopsAtBlockSize, 0) });
          if (vf?.monthlyCostUsd !== undefined) volumeFigures.push({ key: 'monthlyCost', label: 'Monthly cost', value: formatUsd(vf.monthlyCostUsd) });
          if (vf?.requiredThroughputMiBps !== undefined) volumeFigures.push({ key: 'required', label: 'Required', value: `${formatMiBps(vf.requiredThroughputMiBps)}${vf.meetsThroughput === false ? ' (not met)' : ''}` });
          if (vf?.quotaNeededGiB !== undefined) volumeFigures.push({ key: 'quotaNeeded', label: 'Quota needed', value: `${formatNumber(vf.quotaNeededGiB, 0)} GiB` });
          return {
            kind: 'volume' as const,
            name: volume.name?.value ?? '(unnamed)',
            location: location(file, volume.name?.span ?? volume.headSpan),
            serviceLevel: pool.serviceLevel?.value ?? 'Standard',
            qos: pf?.qos ?? 'auto',
            quotaGiB: vf?.quotaGiB ?? 0,
            throughputMiBps: vf?.throughput?.mibps ?? 0,
            ...(vf?.requiredThroughputMiBps !== undefined ? { requiredThroughputMiBps: vf.requiredThroughputMiBps } : {}),
            ...(vf?.monthlyCostUsd !== undefined ? { monthlyCostUsd: vf.monthlyCostUsd } : {}),
            ...(volume.workload ? { workload: volume.workload.value } : {}),
            figures: volumeFigures,
            diagnostics: count(diagnostics, volume.span),
            mounts,
          };
        });
        const poolFigures: HierarchyFigure[] = [];
        if (pf?.budgetMiBps !== undefined) poolFigures.push({ key: 'budget', label: 'Budget', value: formatMiBps(pf.budgetMiBps) });
        if (pf) poolFigures.push({ key: 'used', label: 'Used', value: `${formatMiBps(pf.usedMiBps)}${pf.budgetUsedPercent !== undefined ? ` (${formatNumber(pf.budgetUsedPercent, 0)}%)` : ''}` });
        if (pf?.sizeTiB !== undefined) poolFigures.push({ key: 'allocated', label: 'Allocated', value: `${formatSizeIn(pf.allocatedGiB * GiB, 'TiB')} of ${formatSizeIn(pf.sizeTiB * TiB, 'TiB')}${unknownQuotasNote(pf)}` });
        if (pf?.monthlyCost) poolFigures.push({ key: 'monthlyCost', label: 'Monthly cost', value: formatUsd(pf.monthlyCost.totalUsd) });
        return {
          kind: 'pool' as const,
          name: pool.name?.value ?? '(unnamed)',
          location: location(file, pool.name?.span ?? pool.headSpan),
          serviceLevel: pool.serviceLevel?.value ?? 'Standard',
          ...(pf?.sizeTiB !== undefined ? { sizeTiB: pf.sizeTiB } : {}),
          ...(pf?.budgetMiBps !== undefined ? { throughputBudgetMiBps: pf.budgetMiBps } : {}),
          allocatedThroughputMiBps: pf?.usedMiBps ?? 0,
          ...(pf?.monthlyCost ? { monthlyCostUsd: pf.monthlyCost.totalUsd } : {}),
          figures: poolFigures,
          diagnostics: count(diagnostics, pool.span),
          volumes,
        };
      });
      const cost = pools.reduce((sum, p) => sum + (p.monthlyCostUsd ?? 0), 0);
      return {
        kind: 'account' as const,
        name: account.name?.value ?? '(unnamed)',
        location: location(file, account.name?.span ?? account.headSpan),
        figures: [
          { key: 'pools', label: 'Pools', value: String(pools.length) },
          { key: 'monthlyCost', label: 'Monthly cost', value: formatUsd(cost) },
        ] satisfies HierarchyFigure[],
        diagnostics: count(diagnostics, account.span),
        pools,
      };
    });
    manifests.push({ uri: file.uri, accounts, diagnostics: count(diagnostics) });
  }

  const unlinkedMounts = params.uri !== undefined ? [] : workspace.mounts().filter((m) => m.isNfs && !workspace.volumeForMount(m)).map(mountNode);
  const totals = files.reduce((sum, f) => add(sum, count(diagnosticsOf(f.uri))), ZERO);
  return { manifests, unlinkedMounts, totals };
}
