import {
  ATTRIBUTE_CACHE,
  NCONNECT,
  NFS_TIMEOUTS,
  NFS_TRANSFER_SIZE,
  WORKLOADS,
  type NfsVersionPreference,
  type WorkloadKind,
} from '../facts';
import type { VolumeSummary } from '../manifest/volumeSummary';

/**
 * The recommended way to mount a manifest volume for its workload, as an fstab line, a mount
 * command or a systemd mount unit. `anf-lint mount`, the editor's "Insert mount command for
 * volume" and the snippets all come from here, and every recommendation must pass the mount
 * rules without a warning (test/unit/recommendMountLine.test.ts).
 *
 * Baselines (../shared/anf-facts.md §3.7): EDA tools `vers=3,nocto,actimeo=600,nconnect=8,
 * rsize/wsize=262144,hard,noatime,tcp`; SAP HANA `vers=4.1,hard,timeo=600,rsize/wsize=262144,
 * noatime,lock,_netdev,sec=sys`; Oracle kNFS `vers=3,hard,tcp,timeo=600` with rsize/wsize of at
 * least 32 KiB; HPC and EDA project data `vers=3,hard,nconnect=8,rsize/wsize=262144`.
 */
export type MountStyle = 'fstab' | 'command' | 'systemd';
export const MOUNT_STYLES: readonly MountStyle[] = ['fstab', 'command', 'systemd'];

export type MountVolume = Pick<VolumeSummary, 'name' | 'nfsVersions' | 'mountTargets'> &
  Partial<Pick<VolumeSummary, 'account' | 'pool' | 'workload' | 'exportPath' | 'mountPath' | 'kerberos'>>;

export interface MountRecommendation {
  readonly workload: WorkloadKind;
  readonly nfsVersion: NfsVersionPreference;
  /** `server:/export`. */
  readonly source: string;
  readonly mountPoint: string;
  /** Options in the order they are written, without the host-format extras (`_netdev`). */
  readonly options: readonly string[];
  /** Why the options are what they are, one sentence each. */
  readonly notes: readonly string[];
  /** True when the server or export path is a placeholder to fill in. */
  readonly placeholders: boolean;
}

/** Placeholders when the manifest does not say; obviously not a real address. */
export const MOUNT_TARGET_PLACEHOLDER = '<mount-target-ip>';

function chooseVersion(
  workload: WorkloadKind,
  offered: readonly ('3' | '4.1')[],
  notes: string[],
): NfsVersionPreference {
  const traits = WORKLOADS[workload];
  const preferred = traits.nfsVersion.preferred;
  if (preferred !== 'either') {
    if (offered.length === 0 || offered.includes(preferred)) return preferred;
    notes.push(
      `${traits.title} should use NFSv${preferred}, but the volume only offers NFSv${offered.join('/')}: change the volume's protocol types.`,
    );
    return offered[0]!;
  }
  return offered[0] ?? '3';
}

/** The options for a workload and NFS version, every number from the facts table. */
export function recommendedMountOptions(
  workload: WorkloadKind,
  nfsVersion: NfsVersionPreference,
  kerberos = false,
): { options: string[]; notes: string[] } {
  const traits = WORKLOADS[workload];
  const transfer = NFS_TRANSFER_SIZE.recommendedBytes.value;
  const options = ['rw', `vers=${nfsVersion}`, 'hard'];
  const notes: string[] = [
    `${traits.title}: NFSv${nfsVersion}, hard mount (a soft mount can corrupt data on a timeout).`,
  ];
  if (nfsVersion === '3') options.push('tcp');
  options.push(`timeo=${NFS_TIMEOUTS.tcpTimeoDeciseconds.value}`, `rsize=${transfer}`, `wsize=${transfer}`);
  notes.push(`rsize and wsize ${transfer}: Azure NetApp Files' recommended transfer size.`);
  options.push('noatime');
  if (workload.startsWith('sap-hana')) {
    options.push('lock');
    notes.push(
      'SAP HANA on Azure NetApp Files: the published option set (vers=4.1, lock, sec=sys); add nconnect only where the SAP note for your OS release allows it.',
    );
  }
  if (traits.readMostly && !traits.sharedWrites) {
    options.push('nocto', `actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value}`);
    notes.push(
      `nocto and actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value}: read-mostly tools and libraries skip most GETATTR calls.`,
    );
  }
  if (traits.throughputBound && !workload.startsWith('sap-hana') && workload !== 'oracle') {
    options.push(`nconnect=${NCONNECT.bestTested.value}`);
    notes.push(
      `nconnect=${NCONNECT.bestTested.value}: several TCP connections per mount (Linux ${NCONNECT.minKernel.value} or later).`,
    );
  }
  if (workload === 'oracle')
    notes.push('Oracle: prefer Direct NFS (dNFS); these options are for the kernel NFS client.');
  if (nfsVersion === '4.1') options.push(kerberos ? 'sec=krb5' : 'sec=sys');
  return { options, notes };
}

