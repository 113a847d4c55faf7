import type { EstateDiff, VolumeChange } from '../../core/estate/diff';
import type {
  EstateInventory,
  InventoryAccount,
  InventoryPool,
  InventoryTotals,
  InventoryVolume,
} from '../../core/estate/inventory';
import { formatMiBps, formatNumber, formatSizeIn, formatUsd, GiB, KiB } from '../../core/units/units';
import type { Colors } from '../color';
import { table } from '../commands/shared';

/**
 * `anf-lint estate` output: JSON (the stable shape documented in docs/cli.md), CSV, Markdown and a
 * text table; `--diff` as Markdown for a pull-request comment. Every figure comes from the
 * inventory (core/estate/inventory.ts); an unknown one is printed as `unknown` (JSON: `null`) with
 * its reason, never as 0.
 */

/** The file of an inventory entry, as the user names it (relative to the current folder). */
export type FileOf = (uri: string) => string;

const round = (value: number | null, digits = 2): number | null =>
  value === null ? null : Math.round(value * 10 ** digits) / 10 ** digits;

function placeJson(entry: InventoryAccount | InventoryPool | InventoryVolume, fileOf: FileOf) {
  return {
    name: entry.name,
    instance: entry.instance ?? null,
    file: fileOf(entry.uri),
    line: entry.line,
    source: entry.source,
  };
}

export function estateJson(inventory: EstateInventory, fileOf: FileOf): unknown {
  return {
    accounts: inventory.accounts.map((a) => ({ ...placeJson(a, fileOf), unknown: a.unknown })),
    pools: inventory.pools.map((p) => ({
      account: p.account,
      ...placeJson(p, fileOf),
      serviceLevel: p.serviceLevel,
      qos: p.qos,
      sizeTiB: round(p.sizeTiB, 4),
      throughputMiBps: round(p.throughputMiBps),
      monthlyUsd: round(p.monthlyUsd),
      unknown: p.unknown,
    })),
    volumes: inventory.volumes.map((v) => volumeJson(v, fileOf)),
    totals: totalsJson(inventory.totals),
  };
}

function volumeJson(v: InventoryVolume, fileOf: FileOf) {
  return {
    account: v.account,
    pool: v.pool,
    ...placeJson(v, fileOf),
    serviceLevel: v.serviceLevel,
    qos: v.qos,
    quotaGiB: round(v.quotaGiB),
    throughputMiBps: round(v.throughputMiBps),
    iops: round(v.iops, 0),
    iopsBlockSizeKiB: v.iops === null ? null : v.iopsBlockSizeBytes / KiB,
    monthlyUsd: round(v.monthlyUsd),
    unknown: v.unknown,
  };
}

function totalsJson(t: InventoryTotals) {
  return {
    accounts: t.accounts,
    pools: t.pools,
    volumes: t.volumes,
    quotaGiB: round(t.quotaGiB),
    unknownQuota: t.unknownQuota,
    throughputMiBps: round(t.throughputMiBps),
    unknownThroughput: t.unknownThroughput,
    monthlyUsd: round(t.monthlyUsd),
    unknownMonthlyUsd: t.unknownMonthlyUsd,
  };
}

export const CSV_COLUMNS = [
  'account',
  'pool',
  'name',
  'instance',
  'file',
  'line',
  'source',
  'serviceLevel',
  'qos',
  'quotaGiB',
  'throughputMiBps',
  'iops',
  'iopsBlockSizeKiB',
  'monthlyUsd',
  'unknown',
] as const;

