import { HANA_STORAGE_KPI, SERVICE_LEVEL_RATE_MIBPS_PER_TIB, WORKLOADS } from '../../facts';
import { volumeCoolAccess } from '../../manifest/summary';
import { manifestVolumeThroughput } from '../../manifest/summary';
import { fixes, fixOf, named, replaceValue, volumes } from '../../manifest/rules/helpers';
import { poolQos } from '../../manifest/model';
import { serviceLevelRateMiBpsPerTiB } from '../../calc/throughput';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatNumber, MiB } from '../../units/units';
import { workloadOverrideHint } from '../estate';
import { estateOf, isIac } from './helpers';

const KPI = {
  'sap-hana-data': { bytesPerSecond: () => HANA_STORAGE_KPI.dataMBps.value * HANA_STORAGE_KPI.bytesPerMB.value, mbps: () => HANA_STORAGE_KPI.dataMBps.value },
  'sap-hana-log': { bytesPerSecond: () => HANA_STORAGE_KPI.logMBps.value * HANA_STORAGE_KPI.bytesPerMB.value, mbps: () => HANA_STORAGE_KPI.logMBps.value },
} as const;

export const hanaStorageKpi = defineRule({
  code: 'ANF408',
  name: 'hana-storage-kpi',
  domain: 'iac',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: "A SAP HANA data or log volume below SAP HANA's storage throughput KPI",
    what: `A volume that serves /hana/data or /hana/log (from a \`# anf: workload=\` annotation, a \`workload\` tag, the volume spec name of an application volume group (\`volume_spec_name = "log"\`, \`volumeSpecName: 'data'\`), or SAP's naming such as \`HN1-data-mnt00001\`) whose throughput limit is below the storage KPI: ${HANA_STORAGE_KPI.dataMBps.value} MB/s for data, ${HANA_STORAGE_KPI.logMBps.value} MB/s for log. Infrastructure code declares no requirement, so the KPI is the requirement.`,
    why: 'SAP HANA is certified on Azure NetApp Files with these minimums; below them savepoints and log writes stall and HANA start-up takes longer. With auto QoS a small volume gets quota x rate, often far less.',
    instead: 'Grow the quota (auto QoS) or assign more throughput (manual QoS). The fix writes the quota or throughput that meets the KPI, in the source\'s own units.',
    examples: [
      {
        flagged: 'resource "azurerm_netapp_volume" "log" {\n  name                = "HN1-log-mnt00001"\n  service_level       = "Premium"\n  storage_quota_in_gb = 1024\n}',
        better: 'resource "azurerm_netapp_volume" "log" {\n  name                = "HN1-log-mnt00001"\n  service_level       = "Premium"\n  storage_quota_in_gb = 3815\n}',
        language: 'hcl',
      },
    ],
    sources: ['HANA_STORAGE', 'HANA', 'SL'],
  },
  appliesTo: isIac,
  check(context) {
    const manifest = context.file.manifest;
    const estate = estateOf(context.file);
    if (!manifest || !estate) return;
    for (const { pool, volume } of volumes(manifest)) {
      const kind = volume.workload?.value;
      if ((kind !== 'sap-hana-data' && kind !== 'sap-hana-log') || volume.requirements || !pool.serviceLevel || !volume.quota) continue;
      if (volume.repeated || volume.unknown?.includes('throughput')) continue;
      const kpiMiBps = KPI[kind].bytesPerSecond() / MiB;
      const gets = manifestVolumeThroughput(pool, volume).mibps;
      if (gets >= kpiMiBps) continue;
      const iacVolume = estate.volumes.find((v) => v.symbol === volume.path[0]);
      const from = iacVolume?.workload?.from ?? 'its workload';
      const level = pool.serviceLevel.value;
      let fix;
      if (poolQos(pool) === 'auto') {
        const rate = serviceLevelRateMiBpsPerTiB(level, volumeCoolAccess(volume)) ?? SERVICE_LEVEL_RATE_MIBPS_PER_TIB.Standard.value;
        const gib = Math.ceil((kpiMiBps / rate) * 1024); // not a fact: GiB per TiB
        fix = fixOf.unsafe(`Set the quota to ${formatNumber(gib)} GiB (${formatMiBps(gib / 1024 * rate)})`, [replaceValue(volume.quota, `${gib} GiB`)]); // not a fact: GiB per TiB
      } else if (volume.throughput) {
        const mibps = Math.ceil(kpiMiBps);
        fix = fixOf.unsafe(`Assign ${mibps} MiB/s`, [replaceValue(volume.throughput, `${mibps} MiB/s`)]);
      }
      context.report({
        span: (poolQos(pool) === 'manual' ? volume.throughput : undefined)?.span ?? volume.quota.span,
        message: `${named('Volume', volume.name).replace(/^volume/, 'Volume')} is ${WORKLOADS[kind].title} (from ${from}; ${workloadOverrideHint(estate.language, iacVolume, from)} to override it) and gets ${formatMiBps(gets)}, below the ${KPI[kind].mbps()} MB/s (${formatMiBps(kpiMiBps)}) SAP HANA's storage KPI asks of it.`,
        ...fixes(fix),
      });
    }
  },
});
