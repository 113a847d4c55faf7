import { adviseSizing, type SizingOption } from '../calc/advisor';
import type { ResolvedConfig } from '../config';
import type { Diagnostic, SpanEdit, TextEdit } from '../diagnostics';
import { insertAfterSibling, replaceValue, sizeText } from '../manifest/rules/helpers';
import { volumeCoolAccess } from '../manifest/summary';
import { volumeNetworkFeatures } from '../manifest/model';
import { formatMiBps, formatNumber, formatUsd } from '../units/units';
import type { ParsedFile } from '../workspace/parsedFile';
import type { CoreCodeAction } from './codeAction';
import { figuresOf, volumesOf, within } from './manifestIndex';

/** The rules that say a volume misses what its requirements ask for. */
const REQUIREMENT_CODES: ReadonlySet<string> = new Set(['ANF116', 'ANF118']);

/**
 * One quick fix per sizing-advisor alternative for a volume that misses its requirement: move
 * its pool to another service level with the advisor's quota and pool size. Offered where the
 * pool holds only that volume (a new service level would change its siblings too) and every
 * value can be edited in place. The rule's own fix (a bigger quota at the same level) comes first.
 */
export function sizingAlternativeActions(
  file: ParsedFile,
  diagnostic: Diagnostic,
  config: ResolvedConfig,
): CoreCodeAction[] {
  const manifest = file.manifest;
  if (!manifest || !REQUIREMENT_CODES.has(diagnostic.code)) return [];
  const at = [...volumesOf(manifest)].find(({ volume }) => within(volume.span, diagnostic.span.start));
  if (!at || at.pool.volumes.length !== 1 || !at.pool.serviceLevel) return [];
  const figures = figuresOf(manifest, config);
  const volumeFigures = figures.volume(at.volume);
  if (!volumeFigures || (volumeFigures.meetsThroughput !== false && volumeFigures.meetsCapacity !== false)) return [];
  const options = adviseSizing(
    {
      ...(volumeFigures.requiredCapacityGiB !== undefined ? { capacityGiB: volumeFigures.requiredCapacityGiB } : {}),
      ...(volumeFigures.requiredThroughputMiBps !== undefined
        ? { throughputMiBps: volumeFigures.requiredThroughputMiBps }
        : {}),
      ...(at.volume.workload ? { workload: at.volume.workload.value } : {}),
      coolAccess: volumeCoolAccess(at.volume),
      networkFeatures: volumeNetworkFeatures(at.pool, at.volume),
    },
    figures.prices,
  );
  const current = at.pool.serviceLevel.value;
  return options
    .filter((option) => option.feasible && option.volumeCount === 1 && option.serviceLevel !== current)
    .map((option) => ({ option, edits: editsFor(file, at, option) }))
    .filter((candidate): candidate is { option: SizingOption; edits: TextEdit[] } => candidate.edits !== undefined)
    .map(({ option, edits }) => ({
      title: `Sizing advisor: ${option.serviceLevel} pool of ${formatNumber(option.poolSizeTiB)} TiB, quota ${sizeText(option.quotaGiB)}, ${formatMiBps(option.throughputMiBps)} for ${formatUsd(option.monthlyCostUsd)}/month`,
      kind: 'quickfix' as const,
      edits,
      diagnostics: [diagnostic],
    }));
}

function editsFor(
  file: ParsedFile,
  at: ReturnType<typeof volumesOf> extends Generator<infer T> ? T : never,
  option: SizingOption,
): TextEdit[] | undefined {
  const { pool, volume } = at;
  const source = file.source;
  const edits: (SpanEdit | undefined)[] = [
    replaceValue(pool.serviceLevel, option.serviceLevel),
    replaceValue(pool.size, `${formatNumber(option.poolSizeTiB, 0).replace(/,/g, '')} TiB`),
    replaceValue(volume.quota, sizeText(option.quotaGiB)),
  ];
  if (option.largeVolume && !volume.largeVolume?.value) {
    edits.push(
      volume.largeVolume
        ? replaceValue(volume.largeVolume, 'true')
        : insertAfterSibling(source, volume.quota, 'largeVolume', 'true'),
    );
  }
  if (option.qos === 'manual') {
    const assigned = `${formatNumber(option.throughputMiBps, 0).replace(/,/g, '')} MiB/s`;
    if (option.flexibleThroughputMiBps !== undefined) {
      const poolThroughput = `${formatNumber(option.flexibleThroughputMiBps, 0).replace(/,/g, '')} MiB/s`;
      edits.push(
        pool.throughput
          ? replaceValue(pool.throughput, poolThroughput)
          : insertAfterSibling(source, pool.size, 'throughput', poolThroughput),
      );
    }
    if (pool.qos && pool.qos.value !== 'manual') edits.push(replaceValue(pool.qos, 'manual'));
    edits.push(
      volume.throughput
        ? replaceValue(volume.throughput, assigned)
        : insertAfterSibling(source, volume.quota, 'throughput', assigned),
    );
  } else if (pool.qos?.value === 'manual') {
    edits.push(replaceValue(pool.qos, 'auto'));
  }
  if (edits.some((e) => e === undefined)) return undefined;
  // Two insertions after the same line keep their order by offset; never overlapping edits otherwise.
  return (edits as SpanEdit[]).map((edit) => ({
    uri: file.uri,
    span: edit.span,
    newText: edit.newText,
    range: source.rangeOf(edit.span),
  }));
}
