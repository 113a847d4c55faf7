import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { detectFileKind, isLintable } from '../core';

const SKIPPED_DIRECTORIES = new Set(['node_modules', '.git', 'dist', '.vscode-test']);

export interface InputFile {
  readonly path: string;
  readonly displayPath: string;
  readonly text: string;
}

/** Reads the lintable files under the given paths (folders are walked; unknown kinds skipped). */
export async function collectFiles(paths: readonly string[], cwd: string): Promise<{ files: InputFile[]; errors: string[] }> {
  const files: InputFile[] = [];
  const errors: string[] = [];
  const visit = async (path: string, explicit: boolean): Promise<void> => {
    let info;
    try {
      info = await stat(path);
    } catch {
      errors.push(`${relative(cwd, path) || path}: no such file or folder`);
      return;
    }
    if (info.isDirectory()) {
      const entries = await readdir(path);
      entries.sort();
      for (const entry of entries) {
        if (SKIPPED_DIRECTORIES.has(entry)) continue;
        await visit(join(path, entry), false);
      }
      return;
    }
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      errors.push(`${relative(cwd, path) || path}: cannot read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      return;
    }
    if (!explicit && !isLintable(detectFileKind(path, text))) return;
    files.push({ path, displayPath: relative(cwd, path) || path, text });
  };
  for (const path of paths) await visit(resolve(cwd, path), true);
  return { files, errors };
}
