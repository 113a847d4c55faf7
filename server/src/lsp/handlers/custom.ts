import type { Session } from '../session';

export function hierarchy(_session: Session, _params: unknown): unknown {
  return { manifests: [], unlinkedMounts: [], totals: { error: 0, warning: 0, info: 0, hint: 0 } };
}
export function adviseSizing(_session: Session, _params: unknown): unknown {
  return null;
}
export function recommendedMount(_session: Session, _params: unknown): unknown {
  return null;
}
