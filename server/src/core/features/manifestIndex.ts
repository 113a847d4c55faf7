import {
  computeManifestFigures,
  unknownQuotasNote,
  type ManifestFigures,
  type PoolFigures,
  type VolumeFigures,
} from '../manifest/figures';
import {
  poolQos,
  type ManifestAccount,
  type ManifestDocument,
  type ManifestPool,
  type ManifestVolume,
} from '../manifest/model';
import type { VolumeSummary } from '../manifest/volumeSummary';
import type { ResolvedConfig } from '../config';
import type { Span } from '../text/sourceText';
import type { WorkspaceView } from '../workspace/workspaceView';
import { formatMiBps, formatNumber, formatSize, formatSizeIn, formatUsd, GiB, TiB } from '../units/units';

/** One volume of a manifest with its pool and account. */
export interface VolumeAt {
  readonly account: ManifestAccount;
  readonly pool: ManifestPool;
  readonly volume: ManifestVolume;
}

export function* volumesOf(manifest: ManifestDocument): Generator<VolumeAt> {
  for (const account of manifest.accounts)
    for (const pool of account.pools) for (const volume of pool.volumes) yield { account, pool, volume };
}

export function within(span: Span | undefined, offset: number): boolean {
  return span !== undefined && offset >= span.start && offset <= span.end;
}

/** The manifest volume a VolumeSummary came from, with its figures (for a mount's hover). */
export function manifestVolumeOf(
  workspace: WorkspaceView,
  summary: VolumeSummary,
  config: Pick<ResolvedConfig, 'prices'>,
): { at: VolumeAt; figures: VolumeFigures | undefined } | undefined {
  const manifest = workspace.file(summary.uri)?.manifest;
  if (!manifest) return undefined;
  for (const at of volumesOf(manifest)) {
    if (at.volume.name && at.volume.name.span.start === summary.nameSpan.start)
      return { at, figures: computeManifestFigures(manifest, config).volume(at.volume) };
  }
  return undefined;
}

export function figuresOf(manifest: ManifestDocument, config: Pick<ResolvedConfig, 'prices'>): ManifestFigures {
  return computeManifestFigures(manifest, config);
}

const percent = (value: number) => `${formatNumber(value, 0)}%`;

/** The one-line figures of a volume, as the code lens and the tree view show them. */
export function volumeFigureLine(figures: VolumeFigures): string {
  const parts: string[] = [];
  if (figures.throughput) parts.push(formatMiBps(figures.throughput.mibps));
  if (figures.iopsAtBlockSize !== undefined)
    parts.push(`${formatNumber(figures.iopsAtBlockSize, 0)} IOPS @ ${formatSize(figures.blockSizeBytes)}`);
  if (figures.monthlyCostUsd !== undefined) parts.push(`${formatUsd(figures.monthlyCostUsd)}/month`);
  if (figures.requiredThroughputMiBps !== undefined)
    parts.push(
      `needs ${formatMiBps(figures.requiredThroughputMiBps)}${figures.meetsThroughput === false ? ' ✗' : figures.meetsThroughput ? ' ✓' : ''}`,
    );
  return parts.join(' · ');
}

export function poolFigureLine(figures: PoolFigures): string {
  const parts: string[] = [];
  if (figures.budgetMiBps !== undefined)
    parts.push(
      `budget ${formatMiBps(figures.budgetMiBps)}, used ${formatMiBps(figures.usedMiBps)}${figures.budgetUsedPercent !== undefined ? ` (${percent(figures.budgetUsedPercent)})` : ''}`,
    );
  if (figures.sizeTiB !== undefined)
    parts.push(
      `${formatSizeIn(figures.allocatedGiB * GiB, 'TiB')} of ${formatSizeIn(figures.sizeTiB * TiB, 'TiB')} allocated${unknownQuotasNote(figures)}`,
    );
  if (figures.monthlyCost) parts.push(`${formatUsd(figures.monthlyCost.totalUsd)}/month`);
  return parts.join(' · ');
}

