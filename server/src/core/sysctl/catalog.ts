import { distance } from 'fastest-levenshtein';
import {
  KERNEL_KEY_CHANGES,
  KERNEL_KEY_HISTORY,
  RECOMMENDED_SYSCTL,
  RECOMMENDED_VM,
  SLOTS,
  SOURCES,
  SYSCTL_DEFAULTS,
  SYSCTL_LIMITS,
  type Fact,
  type SourceKey,
} from '../facts';
import { formatNumber } from '../units/units';
import { windowLimitFormula } from './bandwidthDelay';
import { ownCopy } from '../text/ownText';

/**
 * The kernel keys that matter for NFS and TCP performance on an ANF client: their shape, range,
 * default, history and the values the guidance recommends. Numbers come from facts/kernel.ts and
 * facts/nfsClient.ts. A key outside this catalog is not an error (Linux has thousands); rules judge
 * only catalog keys, and flag a near miss of one.
 */

export type KeyShape =
  | { readonly kind: 'integer'; readonly min?: number; readonly max?: number }
  /**
   * 0 or 1. The handler parses integers only (kernel/sysctl.c proc_get_long), so words such as `yes`
   * or `true` fail with EINVAL (facts/kernel.ts KERNEL_BOOLEAN).
   */
  | { readonly kind: 'boolean' }
  /** One of a few integers (`tcp_timestamps`: 0, 1 or 2). */
  | { readonly kind: 'choice'; readonly values: readonly number[] }
  /** Three integers min <= default <= max (`tcp_rmem`, `tcp_mem`). */
  | { readonly kind: 'triple'; readonly min: number; readonly max: number }
  /** Two integers low <= high (`ip_local_port_range`). */
  | { readonly kind: 'pair'; readonly min: number; readonly max: number }
  /** A name (`tcp_congestion_control`). */
  | { readonly kind: 'name' }
  /**
   * A bool module parameter, read by kstrtobool from its first character: Y/y/1, N/n/0 and on/off on
   * every kernel; t/f and e/d (true/false, enabled/disabled) only on newer ones (KERNEL_BOOLEAN).
   */
  | { readonly kind: 'yes-no' }
  /** Write-only: writing triggers an action (`net.ipv4.route.flush`). */
  | { readonly kind: 'trigger' };

/** How the parameter is set: a sysctl, a kernel-module parameter (modprobe.d), or both. */
export type KeyInterface = 'sysctl' | 'module' | 'both';

export interface Recommendation {
  /** Who recommends it for what: "SAP HANA", "EDA benchmark", "any NFS client". */
  readonly context: string;
  readonly value: string;
  readonly source: SourceKey;
  readonly note?: string;
}

export interface CatalogKey {
  /** Dotted form; a `*` segment matches any one name (`net.ipv4.conf.*.rp_filter`). */
  readonly key: string;
  readonly title: string;
  readonly description: string;
  readonly shape: KeyShape;
  readonly unit?: string;
  /** The kernel's default, as text (`4096 131072 6291456`). */
  readonly defaultValue?: string;
  readonly defaultNote?: string;
  readonly via: KeyInterface;
  /** Removed from the kernel in this version: writing it fails. */
  readonly removedIn?: Fact<string>;
  /** Still accepted, but does nothing since this version. */
  readonly noOpSince?: Fact<string>;
  readonly changed?: readonly { readonly version: Fact<string>; readonly what: string }[];
  readonly recommended?: readonly Recommendation[];
  readonly sources: readonly SourceKey[];
}

const n = (value: number): string => String(value);
const list = (values: readonly number[]): string => values.join(' ');
const INT_MAX = SYSCTL_LIMITS.intMax.value;
const SLOT_RANGE = {
  kind: 'integer',
  min: SLOTS.slotTableEntriesMin.value,
  max: SLOTS.slotTableEntriesMax.value,
} as const;
const BYTES = { kind: 'integer', min: 0, max: INT_MAX } as const;
const PERCENT = { kind: 'integer', min: 0, max: 100 } as const;
const BOOLEAN = { kind: 'boolean' } as const;
const TRI_STATE = { kind: 'choice', values: [0, 1, 2] } as const;

/** The ANF client guidance (seed 001) as most keys cite it. */
const anfClients = (value: string): Recommendation => ({
  context: 'NFS clients on ANF (HPC, EDA)',
  value,
  source: 'SEED_MOUNT',
});
/** Microsoft's SAP HANA guidance for Azure. */
const sapHana = (value: string): Recommendation => ({ context: 'SAP HANA', value, source: 'HANA' });

