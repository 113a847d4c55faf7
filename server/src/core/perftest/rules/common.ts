import type { RelatedSpan } from '../../diagnostics';
import type { RuleContext } from '../../rules/rule';
import type { Span } from '../../text/sourceText';
import { formatNumber } from '../../units/units';
import type { JobValue, PerfJob } from '../model';
import { type JobLink, linkJob } from './link';

/** Cheap `appliesTo`: a job file with jobs. */
export const hasJobs = (context: { perftest?: { jobs: readonly unknown[] } }): boolean =>
  (context.perftest?.jobs.length ?? 0) > 0;

/** `[randread]`, `rd=run1`: how messages name a job. */
export function jobName(job: PerfJob): string {
  return job.tool === 'fio' ? `\`[${job.name}]\`` : `\`rd=${job.name}\``;
}

/** Where a finding about a value goes: the value when this job's file writes it, else the job's header. */
export function spanOf(job: PerfJob, value: JobValue<unknown>): Span {
  return value.span ?? job.span;
}

/** The latency Little's Law is worked with, and where it comes from. */
export function latencyFor(context: RuleContext, link: JobLink | undefined): { seconds: number; words: string } {
  const required = link?.volume?.requiredLatencySeconds;
  if (required !== undefined)
    return {
      seconds: required,
      words: `${formatNumber(required * 1000, 3)} ms (the latency the volume's requirements ask for)`,
    };
  const seconds = context.config.rttSeconds;
  return {
    seconds,
    words: `${formatNumber(seconds * 1000, 3)} ms (\`network.rtt\` in .anf-lint.yaml, 0.5 ms unless set: put the latency this job measures there)`,
  };
}

/** The mount's line as a related location. */
export function mountRelated(link: JobLink): RelatedSpan[] {
  const where = link.mount.mountPointSpan ?? link.mount.span;
  return [
    {
      uri: link.mount.uri,
      span: where,
      message: `The mount of ${link.mount.mountPointDecoded ?? link.mount.mountPoint}${link.volume ? ` (volume \`${link.volume.name}\`)` : ''}${link.elsewhere ? ` on host \`${link.elsewhere}\`` : ''}`,
    },
  ];
}

export function linkOf(context: RuleContext, job: PerfJob): JobLink | undefined {
  return linkJob(context.workspace, context.file.uri, job);
}
