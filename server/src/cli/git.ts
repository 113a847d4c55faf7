import { execFileSync } from 'node:child_process';
import { UsageError } from './io';

/**
 * The few git questions the CLI asks. Paths git prints with `-z` are NUL-separated and relative to
 * the folder git ran in; we always run at the repository root and print repository-relative paths.
 */
function git(cwd: string, args: readonly string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 1 << 30 }); // not a fact: buffer size
}

/** The work tree's root, or undefined outside a git work tree (or without git). */
export function gitRoot(cwd: string): string | undefined {
  try {
    return git(cwd, ['rev-parse', '--show-toplevel']).trim() || undefined;
  } catch {
    return undefined;
  }
}

function splitZ(output: string): string[] {
  return output.split('\0').filter((p) => p.length > 0);
}

/** Files git knows under the root: tracked and untracked, without the ignored ones. Root-relative. */
export function knownFiles(root: string): string[] {
  return splitZ(git(root, ['ls-files', '-co', '--exclude-standard', '-z']));
}

/** Staged files that still exist in the index (added, copied, modified, renamed). Root-relative. */
export function stagedFiles(root: string): string[] {
  return splitZ(git(root, ['diff', '--cached', '--name-only', '--diff-filter=ACMR', '-z']));
}

/** Files that differ between a ref and the work tree (added, copied, modified, renamed), and new untracked files. Root-relative. */
export function filesChangedSince(root: string, ref: string): string[] {
  verifyRef(root, ref);
  const changed = splitZ(git(root, ['diff', '--name-only', '--diff-filter=ACMR', '-z', ref, '--']));
  return [...new Set([...changed, ...untrackedFiles(root)])].sort();
}

/** Untracked files that are not ignored. Root-relative. */
export function untrackedFiles(root: string): string[] {
  return splitZ(git(root, ['ls-files', '--others', '--exclude-standard', '-z']));
}

export function verifyRef(root: string, ref: string): void {
  try {
    git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
  } catch {
    throw new UsageError(`--changed-since: "${ref}" is not a commit, branch or tag in this repository`);
  }
}

/** The staged content of a file (`git show :path`). */
export function stagedText(root: string, path: string): string {
  return git(root, ['show', `:${path}`]);
}

/**
 * The line numbers (0-based, of the new side) that a diff adds or changes: from the `+c,d` of each
 * hunk of `git diff -U0`. `against` is `--cached` for staged changes or a ref for the work tree.
 */
export function changedLines(root: string, against: 'staged' | { readonly ref: string }, path: string): Set<number> | 'all' {
  // A file git does not track yet is new: every line is a change.
  if (against !== 'staged' && splitZ(git(root, ['ls-files', '--others', '--exclude-standard', '-z', '--', path])).length > 0) return 'all';
  const args = against === 'staged' ? ['diff', '--cached', '-U0', '--no-color', '--no-ext-diff', '--', path] : ['diff', '-U0', '--no-color', '--no-ext-diff', against.ref, '--', path];
  return parseChangedLines(git(root, args));
}

export function parseChangedLines(diff: string): Set<number> {
  const lines = new Set<number>();
  for (const match of diff.matchAll(/^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/gm)) {
    const start = Number(match[1]);
    const count = match[2] === undefined ? 1 : Number(match[2]);
    for (let line = start; line < start + count; line++) lines.add(line - 1);
  }
  return lines;
}