/** One row per volume (RFC 4180: fields with a comma, quote or line break are quoted); unknown reasons joined by `; `. */
export function estateCsv(inventory: EstateInventory, fileOf: FileOf): string {
  const cell = (value: unknown): string => {
    const text = value === null || value === undefined ? '' : Array.isArray(value) ? value.join('; ') : String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const rows = inventory.volumes.map((v) => {
    const json = volumeJson(v, fileOf) as Record<string, unknown>;
    return CSV_COLUMNS.map((c) => cell(json[c])).join(',');
  });
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

const UNKNOWN = 'unknown';
const quota = (gib: number | null) => (gib === null ? UNKNOWN : formatSizeIn(gib * GiB, 'TiB'));
const mibps = (value: number | null) => (value === null ? UNKNOWN : formatMiBps(value));
const usd = (value: number | null) => (value === null ? UNKNOWN : formatUsd(value));
const iops = (v: InventoryVolume) =>
  v.iops === null ? UNKNOWN : `${formatNumber(v.iops, 0)} @ ${formatNumber(v.iopsBlockSizeBytes / KiB, 0)} KiB`;
const where = (entry: { uri: string; line: number }, fileOf: FileOf) => `${fileOf(entry.uri)}:${entry.line}`;
const volumeLabel = (v: InventoryVolume) => [v.account ?? '?', v.pool ?? '?', v.name].join('/');

/** The totals line: known sums, and how many values were unknown (the sums are then lower bounds). */
function totalsText(t: InventoryTotals): string {
  const lower = (n: number, what: string) => (n > 0 ? ` (+ ${n} ${what} unknown)` : '');
  return (
    `${t.accounts} account${t.accounts === 1 ? '' : 's'}, ${t.pools} pool${t.pools === 1 ? '' : 's'}, ${t.volumes} volume${t.volumes === 1 ? '' : 's'}; ` +
    `quota ${quota(t.quotaGiB)}${lower(t.unknownQuota, 'volume quota' + (t.unknownQuota === 1 ? '' : 's'))}, ` +
    `throughput ${mibps(t.throughputMiBps)}${lower(t.unknownThroughput, 'volume throughput' + (t.unknownThroughput === 1 ? '' : 's'))}, ` +
    `pools ${usd(t.monthlyUsd)}/month${lower(t.unknownMonthlyUsd, 'pool cost' + (t.unknownMonthlyUsd === 1 ? '' : 's'))}`
  );
}

/** The unknown reasons of each volume that has any, under the table. */
function unknownNotes(
  volumes: readonly InventoryVolume[],
  fileOf: FileOf,
  bullet: string,
  code: (s: string) => string,
): string[] {
  return volumes
    .filter((v) => v.unknown.length > 0)
    .map((v) => `${bullet}${code(volumeLabel(v))} (${where(v, fileOf)}): ${v.unknown.join('; ')}`);
}

export function estateText(inventory: EstateInventory, fileOf: FileOf, colors: Colors): string {
  if (inventory.volumes.length === 0 && inventory.pools.length === 0 && inventory.accounts.length === 0)
    return 'No Azure NetApp Files accounts, pools or volumes found.\n';
  const rows = inventory.volumes.map((v) => [
    v.account ?? '?',
    v.pool ?? '?',
    v.name,
    v.serviceLevel ?? UNKNOWN,
    quota(v.quotaGiB),
    mibps(v.throughputMiBps),
    iops(v),
    usd(v.monthlyUsd),
    `${where(v, fileOf)} (${v.source})`,
  ]);
  const out: string[] = [];
  if (rows.length > 0)
    out.push(
      table(
        ['Account', 'Pool', 'Volume', 'Level', 'Quota', 'Throughput', 'IOPS', 'Monthly', 'Where'],
        rows,
        colors,
      ).trimEnd(),
    );
  const notes = unknownNotes(inventory.volumes, fileOf, '  ', (s) => s);
  if (notes.length > 0) out.push('', 'Unknown:', ...notes);
  out.push('', `Total: ${totalsText(inventory.totals)}`);
  return `${out.join('\n')}\n`;
}

const mdCell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const mdCode = (text: string) => `\`${text.replace(/`/g, "'")}\``;

export function estateMarkdown(inventory: EstateInventory, fileOf: FileOf): string {
  const out = ['## Azure NetApp Files estate', ''];
  if (inventory.volumes.length > 0) {
    out.push('| Volume | Level | Quota | Throughput | IOPS | Monthly | Where |', '|---|---|---:|---:|---:|---:|---|');
    for (const v of inventory.volumes)
      out.push(
        `| ${mdCell(mdCode(volumeLabel(v)))} | ${v.serviceLevel ?? UNKNOWN} | ${quota(v.quotaGiB)} | ${mibps(v.throughputMiBps)} | ${iops(v)} | ${usd(v.monthlyUsd)} | ${mdCell(mdCode(where(v, fileOf)))} ${v.source} |`,
      );
    out.push('');
  } else out.push('No volumes found.', '');
  const notes = unknownNotes(inventory.volumes, fileOf, '- ', mdCode).map(mdCell);
  if (notes.length > 0) out.push('**Unknown**', '', ...notes, '');
  out.push(`**Total**: ${totalsText(inventory.totals)}`);
  return `${out.join('\n')}\n`;
}

// ---------------------------------------------------------------------------------------------
// --diff

function delta(before: number | null, after: number | null, show: (n: number) => string): string {
  if (before === null || after === null)
    return `${before === null ? UNKNOWN : show(before)} → ${after === null ? UNKNOWN : show(after)}`;
  if (before === after) return show(after);
  const d = after - before;
  return `${show(before)} → ${show(after)} (${d > 0 ? '+' : '−'}${show(Math.abs(d))})`;
}

