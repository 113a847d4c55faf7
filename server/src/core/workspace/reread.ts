import type { ParseProblem } from '../diagnostics';
import type { ElsewhereVolume, IacEstate } from '../iac/estate';
import { estateReadAgain } from '../iac/read';
import type { ParsedFile } from './parsedFile';
import { PARSER_FAILURE } from './parseFile';

/**
 * A file of infrastructure code read again with other files (Terraform and Bicep modules, linked
 * ARM templates, parameters files): its estate and manifest model replaced by that reading's,
 * and its problems by `problems` when given.
 */
export function withEstate(
  file: ParsedFile,
  estate: IacEstate,
  problems?: readonly ParseProblem[],
  elsewhere?: ReadonlyMap<string, readonly ElsewhereVolume[]>,
): ParsedFile {
  const read = estateReadAgain(estate, file, elsewhere);
  const { manifest: _manifest, ...rest } = file;
  return {
    ...rest,
    ...(problems ? { problems } : {}),
    iac: read.estate,
    volumes: read.volumes ?? [],
    ...(read.manifest ? { manifest: read.manifest } : {}),
  };
}

/** The file's problems and those of the reading with other files that the file alone did not have, or undefined when none. */
export function withProblemsFound(file: ParsedFile, found: readonly ParseProblem[]): ParseProblem[] | undefined {
  const added = found.filter((p) => !file.problems.some((q) => q.code === p.code && q.span.start === p.span.start));
  return added.length > 0 ? [...file.problems, ...added] : undefined;
}

/**
 * A reader across files that throws leaves the file as read alone, with ANF003 saying so instead
 * of failing the request; `failed` names the reader and what stays unknown.
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
