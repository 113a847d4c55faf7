import type { ResolvedConfig } from '../config';
import type { Diagnostic } from '../diagnostics';
import type { MountEntry } from '../mounts/model';
import type { Span } from '../text/sourceText';
import { formatMiBps, formatNumber, formatSize, formatSizeIn, formatUsd, GiB, TiB } from '../units/units';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';
import type {
  DiagnosticCounts,
  HierarchyFigure,
  HierarchyManifest,
  HierarchyMount,
  HierarchyParams,
  HierarchyPool,
  HierarchyResult,
  HierarchyVolume,
} from './hierarchy';
import { computeManifestFigures, unknownQuotasNote } from '../manifest/figures';
import type { ManifestAccount, ManifestPool, ManifestVolume } from '../manifest/model';
import { hasPlaceholderAddress } from '../mounts/placeholders';
import { iacResourceOf, type IacPool } from '../iac/estate';
import {
  fileInventory,
  listsEstate,
  type InventoryAccount,
  type InventoryPool,
  type InventoryVolume,
} from '../estate/inventory';

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
export function buildHierarchy(
  workspace: WorkspaceView,
  config: ResolvedConfig | ((uri: string) => ResolvedConfig),
  diagnosticsOf: (uri: string) => readonly Diagnostic[],
  params: HierarchyParams = {},
): HierarchyResult {
  // By URI, not by the order files reached the workspace: that changes when the index finishes,
  // and the tree would reorder under the user.
  const files = [...workspace.files()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const hosts = workspace.hosts();
  const mountNode = (mount: MountEntry): HierarchyMount => {
    const file = workspace.file(mount.uri)!;
    const host = hosts.hostOf(mount.uri)?.name;
    return {
      kind: 'mount',
      label: `${host ?? '?'} / ${mount.mountPointDecoded ?? mount.mountPoint ?? '?'}`,
      ...(host !== undefined ? { host } : {}),
      location: location(file, mount.span),
      ...(mount.server ? { server: mount.server } : {}),
      ...(mount.exportPath ? { exportPath: mount.exportPath } : {}),
      ...(mount.mountPoint ? { mountPoint: mount.mountPoint } : {}),
      origin: mount.origin,
      options: mount.options.map((o) => file.source.text.slice(o.span.start, o.span.end)).join(','),
      diagnostics: count(diagnosticsOf(mount.uri), mount.span),
    };
  };
  // A snippet or a placeholder address (`<mount-target-ip>`, `${server}`, `{{ ip }}`) is no host's mount.
  const realMounts = (mounts: readonly MountEntry[]) => mounts.filter((m) => !hasPlaceholderAddress(m));

  const manifests: HierarchyManifest[] = [];
  const summaries = workspace.volumes();
  for (const file of files) {
    // The estate inventory's files: a module its callers read is listed as their instances, not again.
    if (!listsEstate(file) || (params.uri !== undefined && file.uri !== params.uri)) continue;
    const diagnostics = diagnosticsOf(file.uri);
    const fileConfig = typeof config === 'function' ? config(file.uri) : config;
    const inventory = fileInventory(
      file,
      fileConfig,
      summaries.filter((s) => s.uri === file.uri),
    );
    // The same (cached) figures the inventory read: a pool it does not list (written in another file of its module) keeps its own.
    const figures = computeManifestFigures(file.manifest!, fileConfig);
    const listedAccounts = new Map<ManifestAccount, InventoryAccount>(inventory.accounts.map((a) => [a.model, a]));
    const listedPools = new Map<ManifestPool, InventoryPool>(inventory.pools.map((p) => [p.model, p]));
    const listedVolumes = new Map<ManifestVolume, InventoryVolume>(inventory.volumes.map((v) => [v.model.volume, v]));
    const accounts = file.manifest!.accounts.map((account) => {
      const pools: HierarchyPool[] = account.pools.map((pool) => {
        const listedPool = listedPools.get(pool);
        const pf = listedPool?.figures ?? figures.pool(pool);
        const volumes: HierarchyVolume[] = pool.volumes.map((volume) => {
          const listed = listedVolumes.get(volume)!;
          const vf = listed.figures;
          const mounts = listed.summary ? realMounts(workspace.mountsOfVolume(listed.summary)).map(mountNode) : [];
          const volumeFigures: HierarchyFigure[] = [];
          if (vf?.throughput)
            volumeFigures.push({ key: 'throughput', label: 'Throughput', value: formatMiBps(vf.throughput.mibps) });
          if (vf?.quotaGiB !== undefined)
            volumeFigures.push({ key: 'quota', label: 'Quota', value: formatSizeIn(vf.quotaGiB * GiB, 'TiB') });
          if (vf?.iopsAtBlockSize !== undefined)
            volumeFigures.push({
              key: 'iops',
              label: `IOPS @ ${formatSize(vf.blockSizeBytes)}`,
              value: formatNumber(vf.iopsAtBlockSize, 0),
            });
          if (vf?.monthlyCostUsd !== undefined)
            volumeFigures.push({ key: 'monthlyCost', label: 'Monthly cost', value: formatUsd(vf.monthlyCostUsd) });
          if (vf?.requiredThroughputMiBps !== undefined)
            volumeFigures.push({
              key: 'required',
              label: 'Required',
              value: `${formatMiBps(vf.requiredThroughputMiBps)}${vf.meetsThroughput === false ? ' (not met)' : ''}`,
            });
          if (vf?.quotaNeededGiB !== undefined)
            volumeFigures.push({
              key: 'quotaNeeded',
              label: 'Quota needed',
              value: `${formatNumber(vf.quotaNeededGiB, 0)} GiB`,
            });
          return {
            kind: 'volume' as const,
            name: listed.name,
            location: location(file, listed.span),
            ...(listed.serviceLevel !== null ? { serviceLevel: listed.serviceLevel } : {}),
            qos: listed.qos,
            ...(listed.quotaGiB !== null ? { quotaGiB: listed.quotaGiB } : {}),
            ...(listed.throughputMiBps !== null ? { throughputMiBps: listed.throughputMiBps } : {}),
            ...(vf?.requiredThroughputMiBps !== undefined
              ? { requiredThroughputMiBps: vf.requiredThroughputMiBps }
              : {}),
            ...(listed.monthlyUsd !== null ? { monthlyCostUsd: listed.monthlyUsd } : {}),
            ...(volume.workload ? { workload: volume.workload.value } : {}),
            ...(listed.unknown.length > 0 ? { unknown: listed.unknown } : {}),
            ...(listed.instance !== undefined ? { instance: listed.instance } : {}),
            figures: volumeFigures,
            diagnostics: count(diagnostics, volume.span),
            mounts,
          };
        });
        const poolFigures: HierarchyFigure[] = [];
        if (pf?.budgetMiBps !== undefined)
          poolFigures.push({ key: 'budget', label: 'Budget', value: formatMiBps(pf.budgetMiBps) });
        if (pf)
          poolFigures.push({
            key: 'used',
            label: 'Used',
            value: `${formatMiBps(pf.usedMiBps)}${pf.budgetUsedPercent !== undefined ? ` (${formatNumber(pf.budgetUsedPercent, 0)}%)` : ''}`,
          });
        if (pf?.sizeTiB !== undefined)
          poolFigures.push({
            key: 'allocated',
            label: 'Allocated',
            value: `${formatSizeIn(pf.allocatedGiB * GiB, 'TiB')} of ${formatSizeIn(pf.sizeTiB * TiB, 'TiB')}${unknownQuotasNote(pf)}`,
          });
        if (pf?.monthlyCost)
          poolFigures.push({ key: 'monthlyCost', label: 'Monthly cost', value: formatUsd(pf.monthlyCost.totalUsd) });
        // A pool the files do not declare (volumes name it): named by their reference, its values unknown.
        const name =
          listedPool?.name ?? (pool.volumes[0] ? (listedVolumes.get(pool.volumes[0])?.pool ?? undefined) : undefined);
        const declaredIn = (iacResourceOf(pool) as IacPool | undefined)?.declaredIn;
        const unknown = listedPool
          ? listedPool.unknown
          : declaredIn !== undefined
            ? []
            : [
                `pool: not declared in the files read (${pool.volumes.length === 1 ? 'its volume names it' : 'its volumes name it'})`,
              ];
        return {
          kind: 'pool' as const,
          name: name ?? `pool of ${volumes[0]?.name ?? '?'}`,
          location: location(file, listedPool?.span ?? pool.name?.span ?? pool.headSpan),
          ...(pool.serviceLevel ? { serviceLevel: pool.serviceLevel.value } : {}),
          ...(unknown.length > 0 ? { unknown } : {}),
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
      const unknownCost = pools.filter((p) => p.monthlyCostUsd === undefined).length;
      const listedAccount = listedAccounts.get(account);
      const firstVolume = account.pools[0]?.volumes[0];
      const name =
        listedAccount?.name ?? (firstVolume ? (listedVolumes.get(firstVolume)?.account ?? undefined) : undefined);
      const unknown = listedAccount ? listedAccount.unknown : ['account: not declared in the files read'];
      return {
        kind: 'account' as const,
        name: name ?? 'account not declared',
        ...(unknown.length > 0 ? { unknown } : {}),
        location: location(file, listedAccount?.span ?? account.name?.span ?? account.headSpan),
        figures: [
          { key: 'pools', label: 'Pools', value: String(pools.length) },
          // A sum over pools of unknown cost is a lower bound: it says so rather than showing less as the cost.
          ...(pools.length > unknownCost
            ? [
                {
                  key: 'monthlyCost' as const,
                  label: 'Monthly cost',
                  value: `${unknownCost > 0 ? 'at least ' : ''}${formatUsd(cost)}`,
                },
              ]
            : []),
        ] satisfies HierarchyFigure[],
        diagnostics: count(diagnostics, account.span),
        pools,
      };
    });
    manifests.push({ uri: file.uri, accounts, diagnostics: count(diagnostics) });
  }

  const unlinkedMounts =
    params.uri !== undefined
      ? []
      : realMounts(workspace.mounts().filter((m) => m.isNfs && !workspace.volumeForMount(m))).map(mountNode);
  const totals = files.reduce((sum, f) => add(sum, count(diagnosticsOf(f.uri))), ZERO);
  return { manifests, unlinkedMounts, totals };
}
