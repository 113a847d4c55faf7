import { CONFIG_FILE_NAMES } from '../configFile';
import { dirname, foldersUpTo, joinPath } from './paths';

/**
 * Where a file's `.anf-lint.yaml` may be: `.anf-lint.yaml` and `.anf-lint.yml` in the file's folder
 * and each folder above it, nearest first, up to and including `root` (its repository or workspace
 * folder) and never above it. The CLI asks its environment which exists; the server looks them up
 * among the files it indexed and the open documents.
 */
export function configCandidates(path: string, root: string): string[] {
  return foldersUpTo(dirname(path), root).flatMap((folder) => CONFIG_FILE_NAMES.map((name) => joinPath(folder, name)));
}

/** The nearest configuration file of `path` among the candidates `exists` confirms. */
export function nearestConfig(path: string, root: string, exists: (candidate: string) => boolean): string | undefined {
  return configCandidates(path, root).find(exists);
}
