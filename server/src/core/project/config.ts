import { CONFIG_FILE_NAMES } from '../configFile';
import { dirname, foldersUpTo, isInside, joinPath } from './paths';

/**
 * Where a file's `.anf-lint.yaml` may be: `.anf-lint.yaml` and `.anf-lint.yml` in the file's folder
 * and each folder above it, nearest first, up to and including `root` (its repository or workspace
 * folder; outside them the folder named on the command line or the current folder) and never
 * above it. The CLI asks its environment which exists; the server looks them up
 * among the files it indexed and the open documents.
 */
export function configCandidates(path: string, root: string, fence?: (folder: string) => boolean): string[] {
  const folders = foldersUpTo(dirname(path), root);
  const stop = fence ? folders.findIndex(fence) : -1;
  return (stop < 0 ? folders : folders.slice(0, stop)).flatMap((folder) =>
    CONFIG_FILE_NAMES.map((name) => joinPath(folder, name)),
  );
}

/** The nearest configuration file of `path` among the candidates `exists` confirms (`fence`: a folder the lookup stops before). */
export function nearestConfig(
  path: string,
  root: string,
  exists: (candidate: string) => boolean,
  fence?: (folder: string) => boolean,
): string | undefined {
  return configCandidates(path, root, fence).find(exists);
}

/**
 * Outside a repository or workspace folder, the folders the lookup never enters: those above the
 * user's home (for a file inside it), and a shared temporary folder and those above it (for a file
 * inside one), where another user could place a `.anf-lint.yaml` that reconfigures or blocks the run.
 */
export function looseFence(
  path: string,
  home: string | undefined,
  shared: readonly string[],
): (folder: string) => boolean {
  const homeAbove = home !== undefined && home !== '/' && isInside(home, path);
  const sharedAbove = shared.filter((folder) => isInside(folder, path));
  return (folder) =>
    (homeAbove && folder !== home && isInside(folder, home!)) || sharedAbove.some((s) => isInside(folder, s));
}
