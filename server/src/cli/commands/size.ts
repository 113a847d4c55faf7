import { adviseSizing, requiredThroughputMiBps, type SizingRequirement } from '../../core/calc/advisor';
import { resolvePrices } from '../../core/calc/cost';
import { isWorkloadKind, WORKLOAD_KINDS } from '../../core/facts';
import {
  formatMiBps,
  formatNumber,
  formatSizeIn,
  formatUsd,
  GiB,
  parseCount,
  parseRate,
  parseSize,
  MiB,
} from '../../core/units/units';
import { createColors, colorsEnabled } from '../color';
import { EXIT, UsageError, type CliIo } from '../io';
import { loadCliConfig } from '../lint';
import { parseOrUsage, table, wroteHelp } from './shared';

export const SIZE_USAGE = `Usage: anf-lint size [--capacity SIZE] [--throughput RATE] [--iops COUNT --block-size SIZE]
                     [--read-percent N] [--workload KIND] [--network-features Standard|Basic]
                     [--cool-access] [--cool-percent N] [--cool-retrieval-percent N]
                     [--region REGION] [--config FILE] [--format text|json]

The sizing advisor: for each service level, the cheapest volume and pool that meet the
requirement, cheapest feasible first; when one regular volume is not enough, also several
regular volumes sharing one manual QoS pool.
  --read-percent N            reads in percent of the I/O (default: all reads, the best case);
                              one regular volume's measured IOPS depend on it
  --cool-percent N            with cool access: percent of the data in the cool tier (cool-tier
                              capacity is billed at the cool rate); implies --cool-access
  --cool-retrieval-percent N  percent of the cool data read back per month (transfer price)
Example:
  anf-lint size --capacity 50TiB --throughput 3000MiB/s --workload eda-tools
`;

/** A percentage flag: a number from 0 to 100. */
function percentFlag(flag: string, value: string): number {
  const parsed = Number(value.replace(/%$/, ''));
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0 || parsed > 100)
    throw new UsageError(`--${flag}: "${value}" is not a percentage from 0 to 100`);
  return parsed;
}