const showQuota = (gib: number) => formatSizeIn(gib * GiB, 'TiB');

function changeRow(c: VolumeChange, fileOf: FileOf): string {
  const v = (c.after ?? c.before)!;
  const b = c.before;
  const a = c.after;
  const cells = (pick: (x: InventoryVolume) => number | null, show: (n: number) => string) =>
    c.change === 'added'
      ? `${pick(a!) === null ? UNKNOWN : show(pick(a!)!)} (new)`
      : c.change === 'removed'
        ? `${pick(b!) === null ? UNKNOWN : show(pick(b!)!)} (removed)`
        : delta(pick(b!), pick(a!), show);
  const level =
    c.change === 'changed' && b!.serviceLevel !== a!.serviceLevel
      ? `${b!.serviceLevel ?? UNKNOWN} → ${a!.serviceLevel ?? UNKNOWN}`
      : (v.serviceLevel ?? UNKNOWN);
  const label = `${c.change === 'added' ? '➕ ' : c.change === 'removed' ? '➖ ' : ''}${mdCode(volumeLabel(v))}`;
  return `| ${mdCell(label)} | ${level} | ${cells((x) => x.throughputMiBps, formatMiBps)} | ${cells((x) => x.quotaGiB, showQuota)} | ${cells((x) => x.monthlyUsd, formatUsd)} | ${mdCell(mdCode(where(v, fileOf)))} |`;
}

/** The `--diff` comment: changed volumes, then the totals before and after. */
export function estateDiffMarkdown(diff: EstateDiff, ref: string, fileOf: FileOf): string {
  const out = [`## Azure NetApp Files estate: changes against ${mdCode(ref)}`, ''];
  if (diff.volumes.length === 0)
    out.push('No volume changes its throughput, capacity, service level or monthly cost.', '');
  else {
    out.push(
      '| Volume | Level | Throughput | Capacity (quota) | Monthly cost | Where |',
      '|---|---|---:|---:|---:|---|',
    );
    for (const change of diff.volumes) out.push(changeRow(change, fileOf));
    out.push('');
  }
  const b = diff.before;
  const a = diff.after;
  out.push(
    '| Total | Before | After | Change |',
    '|---|---:|---:|---:|',
    totalRow('Volumes', b.volumes, a.volumes, (n) => formatNumber(n, 0)),
    totalRow('Throughput', b.throughputMiBps, a.throughputMiBps, formatMiBps, b.unknownThroughput, a.unknownThroughput),
    totalRow('Capacity (quota)', b.quotaGiB, a.quotaGiB, showQuota, b.unknownQuota, a.unknownQuota),
    totalRow('Monthly cost (pools)', b.monthlyUsd, a.monthlyUsd, formatUsd, b.unknownMonthlyUsd, a.unknownMonthlyUsd),
    '',
  );
  const unknown = [
    ...new Set(
      diff.volumes.flatMap((c) =>
        c.after && c.after.unknown.length > 0
          ? [`- ${mdCode(volumeLabel(c.after))} (${mdCode(where(c.after, fileOf))}): ${c.after.unknown.join('; ')}`]
          : [],
      ),
    ),
  ].map(mdCell);
  if (unknown.length > 0) out.push('**Unknown** (not counted in the totals):', '', ...unknown, '');
  if (
    a.unknownQuota +
      a.unknownThroughput +
      a.unknownMonthlyUsd +
      b.unknownQuota +
      b.unknownThroughput +
      b.unknownMonthlyUsd >
    0
  )
    out.push('_Totals with unknown values (marked +N) are lower bounds._', '');
  out.push(
    "<sub>Monthly cost is what the capacity pools are billed at list prices (a pool is billed for its size, not its volumes' quotas); per volume, its share. From `anf-lint estate --diff`.</sub>",
  );
  return `${out.join('\n')}\n`;
}

function totalRow(
  label: string,
  before: number,
  after: number,
  show: (n: number) => string,
  unknownBefore = 0,
  unknownAfter = 0,
): string {
  const plus = (n: number) => (n > 0 ? ` (+${n} unknown)` : '');
  const d = after - before;
  const change = d === 0 ? '0' : `${d > 0 ? '+' : '−'}${show(Math.abs(d))}`;
  return `| ${label} | ${show(before)}${plus(unknownBefore)} | ${show(after)}${plus(unknownAfter)} | ${change} |`;
}
