import { HANA_STORAGE_KPI, SERVICE_LEVEL_RATE_MIBPS_PER_TIB, workloadFromMountPath, WORKLOADS } from '../../facts';
import type { ManifestPool, ManifestVolume } from '../../manifest/model';
import type { RuleContext } from '../../rules/rule';
import { volumeCoolAccess } from '../../manifest/summary';
import { manifestVolumeThroughput } from '../../manifest/summary';
import { fixes, fixOf, named, replaceValue, volumeValueSpans } from '../../manifest/rules/helpers';
import { poolQos } from '../../manifest/model';
import { serviceLevelRateMiBpsPerTiB } from '../../calc/throughput';
import { defineRule } from '../../rules/rule';
import { baseName, pathOf } from '../../fileKind';
import { formatMiBps, formatNumber, MiB } from '../../units/units';
import { resourceBySymbol, workloadOverrideHint } from '../estate';
import { estateOf, isIac } from './helpers';

export const hanaStorageKpi = defineRule({
  code: 'ANF408',
  name: 'hana-storage-kpi',
  domain: 'iac',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: "A SAP HANA data or log volume below SAP HANA's storage throughput KPI",
    what: `A volume that serves /hana/data or /hana/log (from a \`# anf: workload=\` annotation, a \`workload\` tag, the volume spec name of an application volume group (\`volume_spec_name = "log"\`, \`volumeSpecName: 'data'\`), SAP's naming such as \`HN1-data-mnt00001\`, a name with \`hana\` and \`data\`/\`log\` such as \`hana-data\`, a \`data\`/\`log\` word in the name of a volume whose pool or account is named for HANA or whose pool holds other HANA volumes, or an NFS mount of the volume at /hana/data or /hana/log in the workspace) whose throughput limit is below the storage KPI: ${HANA_STORAGE_KPI.dataMBps.value} MB/s for data, ${HANA_STORAGE_KPI.logMBps.value} MB/s for log. Infrastructure code declares no requirement, so the KPI is the requirement. Volumes of \`count\`/\`for_each\` blocks are judged per instance where the reader expands them (a literal map or list); a block it cannot expand is not judged.`,
    why: 'SAP HANA is certified on Azure NetApp Files with these minimums; below them savepoints and log writes stall and HANA start-up takes longer. With auto QoS a small volume gets quota x rate, often far less.',
    instead:
      "Grow the quota (auto QoS) or assign more throughput (manual QoS). The fix writes the quota or throughput that meets the KPI, in the source's own units.",
    examples: [
      {
        flagged:
          'resource "azurerm_netapp_volume" "log" {\n  name                = "HN1-log-mnt00001"\n  service_level       = "Premium"\n  storage_quota_in_gb = 1024\n}',
        better:
          'resource "azurerm_netapp_volume" "log" {\n  name                = "HN1-log-mnt00001"\n  service_level       = "Premium"\n  storage_quota_in_gb = 3815\n}',
        language: 'hcl',
      },
    ],
    sources: ['HANA_STORAGE', 'HANA', 'SL'],
  },
  appliesTo: isIac,
  checkVolume({ account, pool, volume }, context) {
    const estate = estateOf(context.file);
    if (!estate) return;
    const stated = volume.workload?.value;
    // A workload the code states (annotation, tag, spec, SAP name) wins; only a volume without one is read from its context.
    const guessed =
      stated === undefined && pool.serviceLevel && volume.quota && !volume.requirements
        ? hanaRoleFromContext(context, pool, volume, account?.name?.value)
        : undefined;
    const kind = stated ?? guessed?.kind;
    if (
      (kind !== 'sap-hana-data' && kind !== 'sap-hana-log') ||
      volume.requirements ||
      !pool.serviceLevel ||
      !volume.quota
    )
      return;
    // Repeated resources (count/for_each) are judged per instance when the reader expands them; a block it could not expand is not.
    if (volume.repeated || volume.unknown?.includes('throughput')) return;
    const kpiMiBps = KPI[kind].bytesPerSecond() / MiB;
    const gets = manifestVolumeThroughput(pool, volume).mibps;
    if (gets >= kpiMiBps) return;
    const symbol = volume.path[0];
    const iacVolume = typeof symbol === 'string' ? resourceBySymbol(estate.volumes, symbol) : undefined;
    const from = guessed?.from ?? iacVolume?.workload?.from ?? 'its workload';
    const level = pool.serviceLevel.value;
    let fix;
    if (poolQos(pool) === 'auto') {
      const rate =
        serviceLevelRateMiBpsPerTiB(level, volumeCoolAccess(volume)) ?? SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Standard.value;
      const gib = Math.ceil((kpiMiBps / rate) * 1024);
      fix = fixOf.unsafe(`Set the quota to ${formatNumber(gib)} GiB (${formatMiBps((gib / 1024) * rate)})`, [
        replaceValue(volume.quota, `${gib} GiB`),
      ]);
    } else if (volume.throughput) {
      const mibps = Math.ceil(kpiMiBps);
      fix = fixOf.unsafe(`Assign ${mibps} MiB/s`, [replaceValue(volume.throughput, `${mibps} MiB/s`)]);
    }
    context.report({
      span: (poolQos(pool) === 'manual' ? volume.throughput : undefined)?.span ?? volume.quota.span,
      restsOn: volumeValueSpans(pool, volume),
      message: `${named('Volume', volume.name).replace(/^volume/, 'Volume')} is ${WORKLOADS[kind].title} (from ${from}; ${workloadOverrideHint(estate.language, iacVolume, from)} to override it) and gets ${formatMiBps(gets)}, below the ${KPI[kind].mbps()} MB/s (${formatMiBps(kpiMiBps)}) SAP HANA's storage KPI asks of it.`,
      ...fixes(fix),
    });
  },
});

