import { detectFileKind, kindNeedsText } from '../fileKind';
import { isLintable } from '../workspace/parseFile';
import type { Environment } from './environment';
import { DEFAULT_DISCOVERY_LIMITS, SKIPPED_DIRECTORIES, type DiscoveryLimits } from './limits';
import { basename, joinPath, relativeTo } from './paths';

/**
 * Which files a folder holds that anf-lint may read: the one discovery of the CLI (folders, globs,
 * context) and of the language server's index. Inside a git work tree the files git knows (tracked
 * or untracked, not ignored); elsewhere a walk. Both leave out SKIPPED_DIRECTORIES.
 */
export interface Discovered {
  /** Absolute paths, sorted, that may hold a file anf-lint reads (the text decides for YAML and extension-less files). */
  readonly paths: readonly string[];
  /** Set when a bound stopped the walk: which one, in words. */
  readonly stopped?: string;
}

/** By name: `yes` (a kind anf-lint reads), `maybe` (YAML or extension-less: the text decides), `no`. */
export function candidateByName(path: string): 'yes' | 'maybe' | 'no' {
  const kind = detectFileKind(path);
  if (kind === 'anf-lint-config' || isLintable(kind)) return 'yes';
  const name = basename(path);
  // YAML, JSON, .conf and .ini files without a telling name, and extension-less scripts, need their text.
  if (kind === 'unknown' && (kindNeedsText(path) || !name.includes('.'))) return 'maybe';
  return 'no';
}

/** Whether a file with this text is one anf-lint lints or configures with. */
export function isProjectFile(path: string, text: string): boolean {
  if (text.includes('\0')) return false;
  const kind = detectFileKind(path, text);
  return kind === 'anf-lint-config' || isLintable(kind);
}

function skippedSegment(relative: string): boolean {
  const segments = relative.split('/');
  segments.pop();
  return segments.some((s) => SKIPPED_DIRECTORIES.has(s));
}

/**
 * The candidate files under `folder`. `gitRoot` is the work tree that holds it (git decides there);
 * undefined walks the folder.
 */
export function discoverFiles(
  env: Environment,
  folder: string,
  gitRoot: string | undefined,
  limits: DiscoveryLimits = DEFAULT_DISCOVERY_LIMITS,
): Discovered {
  const paths: string[] = [];
  if (gitRoot !== undefined && env.git) {
    let known: readonly string[] | undefined;
    try {
      known = env.git.knownFiles(gitRoot);
    } catch {
      known = undefined;
    }
    if (known) {
      for (const name of [...known].sort()) {
        const path = joinPath(gitRoot, name);
        const below = relativeTo(folder, path);
        if (below === undefined || below === '' || skippedSegment(name)) continue;
        if (candidateByName(path) === 'no') continue;
        paths.push(path);
        if (paths.length >= limits.maxFiles) return { paths, stopped: `it reached ${limits.maxFiles} files` };
      }
      return { paths };
    }
  }
  let entries = 0;
  const queue = [folder];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    let children;
    try {
      children = env.list(dir);
    } catch {
      continue;
    }
    for (const child of children) {
      if (++entries > limits.maxEntries)
        return { paths, stopped: `it looked at ${limits.maxEntries} directory entries` };
      const path = joinPath(dir, child.name);
      if (child.kind === 'directory') {
        if (!SKIPPED_DIRECTORIES.has(child.name)) queue.push(path);
        continue;
      }
      // Links to folders are not followed (no loops, no leaving the folder); links to files are read only when they stay inside.
      if (child.kind === 'symlink' && env.stat(path)?.kind === 'directory') continue;
      if (candidateByName(path) === 'no') continue;
      paths.push(path);
      if (paths.length >= limits.maxFiles) return { paths, stopped: `it reached ${limits.maxFiles} files` };
    }
  }
  return { paths: paths.sort() };
}
