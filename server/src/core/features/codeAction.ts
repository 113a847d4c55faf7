/**
 * The code action in plain data, shared by codeActions.ts and the providers it calls
 * (sizingAlternatives.ts): its own module so that they do not import one another.
 */
import type { Diagnostic, TextEdit } from '../diagnostics';

/** The kind an editor asks for when it runs anf-lint's fix-all on save. */
export const FIX_ALL_KIND = 'source.fixAll.anf-lint';

export type CoreCodeActionKind = 'quickfix' | typeof FIX_ALL_KIND;

export interface CoreCodeAction {
  readonly title: string;
  readonly kind: CoreCodeActionKind;
  readonly edits: readonly TextEdit[];
  /** The diagnostics the action resolves (for `CodeAction.diagnostics`). */
  readonly diagnostics: readonly Diagnostic[];
  readonly isPreferred?: boolean;
}
