import type { ResolvedConfig } from '../config';
import { outstandingIo } from '../calc/io';
import { activityOf } from '../mountstats/parse';
import { volumeCeilingAt } from '../perftest/ceiling';
import { PERF_KEYS, perfKey } from '../perftest/keys';
import type { JobValue, PerfJob } from '../perftest/model';
import { linkJob } from '../perftest/rules/link';
import type { Span } from '../text/sourceText';
import { formatDuration, formatMiBps, formatNumber, formatSize, MiB } from '../units/units';
import type { ParsedFile } from '../workspace/parsedFile';
import type { WorkspaceView } from '../workspace/workspaceView';
import type { CoreCompletion } from './completionItem';

/**
 * Editor features for performance-test job files (fio, vdbench): a job's hover (what it runs,
 * the mount and volume it tests, the volume's ceiling at its block size), a key's hover, the
 * ceiling as an inlay hint after each job header, and completion of keys and values.
 */

const within = (span: Span, offset: number) => span.start <= offset && offset <= span.end;

function shown<T>(value: JobValue<T>, format: (v: T) => string): string {
  if (!value.known) return `unknown: ${value.reason}`;
  return `${format(value.value)}${value.defaulted ? ' (default)' : ''}`;
}

function jobCeiling(workspace: WorkspaceView, uri: string, job: PerfJob) {
  const link = linkJob(workspace, uri, job);
  if (!link?.volume || !job.blockSizeBytes.known) return { link, ceiling: undefined };
  const ceiling = volumeCeilingAt(
    link.volume,
    job.blockSizeBytes.value,
    job.readPercent.known ? job.readPercent.value : undefined,
  );
  return { link, ceiling };
}

export function perftestHover(
  workspace: WorkspaceView,
  file: ParsedFile,
  offset: number,
  config: ResolvedConfig,
): { markdown: string; span: Span } | undefined {
  const perftest = file.perftest;
  if (!perftest) return undefined;
  for (const job of perftest.jobs) {
    if (!within(job.span, offset)) continue;
    const { link, ceiling } = jobCeiling(workspace, file.uri, job);
    const lines = [
      `**${job.tool === 'fio' ? `fio job \`[${job.name}]\`` : `vdbench run \`rd=${job.name}\``}**`,
      '',
      `- Pattern: ${shown(job.access, (a) => a)}, ${shown(job.readPercent, (r) => `${formatNumber(r)} % reads`)}`,
      `- Block size: ${shown(job.blockSizeBytes, (b) => formatSize(b))}`,
      `- Outstanding I/O: ${job.outstanding.known ? `${formatNumber(job.outstanding.value.total, 0)} (${job.outstanding.value.why})` : `unknown: ${job.outstanding.reason}`}`,
      `- I/O: ${shown(job.direct, (d) => (d ? 'direct (O_DIRECT)' : 'buffered (through the client page cache)'))}`,
      `- Working set: ${shown(job.workingSetBytes, (b) => formatSize(b))}`,
      `- Runtime: ${shown(job.runtimeSeconds, (s) => formatDuration(s))}${job.rampSeconds.known ? `, ramp ${formatDuration(job.rampSeconds.value)}` : ''}`,
      `- Target: ${job.targets.known ? job.targets.value.map((t) => `\`${t.path}\``).join(', ') || 'none' : `unknown: ${job.targets.reason}`}`,
    ];
    if (link) {
      lines.push(
        '',
        `On mount \`${link.mount.mountPointDecoded ?? link.mount.mountPoint}\`${link.elsewhere ? ` (host \`${link.elsewhere}\`)` : ''}${link.volume ? `, volume \`${link.volume.name}\` (${link.volume.serviceLevel}, ${formatMiBps(link.volume.throughputMiBps)})` : ': no volume of the workspace matches it'}.`,
      );
      if (ceiling && job.blockSizeBytes.known) {
        const needed = outstandingIo(ceiling.iops, config.rttSeconds);
        lines.push(
          '',
          `Ceiling at ${formatSize(job.blockSizeBytes.value)}: **${formatNumber(ceiling.iops, 0)} IOPS, ${formatMiBps(ceiling.mibps)}**: ${ceiling.limit}.`,
          '',
          `Little's Law: reaching it at ${formatNumber(config.rttSeconds * 1000, 3)} ms takes about ${formatNumber(Math.ceil(needed), 0)} outstanding I/O.`,
        );
      }
    } else if (job.targets.known) lines.push('', 'No NFS mount of this host holds its target.');
    return { markdown: lines.join('\n'), span: job.span };
  }
  for (const setting of perftest.settings) {
    if (!within(setting.keySpan, offset)) continue;
    const entry = perfKey(perftest.tool, setting.key);
    return {
      markdown: entry
        ? `**${setting.key}** (${perftest.tool}${entry.in ? `: ${entry.in.join(', ')}` : ''})\n\n${entry.summary}`
        : `**${setting.key}**: not one of the ${perftest.tool} keys anf-lint explains.`,
      span: setting.keySpan,
    };
  }
  return undefined;
}

