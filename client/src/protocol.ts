/**
 * The custom requests the client sends. Their shapes are defined by the server (core/features);
 * the client imports types only, so no server code ends up in the extension bundle.
 */
import type { HIERARCHY_REQUEST, HierarchyParams, HierarchyResult } from '../../server/src/core/features/hierarchy';

export type { DiagnosticCounts, HierarchyAccount, HierarchyFigure, HierarchyLocation, HierarchyManifest, HierarchyMount, HierarchyPool, HierarchyResult, HierarchyVolume } from '../../server/src/core/features/hierarchy';

/** `typeof` keeps the name in step with the server's constant at compile time. */
export const HIERARCHY_METHOD: typeof HIERARCHY_REQUEST = 'anf/hierarchy';
export type { HierarchyParams };
export type HierarchyAnswer = HierarchyResult;

export type { MountStyle } from '../../server/src/core/recommend/mountLine';
import type { MountStyle } from '../../server/src/core/recommend/mountLine';

/** `anf/recommendedMount`: the recommended mount of one manifest volume in one host format. */
export const RECOMMENDED_MOUNT_METHOD = 'anf/recommendedMount';
export interface RecommendedMountParams {
  /** The manifest that defines the volume. */
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

import type { SizingOption } from '../../server/src/core/calc/advisor';
import type { WorkloadKind } from '../../server/src/core/facts/workloads';
import type { HierarchyLocation } from '../../server/src/core/features/hierarchy';
export type { SizingOption, WorkloadKind };

/** `anf/adviseSizing`: the sizing advisor's options for a requirement, cheapest feasible first. */
export const ADVISE_SIZING_METHOD = 'anf/adviseSizing';
export interface AdviseSizingParams {
  /** The manifest the result is meant for (its region and prices apply). */
  readonly uri?: string;
  /** With units, as in a manifest's `requirements:` block: "10 TiB", "1600 MiB/s", "100k", "8 KiB". */
  readonly capacity?: string;
  readonly throughput?: string;
  readonly iops?: string;
  readonly blockSize?: string;
  readonly workload?: WorkloadKind;
}
export interface AdvisedOption extends SizingOption {
  /** Pool and volume as manifest text, when the server renders it. */
  readonly manifestText?: string;
  /** Where the server would insert it into `uri`. */
  readonly edit?: { readonly range: HierarchyLocation['range']; readonly newText: string };
}
export interface AdviseSizingResult {
  readonly options: readonly AdvisedOption[];
  /** Why there is no answer (a value without its unit, ...). */
  readonly error?: string;
}
