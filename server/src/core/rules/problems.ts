import type { RuleContext } from './shapes';

/**
 * Reports, as they are, the problems the file's reader filed under `code`: the parse-problem rules of
 * every domain (a malformed line, a syntax error, an unknown key) are found while reading, and the
 * rule with that code reports them.
 */
export function reportProblems(code: string, context: RuleContext): void {
  for (const problem of context.file.problems) {
    if (problem.code !== code) continue;
    const { code: _code, ...finding } = problem;
    context.report(finding);
  }
}
