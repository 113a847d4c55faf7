import type { Hover, HoverParams } from 'vscode-languageserver';
import type { Session } from '../session';

export function hover(_session: Session, _params: HoverParams): Hover | null {
  return null;
}
