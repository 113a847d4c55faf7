/**
 * How far the project model reads. Tuning choices of anf-lint, not facts about Azure NetApp Files
 * (docs/cli.md and docs/architecture.md say them in words).
 */

const MIB = 1024 * 1024; // not a fact: bytes in a MiB

/** Files found by walking a folder (the CLI's folders and globs, the server's index, cross-file context) larger than this are skipped, with a note. */
export const DISCOVERED_FILE_MAX_BYTES = MIB;

/** A file named on the command line may be this large. */
export const NAMED_FILE_MAX_BYTES = 64 * MIB; // not a fact: memory bound for one named file

/** Discovery stops after this many files... */
export const DISCOVERY_MAX_FILES = 2000; // not a fact: a bound on memory and start-up time

/** ...or after looking at this many directory entries (without git). */
export const DISCOVERY_MAX_ENTRIES = 50000; // not a fact: a bound on start-up time in huge trees

/** Folders never descended into and never taken from git's file list: the one skip list of the CLI and the server. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'dist',
  'out',
  '.vscode-test',
  '.venv',
  'venv',
  '__pycache__',
  '.terraform',
  '.cache',
]);

export interface DiscoveryLimits {
  readonly maxFiles: number;
  readonly maxEntries: number;
  readonly maxFileBytes: number;
}

export const DEFAULT_DISCOVERY_LIMITS: DiscoveryLimits = {
  maxFiles: DISCOVERY_MAX_FILES,
  maxEntries: DISCOVERY_MAX_ENTRIES,
  maxFileBytes: DISCOVERED_FILE_MAX_BYTES,
};
