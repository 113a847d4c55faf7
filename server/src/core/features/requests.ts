/**
 * The custom requests behind the VS Code commands, as pure functions: `anf/adviseSizing` (the
 * sizing advisor, like `anf-lint size`), `anf/recommendedMount` (like `anf-lint mount`) and
 * `anf/workloads` (the workloads the sizing command offers).
 * The client's copy of these shapes is client/src/protocol.ts.
 */
import { adviseSizing, type SizingOption, type SizingRequirement } from '../calc/advisor';
import type { ResolvedConfig } from '../config';
import { isWorkloadKind, WORKLOAD_KINDS, WORKLOADS, type WorkloadKind } from '../facts';
import { manifestPrices } from '../manifest/figures';
import { MOUNT_STYLES, recommendedMountText, type MountStyle } from '../recommend/mountLine';
import { volumeAsMounted } from '../recommend/existingMount';
import type { Position, Range } from '../text/sourceText';
import { formatNumber, GiB, MiB, parseCount, parseRate, parseSize } from '../units/units';
import type { WorkspaceView } from '../workspace/workspaceView';
import { NEW_ACCOUNT_NAME, sizingInsertion, type PoolDraft } from './sizingInsertion';

export const ADVISE_SIZING_REQUEST = 'anf/adviseSizing';
export const RECOMMENDED_MOUNT_REQUEST = 'anf/recommendedMount';
export const WORKLOADS_REQUEST = 'anf/workloads';

/** A workload the sizing command offers: its key and its title (from the facts table). */
export interface WorkloadChoice {
  readonly kind: WorkloadKind;
  readonly title: string;
}

/** `anf/workloads`: the workloads, so the client lists them without the facts table in its bundle. */
export function workloadsRequest(): readonly WorkloadChoice[] {
  return WORKLOAD_KINDS.map((kind) => ({ kind, title: WORKLOADS[kind].title }));
}

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
  /** The cursor in `uri`: the pool goes into the account there. */
  readonly position?: Position;
}

export interface AdvisedOption extends SizingOption {
  /** Pool and volume as manifest text. */
  readonly manifestText?: string;
  /**
   * With `uri` and `position`: the edit that adds the pool to that file's structure (the `pools:`
   * list of the account at the cursor, or a new account), checked to parse afterwards.
   */
  readonly edit?: { readonly range: Range; readonly newText: string; readonly where: string };
  /** With `uri` and `position`, when there is no edit: why (e.g. the file has syntax errors). */
  readonly editError?: string;
  /** A whole new manifest (YAML) holding the pool, for when there is no file to insert into. */
  readonly newManifest?: string;
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
    ...(option.flexibleThroughputMiBps !== undefined
      ? [`  throughput: ${formatNumber(option.flexibleThroughputMiBps, 0).replace(/,/g, '')} MiB/s`]
      : []),
    '  volumes:',
    // Several volumes when the advisor spreads the requirement over a shared manual QoS pool.
    ...Array.from({ length: option.volumeCount }, (_, index) => [
      `    - name: ${option.volumeCount > 1 ? `volume-${index + 1}` : 'volume'}`,
      `      quota: ${formatNumber(option.quotaGiB, 0).replace(/,/g, '')} GiB`,
      ...(option.largeVolume ? ['      largeVolume: true'] : []),
      ...(option.qos === 'manual'
        ? [
            `      throughput: ${formatNumber(option.volumeThroughputMiBps ?? option.throughputMiBps, 0).replace(/,/g, '')} MiB/s`,
          ]
        : []),
    ]).flat(),
  ];
  return `${lines.join('\n')}\n`;
}

