import type { VolumeSummary } from '../manifest/volumeSummary';
import { formatMiBps, formatSize, GiB } from '../units/units';
import type { WorkspaceView } from '../workspace/workspaceView';
import { effectiveOptions } from './catalog';
import type { MountEntry } from './model';

export interface MountTarget {
  readonly volume: VolumeSummary;
  /** One line: "this mount reaches volume `tools`: Premium, 2 TiB, 128 MiB/s". */
  readonly summary: string;
  /** A few Markdown lines for hover: the summary, workload, protocol versions and a mismatch, if any. */
  readonly markdown: string;
}

/**
 * What a mount line reaches in the manifest, in words for hover and messages. Undefined when the
 * mount matches no manifest volume (by server and export path, or by mount path).
 */
export function describeMountTarget(mount: MountEntry, workspace: WorkspaceView): MountTarget | undefined {
  const volume = workspace.volumeForMount(mount);
  if (!volume) return undefined;
  const facts = [
    volume.serviceLevel,
    formatSize(volume.quotaGiB * GiB),
    formatMiBps(volume.throughputMiBps),
    ...(volume.qos === 'manual' ? ['manual QoS'] : []),
    ...(volume.largeVolume ? ['large volume'] : []),
    ...(volume.coolAccess ? ['cool access'] : []),
  ];
  const summary = `this mount reaches volume \`${volume.name}\`: ${facts.join(', ')}`;
  const lines = [`This mount reaches volume \`${volume.name}\` (${volume.account}/${volume.pool}): ${facts.join(', ')}.`];
  const workload = workspace.workloadOf(mount);
  if (workload) lines.push(`Workload: \`${workload.workload}\` (from the ${workload.source === 'annotation' ? '`# anf:` annotation' : workload.source === 'manifest' ? 'manifest' : 'configuration'}).`);
  if (volume.nfsVersions.length > 0) {
    const version = effectiveOptions(mount).version;
    const served = volume.nfsVersions.map((v) => `NFSv${v}`).join(' and ');
    const mismatch = version?.pinned && !volume.nfsVersions.includes(version.text as '3' | '4.1');
    lines.push(`The volume serves ${served}${mismatch ? `; this mount asks for NFSv${version!.text}` : ''}.`);
  }
  if (volume.kerberos) lines.push('The volume uses Kerberos.');
  return { volume, summary, markdown: lines.join('\n\n') };
}
