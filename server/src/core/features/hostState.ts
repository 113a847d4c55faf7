import type { ResolvedConfig } from '../config';
import type { Diagnostic } from '../diagnostics';
import { lintFile, visibleDiagnostics } from '../lint';
import { activityOf, type MountActivity, parseMountstats } from '../mountstats/parse';
import { SourceText } from '../text/sourceText';
import { extractKernelSettings } from '../sysctl/extract';
import { MiB } from '../units/units';
import type { Host } from '../workspace/hosts';
import type { Workspace } from '../workspace/workspace';

/**
 * `anf-lint host` (issue 30): a Linux NFS client's state in force compared with what its folder in
 * the repository declares. The live `/proc/self/mountstats` is linted as if it were a capture
 * committed in the host's folder (the mountstats rules, ANF506-ANF508, with the same comparisons
 * the editor makes for a `mountstats` file); kernel settings the host declares are compared with
 * the values in force (`/proc/sys`) and the live `/etc/modprobe.d`. Pure: the caller reads the files.
 */

export interface LiveHostState {
  /** `/proc/self/mountstats` as read. */
  readonly mountstats: string;
  /** Values read from `/proc/sys/<key with / for .>`, by dotted key, for the keys the host declares. */
  readonly sysctl: ReadonlyMap<string, string>;
  /** The live `/etc/modprobe.d/*.conf` files. */
  readonly modprobe: readonly { readonly path: string; readonly text: string }[];
  /** `/proc/mounts` as read, when it could be: what is mounted where, NFS or not. */
  readonly procMounts?: string;
}

/** A mount the host's files declare that is not in force: nothing mounted there, or something else. */
export interface MissingMount {
  readonly mountPoint: string;
  readonly declaredIn: string;
  /** What is mounted there instead (`ext4 /dev/sdb1`), or undefined when nothing is. */
  readonly instead?: string;
}

export interface LiveMount {
  readonly mountPoint: string;
  readonly device: string;
  readonly version?: string;
  readonly nconnect: number;
  readonly rsize?: string;
  readonly wsize?: string;
  readonly activity?: MountActivity;
  /** The largest `max_slots` of its transports: the most RPC slots in use at once. */
  readonly maxSlots?: number;
}

export interface KernelComparison {
  readonly key: string;
  readonly declared: string;
  readonly declaredIn: string;
  /** The value in force, or undefined when the live state does not set it. */
  readonly live?: string;
  readonly where: string;
  readonly differs: boolean;
}

export interface HostStateReport {
  readonly host: Host;
  /** The URI the live capture was read under (in the host's folder). */
  readonly captureUri: string;
  readonly diagnostics: readonly Diagnostic[];
  readonly mounts: readonly LiveMount[];
  readonly kernel: readonly KernelComparison[];
  /** Declared NFS mounts (not `noauto`) that `/proc/mounts` does not show as NFS mounts; empty without it. */
  readonly missing: readonly MissingMount[];
}

const SYSCTL_ORIGINS = new Set(['sysctl', 'tuned', 'sysctl-w', 'proc-echo']);
const normalized = (value: string) => value.trim().replace(/\s+/g, ' ');

/** The dotted keys whose `/proc/sys` values the comparison needs: those the host declares as sysctls. */
export function declaredSysctlKeys(host: Host): string[] {
  return [...new Set(host.settings.filter((s) => SYSCTL_ORIGINS.has(s.origin) && !s.templated).map((s) => s.key))];
}

export function procSysPath(key: string): string {
  return `/proc/sys/${key.replace(/\./g, '/')}`;
}

