import { adviseSizing, requiredThroughputMiBps, type SizingRequirement } from '../../core/calc/advisor';
import { resolvePrices } from '../../core/calc/cost';
import { isWorkloadKind, WORKLOAD_KINDS } from '../../core/facts';
import { formatMiBps, formatNumber, formatSizeIn, formatUsd, GiB, parseCount, parseRate, parseSize, MiB } from '../../core/units/units';
import { createColors, colorsEnabled } from '../color';
import { EXIT, UsageError, type CliIo } from '../io';
import { loadCliConfig } from '../lint';
import { parseOrUsage, table } from './shared';

export const SIZE_USAGE = `Usage: anf-lint size [--capacity SIZE] [--throughput RATE] [--iops COUNT --block-size SIZE]
                     [--workload KIND] [--cool-access] [--network-features Standard|Basic]
                     [--region REGION] [--config FILE] [--format text|json]

The sizing advisor: for each service level, the cheapest volume and pool that meet the
requirement, cheapest feasible first. Example:
  anf-lint size --capacity 50TiB --throughput 3000MiB/s --workload eda-tools
`;

/** `anf-lint size`: the sizing advisor as a table or JSON. */
export async function runSize(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseOrUsage(args, {
    capacity: { type: 'string' },
    throughput: { type: 'string' },
    iops: { type: 'string' },
    'block-size': { type: 'string' },
    workload: { type: 'string' },
    'cool-access': { type: 'boolean' },
    'network-features': { type: 'string' },
    region: { type: 'string' },
    config: { type: 'string', short: 'c' },
    format: { type: 'string', short: 'f' },
    help: { type: 'boolean', short: 'h' },
  }, false);
  if (values.help) {
    io.stdout.write(SIZE_USAGE);
    return EXIT.ok;
  }
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
    if (!isWorkloadKind(values.workload)) throw new UsageError(`--workload: "${values.workload}" is not a workload; use one of ${WORKLOAD_KINDS.join(', ')}`);
    requirement.workload = values.workload;
  }
  if (values['cool-access']) requirement.coolAccess = true;
  if (values['network-features'] !== undefined) {
    const features = values['network-features'].toLowerCase();
    if (features !== 'standard' && features !== 'basic') throw new UsageError('--network-features: use Standard or Basic');
    requirement.networkFeatures = features === 'basic' ? 'Basic' : 'Standard';
  }
  if (requirement.capacityGiB === undefined && requirement.throughputMiBps === undefined && requirement.iops === undefined) {
    throw new UsageError('size: give at least --capacity, --throughput or --iops (see anf-lint size --help)');
  }
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format: "${format}" is not a format of anf-lint size; use text or json`);

  const { loaded } = loadCliConfig({ ruleOverrides: {}, ...(values.config !== undefined ? { configPath: values.config } : {}) }, io.cwd, io);
  const region = values.region ?? loaded.config.region;
  const prices = resolvePrices(region, loaded.config.prices);
  if (values.region !== undefined && !prices.known) io.stderr.write(`anf-lint: no list prices for region "${values.region}"; using ${prices.region} prices.\n`);
  const options = adviseSizing(requirement, prices);

  if (format === 'json') {
    const json = {
      options: options.map((o) => ({
        serviceLevel: o.serviceLevel,
        quotaGiB: o.quotaGiB,
        poolSizeTiB: o.poolSizeTiB,
        throughputMiBps: o.throughputMiBps,
        monthlyCostUsd: Math.round(o.monthlyCostUsd * 100) / 100,
        feasible: o.feasible,
        reason: o.reason ?? null,
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
  if (requirement.coolAccess) wanted.push('cool access');
  const rows = options.map((o) => [
    o.serviceLevel,
    o.qos,
    `${formatNumber(o.quotaGiB)} GiB${o.largeVolume ? ' (large)' : ''}`,
    `${formatNumber(o.poolSizeTiB)} TiB`,
    formatMiBps(o.throughputMiBps),
    formatUsd(o.monthlyCostUsd),
    o.feasible ? colors.green('yes') : colors.red(`no: ${o.reason ?? ''}`),
  ]);
  io.stdout.write(`Sizing for ${wanted.join(', ')} (${prices.region} list prices, ${prices.date}; cheapest first)\n\n`);
  io.stdout.write(table(['Service level', 'QoS', 'Volume quota', 'Pool size', 'Throughput', 'Monthly cost', 'Feasible'], rows, colors));
  return EXIT.ok;
}
