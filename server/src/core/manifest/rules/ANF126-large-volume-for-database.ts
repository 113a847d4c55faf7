import { largeVolumeUnsuitableReason } from '../../calc/advisor';
import { SOURCES, WORKLOADS, type WorkloadKind } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { Span } from '../../text/sourceText';
import { volumeIsLarge, type ManifestVolume } from '../model';
import { isManifest, manifestExample, Named } from './helpers';

export const largeVolumeForDatabase = defineRule({
  code: 'ANF126',
  name: 'large-volume-for-database',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Large volume for database data or log',
    what: "A large volume (`largeVolume: true` or `breakthroughMode: true`) whose workload is SAP HANA data or log, Oracle, or another database: from its `workload:`, or, for SAP HANA, from a mount path under `/hana/data` or `/hana/log`. An error for SAP HANA data and log, a warning for Oracle and other databases (whose volumes may hold something other than data and log): that split is anf-lint's own judgement, the page says the same for all databases. `/hana/shared` on a large volume is not reported.",
    why: `Requirements and considerations for large volumes (${SOURCES.LV.date}) says: "Currently, large volumes aren't suited for database (HANA, Oracle, SQL Server, etc.) data and log volumes. For database workloads requiring more than a single volume's throughput limit, consider deploying multiple regular volumes." It also says a large volume cannot be created with application volume groups, the way Microsoft deploys SAP HANA and Oracle volumes. A large volume cannot be converted to a regular one later: the data has to be copied to a new volume. The sizing advisor already refuses large volumes for these workloads; this rule says it where the manifest asks for one.`,
    instead:
      "Use regular volumes: several of them (SAP HANA data volume partitions, Oracle data files over several volumes) when one regular volume's 4,500 MiB/s or 100 TiB is not enough, ideally deployed with an application volume group.",
    examples: [
      manifestExample(
        '- name: hana-pool\n  serviceLevel: Ultra\n  size: 60 TiB\n  qos: manual\n  volumes:\n    - name: hana-data\n      quota: 60 TiB\n      largeVolume: true\n      throughput: 6000 MiB/s\n      workload: sap-hana-data\n      protocols: [NFSv4.1]',
        '- name: hana-pool\n  serviceLevel: Ultra\n  size: 60 TiB\n  qos: manual\n  volumes:\n    - name: hana-data-1\n      quota: 30 TiB\n      throughput: 3000 MiB/s\n      workload: sap-hana-data\n      protocols: [NFSv4.1]\n    - name: hana-data-2\n      quota: 30 TiB\n      throughput: 3000 MiB/s\n      workload: sap-hana-data\n      protocols: [NFSv4.1]',
      ),
    ],
    sources: ['LV', 'WT', 'HANA'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context) {
    if (!volumeIsLarge(volume)) return;
    const workload = databaseWorkload(volume);
    const reason = workload ? largeVolumeUnsuitableReason(workload.kind) : undefined;
    if (!workload || !reason) return;
    const flag = volume.breakthroughMode?.value ? volume.breakthroughMode : volume.largeVolume;
    const span: Span = flag?.span ?? volume.name?.span ?? volume.headSpan;
    const hana = workload.kind === 'sap-hana-data' || workload.kind === 'sap-hana-log';
    context.report({
      span,
      severity: hana ? 'error' : 'warning',
      message: `${Named('volume', volume.name)} is a large volume for ${WORKLOADS[workload.kind].title} (${workload.from}): ${reason}. Use several regular volumes instead (a large volume cannot be converted back).`,
    });
  },
});

/** SAP HANA's own paths: a volume mounted at /hana/data or /hana/log holds HANA data or log, whatever its `workload:` says is missing. */
const HANA_PATH = /^\/hana\/(data|log)(\/|$)/;

/** The volume's workload and where it came from: its `workload:`, else its HANA mount path. */
function databaseWorkload(volume: ManifestVolume): { kind: WorkloadKind; from: string } | undefined {
  if (volume.workload) return { kind: volume.workload.value, from: `\`workload: ${volume.workload.value}\`` };
  const match = volume.mountPath ? HANA_PATH.exec(volume.mountPath.value) : null;
  if (!match || !volume.mountPath) return undefined;
  return {
    kind: match[1] === 'data' ? 'sap-hana-data' : 'sap-hana-log',
    from: `workload from its mount path \`${volume.mountPath.value}\`; set \`workload:\` to override`,
  };
}
