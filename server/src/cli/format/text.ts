import {
  omittedFindings,
  SEVERITIES,
  visibleDiagnostics,
  type Diagnostic,
  type Severity,
  SourceText,
} from '../../core';
import { formatMiBps, formatNumber, formatSize, formatUsd } from '../../core/units/units';
import { unknownQuotasNote } from '../../core/manifest/figures';
import type { Colors } from '../color';
import type { InventoryVolume } from '../../core/estate/inventory';
import type { FileInventory, FileResult } from '../lint';

const SEVERITY_WORDS: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'hint' };

function paintSeverity(colors: Colors, severity: Severity): string {
  const word = SEVERITY_WORDS[severity];
  if (severity === 'error') return colors.red(colors.bold(word));
  if (severity === 'warning') return colors.yellow(word);
  if (severity === 'info') return colors.blue(word);
  return colors.dim(word);
}

/** Source lines longer than this are shown as a window around the finding. */
const SHOWN_LINE_WIDTH = 160; // not a fact: terminal-friendly width
/** How much of the line before the finding the window keeps. */
const SHOWN_CONTEXT_BEFORE = 40; // not a fact: terminal-friendly width
const ELLIPSIS = '…';

/** `path:line:col  severity  message  CODE`, then the line with a marker under the finding. */
export function formatDiagnosticLines(
  displayPath: string,
  source: SourceText,
  d: Diagnostic,
  colors: Colors,
): string[] {
  const { start, end } = d.range;
  const location = `${displayPath}:${start.line + 1}:${start.character + 1}`;
  const lines = [
    `${colors.underline(location)}  ${paintSeverity(colors, d.severity)}  ${d.message}  ${colors.dim(d.code)}`,
  ];
  if (start.line < source.lineCount) {
    const line = source.lineText(start.line);
    const lineNumber = String(start.line + 1);
    const gutter = ' '.repeat(lineNumber.length);
    const markerEnd =
      end.line === start.line
        ? Math.max(end.character, start.character + 1)
        : Math.max(line.length, start.character + 1);
    // A long line (a minified file, a generated option list) is cut to a window around the finding,
    // so that the report grows with the number of findings, not with findings x line length.
    const from =
      line.length > SHOWN_LINE_WIDTH
        ? Math.max(0, Math.min(start.character - SHOWN_CONTEXT_BEFORE, line.length - SHOWN_LINE_WIDTH))
        : 0;
    const to = Math.min(line.length, from + SHOWN_LINE_WIDTH);
    const before = from > 0 ? ELLIPSIS : '';
    const text = `${before}${line.slice(from, to)}${to < line.length ? ELLIPSIS : ''}`;
    // Keep tabs so that the marker lines up under the same characters.
    const pad = before.replace(/./g, ' ') + line.slice(from, start.character).replace(/[^\t]/g, ' ');
    const markerWidth = Math.min(markerEnd, Math.max(to, start.character + 1)) - start.character;
    const marker = '^'.repeat(Math.max(1, markerWidth));
    const paint = d.severity === 'error' ? colors.red : d.severity === 'warning' ? colors.yellow : colors.blue;
    lines.push(`  ${colors.dim(`${lineNumber} |`)} ${text}`, `  ${colors.dim(`${gutter} |`)} ${pad}${paint(marker)}`);
  }
  return lines;
}

/**
 * The computed figures of a manifest, per pool and per volume: what each volume delivers, what
 * it costs, and what the clients need to reach it. Without figures, the volume summaries.
 */
