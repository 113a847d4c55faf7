import type { ParsedFile } from '../../workspace/parsedFile';

/** Kernel rules run on files that set kernel parameters. */
export function hasSettings(file: ParsedFile): boolean {
  return file.settings.length > 0;
}

/** Parse-problem rules look at every file kind that can hold kernel settings. */
export function hasProblem(code: string): (file: ParsedFile) => boolean {
  return (file) => file.problems.some((p) => p.code === code);
}