/** Markdown for a volume: figures first, short. */
export function volumeMarkdown(at: VolumeAt, figures: VolumeFigures | undefined): string {
  const level = at.pool.serviceLevel?.value;
  const head = `**Volume ${figures?.id ?? at.volume.name?.value ?? '?'}**${level ? ` · ${level}` : ''}${level ? ` · ${poolQos(at.pool)} QoS` : ''}`;
  if (!figures) return head;
  const lines: string[] = [];
  const t = figures.throughput;
  if (t) {
    const how =
      t.basis === 'quota' && t.rateMiBpsPerTiB !== undefined && figures.quotaGiB !== undefined
        ? ` (${formatSizeIn(figures.quotaGiB * GiB, 'TiB')} × ${formatNumber(t.rateMiBpsPerTiB)} MiB/s per TiB${t.capped ? `, capped at ${formatMiBps(t.ceilingMiBps)}` : ''})`
        : t.basis === 'assigned'
          ? ' (assigned)'
          : '';
    lines.push(`- Throughput limit: **${formatMiBps(t.mibps)}**${how}`);
  }
  if (figures.iopsAtBlockSize !== undefined) {
    const c = figures.ioCeiling;
    // The measured ceiling binds below the throughput limit / block size: say both, and where the read share came from.
    const measured =
      c && figures.iopsQosLimit !== undefined && c.iops < figures.iopsQosLimit
        ? ` (the throughput limit would allow ${formatNumber(figures.iopsQosLimit, 0)}; Microsoft's performance calculator measured about ${formatNumber(c.iops, 0)} ${c.profile === 'small-random' ? 'random' : 'sequential'} IOPS per regular volume at ${formatNumber(c.readPercent, 0)}% reads${c.readPercentAssumed ? ', assumed: set `requirements.readPercent` for your mix' : ''})`
        : '';
    lines.push(
      `- IOPS at ${formatSize(figures.blockSizeBytes)}${figures.blockSizeAssumed ? ' (assumed block size)' : ''}: **${formatNumber(figures.iopsAtBlockSize, 0)}**${measured}`,
    );
  }
  if (figures.concurrency !== undefined && figures.latencySeconds !== undefined) {
    lines.push(
      `- Concurrency (Little's Law): **${formatNumber(figures.concurrency, 1)}** outstanding I/O at ${formatNumber(figures.latencySeconds * 1000, 3)} ms${figures.concurrencyPerClient !== undefined ? ` (${formatNumber(figures.concurrencyPerClient, 1)} per client)` : ''}`,
    );
  }
  if (figures.monthlyCostUsd !== undefined) lines.push(`- Monthly cost: **${formatUsd(figures.monthlyCostUsd)}**`);
  if (figures.requiredThroughputMiBps !== undefined || figures.requiredCapacityGiB !== undefined) {
    const needs: string[] = [];
    if (figures.requiredThroughputMiBps !== undefined)
      needs.push(
        `${formatMiBps(figures.requiredThroughputMiBps)}${figures.meetsThroughput === false ? ' (not met)' : ''}`,
      );
    if (figures.requiredCapacityGiB !== undefined)
      needs.push(
        `${formatSizeIn(figures.requiredCapacityGiB * GiB, 'TiB')}${figures.meetsCapacity === false ? ' (not met)' : ''}`,
      );
    lines.push(
      `- Requirement: ${needs.join(', ')}${figures.quotaNeededGiB !== undefined ? ` → quota needed **${formatNumber(figures.quotaNeededGiB, 0)} GiB** (${formatSizeIn(figures.quotaNeededGiB * GiB, 'TiB')})` : ''}`,
    );
  }
  return [head, '', ...lines].join('\n');
}

export function poolMarkdown(pool: ManifestPool, figures: PoolFigures | undefined): string {
  const head = `**Capacity pool ${figures?.id ?? pool.name?.value ?? '?'}**${pool.serviceLevel ? ` · ${pool.serviceLevel.value}` : ''} · ${figures?.qos ?? 'auto'} QoS${figures?.sizeTiB !== undefined ? ` · ${formatNumber(figures.sizeTiB)} TiB` : ''}`;
  if (!figures) return head;
  const lines: string[] = [];
  if (figures.budgetMiBps !== undefined)
    lines.push(
      `- Throughput budget: **${formatMiBps(figures.budgetMiBps)}**, used ${formatMiBps(figures.usedMiBps)}${figures.budgetUsedPercent !== undefined ? ` (${percent(figures.budgetUsedPercent)})` : ''}`,
    );
  if (figures.sizeTiB !== undefined) {
    lines.push(
      `- Allocation: ${formatSizeIn(figures.allocatedGiB * GiB, 'TiB')} of ${formatSizeIn(figures.sizeTiB * TiB, 'TiB')}${figures.allocationPercent !== undefined ? ` (${percent(figures.allocationPercent)})` : ''}${figures.freeGiB !== undefined ? `, ${formatSizeIn(figures.freeGiB * GiB, 'TiB')} free` : ''}, ${figures.volumeCount} volume${figures.volumeCount === 1 ? '' : 's'}${figures.unknownQuotas ? ` (${figures.unknownQuotas} of unknown quota: the allocation is a lower bound)` : ''}`,
    );
  }
  if (figures.monthlyCost) {
    const c = figures.monthlyCost;
    lines.push(
      `- Monthly cost: **${formatUsd(c.totalUsd)}**${c.throughputUsd > 0 ? ` (capacity ${formatUsd(c.capacityUsd)} + throughput ${formatUsd(c.throughputUsd)})` : ''}`,
    );
  }
  return [head, '', ...lines].join('\n');
}