export function formatFigures(result: Pick<FileResult, 'volumes' | 'figures' | 'inventory'>, colors: Colors): string[] {
  const { volumes, figures } = result;
  if (result.inventory) return formatInventory(result.inventory, colors);
  if (!figures) return formatVolumeSummaries(volumes, colors);
  if (figures.pools.length === 0 && figures.volumes.length === 0) return [];
  const lines: string[] = [];
  // Indexed once: a lookup per volume made a 30,000-volume manifest's report quadratic.
  const key = (account: string, pool: string) => `${account}\u0000${pool}`;
  const volumesOfPool = new Map<string, (typeof figures.volumes)[number][]>();
  for (const volume of figures.volumes) {
    const list = volumesOfPool.get(key(volume.account, volume.pool));
    if (list) list.push(volume);
    else volumesOfPool.set(key(volume.account, volume.pool), [volume]);
  }
  const summaries = new Map(volumes.map((s) => [`${key(s.account, s.pool)}\u0000${s.name}`, s]));
  for (const pool of figures.pools) {
    const parts: string[] = [];
    if (pool.serviceLevel) parts.push(pool.serviceLevel);
    if (pool.sizeTiB !== undefined) parts.push(`${formatNumber(pool.sizeTiB)} TiB`);
    parts.push(
      `${formatNumber(pool.allocatedGiB)} GiB allocated${pool.allocationPercent !== undefined ? ` (${formatNumber(pool.allocationPercent, 0)}%)` : ''}${unknownQuotasNote(pool)}`,
    );
    if (pool.budgetMiBps !== undefined)
      parts.push(
        `${formatMiBps(pool.usedMiBps)} of ${formatMiBps(pool.budgetMiBps)}${pool.qos === 'manual' ? ' (manual QoS)' : ''}`,
      );
    if (pool.monthlyCost) parts.push(`${formatUsd(pool.monthlyCost.totalUsd)} a month`);
    lines.push(`  ${colors.bold(`pool ${pool.id}`)}  ${parts.join(', ')}`);
    for (const volume of volumesOfPool.get(key(pool.account, pool.pool)) ?? []) {
      const summary = summaries.get(`${key(volume.account, volume.pool)}\u0000${volume.volume}`);
      const parts: string[] = [];
      parts.push(volume.quotaGiB !== undefined ? `${formatNumber(volume.quotaGiB)} GiB` : 'quota unknown');
      if (volume.throughput)
        parts.push(`${formatMiBps(volume.throughput.mibps)}${volume.throughput.capped ? ' (capped)' : ''}`);
      if (volume.iopsAtBlockSize !== undefined)
        parts.push(
          `${formatNumber(volume.iopsAtBlockSize, 0)} IOPS at ${formatSize(volume.blockSizeBytes)}${volume.blockSizeAssumed ? ' (assumed)' : ''}`,
        );
      if (volume.requiredThroughputMiBps !== undefined)
        parts.push(`needs ${formatMiBps(volume.requiredThroughputMiBps)}`);
      if (volume.concurrency !== undefined)
        parts.push(
          `${formatNumber(Math.ceil(volume.concurrency), 0)} I/O in flight${volume.concurrencyPerClient !== undefined ? ` (${formatNumber(Math.ceil(volume.concurrencyPerClient), 0)} per client)` : ''}`,
        );
      if (volume.monthlyCostUsd !== undefined) parts.push(`${formatUsd(volume.monthlyCostUsd)} a month`);
      if (summary?.workload) parts.push(summary.workload);
      if (summary && summary.nfsVersions.length > 0) parts.push(`NFSv${summary.nfsVersions.join('/')}`);
      lines.push(`    ${colors.cyan(volume.volume)}  ${parts.join(', ')}`);
    }
  }
  return lines;
}

/**
 * A file's estate, as `anf-lint estate` and the tree list it (core/estate/inventory.ts): pools with
 * their figures, their volumes under them by name (or address, when the name is unknown), an
 * unknown value said to be unknown, never printed as 0.
 */
