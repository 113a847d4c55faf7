import type { RuleContext } from '../../rules/rule';
import type { ParsedFile } from '../../workspace/parsedFile';

/** Configuration rules report what parseConfigFile found; they never parse themselves. */
export function isConfigFile(file: ParsedFile): boolean {
  return file.kind === 'anf-lint-config';
}

export function reportProblems(code: string, context: RuleContext): void {
  for (const problem of context.file.problems) {
    if (problem.code !== code) continue;
    const { code: _code, ...finding } = problem;
    context.report(finding);
  }
}
