/**
 * The completion item every completion provider returns (YAML and JSON manifests, mount lines,
 * kernel settings): its own module so that the providers do not import one another.
 */
import type { Span } from '../text/sourceText';

/** A completion item in plain data; the LSP maps `kind` to CompletionItemKind. */
export interface CoreCompletion {
  readonly label: string;
  readonly kind: 'option' | 'value' | 'key' | 'snippet' | 'setting';
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  readonly insertText: string;
  /** `insertText` uses snippet syntax ($1, ${1:default}). */
  readonly snippet?: boolean;
  /** The text the item replaces (the word typed so far). */
  readonly replace: Span;
  readonly sortText?: string;
  /** What the editor matches the typed text against, when not the label (JSON: the key with its quotes). */
  readonly filterText?: string;
  /** Edits away from the cursor that come with the item (JSON: the comma missing after the previous member). */
  readonly additionalEdits?: readonly { readonly span: Span; readonly newText: string }[];
}
