import { NFS_PROTOCOL, WORKLOADS } from '../../facts';
import { lazyFinding, type SpanEdit } from '../../diagnostics';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { defineRule } from '../../rules/rule';
import { baseName } from '../../fileKind';
import { mountFix, removeOption, replaceValue } from '../fixes';
import { assumedAnfWords, hasNfsMounts, targetOfMount, volumeOfMount, workloadOfMount, workloadWords } from './common';

export const nfsVersionForWorkload = defineRule({
  code: 'ANF220',
  name: 'nfs-version-for-workload',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'NFS version does not suit the workload',
    what: "A mount of an ANF server pinned to an NFS version its workload should not use: NFSv3 on SAP HANA data or log volumes (error: not supported; a warning when the server is only assumed to be ANF), NFSv4.1 on EDA or HPC volumes (warning: NFSv3 performs better there), NFSv4.1 on Oracle volumes (a note: supported, but Microsoft recommends NFSv3 as the base for dNFS, and dNFS over NFSv4.1 needs Oracle patches). The workload comes from an annotation, the manifest, the mount point (`/hana/data`, `/hana/log`: SAP's layout) or the configuration. When the manifest volume does not serve the pinned version, ANF224 reports the token instead (one finding, which names the workload).",
    why: `SAP supports /hana/data and /hana/log on ANF only over NFSv4.1. For EDA and other metadata-heavy workloads NFSv3 is stateless and avoids NFSv4.1's per-file state and locking; the ANF EDA benchmark runs NFSv3, the HPC training on Microsoft Learn measured NFSv4.1 well behind NFSv3, and the Microsoft Learn module on ANF performance for EDA and HPC puts the cost at ${NFS_PROTOCOL.edaNfs41OverheadMinPercent.value}–${NFS_PROTOCOL.edaNfs41OverheadMaxPercent.value}% (no other source confirms that range). For Oracle, "Deploy application volume group for Oracle" recommends NFSv3 as the base for dNFS and supports NFSv4.1, and the "NFS FAQs for Azure NetApp Files" add that dNFS over NFSv4.1 needs the patches for Oracle bugs 33132050 and 33676296 and cannot use several network paths: a note, not a warning. The workload comes from \`# anf: workload=\`, the manifest volume the mount reaches, or \`workload:\` in .anf-lint.yaml.`,
    instead:
      "Use `vers=4.1` for SAP HANA data and log; use `vers=3` for EDA tools and scratch unless you need NFSv4.1 features (Kerberos, ACLs). The volume must be created with that protocol too: when the manifest volume the mount reaches does not serve it, the finding offers no fix and asks to change the volume's `protocols` as well (the new version alone would fail to mount, ANF224).",
    examples: [
      {
        flagged:
          '# anf: workload=sap-hana-data\n10.20.1.4:/hana-data  /hana/data  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev  0  0',
        better:
          '# anf: workload=sap-hana-data\n10.20.1.4:/hana-data  /hana/data  nfs  rw,hard,vers=4.1,rsize=262144,wsize=262144,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['HANA', 'EDA', 'SEED_COURSE', 'SEED_MOUNT', 'AVGORA', 'FAQN'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount, effective } = judged;
    const version = effective.version;
    if (!version?.pinned || (version.text !== '3' && version.text !== '4.1')) return;
    const found = workloadOfMount(context, judged);
    if (!found) return;
    // SAP's NFSv4.1 requirement and the NFSv3 preference are ANF's guidance; Azure Files and Blob NFS serve one version each.
    const target = targetOfMount(context, judged);
    if (target.kind !== 'anf') return;
    const traits = WORKLOADS[found.workload];
    const required = traits.nfsVersion.requires;
    const want = required ?? (traits.nfsVersion.preferred === '3' ? '3' : undefined);
    if (!want || want === version.text) return;
    // The wanted version only mounts once the volume serves it (ANF224): no fix until its `protocols` change.
    const volume = volumeOfMount(context, judged);
    // The volume does not serve the pinned version: ANF224 reports this token, with the workload's view. One finding.
    if (volume && !volume.nfsVersions.includes(version.text)) return;
    const lacking = volume && !volume.nfsVersions.includes(want) ? volume : undefined;
    const edits: SpanEdit[] = [];
    if (version.option && !lacking) {
      edits.push(replaceValue(version.option, want));
      if (version.minorOption) edits.push(removeOption(text, mount, version.minorOption));
    }
    const volumeToo = lacking
      ? `, and change the \`protocols\` of volume \`${lacking.name}\` (${baseName(lacking.uri)}) too: it ${servedWords(lacking)}, so \`vers=${want}\` alone fails to mount`
      : '';
    const span = (version.option ?? version.minorOption)?.span ?? mount.fsTypeSpan ?? mount.span;
    const recommended = required ? undefined : traits.nfsVersion.onlyRecommended;
    context.report(
      lazyFinding(
        {
          span,
          // An error only where both are known: a server only assumed to be ANF may be a filer where SAP allows NFSv3.
          ...(required ? { severity: target.known ? ('error' as const) : ('warning' as const) } : {}),
          // Oracle: NFSv4.1 is supported, so a note with Microsoft's caveats, not a speed warning.
          ...(recommended ? { severity: 'info' as const } : {}),
        },
        () => ({
          message: required
            ? `NFSv${version.text} on ${workloadWords(found)}: SAP supports ${traits.title} on ANF only over NFSv${required}. Use \`vers=${required}\`${volumeToo}.${assumedAnfWords(target)}`
            : recommended
              ? `NFSv${version.text} on ${workloadWords(found)}: ${recommended.why}.${lacking ? ` To use \`vers=${want}\`, change the \`protocols\` of volume \`${lacking.name}\` (${baseName(lacking.uri)}) too: it ${servedWords(lacking)}.` : ''}`
              : `NFSv${version.text} on ${workloadWords(found)}: NFSv3 performs better for this metadata-heavy workload (no per-file state or locks to track). Use \`vers=3\` unless you need NFSv4.1 features${volumeToo}.`,
          ...(edits.length > 0 ? { fixes: mountFix.unsafe(`Use vers=${want}`, ...edits) } : {}),
        }),
      ),
    );
  },
});

/** "serves only NFSv3", "serves no NFS version (SMB only)". */
function servedWords(volume: VolumeSummary): string {
  if (volume.nfsVersions.length === 0) return 'serves no NFS version (SMB only)';
  return `serves only ${volume.nfsVersions.map((v) => `NFSv${v}`).join(' and ')}`;
}
