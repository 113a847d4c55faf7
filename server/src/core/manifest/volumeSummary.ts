import type { Span } from '../text/sourceText';
import type { ServiceLevel, WorkloadKind } from '../facts';

/**
 * What the rest of the workspace (mount and kernel rules, hover, tree view) may know about a
 * manifest volume, with its computed figures. The manifest parser produces one per volume.
 */
export interface VolumeSummary {
  readonly uri: string;
  readonly account: string;
  readonly pool: string;
  readonly name: string;
  readonly nameSpan: Span;
  readonly serviceLevel: ServiceLevel;
  readonly qos: 'auto' | 'manual';
  readonly quotaGiB: number;
  readonly largeVolume: boolean;
  readonly coolAccess: boolean;
  /** The volume's throughput limit (auto QoS: quota x rate, capped; manual: assigned). */
  readonly throughputMiBps: number;
  readonly workload?: WorkloadKind;
  /** `3`, `4.1`. */
  readonly nfsVersions: readonly ('3' | '4.1')[];
  readonly kerberos: boolean;
  /** Mount target IPs or hostnames. */
  readonly mountTargets: readonly string[];
  readonly exportPath?: string;
  readonly mountPath?: string;
  /** Number of clients that mount it, from the requirements. */
  readonly clients?: number;
  readonly requiredThroughputMiBps?: number;
  readonly requiredLatencySeconds?: number;
  /** IOPS the requirements ask for, and at which block size (bytes), when given. */
  readonly requiredIops?: number;
  readonly blockSizeBytes?: number;
}
