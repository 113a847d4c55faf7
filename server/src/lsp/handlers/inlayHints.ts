import type { InlayHint, InlayHintParams } from 'vscode-languageserver';
import type { Session } from '../session';

export function inlayHints(_session: Session, _params: InlayHintParams): InlayHint[] {
  return [];
}
