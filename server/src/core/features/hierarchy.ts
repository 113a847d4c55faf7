/**
 * The shape of the `anf/hierarchy` custom request: the workspace's accounts -> capacity pools ->
 * volumes -> linked mounts, with their figures, diagnostic counts and source locations. The VS Code
 * tree view consumes exactly this shape (import it with `import type`); the language server builds
 * it with `buildHierarchy` in this folder. Plain data, JSON-serializable, LSP-shaped positions.
 */
import type { Range } from '../text/sourceText';
import type { ServiceLevel, WorkloadKind } from '../facts';

/** The custom request's method name. */
export const HIERARCHY_REQUEST = 'anf/hierarchy';

export interface HierarchyParams {
  /** Only the manifest with this URI (default: every manifest in the workspace). */
  readonly uri?: string;
}

/** A place in a document, as LSP's `Location`. */
export interface HierarchyLocation {
  readonly uri: string;
  readonly range: Range;
}

/**
 * Visible (not suppressed) diagnostics that start in the node's text, by severity: an account's and
 * a pool's text includes their pools and volumes; a mount's is its line (or command, or unit).
 */
export interface DiagnosticCounts {
  readonly error: number;
  readonly warning: number;
  readonly info: number;
  readonly hint: number;
}

/**
 * What a figure is, for clients that pick one (the tree's row descriptions): stable across
 * releases and languages, unlike the label, which is display text.
 */
export type HierarchyFigureKey =
  | 'throughput'
  | 'quota'
  | 'iops'
  | 'monthlyCost'
  | 'required'
  | 'quotaNeeded'
  | 'budget'
  | 'used'
  | 'allocated'
  | 'pools';

/** One figure, already formatted for display: `{ key: 'throughput', label: 'Throughput', value: '1,600 MiB/s' }`. */
export interface HierarchyFigure {
  readonly key: HierarchyFigureKey;
  readonly label: string;
  readonly value: string;
}

export interface HierarchyMount {
  readonly kind: 'mount';
  /** `hana-node1 / /hana/data` (host, from the host model, and mount point); the file and line are in `location`. */
  readonly label: string;
  /** The host (workspace/hosts.ts) whose file has the mount: a host folder's name, `repository`, or the file's name. */
  readonly host?: string;
  readonly location: HierarchyLocation;
  readonly server?: string;
  readonly exportPath?: string;
  readonly mountPoint?: string;
  /** `fstab`, `mount-command`, `systemd`, `autofs`, `ansible`. */
  readonly origin: string;
  /** The options as written, `rw,hard,vers=3`. */
  readonly options: string;
  readonly diagnostics: DiagnosticCounts;
}

export interface HierarchyVolume {
  readonly kind: 'volume';
  /** The name, or its address in the code when the name is unknown (the estate inventory's, core/estate/inventory.ts). */
  readonly name: string;
  /** The volume's name in the manifest. */
  readonly location: HierarchyLocation;
  /** Absent when unknown (then `unknown` says why). */
  readonly serviceLevel?: ServiceLevel;
  readonly qos: 'auto' | 'manual';
  readonly quotaGiB?: number;
  readonly throughputMiBps?: number;
  /** Why a value is unknown, one entry per value (`"quota: ..."`); absent when everything is known. */
  readonly unknown?: readonly string[];
  /** Infrastructure code: the resource's address (`module.x["k"].azurerm_netapp_volume.v`). */
  readonly instance?: string;
  readonly requiredThroughputMiBps?: number;
  readonly monthlyCostUsd?: number;
  readonly workload?: WorkloadKind;
  /** Short, formatted, figures first: throughput, quota, cost, requirement. */
  readonly figures: readonly HierarchyFigure[];
  readonly diagnostics: DiagnosticCounts;
  /** The mounts anywhere in the workspace that reach this volume. */
  readonly mounts: readonly HierarchyMount[];
}

export interface HierarchyPool {
  readonly kind: 'pool';
  readonly name: string;
  /** The pool's name in the manifest, or its first volume when the pool has no own location. */
  readonly location: HierarchyLocation;
  readonly serviceLevel?: ServiceLevel;
  readonly unknown?: readonly string[];
  readonly sizeTiB?: number;
  /** The throughput the pool hands out (size x rate; Flexible: configured). */
  readonly throughputBudgetMiBps?: number;
  /** Sum of its volumes' throughput. */
  readonly allocatedThroughputMiBps: number;
  readonly monthlyCostUsd?: number;
  readonly figures: readonly HierarchyFigure[];
  readonly diagnostics: DiagnosticCounts;
  readonly volumes: readonly HierarchyVolume[];
}

export interface HierarchyAccount {
  readonly kind: 'account';
  readonly name: string;
  readonly unknown?: readonly string[];
  readonly location: HierarchyLocation;
  readonly figures: readonly HierarchyFigure[];
  readonly diagnostics: DiagnosticCounts;
  readonly pools: readonly HierarchyPool[];
}

export interface HierarchyManifest {
  readonly uri: string;
  readonly accounts: readonly HierarchyAccount[];
  /** Every visible diagnostic of the manifest file. */
  readonly diagnostics: DiagnosticCounts;
}

/** The answer to `anf/hierarchy`. */
export interface HierarchyResult {
  readonly manifests: readonly HierarchyManifest[];
  /** NFS mounts that reach no manifest volume. */
  readonly unlinkedMounts: readonly HierarchyMount[];
  /** Visible diagnostics across every file the server knows. */
  readonly totals: DiagnosticCounts;
}
