import { WORKLOADS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { workloadOrigin } from '../../iac/estate';
import { volumeSecurity } from '../model';
import { fixes, fixOf, insertAfterSibling, isManifest, Named, replaceValue, manifestExample } from './helpers';

export const workloadNfsVersion = defineRule({
  code: 'ANF119',
  name: 'workload-nfs-version',
  domain: 'manifest',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'NFS version does not suit the workload',
    what: 'SAP HANA data or log volumes on NFSv3 (an error: SAP supports only NFSv4.1 there); NFSv4.1 without Kerberos on volumes of workloads that run best on NFSv3 (EDA, HPC: a warning); NFSv4.1 on Oracle volumes (a note: supported, but Microsoft recommends NFSv3 as the base for dNFS, and dNFS over NFSv4.1 needs Oracle patches).',
    why: 'SAP HANA requires NFSv4.1 for /hana/data and /hana/log on ANF (locking and lease semantics). For EDA, the course\'s benchmarks show NFSv4.1 well behind NFSv3 ("be cautious on using 4.1 if there\'s no specific security requirements"), and ANF\'s own EDA benchmark runs NFSv3; the Microsoft Learn module on ANF performance for EDA and HPC puts the cost at 25-75%. For Oracle, "Deploy application volume group for Oracle" recommends NFSv3 as the base for dNFS and supports NFSv4.1; the "NFS FAQs for Azure NetApp Files" add that dNFS over NFSv4.1 needs the patches for Oracle bugs 33132050 and 33676296 (without them: hangs on storage endpoint moves and maintenance events) and cannot use several network paths. That is why Oracle gets a note, not a warning.',
    instead:
      'Use NFSv4.1 for SAP HANA data and log; use NFSv3 for EDA and HPC volumes unless you need Kerberos or NFSv4.1 ACLs. The fix swaps the protocol entry; clients must remount with the matching `vers=`.',
    examples: [
      manifestExample(
        '- name: hana-pool\n  serviceLevel: Ultra\n  size: 4 TiB\n  volumes:\n    - name: hana-data\n      quota: 4 TiB\n      workload: sap-hana-data\n      protocols: [NFSv3]',
        '- name: hana-pool\n  serviceLevel: Ultra\n  size: 4 TiB\n  volumes:\n    - name: hana-data\n      quota: 4 TiB\n      workload: sap-hana-data\n      protocols: [NFSv4.1]',
      ),
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - name: eda-tools\n      quota: 4 TiB\n      workload: eda-tools\n      protocols: [NFSv4.1]',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - name: eda-tools\n      quota: 4 TiB\n      workload: eda-tools\n      protocols: [NFSv3]',
      ),
    ],
    sources: ['HANA', 'SEED_COURSE', 'SEED_MOUNT', 'EDA', 'AVGORA', 'FAQN'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context) {
    const workload = volume.workload?.value;
    if (!workload) return;
    const traits = WORKLOADS[workload];
    // Infrastructure code: a workload taken from a name, path, tag or volume spec says so.
    const holds = () => `holds ${traits.title}${workloadOrigin(context.file.iac, String(volume.path[0]))}`;
    const v3 = volume.protocols.find((p) => p.value === 'NFSv3');
    const v41 = volume.protocols.find((p) => p.value === 'NFSv4.1');
    if (traits.nfsVersion.requires === '4.1' && !volume.protocolsNode && volume.workload) {
      // No `protocols`: the volume gets the default, NFSv3.
      context.report({
        span: volume.workload.span,
        severity: 'error',
        message: `${Named('volume', volume.name)} ${holds()}, which needs NFSv4.1, but has no \`protocols\` and so gets the default, NFSv3.`,
        ...fixes(
          fixOf.unsafe('Add `protocols: [NFSv4.1]`', [
            insertAfterSibling(context.file.source, volume.workload, 'protocols', '[NFSv4.1]'),
          ]),
        ),
      });
    }
    if (traits.nfsVersion.requires === '4.1' && v3) {
      context.report({
        span: v3.span,
        severity: 'error',
        message: `${Named('volume', volume.name)} ${holds()}, which needs NFSv4.1: NFSv3 is not supported there.`,
        ...fixes(v41 ? undefined : fixOf.unsafe('Use NFSv4.1', [replaceValue(v3, 'NFSv4.1')])),
      });
    }
    if (traits.nfsVersion.preferred === '3' && v41 && !v3 && volumeSecurity(volume) === 'sys') {
      const recommended = traits.nfsVersion.onlyRecommended;
      context.report({
        span: v41.span,
        // Oracle: NFSv4.1 is supported, so a note with Microsoft's caveats, not a speed warning.
        ...(recommended
          ? {
              severity: 'info' as const,
              message: `${Named('volume', volume.name)} ${holds()} on NFSv4.1: ${recommended.why}.`,
            }
          : {
              message: `${Named('volume', volume.name)} ${holds()} on NFSv4.1; NFSv3 is markedly faster for this workload and it uses no Kerberos that would need NFSv4.1.`,
            }),
        ...fixes(fixOf.unsafe('Use NFSv3', [replaceValue(v41, 'NFSv3')])),
      });
    }
  },
});
