/** `textDocument/inlayHint`: the throughput after each quota, the budget after each pool size, the ceiling after each test job. */
import { InlayHintKind, type InlayHint, type InlayHintParams } from 'vscode-languageserver';
import { computeInlayHints } from '../../core/features/outline';
import type { Session } from '../session';

export function inlayHints(session: Session, params: InlayHintParams): InlayHint[] {
  const file = session.file(params.textDocument.uri);
  if (!file) return [];
  const within = { start: file.source.offsetAt(params.range.start), end: file.source.offsetAt(params.range.end) };
  return computeInlayHints(file, session.configFor(file.uri), within, session.workspaceOf(file.uri)).map((hint) => ({
    position: file.source.positionAt(hint.offset),
    label: hint.label,
    kind: InlayHintKind.Type,
    paddingLeft: true,
    ...(hint.tooltip ? { tooltip: hint.tooltip } : {}),
  }));
}
