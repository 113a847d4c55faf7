import type { SourceKey } from './sources';

/**
 * Workload kinds and what the guidance says about each. Rules that depend on the workload
 * (NFSv4.1 on EDA, NFSv3 on SAP HANA data/log, nocto on shared data, cool access on random I/O)
 * read these traits instead of listing workloads themselves.
 */
export const WORKLOAD_KINDS = [
  'eda-tools',
  'eda-scratch',
  'hpc',
  'sap-hana-data',
  'sap-hana-log',
  'sap-hana-shared',
  'oracle',
  'database',
  'vdi',
  'general',
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export type NfsVersionPreference = '3' | '4.1';

export interface WorkloadTraits {
  readonly title: string;
  /** The NFS version the guidance recommends; `requires` means the other version is unsupported. */
  readonly nfsVersion: { readonly preferred: NfsVersionPreference | 'either'; readonly requires?: NfsVersionPreference; readonly source: SourceKey };
  /** Data written by several clients at once: close-to-open and attribute caching must stay on. */
  readonly sharedWrites: boolean;
  /** Read-mostly data (tools, libraries) where nocto and a long actimeo pay off. */
  readonly readMostly: boolean;
  /** Random or latency-sensitive I/O that suffers when data comes back from the cool tier. */
  readonly latencySensitive: boolean;
  /** Benefits from several TCP connections per mount (throughput-bound). */
  readonly throughputBound: boolean;
}

export const WORKLOADS: Readonly<Record<WorkloadKind, WorkloadTraits>> = {
  'eda-tools': {
    title: 'EDA tools and libraries',
    nfsVersion: { preferred: '3', source: 'SEED_MOUNT' },
    sharedWrites: false,
    readMostly: true,
    latencySensitive: false,
    throughputBound: true,
  },
  'eda-scratch': {
    title: 'EDA scratch and project data',
    nfsVersion: { preferred: '3', source: 'SEED_MOUNT' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: true,
  },
  hpc: {
    title: 'HPC (streaming, CFD, AI/ML training)',
    nfsVersion: { preferred: '3', source: 'WT' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: false,
    throughputBound: true,
  },
  'sap-hana-data': {
    title: 'SAP HANA /hana/data',
    nfsVersion: { preferred: '4.1', requires: '4.1', source: 'HANA' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: true,
  },
  'sap-hana-log': {
    title: 'SAP HANA /hana/log',
    nfsVersion: { preferred: '4.1', requires: '4.1', source: 'HANA' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: false,
  },
  'sap-hana-shared': {
    title: 'SAP HANA /hana/shared',
    nfsVersion: { preferred: '4.1', source: 'HANA' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: false,
    throughputBound: false,
  },
  oracle: {
    title: 'Oracle database (kNFS or dNFS)',
    nfsVersion: { preferred: '3', source: 'FAQN' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: true,
  },
  database: {
    title: 'Other databases (OLTP)',
    nfsVersion: { preferred: 'either', source: 'WT' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: false,
  },
  vdi: {
    title: 'VDI, user profiles',
    nfsVersion: { preferred: 'either', source: 'WT' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: false,
  },
  general: {
    title: 'General purpose',
    nfsVersion: { preferred: 'either', source: 'MO' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: false,
    throughputBound: false,
  },
};

export function isWorkloadKind(value: string): value is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(value);
}