function formatInventory(inventory: FileInventory, colors: Colors): string[] {
  if (inventory.calledModule)
    return [colors.dim('  a module: its volumes are listed where it is called, with the values its callers give')];
  const lines: string[] = [];
  const byPool = new Map<object, InventoryVolume[]>();
  for (const volume of inventory.volumes) {
    const list = byPool.get(volume.model.pool);
    if (list) list.push(volume);
    else byPool.set(volume.model.pool, [volume]);
  }
  const listedPools = new Set<object>(inventory.pools.map((p) => p.model));
  const poolLines = (title: string, parts: string[], members: readonly InventoryVolume[]) => {
    lines.push(`  ${colors.bold(title)}  ${parts.join(', ')}`);
    for (const volume of members) {
      const f = volume.figures;
      const parts: string[] = [];
      parts.push(volume.quotaGiB !== null ? `${formatNumber(volume.quotaGiB)} GiB` : 'quota unknown');
      if (f?.throughput) parts.push(`${formatMiBps(f.throughput.mibps)}${f.throughput.capped ? ' (capped)' : ''}`);
      else parts.push('throughput unknown');
      if (f?.iopsAtBlockSize !== undefined)
        parts.push(
          `${formatNumber(f.iopsAtBlockSize, 0)} IOPS at ${formatSize(f.blockSizeBytes)}${f.blockSizeAssumed ? ' (assumed)' : ''}`,
        );
      if (f?.requiredThroughputMiBps !== undefined) parts.push(`needs ${formatMiBps(f.requiredThroughputMiBps)}`);
      if (f?.concurrency !== undefined)
        parts.push(
          `${formatNumber(Math.ceil(f.concurrency), 0)} I/O in flight${f.concurrencyPerClient !== undefined ? ` (${formatNumber(Math.ceil(f.concurrencyPerClient), 0)} per client)` : ''}`,
        );
      parts.push(volume.monthlyUsd !== null ? `${formatUsd(volume.monthlyUsd)} a month` : 'monthly cost unknown');
      if (volume.summary?.workload) parts.push(volume.summary.workload);
      if (volume.summary && volume.summary.nfsVersions.length > 0)
        parts.push(`NFSv${volume.summary.nfsVersions.join('/')}`);
      lines.push(`    ${colors.cyan(volume.name)}  ${parts.join(', ')}`);
    }
  };
  for (const pool of inventory.pools) {
    const f = pool.figures;
    const parts: string[] = [];
    parts.push(pool.serviceLevel ?? 'service level unknown');
    parts.push(pool.sizeTiB !== null ? `${formatNumber(pool.sizeTiB)} TiB` : 'size unknown');
    if (f)
      parts.push(
        `${formatNumber(f.allocatedGiB)} GiB allocated${f.allocationPercent !== undefined ? ` (${formatNumber(f.allocationPercent, 0)}%)` : ''}${unknownQuotasNote(f)}`,
      );
    if (f?.budgetMiBps !== undefined)
      parts.push(
        `${formatMiBps(f.usedMiBps)} of ${formatMiBps(f.budgetMiBps)}${f.qos === 'manual' ? ' (manual QoS)' : ''}`,
      );
    parts.push(pool.monthlyUsd !== null ? `${formatUsd(pool.monthlyUsd)} a month` : 'monthly cost unknown');
    poolLines(`pool ${pool.account ?? '?'}/${pool.name}`, parts, byPool.get(pool.model) ?? []);
  }
  // Volumes of a pool the file does not declare (written elsewhere, or not in the code read).
  for (const [pool, members] of byPool) {
    if (listedPools.has(pool)) continue;
    const first = members[0]!;
    poolLines(`pool ${first.account ?? '?'}/${first.pool ?? '?'}`, ['not declared in this file'], members);
  }
  return lines;
}

/** Volume summaries alone (a manifest without a parsed model). */
function formatVolumeSummaries(volumes: FileResult['volumes'], colors: Colors): string[] {
  const lines: string[] = [];
  for (const volume of volumes) {
    const parts = [volume.serviceLevel, `${formatNumber(volume.quotaGiB)} GiB`, formatMiBps(volume.throughputMiBps)];
    if (volume.workload) parts.push(volume.workload);
    lines.push(`  volume ${volume.account}/${volume.pool}/${colors.cyan(volume.name)}  ${parts.join(', ')}`);
  }
  return lines;
}

export interface TextSummary {
  readonly filesChecked: number;
}

export function formatText(results: readonly FileResult[], colors: Colors, summary: TextSummary): string {
  const out: string[] = [];
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  let fixable = 0;
  let filesWithFindings = 0;
  for (const result of results) {
    const diagnostics = visibleDiagnostics(result.diagnostics);
    const figures = formatFigures(result, colors);
    if (diagnostics.length === 0 && figures.length === 0) continue;
    const source = new SourceText(result.text);
    out.push(colors.bold(result.displayPath));
    out.push(...figures);
    for (const d of diagnostics) {
      out.push(...formatDiagnosticLines(result.displayPath, source, d, colors).map((l) => `  ${l}`));
      counts[d.severity]++;
      if (d.fixes.some((f) => f.applicability === 'safe')) fixable++;
    }
    // Findings past the report's limits are not listed, but they are counted.
    const omitted = omittedFindings(result.diagnostics);
    if (omitted) for (const severity of SEVERITIES) counts[severity] += omitted.bySeverity[severity];
    if (diagnostics.length > 0) filesWithFindings++;
    out.push('');
  }
  const total = counts.error + counts.warning + counts.info + counts.hint;
  const files = `${summary.filesChecked} file${summary.filesChecked === 1 ? '' : 's'} checked`;
  if (total === 0) {
    out.push(colors.green(`${files}, no problems.`));
  } else {
    const parts = (['error', 'warning', 'info', 'hint'] as const)
      .filter((s) => counts[s] > 0)
      .map((s) => `${counts[s]} ${s === 'info' || s === 'hint' ? s : `${s}${counts[s] === 1 ? '' : 's'}`}`);
    const line = `${total} problem${total === 1 ? '' : 's'} (${parts.join(', ')}) in ${filesWithFindings} file${filesWithFindings === 1 ? '' : 's'}; ${files}.${fixable > 0 ? ` ${fixable} fixable with --fix.` : ''}`;
    out.push(
      counts.error > 0
        ? colors.red(colors.bold(line))
        : counts.warning > 0
          ? colors.yellow(colors.bold(line))
          : colors.bold(line),
    );
  }
  return `${out.join('\n')}\n`;
}
