import type { RuleContext } from '../../rules/rule';
import type { ParsedFile } from '../../workspace/parsedFile';

/** Kernel rules run on files that set kernel parameters. */
export function hasSettings(file: ParsedFile): boolean {
  return file.settings.length > 0;
}

/** Reports the parse problems the extractor filed under `code`. */
export function reportProblems(code: string, context: RuleContext): void {
  for (const problem of context.file.problems) {
    if (problem.code !== code) continue;
    const { code: _code, ...finding } = problem;
    context.report(finding);
  }
}

/** Parse-problem rules look at every file kind that can hold kernel settings. */
export function hasProblem(code: string): (file: ParsedFile) => boolean {
  return (file) => file.problems.some((p) => p.code === code);
}