const ENTRIES: readonly CatalogKey[] = [
  // net.core: socket buffer limits
  {
    key: 'net.core.rmem_max',
    title: 'Largest receive buffer a socket may request',
    description:
      'Upper bound for SO_RCVBUF set by an application. TCP autotuning is bounded by the third field of `net.ipv4.tcp_rmem` instead, so keep the two consistent.',
    shape: BYTES,
    unit: 'bytes',
    defaultValue: n(SYSCTL_DEFAULTS.coreRmemMaxBytes.value),
    defaultNote: SYSCTL_DEFAULTS.coreRmemMaxBytes.note,
    via: 'sysctl',
    recommended: [
      anfClients(n(RECOMMENDED_SYSCTL.coreRmemMaxBytes.value)),
      sapHana(n(RECOMMENDED_SYSCTL.coreRmemMaxBytes.value)),
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'net.core.wmem_max',
    title: 'Largest send buffer a socket may request',
    description:
      'Upper bound for SO_SNDBUF set by an application. TCP autotuning is bounded by the third field of `net.ipv4.tcp_wmem`.',
    shape: BYTES,
    unit: 'bytes',
    defaultValue: n(SYSCTL_DEFAULTS.coreWmemMaxBytes.value),
    defaultNote: SYSCTL_DEFAULTS.coreWmemMaxBytes.note,
    via: 'sysctl',
    recommended: [
      anfClients(n(RECOMMENDED_SYSCTL.coreWmemMaxBytes.value)),
      sapHana(n(RECOMMENDED_SYSCTL.coreWmemMaxBytes.value)),
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'net.core.rmem_default',
    title: 'Default receive buffer of non-TCP sockets',
    description:
      'Initial receive buffer for sockets that do not set one (TCP starts from the second field of `tcp_rmem`).',
    shape: BYTES,
    unit: 'bytes',
    defaultValue: n(SYSCTL_DEFAULTS.coreRmemDefaultBytes.value),
    via: 'sysctl',
    recommended: [anfClients(n(RECOMMENDED_SYSCTL.coreRmemDefaultBytes.value))],
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'net.core.wmem_default',
    title: 'Default send buffer of non-TCP sockets',
    description:
      'Initial send buffer for sockets that do not set one (TCP starts from the second field of `tcp_wmem`).',
    shape: BYTES,
    unit: 'bytes',
    defaultValue: n(SYSCTL_DEFAULTS.coreWmemDefaultBytes.value),
    via: 'sysctl',
    recommended: [anfClients(n(RECOMMENDED_SYSCTL.coreWmemDefaultBytes.value))],
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'net.core.optmem_max',
    title: 'Ancillary buffer per socket',
    description: 'Maximum ancillary (option) buffer size per socket.',
    shape: BYTES,
    unit: 'bytes',
    defaultValue: n(SYSCTL_DEFAULTS.coreOptmemMaxBytes.value),
    defaultNote: SYSCTL_DEFAULTS.coreOptmemMaxBytes.note,
    changed: [
      {
        version: KERNEL_KEY_CHANGES.optmemMax128KiB,
        what: `default raised from ${SYSCTL_DEFAULTS.coreOptmemMaxBytes.formerly![0]!.value} to ${SYSCTL_DEFAULTS.coreOptmemMaxBytes.value}`,
      },
    ],
    via: 'sysctl',
    recommended: [
      {
        context: 'NFS clients on ANF (Microsoft Learn module on ANF performance for EDA and HPC)',
        value: n(RECOMMENDED_SYSCTL.optmemMaxBytes.value),
        source: 'SEED_MOUNT',
      },
      { context: 'EDA benchmark', value: n(RECOMMENDED_SYSCTL.optmemMaxBytes.formerly![0]!.value), source: 'EDA' },
    ],
    sources: ['KNET', 'KOPTMEM', 'SEED_MOUNT', 'EDA'],
  },
  {
    key: 'net.core.somaxconn',
    title: 'Listen backlog limit',
    description:
      'Upper bound of the accept queue of a listening socket. Matters for servers, little for an NFS client.',
    shape: { kind: 'integer', min: 0, max: INT_MAX },
    unit: 'connections',
    defaultValue: n(SYSCTL_DEFAULTS.somaxconn.value),
    changed: [
      {
        version: KERNEL_KEY_CHANGES.somaxconn4096,
        what: `default raised from ${SYSCTL_DEFAULTS.somaxconn.formerly![0]!.value} to ${SYSCTL_DEFAULTS.somaxconn.value}`,
      },
    ],
    via: 'sysctl',
    recommended: [anfClients(n(RECOMMENDED_SYSCTL.somaxconn.value))],
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'net.core.netdev_max_backlog',
    title: 'Receive queue length per CPU',
    description:
      'Packets queued on the input side when the interface receives them faster than the kernel processes them.',
    shape: { kind: 'integer', min: 0, max: INT_MAX },
    unit: 'packets',
    defaultValue: n(SYSCTL_DEFAULTS.netdevMaxBacklog.value),
    via: 'sysctl',
    recommended: [
      anfClients(n(RECOMMENDED_SYSCTL.netdevMaxBacklog.value)),
      sapHana(n(RECOMMENDED_SYSCTL.netdevMaxBacklog.value)),
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  // net.ipv4: TCP
  {
    key: 'net.ipv4.tcp_rmem',
    title: 'TCP receive buffer: min, default, max',
    description:
      'Three byte counts: the minimum, initial and maximum receive buffer of a TCP socket. The maximum bounds autotuning, and so the receive window: one connection carries at most max ÷ round-trip time.',
    shape: { kind: 'triple', min: 1, max: INT_MAX },
    unit: 'bytes (min default max)',
    defaultValue: list(SYSCTL_DEFAULTS.tcpRmem.value),
    via: 'sysctl',
    recommended: [
      anfClients(list(RECOMMENDED_SYSCTL.tcpRmem.value)),
      sapHana(list(RECOMMENDED_SYSCTL.hanaTcpRmem.value)),
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA', 'SEED_PERF'],
  },
  {
    key: 'net.ipv4.tcp_wmem',
    title: 'TCP send buffer: min, default, max',
    description:
      'Three byte counts: the minimum, initial and maximum send buffer of a TCP socket. The maximum bounds how much a writer can have in flight on one connection.',
    shape: { kind: 'triple', min: 1, max: INT_MAX },
    unit: 'bytes (min default max)',
    defaultValue: list(SYSCTL_DEFAULTS.tcpWmem.value),
    via: 'sysctl',
    recommended: [
      anfClients(list(RECOMMENDED_SYSCTL.tcpWmem.value)),
      sapHana(list(RECOMMENDED_SYSCTL.hanaTcpWmem.value)),
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_mem',
    title: 'TCP memory for all sockets: low, pressure, high',
    description:
      'Three page counts (not bytes) for all TCP sockets together: below low no pressure, above pressure the kernel moderates buffers, high is the hard limit. The kernel sizes it from memory at boot.',
    shape: { kind: 'triple', min: 1, max: INT_MAX },
    unit: 'pages (low pressure high)',
    defaultNote: "Computed at boot from the machine's memory.",
    via: 'sysctl',
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'net.ipv4.tcp_window_scaling',
    title: 'TCP window scaling (RFC 7323)',
    description:
      'Lets the receive window exceed 64 KiB. With 0, every connection is capped at 65,535 bytes in flight, whatever tcp_rmem says.',
    shape: BOOLEAN,
    defaultValue: '1',
    via: 'sysctl',
    recommended: [{ context: 'Any NFS client', value: '1', source: 'SEED_MOUNT' }, sapHana('1')],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_timestamps',
    title: 'TCP timestamps (RFC 7323)',
    description:
      'Timestamps give TCP accurate round-trip measurement and protection against wrapped sequence numbers (PAWS) at high speed. 0 off, 1 on with random offsets, 2 on without random offsets.',
    shape: TRI_STATE,
    defaultValue: '1',
    via: 'sysctl',
    changed: [{ version: KERNEL_KEY_CHANGES.tcpTimestampsNoOffsetMode, what: 'value 2 (no random offsets) added' }],
    recommended: [
      {
        context: 'SAP HANA behind Azure Load Balancer (Pacemaker)',
        value: '0',
        source: 'HANA',
        note: 'Health probes of Azure Load Balancer fail with timestamps on.',
      },
      { context: 'Everywhere else', value: '1', source: 'HANA' },
    ],
    sources: ['KDOC', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_sack',
    title: 'TCP selective acknowledgements',
    description:
      "With SACK the receiver reports exactly which segments arrived, so a loss costs one retransmission instead of a window's worth.",
    shape: BOOLEAN,
    defaultValue: '1',
    via: 'sysctl',
    recommended: [
      sapHana('1'),
      {
        context: 'EDA benchmark',
        value: '0',
        source: 'EDA',
        note: 'The EDA benchmark configuration turned it off; loss recovery suffers on any path that drops packets.',
      },
    ],
    sources: ['KDOC', 'HANA', 'EDA'],
  },
  {
    key: 'net.ipv4.tcp_dsack',
    title: 'TCP duplicate SACK',
    description:
      'Lets the receiver report duplicate segments, so the sender can tell reordering from loss and undo needless slow-downs.',
    shape: BOOLEAN,
    defaultValue: '1',
    via: 'sysctl',
    sources: ['KDOC'],
  },
  {
    key: 'net.ipv4.tcp_fack',
    title: 'TCP forward acknowledgement (no effect)',
    description:
      'Forward-acknowledgement loss recovery, retired in kernel 4.15 (RACK replaced it). The key is still registered: the kernel accepts a value and ignores it ("a legacy option, it has no effect anymore", ip-sysctl.rst).',
    shape: BOOLEAN,
    via: 'sysctl',
    noOpSince: KERNEL_KEY_HISTORY.tcpFackNoOp,
    sources: ['KDOC', 'KSYSCTL_IPV4', 'SEED_MOUNT'],
  },
  {
    key: 'net.ipv4.tcp_no_metrics_save',
    title: 'Do not cache TCP metrics per destination',
    description:
      'With 1, a new connection does not start from the congestion window and RTT the last connection to the same host ended with.',
    shape: BOOLEAN,
    defaultValue: '0',
    via: 'sysctl',
    recommended: [
      {
        context: 'NFS clients on ANF (Microsoft Learn module on ANF performance for EDA and HPC)',
        value: '1',
        source: 'SEED_MOUNT',
      },
      sapHana('1'),
    ],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_low_latency',
    title: 'TCP low-latency mode (no effect)',
    description:
      'Preferred latency over throughput in the prequeue. The prequeue is gone; the key is accepted and ignored.',
    shape: BOOLEAN,
    defaultValue: '0',
    via: 'sysctl',
    noOpSince: KERNEL_KEY_HISTORY.tcpLowLatencyNoOp,
    sources: ['KDOC', 'KSYSCTL_IPV4', 'SEED_MOUNT'],
  },
  {
    key: 'net.ipv4.tcp_slow_start_after_idle',
    title: 'Restart slow start after idle',
    description:
      'With 1 (default), a connection idle for one RTO shrinks its congestion window back to the initial window, which hurts bursty NFS traffic.',
    shape: BOOLEAN,
    defaultValue: '1',
    via: 'sysctl',
    recommended: [anfClients('0'), sapHana('0')],
    sources: ['KDOC', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_tw_recycle',
    title: 'Fast TIME-WAIT recycling (removed)',
    description:
      'Recycled TIME-WAIT sockets using timestamps; broke clients behind NAT and load balancers. Removed from the kernel in 4.12: the key no longer exists and writing it fails.',
    shape: BOOLEAN,
    via: 'sysctl',
    removedIn: KERNEL_KEY_HISTORY.tcpTwRecycleRemoved,
    sources: ['KSYSCTL_IPV4'],
  },
  {
    key: 'net.ipv4.tcp_tw_reuse',
    title: 'Reuse TIME-WAIT sockets for new outgoing connections',
    description: '0 off, 1 on, 2 loopback only (default).',
    shape: TRI_STATE,
    defaultValue: '2',
    via: 'sysctl',
    changed: [
      { version: KERNEL_KEY_CHANGES.tcpTwReuseLoopbackDefault, what: 'value 2 (loopback only) became the default' },
    ],
    sources: ['KDOC'],
  },
  {
    key: 'net.ipv4.tcp_fin_timeout',
    title: 'FIN-WAIT-2 timeout',
    description: 'How long an orphaned connection stays in FIN-WAIT-2.',
    shape: { kind: 'integer', min: 0, max: INT_MAX },
    unit: 'seconds',
    defaultValue: n(SYSCTL_DEFAULTS.tcpFinTimeoutSeconds.value),
    via: 'sysctl',
    sources: ['KDOC', 'SEED_COURSE'],
  },
  {
    key: 'net.ipv4.tcp_max_syn_backlog',
    title: 'Half-open connection queue',
    description: 'Connection requests remembered before the handshake completes. Matters for servers.',
    shape: { kind: 'integer', min: 0, max: INT_MAX },
    unit: 'connections',
    defaultValue: n(SYSCTL_DEFAULTS.tcpMaxSynBacklog.value),
    defaultNote: SYSCTL_DEFAULTS.tcpMaxSynBacklog.note,
    via: 'sysctl',
    recommended: [
      {
        context: 'SAP HANA (ms-az.conf)',
        value: n(RECOMMENDED_VM.hanaTcpMaxSynBacklog.value),
        source: 'HANA',
        note: RECOMMENDED_VM.hanaTcpMaxSynBacklog.note,
      },
    ],
    sources: ['KDOC', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_moderate_rcvbuf',
    title: 'Receive buffer autotuning',
    description:
      'With 1 (default), the kernel grows each receive buffer up to the tcp_rmem maximum as the connection needs.',
    shape: BOOLEAN,
    defaultValue: '1',
    via: 'sysctl',
    recommended: [sapHana('1')],
    sources: ['KDOC', 'HANA'],
  },
  {
    key: 'net.ipv4.tcp_congestion_control',
    title: 'TCP congestion control algorithm',
    description:
      'The algorithm new connections use (`cubic`, `bbr`, `reno`, ...). The module must be loaded for a name to be accepted.',
    shape: { kind: 'name' },
    defaultValue: SYSCTL_DEFAULTS.tcpCongestionControl.value,
    via: 'sysctl',
    sources: ['KDOC'],
  },
  {
    key: 'net.ipv4.tcp_mtu_probing',
    title: 'Packetization-layer path MTU discovery',
    description: '0 off (default), 1 on after an ICMP black hole is detected, 2 always.',
    shape: TRI_STATE,
    defaultValue: '0',
    via: 'sysctl',
    sources: ['KDOC'],
  },
  {
    key: 'net.ipv4.ip_local_port_range',
    title: 'Local ports for outgoing connections',
    description: 'Two port numbers, low and high, for the source ports of outgoing connections.',
    shape: { kind: 'pair', min: 1, max: SYSCTL_LIMITS.portMax.value },
    unit: 'ports (low high)',
    defaultValue: list(SYSCTL_DEFAULTS.ipLocalPortRange.value),
    via: 'sysctl',
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'net.ipv4.route.flush',
    title: 'Flush the routing cache (a trigger)',
    description:
      'Writing any value flushes the routing cache once. It is an action, not a setting: in a file applied at boot it does nothing useful.',
    shape: { kind: 'trigger' },
    via: 'sysctl',
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'net.ipv4.conf.*.rp_filter',
    title: 'Reverse-path filtering',
    description:
      '0 off, 1 strict, 2 loose. Strict filtering drops replies that come back on another interface (several NICs, asymmetric routes).',
    shape: TRI_STATE,
    defaultValue: '0',
    defaultNote: 'Distributions often set 1 or 2.',
    via: 'sysctl',
    recommended: [{ context: 'SAP HANA (ms-az.conf)', value: '0', source: 'HANA' }],
    sources: ['KDOC', 'HANA'],
  },
  // vm: page cache write-back
  {
    key: 'vm.dirty_ratio',
    title: 'Dirty memory at which writers block (percent)',
    description:
      'Percent of available memory that may be dirty before a writing process must write back itself. Writing it sets vm.dirty_bytes to 0.',
    shape: PERCENT,
    unit: '%',
    defaultValue: n(SYSCTL_DEFAULTS.vmDirtyRatioPercent.value),
    via: 'sysctl',
    sources: ['KDOC', 'SEED_MOUNT', 'FC'],
  },
  {
    key: 'vm.dirty_background_ratio',
    title: 'Dirty memory at which background write-back starts (percent)',
    description:
      'Percent of available memory that may be dirty before the flusher threads start writing. Must stay below vm.dirty_ratio. Writing it sets vm.dirty_background_bytes to 0.',
    shape: PERCENT,
    unit: '%',
    defaultValue: n(SYSCTL_DEFAULTS.vmDirtyBackgroundRatioPercent.value),
    via: 'sysctl',
    sources: ['KDOC', 'SEED_MOUNT'],
  },
  {
    key: 'vm.dirty_bytes',
    title: 'Dirty memory at which writers block (bytes)',
    description: `The same limit as vm.dirty_ratio in bytes. Writing it sets vm.dirty_ratio to 0: only one of the two is in effect. The kernel refuses values below two pages (${formatNumber(SYSCTL_LIMITS.dirtyBytesMin.value)} bytes with 4 KiB pages), 0 included: write vm.dirty_ratio to go back to a ratio.`,
    shape: { kind: 'integer', min: SYSCTL_LIMITS.dirtyBytesMin.value, max: Number.MAX_SAFE_INTEGER },
    unit: 'bytes',
    defaultValue: '0',
    via: 'sysctl',
    recommended: [
      {
        context: 'SAS GRID',
        value: n(RECOMMENDED_VM.sasGridDirtyBytes.value),
        source: 'FC',
        note: RECOMMENDED_VM.sasGridDirtyBytes.note,
      },
    ],
    sources: ['KDOC', 'KWB', 'FC'],
  },
  {
    key: 'vm.dirty_background_bytes',
    title: 'Dirty memory at which background write-back starts (bytes)',
    description:
      'The same limit as vm.dirty_background_ratio in bytes. Writing it sets vm.dirty_background_ratio to 0.',
    shape: { kind: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER },
    unit: 'bytes',
    defaultValue: '0',
    via: 'sysctl',
    sources: ['KDOC'],
  },
  {
    key: 'vm.dirty_expire_centisecs',
    title: 'Age at which dirty data is written back',
    description: 'Dirty data older than this is written out by the next flusher run.',
    shape: { kind: 'integer', min: 0, max: INT_MAX },
    unit: 'centiseconds',
    defaultValue: n(SYSCTL_DEFAULTS.vmDirtyExpireCentisecs.value),
    via: 'sysctl',
    recommended: [
      { context: 'SAS Viya', value: n(RECOMMENDED_VM.sasViyaDirtyExpireCentisecs.value), source: 'FC' },
      { context: 'EDA benchmark', value: n(RECOMMENDED_VM.edaDirtyExpireCentisecs.value), source: 'EDA' },
    ],
    sources: ['KDOC', 'FC', 'EDA'],
  },
  {
    key: 'vm.dirty_writeback_centisecs',
    title: 'Flusher thread interval',
    description: 'How often the flusher threads wake up to write dirty data. 0 disables periodic write-back.',
    shape: { kind: 'integer', min: 0, max: INT_MAX },
    unit: 'centiseconds',
    defaultValue: n(SYSCTL_DEFAULTS.vmDirtyWritebackCentisecs.value),
    via: 'sysctl',
    recommended: [
      { context: 'SAS Viya', value: n(RECOMMENDED_VM.sasViyaDirtyWritebackCentisecs.value), source: 'FC' },
      { context: 'EDA benchmark', value: n(RECOMMENDED_VM.edaDirtyWritebackCentisecs.value), source: 'EDA' },
    ],
    sources: ['KDOC', 'FC', 'EDA'],
  },
  {
    key: 'vm.swappiness',
    title: 'Preference for swapping anonymous memory over dropping page cache',
    description: 'Lower values keep application memory in RAM and drop file cache first.',
    shape: { kind: 'integer', min: 0, max: SYSCTL_LIMITS.swappinessMax.value },
    defaultValue: n(SYSCTL_DEFAULTS.vmSwappiness.value),
    changed: [
      {
        version: KERNEL_KEY_CHANGES.swappiness200,
        what: `range widened from 0-${SYSCTL_LIMITS.swappinessMax.formerly![0]!.value} to 0-${SYSCTL_LIMITS.swappinessMax.value}`,
      },
    ],
    via: 'sysctl',
    recommended: [
      { context: 'SAP HANA (ms-az.conf)', value: n(RECOMMENDED_SYSCTL.vmSwappiness.value), source: 'HANA' },
    ],
    sources: ['KDOC', 'HANA'],
  },
  // sunrpc and nfs: slot tables and session slots
  {
    key: 'sunrpc.tcp_slot_table_entries',
    title: 'Initial RPC slots per TCP connection',
    description:
      'The slots (requests in flight) an RPC transport starts with; the table grows up to sunrpc.tcp_max_slot_table_entries. Also a `sunrpc` module parameter.',
    shape: SLOT_RANGE,
    unit: 'slots',
    defaultValue: n(SLOTS.tcpSlotTableEntriesDefault.value),
    defaultNote: SLOTS.tcpSlotTableEntriesDefault.note,
    via: 'both',
    recommended: [
      {
        context: 'SAP HANA (SAP note 3024346)',
        value: n(RECOMMENDED_SYSCTL.sunrpcTcpSlotTableEntries.value),
        source: 'HANA',
      },
    ],
    sources: ['KSRC', 'HANA', 'CS'],
  },
  {
    key: 'sunrpc.tcp_max_slot_table_entries',
    title: 'Most RPC requests in flight per TCP connection',
    description: `Upper bound of the slot table of each TCP connection (with nconnect, each connection has its own). ANF serves ${SLOTS.anfInFlightPerConnection.value} requests in flight per connection and queues the rest. Applies to mounts made after it is set; set it in modprobe.d so it holds before the first mount.`,
    shape: SLOT_RANGE,
    unit: 'slots',
    defaultValue: n(SLOTS.tcpMaxSlotTableEntriesDefault.value),
    via: 'both',
    recommended: [
      {
        context: 'Any NFS client on ANF',
        value: n(RECOMMENDED_SYSCTL.sunrpcTcpMaxSlotTableEntries.value),
        source: 'CS',
        note: `At most ${SLOTS.anfInFlightPerConnection.value} per connection; less in large farms so that clients × nconnect × slots stays at or below ${formatNumber(SLOTS.endpointTotalMax.value)}.`,
      },
      {
        context: 'SAP HANA (modprobe.d)',
        value: n(RECOMMENDED_SYSCTL.sunrpcTcpMaxSlotTableEntries.value),
        source: 'HANA',
      },
    ],
    sources: ['KSRC', 'CS', 'SEED_MOUNT', 'HANA'],
  },
  {
    key: 'sunrpc.udp_slot_table_entries',
    title: 'RPC slots per UDP transport',
    description: 'Slots of an RPC transport over UDP. ANF mounts use TCP.',
    shape: SLOT_RANGE,
    unit: 'slots',
    defaultValue: n(SLOTS.udpSlotTableEntriesDefault.value),
    via: 'both',
    sources: ['KSRC'],
  },
  {
    key: 'nfs.max_session_slots',
    title: 'NFSv4.1 session slots the client asks for',
    description: `Module parameter of \`nfs\` (modprobe.d only, not a sysctl). The session gets the lower of client and server: ANF offers ${SLOTS.anfNfs41SessionSlots.value}. One connection still caps at ${SLOTS.anfInFlightPerConnection.value}, so nconnect >= 2 is needed to use more.`,
    shape: { kind: 'integer', min: 1, max: SYSCTL_LIMITS.nfsMaxSessionSlotsMax.value },
    unit: 'slots',
    defaultValue: n(SLOTS.clientMaxSessionSlotsDefault.value),
    via: 'module',
    recommended: [{ context: 'NFSv4.1 on ANF', value: n(RECOMMENDED_SYSCTL.nfsMaxSessionSlots.value), source: 'CS' }],
    sources: ['CS', 'KSRC'],
  },
  {
    key: 'nfs.nfs4_disable_idmapping',
    title: 'NFSv4 client sends numeric IDs with sec=sys',
    description:
      'Module parameter of `nfs`: with Y the client sends numeric uid/gid for AUTH_SYS instead of names, so a mismatched ID domain does not turn owners into `nobody`.',
    shape: { kind: 'yes-no' },
    defaultValue: 'Y',
    via: 'module',
    recommended: [sapHana('Y')],
    sources: ['HANA', 'KSTRTOBOOL'],
  },
];

const EXACT = new Map(ENTRIES.filter((e) => !e.key.includes('*')).map((e) => [e.key, e]));
const PATTERNS = ENTRIES.filter((e) => e.key.includes('*')).map((e) => ({ entry: e, segments: e.key.split('.') }));

/** Every catalog key, for completion. */
export const CATALOG_KEYS: readonly CatalogKey[] = ENTRIES;

/** The catalog entry for a key, including glob entries (`net.ipv4.conf.eth0.rp_filter`, `net.ipv4.conf.*.rp_filter`). */
export function findKey(key: string): CatalogKey | undefined {
  const exact = EXACT.get(key);
  if (exact) return exact;
  const segments = key.split('.');
  for (const { entry, segments: pattern } of PATTERNS) {
    if (pattern.length === segments.length && pattern.every((p, i) => p === '*' || p === segments[i])) return entry;
  }
  return undefined;
}

/**
 * Real kernel keys that sit close to a catalog key: never a near miss. (`arp_filter` is one letter
 * from `rp_filter`; `udp_mem` two from `tcp_mem`.)
 */
const KNOWN_NEIGHBOURS = new Set([
  'net.ipv4.udp_mem',
  'net.ipv4.udp_rmem_min',
  'net.ipv4.udp_wmem_min',
  'net.ipv4.tcp_ecn',
  'net.ipv4.tcp_frto',
  'net.ipv4.tcp_mtu_probe_floor',
  'net.ipv4.tcp_base_mss',
  'net.ipv4.tcp_max_tw_buckets',
  'net.ipv4.tcp_max_orphans',
  'net.ipv4.tcp_synack_retries',
  'net.ipv4.tcp_syn_retries',
  'net.ipv4.tcp_notsent_lowat',
  'net.ipv4.tcp_adv_win_scale',
  'net.ipv4.tcp_app_win',
  'net.ipv4.tcp_autocorking',
  'net.ipv4.tcp_thin_linear_timeouts',
  'net.ipv6.route.flush',
  'sunrpc.tcp_fin_timeout',
  'sunrpc.min_resvport',
  'sunrpc.max_resvport',
  'nfs.max_session_cb_slots',
  'nfsd.nfs4_disable_idmapping',
  'vm.dirtytime_expire_seconds',
]);
const KNOWN_NEIGHBOUR_PATTERNS = [
  /^net\.ipv[46]\.conf\.[^.]+\.(?:arp_filter|rp_filter|arp_ignore|arp_announce|src_valid_mark)$/,
  /^net\.ipv6\.conf\./,
];

type NearMiss = { readonly suggestion: string; readonly distance: number } | undefined;

/**
 * Answers of `nearMiss` by key: a file repeats its keys (a 10 MB sysctl file has a few dozen), and each
 * answer compares against the whole catalog. Bounded, so a file of a million distinct keys stays linear.
 */
const NEAR_MISS_CACHE = new Map<string, NearMiss>();
const NEAR_MISS_CACHE_SIZE = 4096; // not a fact: a memory bound for the cache

/** The catalog key a mistyped key was meant to be, if it is a near miss (one or two edits). */
export function nearMiss(key: string): NearMiss {
  if (NEAR_MISS_CACHE.has(key)) return NEAR_MISS_CACHE.get(key);
  const answer = computeNearMiss(key);
  if (NEAR_MISS_CACHE.size >= NEAR_MISS_CACHE_SIZE) NEAR_MISS_CACHE.clear();
  // A key read from a file may be a slice of its whole text: the cache, which outlives the file, keeps a copy (text/ownText.ts).
  NEAR_MISS_CACHE.set(ownCopy(key), answer);
  return answer;
}

function computeNearMiss(key: string): NearMiss {
  if (findKey(key) || KNOWN_NEIGHBOURS.has(key) || KNOWN_NEIGHBOUR_PATTERNS.some((p) => p.test(key))) return undefined;
  const segments = key.split('.');
  let best: { suggestion: string; distance: number } | undefined;
  for (const entry of ENTRIES) {
    const pattern = entry.key.split('.');
    // A glob entry compares against the written interface name, so `conf.eth0.rp_filtre` suggests `conf.eth0.rp_filter`.
    const candidate =
      pattern.length === segments.length ? pattern.map((p, i) => (p === '*' ? segments[i]! : p)).join('.') : entry.key;
    const limit = candidate.length >= MIN_LENGTH_FOR_TWO_EDITS ? 2 : 1;
    if (Math.abs(candidate.length - key.length) > limit) continue;
    const d = distance(key, candidate);
    if (d > 0 && d <= limit && (!best || d < best.distance)) best = { suggestion: candidate, distance: d };
  }
  return best;
}

/**
 * A namespace whose every key anf-lint knows, read from the kernel source, so a key in it that is not
 * listed does not exist: writing it fails (sysctl) or is ignored (modprobe), whatever its spelling.
 */
export interface ClosedNamespace {
  /** `sunrpc.`: the dotted prefix, for sysctls and for the module's parameters. */
  readonly prefix: string;
  /** Every sysctl under the prefix (one level: `sunrpc.tcp_max_slot_table_entries`). */
  readonly sysctls: readonly string[];
  /** Sub-directories anf-lint does not list: keys under them are never judged (`sunrpc.svc_rdma.`). */
  readonly openBelow: readonly string[];
  /**
   * Module parameters judged as a closed set: only those matching `moduleFamily` (the module's other
   * parameters are not listed completely, so they are never judged).
   */
  readonly moduleParameters: readonly string[];
  readonly moduleFamily: RegExp;
  readonly sources: readonly SourceKey[];
}

/**
 * `/proc/sys/sunrpc` in v6.12: net/sunrpc/xprtsock.c registers the socket-transport tunables,
 * net/sunrpc/sysctl.c the debug flags and `transports`, net/sunrpc/xprtrdma/transport.c the `rdma_*`
 * tunables (with CONFIG_SUNRPC_DEBUG; their names are still real keys), svc_rdma.c the `svc_rdma/`
 * directory. The `sunrpc` module's slot-table parameters are the same three names as the sysctls
 * (module_param_named in xprtsock.c).
 */
export const CLOSED_NAMESPACES: readonly ClosedNamespace[] = [
  {
    prefix: 'sunrpc.',
    sysctls: [
      'sunrpc.udp_slot_table_entries',
      'sunrpc.tcp_slot_table_entries',
      'sunrpc.tcp_max_slot_table_entries',
      'sunrpc.min_resvport',
      'sunrpc.max_resvport',
      'sunrpc.tcp_fin_timeout',
      'sunrpc.rpc_debug',
      'sunrpc.nfs_debug',
      'sunrpc.nfsd_debug',
      'sunrpc.nlm_debug',
      'sunrpc.transports',
      'sunrpc.rdma_slot_table_entries',
      'sunrpc.rdma_max_inline_read',
      'sunrpc.rdma_max_inline_write',
      'sunrpc.rdma_inline_write_padding',
      'sunrpc.rdma_memreg_strategy',
      'sunrpc.rdma_pad_optimize',
    ],
    openBelow: ['sunrpc.svc_rdma.'],
    moduleParameters: [
      'sunrpc.udp_slot_table_entries',
      'sunrpc.tcp_slot_table_entries',
      'sunrpc.tcp_max_slot_table_entries',
    ],
    moduleFamily: /slot_table/,
    sources: ['KXPRTSOCK', 'KSUNRPC_SYSCTL', 'KXPRTRDMA'],
  },
  /**
   * `/proc/sys/fs/nfs`: fs/nfs/sysctl.c, fs/nfs/nfs4sysctl.c and fs/lockd/svc.c register these (names that
   * some kernels dropped, such as nfs_congestion_kb, stay listed: they are real on the kernels that have them).
   * No module parameter lives under `fs.`.
   */
  {
    prefix: 'fs.nfs.',
    sysctls: [
      'fs.nfs.nfs_mountpoint_timeout',
      'fs.nfs.nfs_congestion_kb',
      'fs.nfs.nfs_callback_tcpport',
      'fs.nfs.idmap_cache_timeout',
      'fs.nfs.nlm_grace_period',
      'fs.nfs.nlm_timeout',
      'fs.nfs.nlm_udpport',
      'fs.nfs.nlm_tcpport',
      'fs.nfs.nsm_use_hostnames',
      'fs.nfs.nsm_local_state',
    ],
    openBelow: [],
    moduleParameters: [],
    moduleFamily: /(?!)/,
    sources: ['KNFS_SYSCTL', 'KNFS4_SYSCTL', 'KLOCKD'],
  },
];

/**
 * A key in a closed namespace that does not exist there, with the namespace; undefined for keys that
 * exist, keys outside every closed namespace, and module parameters outside the judged family.
 */
export function unknownInClosedNamespace(key: string, asModuleParameter: boolean): ClosedNamespace | undefined {
  for (const ns of CLOSED_NAMESPACES) {
    if (!key.startsWith(ns.prefix) || ns.openBelow.some((open) => key.startsWith(open))) continue;
    if (asModuleParameter) {
      if (ns.moduleParameters.includes(key) || !ns.moduleFamily.test(key.slice(ns.prefix.length))) return undefined;
      return ns;
    }
    if (ns.sysctls.includes(key) || key.slice(ns.prefix.length).includes('.')) return undefined;
    return ns;
  }
  return undefined;
}

/**
 * The key a closed-namespace key was meant to be when it has the same words in another order
 * (`sunrpc.max_tcp_slot_table_entries` → `sunrpc.tcp_max_slot_table_entries`), or is one or two edits from
 * it: only when exactly one key matches.
 */
export function reorderedKey(key: string, ns: ClosedNamespace, asModuleParameter: boolean): string | undefined {
  const words = (k: string) => k.slice(ns.prefix.length).split('_').sort().join('_');
  const written = words(key);
  const keys = asModuleParameter ? ns.moduleParameters : ns.sysctls;
  const reordered = keys.filter((k) => words(k) === written);
  if (reordered.length === 1) return reordered[0];
  // Otherwise one or two edits from exactly one key of the namespace (`fs.nfs.nlm_tcp_port`).
  const near = keys.filter((k) => distance(k, key) <= 2);
  return reordered.length === 0 && near.length === 1 ? near[0] : undefined;
}

/**
 * The keys a key written without its namespace (`tcp_max_slot_table_entries`) can be: catalog keys and
 * keys of the closed namespaces whose last segment it is. Glob entries (`conf.*.rp_filter`) are left out.
 */
export function keysEndingWith(name: string): readonly { readonly key: string; readonly via: KeyInterface }[] {
  const wanted = name.replace(/-/g, '_');
  const last = (key: string) => key.slice(key.lastIndexOf('.') + 1);
  const found = new Map<string, KeyInterface>();
  for (const entry of ENTRIES) {
    if (!entry.key.includes('*') && last(entry.key) === wanted) found.set(entry.key, entry.via);
  }
  for (const ns of CLOSED_NAMESPACES) {
    for (const key of ns.sysctls) if (last(key) === wanted && !found.has(key)) found.set(key, 'sysctl');
  }
  return [...found].map(([key, via]) => ({ key, via }));
}

/** Keys shorter than this get a did-you-mean only for a single edit. */
const MIN_LENGTH_FOR_TWO_EDITS = 12; // not a fact: a heuristic threshold for typo detection

function describeShape(shape: KeyShape): string {
  switch (shape.kind) {
    case 'integer':
      return shape.max !== undefined && shape.max < INT_MAX
        ? `integer, ${formatNumber(shape.min ?? 0)}–${formatNumber(shape.max)}`
        : 'integer';
    case 'boolean':
      return '0 or 1';
    case 'choice':
      return shape.values.join(', ');
    case 'triple':
      return 'three integers, min ≤ default ≤ max';
    case 'pair':
      return `two integers, low ≤ high (${shape.min}–${formatNumber(shape.max)})`;
    case 'name':
      return 'a name';
    case 'yes-no':
      return 'Y or N';
    case 'trigger':
      return 'write-only trigger';
  }
}

/** What a hover knows about the place it points at, to put numbers into the explanation. */
export interface DescribeContext {
  /** The value written there (`4096 131072 16777216`). */
  readonly value?: string;
  /** Round-trip time to ANF (ResolvedConfig.rttSeconds). */
  readonly rttSeconds?: number;
}

/** Keys whose value is a TCP window limit, and the field that holds the maximum. */
const WINDOW_FIELD: Readonly<Record<string, number>> = { 'net.ipv4.tcp_rmem': 2, 'net.ipv4.tcp_wmem': 2 };

/**
 * Markdown for a hover on a key: what it does, shape, default, history and recommendations with
 * sources. With a context, window keys also show what the written maximum allows per connection
 * at the configured round-trip time (the bandwidth-delay product, with the numbers filled in).
 */
export function describeKey(key: string, context: DescribeContext = {}): string | undefined {
  const entry = findKey(key);
  if (!entry) return undefined;
  const lines = [`**${entry.key}**: ${entry.title}`, '', entry.description, ''];
  const facts: string[] = [`Value: ${describeShape(entry.shape)}${entry.unit ? ` (${entry.unit})` : ''}`];
  if (entry.defaultValue !== undefined)
    facts.push(`Kernel default: \`${entry.defaultValue}\`${entry.defaultNote ? ` (${entry.defaultNote})` : ''}`);
  else if (entry.defaultNote) facts.push(`Kernel default: ${entry.defaultNote}`);
  if (entry.via === 'module')
    facts.push(`A module parameter: set it in \`/etc/modprobe.d/\` as \`options ${entry.key.replace('.', ' ')}=…\``);
  if (entry.via === 'both')
    facts.push(`Also a module parameter: \`options ${entry.key.replace('.', ' ')}=…\` in \`/etc/modprobe.d/\``);
  if (entry.removedIn) facts.push(`Removed in kernel ${entry.removedIn.value}`);
  if (entry.noOpSince) facts.push(`No effect since kernel ${entry.noOpSince.value}`);
  for (const change of entry.changed ?? []) facts.push(`Kernel ${change.version.value}: ${change.what}`);
  lines.push(...facts.map((f) => `- ${f}`));
  if (entry.recommended && entry.recommended.length > 0) {
    lines.push('', 'Recommended:');
    for (const r of entry.recommended)
      lines.push(
        `- ${r.context}: \`${r.value}\` ([${SOURCES[r.source].title}](${SOURCES[r.source].url}))${r.note ? `. ${r.note}` : ''}`,
      );
  }
  const field = WINDOW_FIELD[entry.key];
  const written = context.value?.trim().split(/\s+/)[field ?? 0];
  if (field !== undefined && written && /^\d+$/.test(written) && context.rttSeconds) {
    const window = Number(written);
    lines.push(
      '',
      `With this maximum, one connection carries at most ${windowLimitFormula(window, context.rttSeconds)} (window ÷ round-trip time).`,
    );
  }
  return lines.join('\n');
}
