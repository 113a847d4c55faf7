/** `/`-separated absolute paths, the way the project model spells them (no node:path in the core). */

export function dirname(path: string): string {
  const index = path.lastIndexOf('/');
  if (index <= 0) return '/';
  return path.slice(0, index);
}

export function basename(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

export function joinPath(folder: string, name: string): string {
  return folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`;
}

/** Whether `path` is `folder` or lies below it. */
export function isInside(folder: string, path: string): boolean {
  if (path === folder) return true;
  return path.startsWith(folder.endsWith('/') ? folder : `${folder}/`);
}

/** `path` relative to `folder` (`/`-separated), or undefined when it is not inside. */
export function relativeTo(folder: string, path: string): string | undefined {
  if (path === folder) return '';
  const prefix = folder.endsWith('/') ? folder : `${folder}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/** The folders from `folder` up to `root` (both included), nearest first; just `folder` when it is not inside `root`. */
export function foldersUpTo(folder: string, root: string): string[] {
  if (!isInside(root, folder)) return [folder];
  const folders: string[] = [];
  let current = folder;
  for (;;) {
    folders.push(current);
    if (current === root || current === '/') break;
    current = dirname(current);
  }
  return folders;
}
