import type { ParsedFile } from './parsedFile';
import { PARSER_FAILURE } from './parseFile';

/**
 * A reader across files (modules, linked templates) that throws leaves the file as read alone, with
 * ANF003 saying so instead of failing the request; `failed` names the reader and what stays unknown.
 */
export function readAloneAfter(file: ParsedFile, failed: string, error: unknown): ParsedFile {
  const message = error instanceof Error ? error.message : String(error);
  return {
    ...file,
    problems: [
      ...file.problems,
      { code: PARSER_FAILURE, span: { start: 0, end: 0 }, message: `${failed}: ${message}` },
    ],
  };
}
