/**
 * The custom requests the client sends. Their shapes are defined by the server
 * (server/src/core/features); the client imports types only, so no server code ends up in the
 * extension bundle, and `typeof` keeps the method names in step at compile time.
 */
import type { SCAN_PROGRESS_NOTIFICATION } from '../../server/src/lsp/session';
import type { HIERARCHY_REQUEST } from '../../server/src/core/features/hierarchy';
import type {
  ADVISE_SIZING_REQUEST,
  RECOMMENDED_MOUNT_REQUEST,
  WORKLOADS_REQUEST,
} from '../../server/src/core/features/requests';

export type {
  DiagnosticCounts,
  HierarchyAccount,
  HierarchyFigure,
  HierarchyFigureKey,
  HierarchyLocation,
  HierarchyManifest,
  HierarchyMount,
  HierarchyParams,
  HierarchyPool,
  HierarchyResult,
  HierarchyVolume,
} from '../../server/src/core/features/hierarchy';
export type {
  AdviseSizingParams,
  AdviseSizingResult,
  AdvisedOption,
  RecommendedMountParams,
  RecommendedMountResult,
  WorkloadChoice,
} from '../../server/src/core/features/requests';
export type { ScanProgressParams } from '../../server/src/lsp/session';
export type { MountStyle } from '../../server/src/core/recommend/mountLine';
export type { WorkloadKind } from '../../server/src/core/facts/workloads';

export const HIERARCHY_METHOD: typeof HIERARCHY_REQUEST = 'anf/hierarchy';
export const ADVISE_SIZING_METHOD: typeof ADVISE_SIZING_REQUEST = 'anf/adviseSizing';
export const RECOMMENDED_MOUNT_METHOD: typeof RECOMMENDED_MOUNT_REQUEST = 'anf/recommendedMount';
export const WORKLOADS_METHOD: typeof WORKLOADS_REQUEST = 'anf/workloads';

/** The server's progress of its first scan (a notification: the language-status item follows it). */
export const SCAN_PROGRESS_METHOD: typeof SCAN_PROGRESS_NOTIFICATION = 'anf/scanProgress';
