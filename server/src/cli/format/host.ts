import type { HostStateReport } from '../../core/features/hostState';
import { toJsonDiagnostic } from './json';

/**
 * `anf-lint host --format json` (documented in docs/cli.md): the same comparison as the text report.
 * A figure the capture does not give (a mount never used, no round trips counted) is null, never 0.
 */
export function hostJson(
  report: HostStateReport,
  folder: string | null,
  displayPath: (uri: string) => string,
  /** Whether /proc/mounts could be read: without it, which declared mounts are missing is unknown (null). */
  mountsRead: boolean,
): string {
  const value = {
    host: report.host.name,
    folder,
    mounts: report.mounts.map((m) => ({
      mountPoint: m.mountPoint,
      device: m.device,
      version: m.version ?? null,
      nconnect: m.nconnect,
      rsize: m.rsize ?? null,
      wsize: m.wsize ?? null,
      maxSlots: m.maxSlots ?? null,
      activity: m.activity
        ? {
            ageSeconds: m.activity.ageSeconds,
            readMiBps: m.activity.readMiBps,
            writeMiBps: m.activity.writeMiBps,
            readIops: m.activity.readIops,
            writeIops: m.activity.writeIops,
            readRttMs: m.activity.readRttMs ?? null,
            readExecuteMs: m.activity.readExecuteMs ?? null,
            writeRttMs: m.activity.writeRttMs ?? null,
            writeExecuteMs: m.activity.writeExecuteMs ?? null,
            rpcsInFlight: m.activity.concurrency,
          }
        : null,
    })),
    diagnostics: report.diagnostics.map((d) => ({ file: '/proc/self/mountstats', ...toJsonDiagnostic(d) })),
    kernel: report.kernel.map((k) => ({
      key: k.key,
      declared: k.declared,
      declaredIn: displayPath(k.declaredIn),
      live: k.live ?? null,
      where: k.where,
      differs: k.differs,
    })),
    notMounted: mountsRead
      ? report.missing.map((m) => ({
          mountPoint: m.mountPoint,
          declaredIn: displayPath(m.declaredIn),
          instead: m.instead ?? null,
        }))
      : null,
  };
  return `${JSON.stringify(value, null, 2)}\n`;
}
