import { visibleDiagnostics, type Diagnostic, type Severity, SourceText } from '../../core';
import { formatMiBps, formatNumber } from '../../core/units/units';
import type { Colors } from '../color';
import type { FileResult } from '../lint';

const SEVERITY_WORDS: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info', hint: 'hint' };

function paintSeverity(colors: Colors, severity: Severity): string {
  const word = SEVERITY_WORDS[severity];
  if (severity === 'error') return colors.red(colors.bold(word));
  if (severity === 'warning') return colors.yellow(word);
  if (severity === 'info') return colors.blue(word);
  return colors.dim(word);
}

/** `path:line:col  severity  message  CODE`, then the line with a marker under the finding. */
export function formatDiagnosticLines(displayPath: string, source: SourceText, d: Diagnostic, colors: Colors): string[] {
  const { start, end } = d.range;
  const location = `${displayPath}:${start.line + 1}:${start.character + 1}`;
  const lines = [`${colors.underline(location)}  ${paintSeverity(colors, d.severity)}  ${d.message}  ${colors.dim(d.code)}`];
  if (start.line < source.lineCount) {
    const text = source.lineText(start.line);
    const lineNumber = String(start.line + 1);
    const gutter = ' '.repeat(lineNumber.length);
    const markerEnd = end.line === start.line ? Math.max(end.character, start.character + 1) : Math.max(text.length, start.character + 1);
    // Keep tabs so that the marker lines up under the same characters.
    const pad = text.slice(0, start.character).replace(/[^\t]/g, ' ');
    const marker = '^'.repeat(Math.max(1, Math.min(markerEnd, Math.max(text.length, start.character + 1)) - start.character));
    const paint = d.severity === 'error' ? colors.red : d.severity === 'warning' ? colors.yellow : colors.blue;
    lines.push(`  ${colors.dim(`${lineNumber} |`)} ${text}`, `  ${colors.dim(`${gutter} |`)} ${pad}${paint(marker)}`);
  }
  return lines;
}

/** Per-volume figures: what the manifest's volumes deliver, as the editor's hover shows them. */
export function formatVolumes(volumes: FileResult['volumes'], colors: Colors): string[] {
  if (volumes.length === 0) return [];
  const lines = [`  ${colors.bold('volumes')}`];
  for (const volume of volumes) {
    const parts = [
      volume.serviceLevel,
      `${formatNumber(volume.quotaGiB)} GiB`,
      `${formatMiBps(volume.throughputMiBps)}${volume.qos === 'manual' ? ' (manual QoS)' : ''}`,
    ];
    if (volume.requiredThroughputMiBps !== undefined) parts.push(`needs ${formatMiBps(volume.requiredThroughputMiBps)}`);
    if (volume.workload) parts.push(volume.workload);
    if (volume.nfsVersions.length > 0) parts.push(`NFSv${volume.nfsVersions.join('/')}`);
    lines.push(`    ${volume.account}/${volume.pool}/${colors.cyan(volume.name)}  ${parts.join(', ')}`);
  }
  return lines;
}

export interface TextSummary {
  readonly filesChecked: number;
}

export function formatText(results: readonly FileResult[], colors: Colors, summary: TextSummary): string {
  const out: string[] = [];
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0, hint: 0 };
  let fixable = 0;
  let filesWithFindings = 0;
  for (const result of results) {
    const diagnostics = visibleDiagnostics(result.diagnostics);
    if (diagnostics.length === 0 && result.volumes.length === 0) continue;
    const source = new SourceText(result.text);
    out.push(colors.bold(result.displayPath));
    out.push(...formatVolumes(result.volumes, colors));
    for (const d of diagnostics) {
      out.push(...formatDiagnosticLines(result.displayPath, source, d, colors).map((l) => `  ${l}`));
      counts[d.severity]++;
      if (d.fixes.some((f) => f.safe)) fixable++;
    }
    if (diagnostics.length > 0) filesWithFindings++;
    out.push('');
  }
  const total = counts.error + counts.warning + counts.info + counts.hint;
  const files = `${summary.filesChecked} file${summary.filesChecked === 1 ? '' : 's'} checked`;
  if (total === 0) {
    out.push(colors.green(`${files}, no problems.`));
  } else {
    const parts = (['error', 'warning', 'info', 'hint'] as const).filter((s) => counts[s] > 0).map((s) => `${counts[s]} ${s === 'info' || s === 'hint' ? s : `${s}${counts[s] === 1 ? '' : 's'}`}`);
    const line = `${total} problem${total === 1 ? '' : 's'} (${parts.join(', ')}) in ${filesWithFindings} file${filesWithFindings === 1 ? '' : 's'}; ${files}.${fixable > 0 ? ` ${fixable} fixable with --fix.` : ''}`;
    out.push(counts.error > 0 ? colors.red(colors.bold(line)) : counts.warning > 0 ? colors.yellow(colors.bold(line)) : colors.bold(line));
  }
  return `${out.join('\n')}\n`;
}
