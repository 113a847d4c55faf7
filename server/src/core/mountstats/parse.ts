import type { Span } from '../text/sourceText';
import { linesOf } from '../perftest/values';
import type { Mutable } from '../mutable';

/**
 * `/proc/self/mountstats` as the Linux kernel writes it (fs/nfs/super.c `nfs_show_stats`, statvers
 * 1.1; net/sunrpc/stats.c `rpc_clnt_show_stats`, net/sunrpc/xprtsock.c `xs_tcp_print_stats`), the
 * format nfs-utils' mountstats.py reads: one `device SERVER:/EXPORT mounted on MOUNTPOINT with fstype
 * nfs[4] statvers=1.1` line per mount, then tab-indented `opts:`, `age:`, `caps:`, `sec:`,
 * `events:`, `bytes:`, `RPC iostats version:`, one `xprt:` line per transport (several with
 * `nconnect`), and `per-op statistics` lines `OP: ops trans timeouts bytes_sent bytes_recv
 * queue_ms rtt_ms execute_ms [errors]`. Pure: text in, model out.
 */

export interface MountstatsOp {
  readonly ops: number;
  readonly transmissions: number;
  readonly timeouts: number;
  readonly bytesSent: number;
  readonly bytesReceived: number;
  /** Cumulative milliseconds: waiting to be sent, on the wire (round trip), and the whole call. */
  readonly queueMs: number;
  readonly rttMs: number;
  readonly executeMs: number;
}

export interface MountstatsTransport {
  readonly protocol: string;
  /** The `max_slots` counter of a TCP transport: the most RPC slots it has used. */
  readonly maxSlots?: number;
}

export interface MountstatsDevice {
  readonly device: string;
  readonly server?: string;
  readonly exportPath?: string;
  readonly mountPoint: string;
  readonly fsType: string;
  readonly statvers?: string;
  /** The `device ...` line. */
  readonly span: Span;
  /** Options in force, with each option's span on the `opts:` line. */
  readonly options: ReadonlyMap<string, { readonly value?: string; readonly span: Span }>;
  readonly optionsSpan?: Span;
  readonly ageSeconds?: number;
  /** `bytes:` counters: application reads and writes (normal + direct), and what went to the server. */
  readonly bytes?: {
    readonly normalRead: number;
    readonly normalWrite: number;
    readonly directRead: number;
    readonly directWrite: number;
    readonly serverRead: number;
    readonly serverWrite: number;
  };
  readonly transports: readonly MountstatsTransport[];
  readonly ops: ReadonlyMap<string, MountstatsOp>;
}

export interface MountstatsCapture {
  readonly devices: readonly MountstatsDevice[];
  /** NFS mounts only (fstype nfs or nfs4). */
  readonly nfs: readonly MountstatsDevice[];
  /** Why the capture cannot be read as a whole (truncated, another format): one finding, never a crash. */
  readonly unreadable?: { readonly span: Span; readonly reason: string };
}

type Draft = Mutable<Omit<MountstatsDevice, 'options' | 'transports' | 'ops'>> & {
  options: Map<string, { value?: string; span: Span }>;
  transports: MountstatsTransport[];
  ops: Map<string, MountstatsOp>;
  perOp: boolean;
};

const DEVICE = /^device (\S+) mounted on (\S+) with fstype (\S+)(?: statvers=(\S+))?\s*$/;
const READ_VERSIONS = new Set(['1.0', '1.1']);
/** Per-op lines: ops, transmissions, timeouts, bytes sent, bytes received, queue, rtt, execute (and errors since Linux 5.x). */
const PER_OP_FIELDS = 8; // not a fact: the kernel's per-op line format (net/sunrpc/stats.c)
/** The `max_slots` field of a TCP or RDMA `xprt:` line (after the protocol name). */
const MAX_SLOTS_FIELD = 11; // not a fact: the kernel's xprt line format (xs_tcp_print_stats)
const OCTAL = 8; // not a fact: the base of the kernel's \ooo escapes

