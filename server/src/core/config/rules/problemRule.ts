import type { ParsedFile } from '../../workspace/parsedFile';

/** Configuration rules report what parseConfigFile found; they never parse themselves. */
export function isConfigFile(file: ParsedFile): boolean {
  return file.kind === 'anf-lint-config';
}
