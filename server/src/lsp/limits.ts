/**
 * How the language server paces and bounds itself. These are tuning choices for the editor, not
 * facts about Azure NetApp Files, so they live here and not in the facts table.
 */

/** Typing pauses this long before a document is checked again. */
export const DIAGNOSTICS_DEBOUNCE_MS = 150; // not a fact: editor pacing, like vscode-eslint's

/* The workspace index's bounds and skip list are the project model's: core/project/limits.ts. */

/** The longest a `workspace/diagnostic` request is held open when nothing changed (long poll). */
export const WORKSPACE_DIAGNOSTIC_HOLD_MS = 60000; // not a fact: long-poll bound, the client asks again