/** Octal escapes the kernel writes in mount points (`\040` for a blank). */
const unescape = (text: string) =>
  text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, OCTAL)));

export function parseMountstats(text: string): MountstatsCapture {
  const devices: MountstatsDevice[] = [];
  let current: Draft | undefined;
  let unreadable: MountstatsCapture['unreadable'];
  const lines = linesOf(text);
  for (const line of lines) {
    // A byte-order mark (a capture saved by a Windows editor) is not part of the first line's text.
    const bom = line.start === 0 && line.text.startsWith('\uFEFF') ? 1 : 0;
    const body = line.text.slice(bom);
    const lineStart = line.start + bom;
    if (body.trim() === '') continue;
    const device = DEVICE.exec(body);
    if (device) {
      const [, name, mountPoint, fsType, statvers] = device;
      const colon = name!.indexOf(':/');
      current = {
        device: name!,
        ...(colon > 0
          ? { server: name!.slice(0, colon).replace(/^\[|\]$/g, ''), exportPath: name!.slice(colon + 1) }
          : {}),
        mountPoint: unescape(mountPoint!),
        fsType: fsType!,
        ...(statvers ? { statvers } : {}),
        span: { start: lineStart, end: lineStart + body.length },
        options: new Map(),
        transports: [],
        ops: new Map(),
        perOp: false,
      };
      devices.push(current as unknown as MountstatsDevice);
      continue;
    }
    if (!current || !/^\s/.test(body)) {
      unreadable ??= {
        span: { start: lineStart, end: lineStart + body.length },
        reason: current
          ? 'a line that is neither a `device` line nor an indented statistics line'
          : 'the text does not start with a `device ... mounted on ... with fstype ...` line',
      };
      if (!current) break;
      continue;
    }
    const trimmed = body.trim();
    const indent = body.length - body.trimStart().length;
    const field = /^([\w ]+?):\s*(.*)$/.exec(trimmed);
    if (!field) {
      if (trimmed === 'per-op statistics') current.perOp = true;
      continue;
    }
    const [, key, rest] = field;
    const restStart = lineStart + indent + trimmed.length - rest!.length;
    if (current.perOp && /^[A-Z_0-9]+$/.test(key!)) {
      const numbers = rest!.trim().split(/\s+/).map(Number);
      if (numbers.length < PER_OP_FIELDS || numbers.some((n) => !Number.isFinite(n))) {
        unreadable ??= {
          span: { start: lineStart, end: lineStart + body.length },
          reason: `the \`${key}\` statistics line has ${numbers.length} numbers, not the 8 or 9 of statvers 1.1 (a capture cut short?)`,
        };
        continue;
      }
      const [ops, transmissions, timeouts, bytesSent, bytesReceived, queueMs, rttMs, executeMs] = numbers as [
        number,
        number,
        number,
        number,
        number,
        number,
        number,
        number,
      ];
      current.ops.set(key!, { ops, transmissions, timeouts, bytesSent, bytesReceived, queueMs, rttMs, executeMs });
      continue;
    }
    switch (key) {
      case 'opts': {
        current.optionsSpan = { start: restStart, end: restStart + rest!.length };
        let offset = restStart;
        for (const option of rest!.split(',')) {
          const equals = option.indexOf('=');
          const name = equals < 0 ? option : option.slice(0, equals);
          current.options.set(name, {
            ...(equals < 0 ? {} : { value: option.slice(equals + 1) }),
            span: { start: offset, end: offset + option.length },
          });
          offset += option.length + 1;
        }
        break;
      }
      case 'age':
        current.ageSeconds = Number(rest);
        break;
      case 'bytes': {
        const n = rest!.trim().split(/\s+/).map(Number);
        if (n.length >= 6 && n.every(Number.isFinite))
          current.bytes = {
            normalRead: n[0]!,
            normalWrite: n[1]!,
            directRead: n[2]!,
            directWrite: n[3]!,
            serverRead: n[4]!,
            serverWrite: n[5]!,
          };
        break;
      }
      case 'xprt': {
        const parts = rest!.trim().split(/\s+/);
        const protocol = parts[0] ?? '';
        // tcp: srcport bind_count connect_count connect_time idle_time sends recvs bad_xids req_u bklog_u max_slots ...
        const maxSlots = protocol === 'tcp' || protocol === 'rdma' ? Number(parts[MAX_SLOTS_FIELD]) : Number.NaN;
        current.transports.push({ protocol, ...(Number.isFinite(maxSlots) ? { maxSlots } : {}) });
        break;
      }
      default:
        break;
    }
  }
  const nfs = devices.filter((d) => d.fsType === 'nfs' || d.fsType === 'nfs4');
  if (!unreadable) {
    if (devices.length === 0)
      unreadable = { span: { start: 0, end: 0 }, reason: 'no `device ... mounted on ... with fstype ...` line' };
    else {
      for (const device of nfs) {
        if (device.statvers === undefined || !READ_VERSIONS.has(device.statvers)) {
          unreadable = {
            span: device.span,
            reason:
              device.statvers === undefined
                ? 'an NFS mount without `statvers=`'
                : `statistics version ${device.statvers}, not the 1.0 or 1.1 anf-lint reads`,
          };
          break;
        }
        if (device.ageSeconds === undefined || device.options.size === 0 || device.ops.size === 0) {
          unreadable = {
            span: device.span,
            reason: `the statistics of \`${device.mountPoint}\` stop before its ${device.options.size === 0 ? '`opts:` line' : device.ageSeconds === undefined ? '`age:` line' : 'per-op statistics'} (a capture cut short?)`,
          };
          break;
        }
      }
    }
  }
  for (const device of devices) delete (device as { perOp?: boolean }).perOp;
  return { devices, nfs, ...(unreadable ? { unreadable } : {}) };
}

