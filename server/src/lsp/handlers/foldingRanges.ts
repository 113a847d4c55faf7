/** `textDocument/foldingRange`: manifest accounts, pools, volumes and requirements blocks. */
import type { FoldingRange, FoldingRangeParams } from 'vscode-languageserver';
import { computeFoldingRanges } from '../../core/features/outline';
import type { Session } from '../session';

export function foldingRanges(session: Session, params: FoldingRangeParams): FoldingRange[] {
  const file = session.file(params.textDocument.uri);
  return file ? computeFoldingRanges(file) : [];
}