export function adviseSizingRequest(
  workspace: WorkspaceView,
  params: AdviseSizingParams,
  config: ResolvedConfig,
): AdviseSizingResult {
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
  if (params.networkFeatures === 'Basic' || params.networkFeatures === 'Standard')
    requirement.networkFeatures = params.networkFeatures;
  const percent = (value: unknown): number | undefined =>
    typeof value === 'number' && value >= 0 && value <= 100 ? value : undefined;
  if (params.readPercent !== undefined) {
    if (percent(params.readPercent) === undefined) return fail('readPercent: a number from 0 to 100');
    requirement.readPercent = params.readPercent;
  }
  if (params.coolDataPercent !== undefined) {
    if (percent(params.coolDataPercent) === undefined) return fail('coolDataPercent: a number from 0 to 100');
    requirement.coolDataPercent = params.coolDataPercent;
  }
  if (
    requirement.capacityGiB === undefined &&
    requirement.throughputMiBps === undefined &&
    requirement.iops === undefined
  ) {
    return fail('give at least a capacity, a throughput or IOPS');
  }
  const file = params.uri ? workspace.file(params.uri) : undefined;
  const manifest = file?.manifest;
  const prices = manifest ? manifestPrices(manifest, config) : config.prices;
  return {
    options: adviseSizing(requirement, prices).map((option) => {
      const draft = poolDraft(option, params);
      const advised = { ...option, manifestText: manifestText(option), newManifest: newManifestText(draft) };
      if (!file || !params.position) return advised;
      const inserted = sizingInsertion(file.kind, file.source.text, file.source.offsetAt(params.position), draft);
      if ('error' in inserted) return { ...advised, editError: inserted.error };
      return {
        ...advised,
        edit: { range: file.source.rangeOf(inserted.span), newText: inserted.newText, where: inserted.where },
      };
    }),
  };
}

/** The volume's name: its workload's, or `vol1`. */
function volumeName(params: AdviseSizingParams): string {
  return params.workload && params.workload !== 'general' ? params.workload : 'vol1';
}

const plain = (value: number) => formatNumber(value, 0).replace(/,/g, '');

/**
 * The chosen option as a pool with one volume, keeping the workload and the requirements just asked
 * for: anf-lint then checks the volume against them.
 */
export function poolDraft(option: SizingOption, params: AdviseSizingParams): PoolDraft {
  const requirements = Object.fromEntries(
    Object.entries({
      capacity: params.capacity,
      throughput: params.throughput,
      iops: params.iops,
      blockSize: params.blockSize,
    }).filter((e): e is [string, string] => Boolean(e[1])),
  );
  return {
    name: `${option.serviceLevel.toLowerCase()}-pool`,
    serviceLevel: option.serviceLevel,
    size: `${plain(option.poolSizeTiB)} TiB`,
    qos: option.qos,
    ...(option.flexibleThroughputMiBps !== undefined
      ? { throughput: `${plain(option.flexibleThroughputMiBps)} MiB/s` }
      : {}),
    volumes: [
      {
        name: volumeName(params),
        quota: `${plain(option.quotaGiB)} GiB`,
        ...(option.largeVolume ? { largeVolume: true } : {}),
        ...(option.qos === 'manual' ? { throughput: `${Math.floor(option.throughputMiBps)} MiB/s` } : {}),
        ...(params.workload ? { workload: params.workload } : {}),
        ...(Object.keys(requirements).length > 0 ? { requirements } : {}),
      },
    ],
  };
}

function newManifestText(draft: PoolDraft): string {
  const inserted = sizingInsertion('manifest-yaml', '', 0, draft);
  if ('error' in inserted) return '';
  return inserted.newText;
}

export interface RecommendedMountParams {
  readonly uri: string;
  readonly account?: string;
  readonly pool?: string;
  readonly volume: string;
  readonly style: MountStyle;
  /** The document the line goes into: a mount of the volume on its host gives the address and mount point. */
  readonly targetUri?: string;
}

export interface RecommendedMountResult {
  readonly text: string;
  readonly notes?: readonly string[];
}

export function recommendedMountRequest(
  workspace: WorkspaceView,
  params: RecommendedMountParams,
  config: ResolvedConfig,
): RecommendedMountResult | { error: string } {
  const style: MountStyle = MOUNT_STYLES.includes(params.style) ? params.style : 'fstab';
  const volume = workspace
    .volumes()
    .find(
      (v) =>
        v.uri === params.uri &&
        v.name === params.volume &&
        (params.pool === undefined || v.pool === params.pool) &&
        (params.account === undefined || v.account === params.account),
    );
  if (!volume)
    return { error: `No volume "${params.volume}" with a name, a service level and a quota in ${params.uri}.` };
  const mounted = volumeAsMounted(workspace, volume, params.targetUri);
  const { text, recommendation } = recommendedMountText(mounted.volume, style, config.defaultWorkload);
  return { text, notes: recommendation.notes };
}