/** `anf-lint size`: the sizing advisor as a table or JSON. */
export async function runSize(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseOrUsage(
    args,
    {
      capacity: { type: 'string' },
      throughput: { type: 'string' },
      iops: { type: 'string' },
      'block-size': { type: 'string' },
      workload: { type: 'string' },
      'cool-access': { type: 'boolean' },
      'read-percent': { type: 'string' },
      'cool-percent': { type: 'string' },
      'cool-retrieval-percent': { type: 'string' },
      'network-features': { type: 'string' },
      region: { type: 'string' },
      config: { type: 'string', short: 'c' },
      format: { type: 'string', short: 'f' },
    },
    false,
  );
  if (wroteHelp(values, SIZE_USAGE, io)) return EXIT.ok;
  const requirement: { -readonly [K in keyof SizingRequirement]: SizingRequirement[K] } = {};
  if (values.capacity !== undefined) {
    const size = parseSize(values.capacity);
    if (!size.ok) throw new UsageError(`--capacity: ${size.error}`);
    requirement.capacityGiB = size.value.bytes / GiB;
  }
  if (values.throughput !== undefined) {
    const rate = parseRate(values.throughput);
    if (!rate.ok) throw new UsageError(`--throughput: ${rate.error}`);
    requirement.throughputMiBps = rate.value.bytesPerSecond / MiB;
  }
  if (values.iops !== undefined) {
    const count = parseCount(values.iops);
    if (!count.ok) throw new UsageError(`--iops: ${count.error}`);
    if (values['block-size'] === undefined) throw new UsageError('--iops needs --block-size (e.g. --block-size 8KiB)');
    requirement.iops = count.value;
  }
  if (values['block-size'] !== undefined) {
    const size = parseSize(values['block-size']);
    if (!size.ok) throw new UsageError(`--block-size: ${size.error}`);
    requirement.blockSizeBytes = size.value.bytes;
  }
  if (values.workload !== undefined) {
    if (!isWorkloadKind(values.workload))
      throw new UsageError(
        `--workload: "${values.workload}" is not a workload; use one of ${WORKLOAD_KINDS.join(', ')}`,
      );
    requirement.workload = values.workload;
  }
  if (values['cool-access']) requirement.coolAccess = true;
  if (values['read-percent'] !== undefined)
    requirement.readPercent = percentFlag('read-percent', values['read-percent']);
  if (values['cool-percent'] !== undefined) {
    requirement.coolDataPercent = percentFlag('cool-percent', values['cool-percent']);
    requirement.coolAccess = true;
  }
  if (values['cool-retrieval-percent'] !== undefined)
    requirement.coolRetrievalPercentPerMonth = percentFlag('cool-retrieval-percent', values['cool-retrieval-percent']);
  if (values['network-features'] !== undefined) {
    const features = values['network-features'].toLowerCase();
    if (features !== 'standard' && features !== 'basic')
      throw new UsageError('--network-features: use Standard or Basic');
    requirement.networkFeatures = features === 'basic' ? 'Basic' : 'Standard';
  }
  if (
    requirement.capacityGiB === undefined &&
    requirement.throughputMiBps === undefined &&
    requirement.iops === undefined
  ) {
    throw new UsageError('size: give at least --capacity, --throughput or --iops (see anf-lint size --help)');
  }
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format: "${format}" is not a format of anf-lint size; use text or json`);

  const { loaded } = loadCliConfig(
    { ruleOverrides: {}, ...(values.config !== undefined ? { configPath: values.config } : {}) },
    io.cwd,
    io,
  );
  const region = values.region ?? loaded.config.region;
  const prices = resolvePrices(region, loaded.config.prices);
  if (values.region !== undefined && !prices.known)
    io.stderr.write(`anf-lint: no list prices for region "${values.region}"; using ${prices.region} prices.\n`);
  const options = adviseSizing(requirement, prices);

  if (format === 'json') {
    const json = {
      options: options.map((o) => ({
        serviceLevel: o.serviceLevel,
        qos: o.qos,
        volumeCount: o.volumeCount,
        quotaGiB: o.quotaGiB,
        ...(o.volumeThroughputMiBps !== undefined ? { volumeThroughputMiBps: o.volumeThroughputMiBps } : {}),
        largeVolume: o.largeVolume,
        poolSizeTiB: o.poolSizeTiB,
        throughputMiBps: o.throughputMiBps,
        monthlyCostUsd: Math.round(o.monthlyCostUsd * 100) / 100,
        ...(o.coolTier ? { coolTier: o.coolTier } : {}),
        feasible: o.feasible,
        reason: o.reason ?? null,
        notes: o.notes ?? [],
      })),
    };
    io.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
    return EXIT.ok;
  }

  const colors = createColors(colorsEnabled(io.stdout, io.env));
  const wanted: string[] = [];
  if (requirement.capacityGiB !== undefined) wanted.push(formatSizeIn(requirement.capacityGiB * GiB, 'TiB'));
  const throughput = requiredThroughputMiBps(requirement);
  if (throughput > 0) wanted.push(formatMiBps(throughput));
  if (requirement.workload) wanted.push(requirement.workload);
  if (requirement.iops !== undefined && requirement.readPercent !== undefined)
    wanted.push(`${formatNumber(requirement.readPercent, 0)}% reads`);
  if (requirement.coolAccess)
    wanted.push(
      requirement.coolDataPercent !== undefined
        ? `cool access, ${formatNumber(requirement.coolDataPercent, 0)}% of the data cool`
        : 'cool access',
    );
  const rows = options.map((o) => [
    o.serviceLevel,
    o.qos,
    `${o.volumeCount > 1 ? `${o.volumeCount} x ` : ''}${formatNumber(o.quotaGiB)} GiB${o.largeVolume ? ' (large)' : ''}`,
    `${formatNumber(o.poolSizeTiB)} TiB`,
    formatMiBps(o.throughputMiBps),
    formatUsd(o.monthlyCostUsd),
    o.feasible ? colors.green('yes') : colors.red(`no: ${o.reason ?? ''}`),
  ]);
  io.stdout.write(`Sizing for ${wanted.join(', ')} (${prices.region} list prices, ${prices.date}; cheapest first)\n\n`);
  io.stdout.write(
    table(
      ['Service level', 'QoS', 'Volume quota', 'Pool size', 'Throughput', 'Monthly cost', 'Feasible'],
      rows,
      colors,
    ),
  );
  // What the advisor assumed or does not know, once per distinct note, under the table.
  const notes = [
    ...new Set(
      options.flatMap((o) =>
        o.feasible
          ? (o.notes ?? []).map(
              (n) => `${o.serviceLevel}${o.volumeCount > 1 ? ` (${o.volumeCount} volumes)` : ''}: ${n}`,
            )
          : [],
      ),
    ),
  ];
  if (notes.length > 0) io.stdout.write(`\n${notes.map((n) => `Note: ${n}`).join('\n')}\n`);
  return EXIT.ok;
}
