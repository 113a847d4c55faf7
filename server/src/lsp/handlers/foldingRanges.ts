import type { FoldingRange, FoldingRangeParams } from 'vscode-languageserver';
import type { Session } from '../session';

export function foldingRanges(_session: Session, _params: FoldingRangeParams): FoldingRange[] {
  return [];
}
