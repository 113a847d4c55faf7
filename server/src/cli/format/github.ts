import { visibleDiagnostics, type Severity } from '../../core';
import type { FileResult } from '../lint';

/**
 * GitHub Actions workflow commands: one `::warning file=…,line=…::message` per finding, which
 * GitHub shows as an annotation on the pull request. Escaping per the runner's rules: in the
 * message `%`, CR and LF; in properties also `:` and `,`.
 */
const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice', hint: 'notice' };

export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function formatGithub(results: readonly FileResult[]): string {
  const lines: string[] = [];
  for (const result of results) {
    for (const d of visibleDiagnostics(result.diagnostics)) {
      const { start, end } = d.range;
      const properties = [
        `file=${escapeProperty(result.repoPath)}`,
        `line=${start.line + 1}`,
        `col=${start.character + 1}`,
        `endLine=${end.line + 1}`,
        `endColumn=${end.character + 1}`,
        `title=${escapeProperty(d.code)}`,
      ];
      lines.push(`::${COMMAND[d.severity]} ${properties.join(',')}::${escapeData(d.message)}`);
    }
  }
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}
