import type { ParsedFile } from '../workspace/parsedFile';

/** What changed about a file, before and after (a file that lost its mounts still had them). */
export interface FileChange {
  readonly uri: string;
  readonly before?: ParsedFile;
  readonly after?: ParsedFile;
}

const isManifest = (file: ParsedFile | undefined) => file !== undefined && (file.kind === 'manifest-yaml' || file.kind === 'manifest-json' || file.volumes.length > 0);

/**
 * Which other files must be checked again when one changes. Rules read across files in one
 * direction: mount rules read the manifest volume a mount reaches; kernel rules read the mounts
 * (slot tables sized for nconnect) and the manifests (workloads); manifest rules read the mounts
 * that reach their volumes. So a manifest change re-checks mount and kernel files, a mount change
 * re-checks kernel files and manifests, and a change that only touches kernel settings re-checks
 * nothing else.
 */
export function dependentsOf(change: FileChange, files: readonly ParsedFile[]): ParsedFile[] {
  const sides = [change.before, change.after];
  const manifestChanged = sides.some(isManifest);
  const mountsChanged = sides.some((f) => f !== undefined && f.mounts.length > 0);
  const configChanged = sides.some((f) => f?.kind === 'anf-lint-config');
  return files.filter((file) => {
    if (file.uri === change.uri) return false;
    if (configChanged) return true;
    if (manifestChanged && (file.mounts.length > 0 || file.settings.length > 0)) return true;
    if (mountsChanged && (file.settings.length > 0 || isManifest(file))) return true;
    return false;
  });
}