/** The recommendation for one volume: its workload (or `fallbackWorkload`, else general purpose). */
export function recommendMount(volume: MountVolume, fallbackWorkload?: WorkloadKind): MountRecommendation {
  const workload = volume.workload ?? fallbackWorkload ?? 'general';
  const notes: string[] = [];
  const nfsVersion = chooseVersion(workload, volume.nfsVersions, notes);
  const recommended = recommendedMountOptions(workload, nfsVersion, volume.kerberos ?? false);
  const server = volume.mountTargets[0];
  const exportPath = volume.exportPath
    ? volume.exportPath.startsWith('/')
      ? volume.exportPath
      : `/${volume.exportPath}`
    : `/${volume.name}`;
  const mountPoint = volume.mountPath ?? `/mnt/${volume.name}`;
  if (!server) notes.push(`The manifest gives no mount target IP: replace ${MOUNT_TARGET_PLACEHOLDER}.`);
  return {
    workload,
    nfsVersion,
    source: `${server ?? MOUNT_TARGET_PLACEHOLDER}:${exportPath}`,
    mountPoint,
    options: recommended.options,
    notes: [...recommended.notes, ...notes],
    placeholders: !server,
  };
}

/** systemd's unit name for a mount point: `/hana/data` -> `hana-data.mount` (systemd-escape --path). */
export function systemdUnitName(mountPoint: string): string {
  const trimmed = mountPoint.replace(/^\/+|\/+$/g, '').replace(/\/+/g, '/');
  if (trimmed === '') return '-.mount';
  const escaped = [...trimmed]
    .map((ch, index) => {
      if (ch === '/') return '-';
      if (/[A-Za-z0-9:_]/.test(ch) || (ch === '.' && index > 0)) return ch;
      return [...new TextEncoder().encode(ch)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''); // not a fact: hex
    })
    .join('');
  return `${escaped}.mount`;
}

/** Renders a recommendation in a host format. */
export function renderMount(recommendation: MountRecommendation, style: MountStyle, volumeLabel?: string): string {
  const { source, mountPoint, options } = recommendation;
  switch (style) {
    case 'fstab':
      return `${source} ${mountPoint} nfs ${[...options, '_netdev'].join(',')} 0 0`;
    case 'command':
      return `mount -t nfs -o ${options.join(',')} ${source} ${mountPoint}`;
    case 'systemd':
      return [
        `# /etc/systemd/system/${systemdUnitName(mountPoint)}`,
        '[Unit]',
        `Description=Azure NetApp Files volume ${volumeLabel ?? source} (${WORKLOADS[recommendation.workload].title})`,
        'After=network-online.target',
        'Wants=network-online.target',
        '',
        '[Mount]',
        `What=${source}`,
        `Where=${mountPoint}`,
        'Type=nfs',
        `Options=${[...options, '_netdev'].join(',')}`,
        '',
        '[Install]',
        'WantedBy=remote-fs.target',
        '',
      ].join('\n');
  }
}

/** The rendered line for a volume in one step, as the editor command and `anf-lint mount` use it. */
export function recommendedMountText(
  volume: MountVolume,
  style: MountStyle,
  fallbackWorkload?: WorkloadKind,
): { text: string; recommendation: MountRecommendation } {
  const recommendation = recommendMount(volume, fallbackWorkload);
  const label = volume.account && volume.pool ? `${volume.account}/${volume.pool}/${volume.name}` : volume.name;
  return { text: renderMount(recommendation, style, label), recommendation };
}