/** After each job header: the volume's ceiling at the job's block size. */
export function perftestInlayHints(
  workspace: WorkspaceView,
  file: ParsedFile,
  range?: Span,
): { offset: number; label: string; tooltip?: string }[] {
  const hints: { offset: number; label: string; tooltip?: string }[] = [];
  for (const job of file.perftest?.jobs ?? []) {
    if (range && (job.span.end < range.start || job.span.start > range.end)) continue;
    const { link, ceiling } = jobCeiling(workspace, file.uri, job);
    if (!link?.volume || !ceiling || !job.blockSizeBytes.known) continue;
    hints.push({
      offset: job.span.end,
      label: `→ ${link.volume.name}: ${formatMiBps(ceiling.mibps)} · ${formatNumber(ceiling.iops, 0)} IOPS at ${formatSize(job.blockSizeBytes.value)}`,
      tooltip: `The most volume ${link.volume.name} delivers to this job: ${ceiling.limit}.`,
    });
  }
  return hints;
}

/** Keys at the start of a line, and values after `key=`. */
export function perftestCompletions(file: ParsedFile, offset: number): CoreCompletion[] {
  if (file.kind !== 'fio' && file.kind !== 'vdbench') return [];
  const tool = file.kind;
  const line = file.source.positionAt(offset).line;
  const prefix = file.source.text.slice(file.source.lineStart(line), offset);
  const value =
    tool === 'fio' ? /^\s*([\w]+)\s*=\s*([^\s=]*)$/.exec(prefix) : /(?:^|,)\s*([\w]+)=([^,=\s]*)$/.exec(prefix);
  if (value) {
    const entry = perfKey(tool, value[1]!.toLowerCase());
    const typed = value[2]!;
    return (entry?.values ?? []).map((v, index) => ({
      label: v,
      kind: 'value' as const,
      detail: entry!.key,
      insertText: v,
      replace: { start: offset - typed.length, end: offset },
      sortText: String(index).padStart(3, '0'),
    }));
  }
  const key = tool === 'fio' ? /^\s*([\w]*)$/.exec(prefix) : /(?:^|,)\s*([\w]*)$/.exec(prefix);
  if (!key) return [];
  const typed = key[1]!;
  return PERF_KEYS.filter((k) => k.tool === tool).map((k) => ({
    label: k.key,
    kind: 'key' as const,
    detail: tool === 'fio' ? 'fio job option' : `vdbench ${k.in?.join('/') ?? ''} parameter`,
    documentation: k.summary,
    insertText: `${k.key}=`,
    replace: { start: offset - typed.length, end: offset },
  }));
}

/** A device line of a mountstats capture: what the mount did since it was mounted. */
export function mountstatsHover(file: ParsedFile, offset: number): { markdown: string; span: Span } | undefined {
  for (const device of file.mountstats?.nfs ?? []) {
    if (!within(device.span, offset)) continue;
    const activity = activityOf(device, MiB);
    const ms = (value: number | undefined) => (value === undefined ? 'no calls' : `${formatNumber(value, 2)} ms`);
    const lines = [
      `**${device.mountPoint}** (${device.device}, NFS ${device.options.get('vers')?.value ?? '?'}, ${device.transports.length} connection${device.transports.length === 1 ? '' : 's'})`,
    ];
    if (activity)
      lines.push(
        '',
        `Since it was mounted (${formatDuration(activity.ageSeconds)} ago):`,
        `- read ${formatMiBps(activity.readMiBps)}, ${formatNumber(activity.readIops, 0)} IOPS; READ round trip ${ms(activity.readRttMs)}, execute ${ms(activity.readExecuteMs)}`,
        `- write ${formatMiBps(activity.writeMiBps)}, ${formatNumber(activity.writeIops, 0)} IOPS; WRITE round trip ${ms(activity.writeRttMs)}, execute ${ms(activity.writeExecuteMs)}`,
        `- ${formatNumber(activity.concurrency, 2)} RPCs in flight on average (Little's Law: execute time over age)`,
      );
    return { markdown: lines.join('\n'), span: device.span };
  }
  return undefined;
}
