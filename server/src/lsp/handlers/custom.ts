/** The custom requests of the VS Code commands: `anf/hierarchy`, `anf/adviseSizing`, `anf/recommendedMount`, `anf/workloads`. */
import { buildHierarchy } from '../../core/features/buildHierarchy';
import type { HierarchyParams, HierarchyResult } from '../../core/features/hierarchy';
import { adviseSizingRequest, recommendedMountRequest, workloadsRequest, type AdviseSizingParams, type AdviseSizingResult, type RecommendedMountParams, type WorkloadChoice } from '../../core/features/requests';
import type { Session } from '../session';

export function hierarchy(session: Session, params: HierarchyParams | null): HierarchyResult {
  return buildHierarchy(session.workspace, (uri: string) => session.configFor(uri), (uri) => session.allDiagnostics(uri), params ?? {});
}

export function adviseSizing(session: Session, params: AdviseSizingParams | null): AdviseSizingResult {
  return adviseSizingRequest(session.workspace, params ?? {}, params?.uri !== undefined ? session.configFor(params.uri) : session.config);
}

export function recommendedMount(session: Session, params: RecommendedMountParams): ReturnType<typeof recommendedMountRequest> {
  return recommendedMountRequest(session.workspace, params, session.configFor(params.uri));
}

export function workloads(): readonly WorkloadChoice[] {
  return workloadsRequest();
}