export function compareHostState(
  workspace: Workspace,
  host: Host,
  live: LiveHostState,
  config: ResolvedConfig,
): HostStateReport {
  const root = host.root ?? '/';
  const captureUri = `file://${root}.anf-lint-host.mountstats`;
  workspace.set(captureUri, live.mountstats);
  const diagnostics = visibleDiagnostics(lintFile(workspace, captureUri, config));

  const capture = parseMountstats(live.mountstats);
  const mounts: LiveMount[] = capture.unreadable
    ? []
    : capture.nfs.map((device) => {
        const activity = activityOf(device, MiB);
        const slots = device.transports.map((t) => t.maxSlots).filter((n): n is number => n !== undefined);
        const version = device.options.get('vers')?.value;
        const rsize = device.options.get('rsize')?.value;
        const wsize = device.options.get('wsize')?.value;
        return {
          mountPoint: device.mountPoint,
          device: device.device,
          ...(version !== undefined ? { version } : {}),
          nconnect: Number(device.options.get('nconnect')?.value ?? '1'),
          ...(rsize !== undefined ? { rsize } : {}),
          ...(wsize !== undefined ? { wsize } : {}),
          ...(activity ? { activity } : {}),
          ...(slots.length > 0 ? { maxSlots: Math.max(...slots) } : {}),
        };
      });

  // Kernel settings: the last declaration of each key wins (boot order), compared with what runs.
  const kernel: KernelComparison[] = [];
  const lastSysctl = new Map<string, (typeof host.settings)[number]>();
  const lastModprobe = new Map<string, (typeof host.settings)[number]>();
  for (const setting of host.settings) {
    if (setting.templated || setting.condition !== undefined) continue;
    if (SYSCTL_ORIGINS.has(setting.origin)) lastSysctl.set(setting.key, setting);
    else if (setting.origin === 'modprobe') lastModprobe.set(setting.key, setting);
  }
  for (const [key, setting] of lastSysctl) {
    const value = live.sysctl.get(key);
    kernel.push({
      key,
      declared: setting.value,
      declaredIn: setting.uri,
      ...(value !== undefined ? { live: value.trim() } : {}),
      where: procSysPath(key),
      differs: value === undefined || normalized(value) !== normalized(setting.value),
    });
  }
  const liveModprobe = new Map<string, { value: string; path: string }>();
  for (const file of live.modprobe) {
    const read = extractKernelSettings(new SourceText(file.text), `file://${file.path}`, 'modprobe');
    for (const setting of read.settings) liveModprobe.set(setting.key, { value: setting.value, path: file.path });
  }
  for (const [key, setting] of lastModprobe) {
    const found = liveModprobe.get(key);
    kernel.push({
      key,
      declared: setting.value,
      declaredIn: setting.uri,
      ...(found ? { live: found.value } : {}),
      where: found?.path ?? '/etc/modprobe.d',
      differs: !found || normalized(found.value) !== normalized(setting.value),
    });
  }
  // Declared NFS mounts that are not mounted (or something else is mounted there).
  const missing: MissingMount[] = [];
  if (live.procMounts !== undefined) {
    const mounted = new Map<string, { device: string; fsType: string }>();
    for (const line of live.procMounts.split('\n')) {
      const [device, point, fsType] = line.trim().split(/\s+/);
      if (!device || !point || !fsType) continue;
      mounted.set(unescapeOctal(point).replace(/\/+$/, '') || '/', { device, fsType });
    }
    for (const mount of host.nfsMounts) {
      const point = (mount.mountPointDecoded ?? mount.mountPoint)?.replace(/\/+$/, '');
      if (!point?.startsWith('/') || mount.templated || mount.options.some((o) => o.name === 'noauto')) continue;
      const there = mounted.get(point);
      if (there && /^nfs4?$/.test(there.fsType)) continue;
      missing.push({
        mountPoint: point,
        declaredIn: mount.uri,
        ...(there ? { instead: `${there.fsType} ${there.device}` } : {}),
      });
    }
  }
  return { host, captureUri, diagnostics, mounts, kernel, missing };
}

const OCTAL = 8; // not a fact: the base of the kernel's \\ooo escapes in /proc/mounts

function unescapeOctal(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, OCTAL)));
}
