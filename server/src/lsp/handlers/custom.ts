/** The custom requests of the VS Code commands: `anf/hierarchy`, `anf/adviseSizing`, `anf/recommendedMount`, `anf/workloads`. */
import { buildHierarchy } from '../../core/features/buildHierarchy';
import type { HierarchyParams, HierarchyResult } from '../../core/features/hierarchy';
import {
  adviseSizingRequest,
  recommendedMountRequest,
  workloadsRequest,
  type AdviseSizingParams,
  type AdviseSizingResult,
  type RecommendedMountParams,
  type WorkloadChoice,
} from '../../core/features/requests';
import type { Session } from '../session';

/** The tree of every project (each workspace folder's manifests reach only that folder's mounts), or of one manifest's. */
export function hierarchy(session: Session, params: HierarchyParams | null): HierarchyResult {
  const request = params ?? {};
  const workspaces = request.uri !== undefined ? [session.workspaceOf(request.uri)] : session.workspaces();
  const parts = workspaces.map((workspace) =>
    buildHierarchy(
      workspace,
      (uri: string) => session.configFor(uri),
      (uri) => session.allDiagnostics(uri),
      request,
    ),
  );
  const totals = { error: 0, warning: 0, info: 0, hint: 0 };
  for (const part of parts)
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) totals[key] += part.totals[key];
  return {
    manifests: parts.flatMap((p) => p.manifests),
    unlinkedMounts: parts.flatMap((p) => p.unlinkedMounts),
    totals,
  };
}

export function adviseSizing(session: Session, params: AdviseSizingParams | null): AdviseSizingResult {
  const request = params ?? {};
  // Without a document the request reads no file: any project's workspace answers alike.
  return adviseSizingRequest(
    session.workspaceOf(request.uri ?? ''),
    request,
    request.uri !== undefined ? session.configFor(request.uri) : session.config,
  );
}

export function recommendedMount(
  session: Session,
  params: RecommendedMountParams,
): ReturnType<typeof recommendedMountRequest> {
  return recommendedMountRequest(session.workspaceOf(params.uri), params, session.configFor(params.uri));
}

export function workloads(): readonly WorkloadChoice[] {
  return workloadsRequest();
}
