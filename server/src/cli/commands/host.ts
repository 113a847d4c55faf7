import { decodeBytes } from '../../core/project';
import { compareHostState, declaredSysctlKeys, procSysPath, type LiveHostState } from '../../core/features/hostState';
import { formatMiBps, formatNumber } from '../../core/units/units';
import { colorsEnabled, createColors } from '../color';
import { displayPathOf } from '../files';
import { hostJson } from '../format/host';
import { formatDiagnosticLines } from '../format/text';
import { EXIT, UsageError, type CliIo } from '../io';
import { openTargets } from '../lint';
import { parseOrUsage, table, wroteHelp } from './shared';

export const HOST_USAGE = `Usage: anf-lint host [PATH] [--host NAME] [--format text|json]

Compares the Linux NFS client this runs on with its folder in the repository at PATH (default: the
current folder). The host is the folder named like this machine (its hostname, first label), or
--host NAME. Reads /proc/self/mountstats, /proc/mounts, /proc/sys (the kernel settings the folder
declares) and /etc/modprobe.d, and reports:
  - NFS options in force that differ from the declared mounts (version, rsize, wsize, nconnect,
    actimeo; a missing nconnect because an earlier mount to the same server had none): ANF507
  - per mount, average throughput and IOPS since it was mounted, average round trip and execute
    time per READ and WRITE, and by Little's Law the RPCs in flight; a note when a volume runs at its
    QoS ceiling or when latency, not the volume, bounds it: ANF508
  - kernel settings and modprobe.d options in force that differ from the declared ones
  - declared NFS mounts (not noauto) that /proc/mounts does not show mounted
A capture committed as \`mountstats\` in the host's folder gets the same comparisons from \`anf-lint\`.

  --host NAME     the host folder to compare with (default: this machine's hostname)
  --format json   the same report as one JSON object (docs/cli.md); default text

Exit codes: 0 nothing differs; 1 findings or differences; 2 usage error (no such host folder, no
mountstats); 3 internal error.
`;

function readText(read: (path: string) => Uint8Array, path: string): string | undefined {
  try {
    const { text, decodable } = decodeBytes(read(path));
    return decodable ? text : undefined;
  } catch {
    return undefined;
  }
}

