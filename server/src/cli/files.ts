import { isAbsolute, relative, sep } from 'node:path';

/** How the CLI shows a path: relative to the current folder when it is inside, else absolute; `/`-separated. */
export function displayPathOf(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  const shown = rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
  return shown.split(sep).join('/');
}
