/**
 * How the language server paces and bounds itself. These are tuning choices for the editor, not
 * facts about Azure NetApp Files, so they live here and not in the facts table.
 */

/** Typing pauses this long before a document is checked again. */
export const DIAGNOSTICS_DEBOUNCE_MS = 150; // not a fact: editor pacing, like vscode-eslint's

/** The workspace index stops after this many files... */
export const INDEX_MAX_FILES = 2000; // not a fact: a bound on memory and start-up time

/** ...or after looking at this many directory entries... */
export const INDEX_MAX_ENTRIES = 50000; // not a fact: a bound on start-up time in huge trees

/** ...and skips files larger than this (configuration files are small). */
export const INDEX_MAX_FILE_BYTES = 1024 * 1024;

/** Directories never descended into. */
export const INDEX_SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', '.hg', '.svn', 'node_modules', 'dist', 'out', '.venv', 'venv', '__pycache__', '.terraform', '.cache']);

/** The longest a `workspace/diagnostic` request is held open when nothing changed (long poll). */
export const WORKSPACE_DIAGNOSTIC_HOLD_MS = 60000; // not a fact: long-poll bound, the client asks again
