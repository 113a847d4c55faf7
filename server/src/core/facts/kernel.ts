import { fact } from './fact';

/**
 * Kernel and network facts for sysctl, modprobe and bandwidth-delay rules.
 * The sysctl key catalog reads its numbers here.
 */

export const NETWORK_LATENCY = {
  vnetRttMs: fact(0.5, 'ms', 'SEED_PERF', { note: 'Typical round trip from a VM to ANF inside a VNet.' }),
  expressRouteRttMs: fact(2, 'ms', 'SEED_ER', { note: '"ExpressRoute is low latency (<2ms in our case)".' }),
  lanRttMinUs: fact(50, 'µs', 'SEED_ER'),
  lanRttMaxUs: fact(200, 'µs', 'SEED_ER'),
} as const;

export const TCP_WINDOW = {
  /** Without window scaling the window field is 16 bits. */
  unscaledMaxBytes: fact(65535, 'bytes', 'KDOC', { note: 'tcp_window_scaling=0 caps every connection at 64 KiB in flight.' }),
  /** Seed 003: ONTAP's default iSCSI window, which caps one stream near 64 MB/s at 2 ms. */
  ontapDefaultBytes: fact(131400, 'bytes', 'SEED_ER'),
  ontapMaxBytes: fact(262800, 'bytes', 'SEED_ER'),
} as const;

/** When keys were removed or stopped doing anything. */
export const KERNEL_KEY_HISTORY = {
  tcpFackRemoved: fact('4.15', 'kernel version', 'KDOC'),
  tcpTwRecycleRemoved: fact('4.12', 'kernel version', 'KDOC'),
  tcpLowLatencyNoOp: fact('4.14', 'kernel version', 'KDOC'),
} as const;

/** Values the ANF and SAP guidance recommends for an NFS client (seed 001, EDA, HANA). */
export const RECOMMENDED_SYSCTL = {
  coreRmemMaxBytes: fact(16777216, 'bytes', 'SEED_MOUNT'),
  coreWmemMaxBytes: fact(16777216, 'bytes', 'SEED_MOUNT'),
  coreRmemDefaultBytes: fact(1048576, 'bytes', 'SEED_MOUNT'),
  coreWmemDefaultBytes: fact(1048576, 'bytes', 'SEED_MOUNT'),
  tcpRmem: fact([1048576, 8388608, 16777216] as readonly number[], 'bytes (min default max)', 'SEED_MOUNT'),
  tcpWmem: fact([1048576, 8388608, 16777216] as readonly number[], 'bytes (min default max)', 'SEED_MOUNT'),
  hanaTcpRmem: fact([4096, 131072, 16777216] as readonly number[], 'bytes (min default max)', 'HANA'),
  hanaTcpWmem: fact([4096, 16384, 16777216] as readonly number[], 'bytes (min default max)', 'HANA'),
  netdevMaxBacklog: fact(300000, 'packets', 'SEED_MOUNT'),
  somaxconn: fact(65535, 'connections', 'SEED_MOUNT'),
  optmemMaxBytes: fact(2048000, 'bytes', 'SEED_MOUNT', { formerly: [{ value: 4194304, source: 'EDA', note: 'The EDA benchmark used 4 MiB.' }] }),
  sunrpcTcpSlotTableEntries: fact(128, 'slots', 'HANA'),
  sunrpcTcpMaxSlotTableEntries: fact(128, 'slots', 'CS'),
  nfsMaxSessionSlots: fact(180, 'slots', 'CS'),
  vmSwappiness: fact(10, '', 'HANA'),
} as const;