/** What a mount did since it was mounted, from its counters (nfs-utils' mountstats prints the same). */
export interface MountActivity {
  readonly ageSeconds: number;
  readonly readMiBps: number;
  readonly writeMiBps: number;
  readonly readIops: number;
  readonly writeIops: number;
  /** Average milliseconds per READ / WRITE: round trip and whole call. */
  readonly readRttMs?: number;
  readonly readExecuteMs?: number;
  readonly writeRttMs?: number;
  readonly writeExecuteMs?: number;
  /** Little's Law over every op: the RPCs in flight on average (total execute time / age). */
  readonly concurrency: number;
  readonly opsPerSecond: number;
}

export function activityOf(device: MountstatsDevice, mib: number): MountActivity | undefined {
  const age = device.ageSeconds;
  if (age === undefined || age <= 0) return undefined;
  const read = device.ops.get('READ');
  const write = device.ops.get('WRITE');
  let executeMs = 0;
  let ops = 0;
  for (const op of device.ops.values()) {
    executeMs += op.executeMs;
    ops += op.ops;
  }
  const per = (op: MountstatsOp | undefined, ms: 'rttMs' | 'executeMs') =>
    op && op.ops > 0 ? op[ms] / op.ops : undefined;
  const readRttMs = per(read, 'rttMs');
  const readExecuteMs = per(read, 'executeMs');
  const writeRttMs = per(write, 'rttMs');
  const writeExecuteMs = per(write, 'executeMs');
  return {
    ageSeconds: age,
    readMiBps: (read?.bytesReceived ?? 0) / mib / age,
    writeMiBps: (write?.bytesSent ?? 0) / mib / age,
    readIops: (read?.ops ?? 0) / age,
    writeIops: (write?.ops ?? 0) / age,
    ...(readRttMs !== undefined ? { readRttMs } : {}),
    ...(readExecuteMs !== undefined ? { readExecuteMs } : {}),
    ...(writeRttMs !== undefined ? { writeRttMs } : {}),
    ...(writeExecuteMs !== undefined ? { writeExecuteMs } : {}),
    concurrency: executeMs / 1000 / age,
    opsPerSecond: ops / age,
  };
}