const KPI = {
  'sap-hana-data': {
    bytesPerSecond: () => HANA_STORAGE_KPI.dataMBps.value * HANA_STORAGE_KPI.bytesPerMB.value,
    mbps: () => HANA_STORAGE_KPI.dataMBps.value,
  },
  'sap-hana-log': {
    bytesPerSecond: () => HANA_STORAGE_KPI.logMBps.value * HANA_STORAGE_KPI.bytesPerMB.value,
    mbps: () => HANA_STORAGE_KPI.logMBps.value,
  },
} as const;

type HanaRole = 'sap-hana-data' | 'sap-hana-log';

const HANA_WORD = /hana/i;

const DATA_OR_LOG = /(?:^|[^a-z])(data|log)(?:[^a-z]|$)/i;

/**
 * A HANA role for a volume that no annotation, tag, volume spec or SAP name gives one: a `data`/`log`
 * word in its name in a HANA context (its pool or account is named for HANA, or another volume of its
 * pool is a HANA volume), or an NFS mount of it at /hana/data or /hana/log elsewhere in the workspace.
 */
function hanaRoleFromContext(
  context: RuleContext,
  pool: ManifestPool,
  volume: ManifestVolume,
  accountName: string | undefined,
): { kind: HanaRole; from: string } | undefined {
  for (const summary of context.file.volumes) {
    if (summary.name !== volume.name?.value || (pool.name && summary.pool !== pool.name.value)) continue;
    for (const mount of context.workspace.mountsOfVolume(summary)) {
      const found = workloadFromMountPath(mount.mountPoint);
      if (found && (found.workload === 'sap-hana-data' || found.workload === 'sap-hana-log')) {
        const line = context.workspace.file(mount.uri)?.source.positionAt(mount.span.start).line;
        return {
          kind: found.workload,
          from: `its mount at ${mount.mountPoint} (${baseName(pathOf(mount.uri))}${line !== undefined ? `:${line + 1}` : ''})`,
        };
      }
    }
  }
  const name = volume.name?.value;
  const word = name ? DATA_OR_LOG.exec(name) : null;
  if (!name || !word) return undefined;
  const poolName = pool.name?.value;
  const context_ =
    poolName && HANA_WORD.test(poolName)
      ? `pool \`${poolName}\``
      : accountName && HANA_WORD.test(accountName)
        ? `account \`${accountName}\``
        : pool.volumes.some((v) => v !== volume && v.workload?.value.startsWith('sap-hana'))
          ? `a pool that holds other SAP HANA volumes`
          : undefined;
  if (!context_) return undefined;
  return {
    kind: word[1]!.toLowerCase() === 'data' ? 'sap-hana-data' : 'sap-hana-log',
    from: `its name \`${name}\` in ${context_}`,
  };
}
