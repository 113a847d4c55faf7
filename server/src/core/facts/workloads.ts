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
  'sap-netweaver',
  'oracle',
  'database',
  'vdi',
  'general',
] as const;
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export type NfsVersionPreference = '3' | '4.1';

export interface WorkloadTraits {
  readonly title: string;
  /**
   * The NFS version the guidance recommends; `requires` means the other version is unsupported.
   * `onlyRecommended`: the other version is supported and the preference is a recommendation with
   * caveats, not a performance rule (Oracle: NFSv3 as dNFS's base, NFSv4.1 supported with patches),
   * so rules give a note, not a warning, and word it from `onlyRecommended.source`.
   */
  readonly nfsVersion: {
    readonly preferred: NfsVersionPreference | 'either';
    readonly requires?: NfsVersionPreference;
    readonly source: SourceKey;
    readonly onlyRecommended?: { readonly why: string; readonly source: SourceKey };
  };
  /** Data written by several clients at once: close-to-open and attribute caching must stay on. */
  readonly sharedWrites: boolean;
  /** Read-mostly data (tools, libraries) where nocto and a long actimeo pay off. */
  readonly readMostly: boolean;
  /** Random or latency-sensitive I/O that suffers when data comes back from the cool tier. */
  readonly latencySensitive: boolean;
  /** Benefits from several TCP connections per mount (throughput-bound). */
  readonly throughputBound: boolean;
  /**
   * The vendor's own rsize/wsize for this workload, where it is smaller than ANF's general 256 KiB
   * (Oracle's kNFS 32 KiB, Microsoft's SAP NetWeaver lines 64 KiB): rules do not call it small.
   */
  readonly prescribedTransferBytes?: { readonly bytes: number; readonly source: SourceKey };
  /** The vendor prescribes `noac`/`actimeo=0` for some of its files (Oracle RAC: OCR and voting files). */
  readonly prescribesNoAttributeCache?: SourceKey;
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
  'sap-netweaver': {
    title: 'SAP application shared files (/sapmnt, /usr/sap)',
    nfsVersion: { preferred: 'either', source: 'SAPNW' },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: false,
    throughputBound: false,
    prescribedTransferBytes: { bytes: 65536, source: 'SAPNW' }, // Microsoft's NetWeaver guides mount with rsize=65536,wsize=65536
  },
  oracle: {
    title: 'Oracle database (kNFS or dNFS)',
    // "We recommend using NFSv3 as a base for dNFS, but NFSv4.1 is also supported" (AVGORA); dNFS over
    // NFSv4.1 needs Oracle's patches for bugs 33132050 and 33676296 and cannot use several paths (FAQN).
    nfsVersion: {
      preferred: '3',
      source: 'FAQN',
      onlyRecommended: {
        why: "Microsoft recommends NFSv3 as the base for Oracle dNFS, though NFSv4.1 is supported; dNFS over NFSv4.1 needs Oracle's patches for bugs 33132050 and 33676296 and cannot use several network paths",
        source: 'AVGORA',
      },
    },
    sharedWrites: true,
    readMostly: false,
    latencySensitive: true,
    throughputBound: true,
    prescribedTransferBytes: { bytes: 32768, source: 'ORAKNFS' }, // MOS 359515.1: rsize=32768,wsize=32768
    prescribesNoAttributeCache: 'ORAKNFS',
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

/**
 * Mount points whose names say what they serve, by convention strong enough to act on when
 * nothing else (annotation, manifest) says: SAP's file-system layout and Oracle's OFA.
 */
export const WORKLOAD_PATH_CONVENTIONS: readonly {
  readonly pattern: RegExp;
  readonly workload: WorkloadKind;
  readonly convention: string;
  readonly source: SourceKey;
}[] = [
  { pattern: /^\/hana\/data(\/|$)/, workload: 'sap-hana-data', convention: '/hana/data', source: 'HANA' },
  { pattern: /^\/hana\/log(\/|$)/, workload: 'sap-hana-log', convention: '/hana/log', source: 'HANA' },
  { pattern: /^\/hana\/shared(\/|$)/, workload: 'sap-hana-shared', convention: '/hana/shared', source: 'HANA' },
  { pattern: /^\/sapmnt(\/|$)/, workload: 'sap-netweaver', convention: '/sapmnt', source: 'SAPNW' },
  { pattern: /^\/usr\/sap(\/|$)/, workload: 'sap-netweaver', convention: '/usr/sap', source: 'SAPNW' },
  {
    pattern: /^\/u\d{2}(\/app\/oracle)?\/oradata(\/|$)/,
    workload: 'oracle',
    convention: '/u0N/oradata',
    source: 'ORAKNFS',
  },
  // The other OFA folders on a /u0N mount point: Oracle's home (/u01/app/oracle) and the redo, archive
  // and backup folders named ora… (/u03/oralog, /u04/oraarch).
  {
    pattern: /^\/u\d{2}\/(app\/oracle|ora[a-z]+)(\/|$)/,
    workload: 'oracle',
    convention: '/u0N/ora… or /u0N/app/oracle',
    source: 'ORAKNFS',
  },
];

/**
 * The letter after the leading `/` of every convention (`/h…`, `/s…`, `/u…`), read from the patterns;
 * undefined when one does not start with `^\/` and a letter. Most mount points (`/mnt/…`, `/data`)
 * are then answered without running every pattern: this is asked for each mount of a large fstab.
 */
const CONVENTION_LEADS: ReadonlySet<string> | undefined = (() => {
  const leads = new Set<string>();
  for (const { pattern } of WORKLOAD_PATH_CONVENTIONS) {
    const lead = /^\^\\\/([a-z])/.exec(pattern.source)?.[1];
    if (!lead) return undefined;
    leads.add(lead);
  }
  return leads;
})();

/** The workload a mount point's name implies by a strong convention, if any. */
export function workloadFromMountPath(
  mountPoint: string | undefined,
): { workload: WorkloadKind; convention: string } | undefined {
  if (!mountPoint) return undefined;
  const path = mountPoint.endsWith('/') ? mountPoint.replace(/\/+$/, '') || '/' : mountPoint;
  if (CONVENTION_LEADS && (path[0] !== '/' || !CONVENTION_LEADS.has(path[1] ?? ''))) return undefined;
  for (const rule of WORKLOAD_PATH_CONVENTIONS)
    if (rule.pattern.test(path)) return { workload: rule.workload, convention: rule.convention };
  return undefined;
}

export function isWorkloadKind(value: string): value is WorkloadKind {
  return (WORKLOAD_KINDS as readonly string[]).includes(value);
}
