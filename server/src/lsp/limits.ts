/**
 * How the language server paces and bounds itself. These are tuning choices for the editor, not
 * facts about Azure NetApp Files, so they live here and not in the facts table.
 */

/** Typing pauses this long before a document is checked again. */
export const DIAGNOSTICS_DEBOUNCE_MS = 150; // not a fact: editor pacing, like vscode-eslint's

/**
 * Open documents longer than this (UTF-16 code units) are not parsed or checked: one ANF011 finding
 * says so, and the rest of the workspace is served as usual. Checking a document again on every
 * keystroke made a 50 MB fstab take the server to 5.7 GB without an answer (issue 18.7).
 */
export const OPEN_DOCUMENT_MAX_CHARS = 4 * 1024 * 1024; // not a fact: editor responsiveness bound

/**
 * Open infrastructure-code documents (Terraform, Bicep, ARM) longer than this are re-read only when
 * typing pauses for LARGE_IAC_SETTLE_MS, not on every change: reading and evaluating a 4 Mi-character
 * `.tf` took 5-6 s per keystroke and no request was answered meanwhile (issue 32). In between,
 * requests about the document get empty answers (its last diagnostics stay).
 */
export const LARGE_IAC_CHARS = 256 * 1024; // not a fact: about 7,000 lines of Terraform, far above a hand-written module

/** How long typing must pause before a large infrastructure-code document is read again. */
export const LARGE_IAC_SETTLE_MS = 1000; // not a fact: editor pacing, longer than a keystroke interval

/* The workspace index's bounds and skip list are the project model's: core/project/limits.ts. */

/** The longest a `workspace/diagnostic` request is held open when nothing changed (long poll). */
export const WORKSPACE_DIAGNOSTIC_HOLD_MS = 60000; // not a fact: long-poll bound, the client asks again