/** `anf-lint host`: the live NFS client against its host folder. */
export async function runHost(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrUsage(
    args,
    { host: { type: 'string' }, format: { type: 'string', short: 'f' } },
    true,
  );
  if (wroteHelp(values, HOST_USAGE, io)) return EXIT.ok;
  if (positionals.length > 1) throw new UsageError('anf-lint host takes one PATH');
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json')
    throw new UsageError(`--format: "${format}" is not a format of anf-lint host; use text or json`);
  const { project, run, errors } = await openTargets({ patterns: positionals, ruleOverrides: {} }, io);
  for (const error of errors) io.stderr.write(`anf-lint: ${error}\n`);
  const env = project.env;
  const read = (path: string) => env.readFile(path);

  const hostName =
    values.host ?? readText(read, '/proc/sys/kernel/hostname')?.trim().split('.')[0] ?? io.env.HOSTNAME?.split('.')[0];
  if (!hostName)
    throw new UsageError('this machine has no hostname anf-lint can read: name its folder with --host NAME');
  const target = run.targets[0];
  if (!target) throw new UsageError('no file to read in PATH');
  const workspace = run.workspaceOf(target.uri);
  const machines = workspace.hosts().machines;
  const host = machines.find((m) => m.name === hostName);
  if (!host)
    throw new UsageError(
      `no host folder named \`${hostName}\` in the repository${machines.length > 0 ? ` (host folders: ${machines.map((m) => m.name).join(', ')})` : ' (it has no host folders: a folder with etc/fstab, etc/sysctl.d or etc/modprobe.d)'}; use --host NAME`,
    );

  const mountstats = readText(read, '/proc/self/mountstats');
  if (mountstats === undefined)
    throw new UsageError('cannot read /proc/self/mountstats: anf-lint host runs on a Linux NFS client');
  const sysctl = new Map<string, string>();
  for (const key of declaredSysctlKeys(host)) {
    const value = readText(read, procSysPath(key));
    if (value !== undefined) sysctl.set(key, value);
  }
  const modprobe: { path: string; text: string }[] = [];
  try {
    for (const entry of env.list('/etc/modprobe.d')) {
      if (!entry.name.endsWith('.conf')) continue;
      const path = `/etc/modprobe.d/${entry.name}`;
      const text = readText(read, path);
      if (text !== undefined) modprobe.push({ path, text });
    }
  } catch {
    // No /etc/modprobe.d: nothing set there.
  }
  const procMounts = readText(read, '/proc/mounts');
  const live: LiveHostState = { mountstats, sysctl, modprobe, ...(procMounts !== undefined ? { procMounts } : {}) };
  const report = compareHostState(workspace, host, live, run.configForUri(target.uri).resolved);

  const differing = report.kernel.filter((k) => k.differs);
  const exitCode =
    report.diagnostics.some((d) => d.severity === 'error' || d.severity === 'warning') ||
    differing.length > 0 ||
    report.missing.length > 0
      ? EXIT.findings
      : EXIT.ok;
  const shown = (uri: string) => displayPathOf(env.pathOf(uri) ?? uri, io.cwd);
  if (format === 'json') {
    io.stdout.write(
      hostJson(
        report,
        host.root === undefined ? null : displayPathOf(host.root, io.cwd),
        shown,
        procMounts !== undefined,
      ),
    );
    return exitCode;
  }

  const colors = createColors(colorsEnabled(io.stdout, io.env));
  const out: string[] = [
    `Host \`${host.name}\` (${displayPathOf(host.root ?? '', io.cwd)}): live state of this machine`,
    '',
  ];
  if (report.mounts.length > 0) {
    const ms = (value: number | undefined) => (value === undefined ? '-' : formatNumber(value, 2));
    out.push(
      table(
        ['mount', 'vers', 'nconnect', 'read', 'write', 'IOPS', 'READ rtt/exec ms', 'WRITE rtt/exec ms', 'in flight'],
        report.mounts.map((m) => [
          m.mountPoint,
          m.version ?? '?',
          String(m.nconnect),
          m.activity ? formatMiBps(m.activity.readMiBps) : '-',
          m.activity ? formatMiBps(m.activity.writeMiBps) : '-',
          m.activity ? formatNumber(m.activity.readIops + m.activity.writeIops, 0) : '-',
          `${ms(m.activity?.readRttMs)}/${ms(m.activity?.readExecuteMs)}`,
          `${ms(m.activity?.writeRttMs)}/${ms(m.activity?.writeExecuteMs)}`,
          m.activity ? formatNumber(m.activity.concurrency, 2) : '-',
        ]),
        colors,
      ),
      "Averages since each mount was made (age); in flight: Little's Law, the execute time of every RPC over the age.",
      '',
    );
  }
  const capture = workspace.file(report.captureUri);
  for (const d of report.diagnostics)
    if (capture) out.push(...formatDiagnosticLines('/proc/self/mountstats', capture.source, d, colors));
  for (const k of differing) {
    const declaredIn = shown(k.declaredIn);
    out.push(
      `${k.where}  ${colors.bold('differs')}  ${k.key}: ${k.live === undefined ? 'not set' : `\`${k.live}\``} in force, \`${k.declared}\` declared in ${declaredIn}`,
    );
  }
  for (const m of report.missing) {
    const declaredIn = shown(m.declaredIn);
    out.push(
      `/proc/mounts  ${colors.bold('not mounted')}  ${m.mountPoint}: declared in ${declaredIn}, ${m.instead ? `but ${m.instead} is mounted there` : 'but nothing is mounted there'}`,
    );
  }
  const same = report.kernel.length - differing.length;
  out.push(
    '',
    `${report.diagnostics.length} finding${report.diagnostics.length === 1 ? '' : 's'}, ${differing.length} kernel setting${differing.length === 1 ? '' : 's'} not as declared${same > 0 ? ` (${same} as declared)` : ''}, ${procMounts === undefined ? 'declared NFS mounts not compared (/proc/mounts could not be read)' : `${report.missing.length} declared NFS mount${report.missing.length === 1 ? '' : 's'} not mounted`}.`,
  );
  io.stdout.write(`${out.join('\n')}\n`);
  return exitCode;
}
