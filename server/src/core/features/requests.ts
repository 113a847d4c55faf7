/**
 * The custom requests behind the VS Code commands, as pure functions: `anf/adviseSizing` (the
 * sizing advisor, like `anf-lint size`) and `anf/recommendedMount` (like `anf-lint mount`).
 * The client's copy of these shapes is client/src/protocol.ts.
 */
import { adviseSizing, type SizingOption, type SizingRequirement } from '../calc/advisor';
import type { ResolvedConfig } from '../config';
import { isWorkloadKind, type WorkloadKind } from '../facts';
import { manifestPrices } from '../manifest/figures';
import { MOUNT_STYLES, recommendedMountText, type MountStyle } from '../recommend/mountLine';
import type { Range } from '../text/sourceText';
import { formatNumber, GiB, MiB, parseCount, parseRate, parseSize } from '../units/units';
import type { WorkspaceView } from '../workspace/workspaceView';

export const ADVISE_SIZING_REQUEST = 'anf/adviseSizing';
export const RECOMMENDED_MOUNT_REQUEST = 'anf/recommendedMount';

export interface AdviseSizingParams {
  /** The manifest the result is meant for (its region and prices apply). */
  readonly uri?: string;
  /** With units, as in a manifest's `requirements:` block: "10 TiB", "1600 MiB/s", "100k", "8 KiB". */
  readonly capacity?: string;
  readonly throughput?: string;
  readonly iops?: string;
  readonly blockSize?: string;
  readonly workload?: WorkloadKind;
  readonly coolAccess?: boolean;
  readonly networkFeatures?: 'Standard' | 'Basic';
  /** Reads in percent of the I/O (0-100), as `anf-lint size --read-percent`. */
  readonly readPercent?: number;
  /** With cool access: percent of the data in the cool tier (0-100), as `anf-lint size --cool-percent`. */
  readonly coolDataPercent?: number;
}

export interface AdvisedOption extends SizingOption {
  /** Pool and volume as manifest text. */
  readonly manifestText?: string;
  readonly edit?: { readonly range: Range; readonly newText: string };
}

export interface AdviseSizingResult {
  readonly options: readonly AdvisedOption[];
  readonly error?: string;
}

/** Pool + volume as manifest YAML for one option, to paste under `pools:`. */
function manifestText(option: SizingOption): string {
  const lines = [
    `- name: ${option.serviceLevel.toLowerCase()}-pool`,
    `  serviceLevel: ${option.serviceLevel}`,
    `  size: ${formatNumber(option.poolSizeTiB, 0)} TiB`,
    ...(option.qos === 'manual' ? ['  qos: manual'] : []),
    ...(option.flexibleThroughputMiBps !== undefined ? [`  throughput: ${formatNumber(option.flexibleThroughputMiBps, 0).replace(/,/g, '')} MiB/s`] : []),
    '  volumes:',
    // Several volumes when the advisor spreads the requirement over a shared manual QoS pool.
    ...Array.from({ length: option.volumeCount }, (_, index) => [
      `    - name: ${option.volumeCount > 1 ? `volume-${index + 1}` : 'volume'}`,
      `      quota: ${formatNumber(option.quotaGiB, 0).replace(/,/g, '')} GiB`,
      ...(option.largeVolume ? ['      largeVolume: true'] : []),
      ...(option.qos === 'manual' ? [`      throughput: ${formatNumber(option.volumeThroughputMiBps ?? option.throughputMiBps, 0).replace(/,/g, '')} MiB/s`] : []),
    ]).flat(),
  ];
  return `${lines.join('\n')}\n`;
}

export function adviseSizingRequest(workspace: WorkspaceView, params: AdviseSizingParams, config: ResolvedConfig): AdviseSizingResult {
  const requirement: { -readonly [K in keyof SizingRequirement]: SizingRequirement[K] } = {};
  const fail = (error: string): AdviseSizingResult => ({ options: [], error });
  if (params.capacity) {
    const size = parseSize(params.capacity);
    if (!size.ok) return fail(`capacity: ${size.error}`);
    requirement.capacityGiB = size.value.bytes / GiB;
  }
  if (params.throughput) {
    const rate = parseRate(params.throughput);
    if (!rate.ok) return fail(`throughput: ${rate.error}`);
    requirement.throughputMiBps = rate.value.bytesPerSecond / MiB;
  }
  if (params.iops) {
    const count = parseCount(params.iops);
    if (!count.ok) return fail(`iops: ${count.error}`);
    if (!params.blockSize) return fail('iops needs a block size, e.g. "8 KiB"');
    requirement.iops = count.value;
  }
  if (params.blockSize) {
    const size = parseSize(params.blockSize);
    if (!size.ok) return fail(`blockSize: ${size.error}`);
    requirement.blockSizeBytes = size.value.bytes;
  }
  if (params.workload !== undefined) {
    if (!isWorkloadKind(params.workload)) return fail(`workload: "${String(params.workload)}" is not a workload`);
    requirement.workload = params.workload;
  }
  if (params.coolAccess) requirement.coolAccess = true;
  if (params.networkFeatures === 'Basic' || params.networkFeatures === 'Standard') requirement.networkFeatures = params.networkFeatures;
  const percent = (value: unknown): number | undefined => (typeof value === 'number' && value >= 0 && value <= 100 ? value : undefined);
  if (params.readPercent !== undefined) {
    if (percent(params.readPercent) === undefined) return fail('readPercent: a number from 0 to 100');
    requirement.readPercent = params.readPercent;
  }
  if (params.coolDataPercent !== undefined) {
    if (percent(params.coolDataPercent) === undefined) return fail('coolDataPercent: a number from 0 to 100');
    requirement.coolDataPercent = params.coolDataPercent;
  }
  if (requirement.capacityGiB === undefined && requirement.throughputMiBps === undefined && requirement.iops === undefined) {
    return fail('give at least a capacity, a throughput or IOPS');
  }
  const manifest = params.uri ? workspace.file(params.uri)?.manifest : undefined;
  const prices = manifest ? manifestPrices(manifest, config) : config.prices;
  return { options: adviseSizing(requirement, prices).map((option) => ({ ...option, manifestText: manifestText(option) })) };
}

export interface RecommendedMountParams {
  readonly uri: string;
  readonly account?: string;
  readonly pool?: string;
  readonly volume: string;
  readonly style: MountStyle;
}

export interface RecommendedMountResult {
  readonly text: string;
  readonly notes?: readonly string[];
}

export function recommendedMountRequest(workspace: WorkspaceView, params: RecommendedMountParams, config: ResolvedConfig): RecommendedMountResult | { error: string } {
  const style: MountStyle = MOUNT_STYLES.includes(params.style) ? params.style : 'fstab';
  const volume = workspace
    .volumes()
    .find((v) => v.uri === params.uri && v.name === params.volume && (params.pool === undefined || v.pool === params.pool) && (params.account === undefined || v.account === params.account));
  if (!volume) return { error: `No volume "${params.volume}" with a service level and a quota in ${params.uri}.` };
  const { text, recommendation } = recommendedMountText(volume, style, config.defaultWorkload);
  return { text, notes: recommendation.notes };
}
