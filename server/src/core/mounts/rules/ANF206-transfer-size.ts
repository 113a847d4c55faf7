import { lazyFinding, type Finding } from '../../diagnostics';
import { NFS_TRANSFER_SIZE, WORKLOADS } from '../../facts';
import { formatNumber, GiB } from '../../units/units';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { integerOf } from '../catalog';
import { mountFix, replaceValue } from '../fixes';
import type { ServerTarget } from './target';
import { assumedAnfWords, hasNfsMounts, targetOfMount, workloadOfMount, workloadWords } from './common';

const ORACLE = WORKLOADS.oracle.prescribedTransferBytes!.bytes;
const SAPNW = WORKLOADS['sap-netweaver'].prescribedTransferBytes!.bytes;

export const transferSize = defineRule({
  code: 'ANF206',
  name: 'transfer-size',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: "`rsize`/`wsize` outside ANF's recommendation",
    what: `An rsize or wsize above ${NFS_TRANSFER_SIZE.maxBytes.value} (1 MiB: the kernel clamps it; warning, on every NFS server), and on ANF: above ${NFS_TRANSFER_SIZE.recommendedBytes.value} (ANF's recommendation: a warning when the server is known to be ANF, from the manifest, \`nfsServers\` or an ANF endpoint; info when it is only ANF by default), or ${NFS_TRANSFER_SIZE.smallWarningBytes.value} (64 KiB) or less (info; below 64 KiB a warning when the workload is known to be throughput-bound). Sizes a vendor prescribes for the workload are not small: Oracle's kNFS ${ORACLE} (32 KiB), Microsoft's SAP NetWeaver lines ${SAPNW} (64 KiB), and 64 KiB together with \`nconnect\`, whatever the workload (the SAS GRID configuration in ANF's mount-option guide, an HPC grid).`,
    why: `Linux NFS mount options best practices for Azure NetApp Files: ANF supports transfers up to 1 MiB but recommends ${NFS_TRANSFER_SIZE.recommendedBytes.value} (256 KiB) for the best mix of throughput and latency: "You might observe that both increased latency and decreased throughput when using \`rsize\` and \`wsize\` larger than 256 KiB". Per nfs(5), values above 1 MiB are silently replaced by 1 MiB, and values below 1024 become ${NFS_TRANSFER_SIZE.minBytes.value}. The same page says that "SAS GRID limits the \`r/wsize\` to 64 KiB while augmenting read performance with increased read-ahead for the NFS mounts", and its \`nconnect\` section measures that grid at 8 hours without \`nconnect\` and 5.5 hours with \`nconnect=8\`: 64 KiB with \`nconnect\` stays clean even for an annotated HPC workload, and 64 KiB without it is a hint (info), never a warning. Small sizes multiply round trips: writing 1 GiB takes 16,384 WRITEs at 64 KiB and 4,096 at 256 KiB. The 64 KiB line (a quarter of ANF's recommendation) is anf-lint's own threshold: no vendor document gives it. Oracle's kNFS prescription (Oracle Support Doc ID 359515.1) is \`rsize=32768,wsize=32768\`, and Microsoft's SAP NetWeaver guides mount /sapmnt and /usr/sap with \`rsize=65536,wsize=65536\`: both stay clean for their workloads.`,
    instead: `Use rsize=${NFS_TRANSFER_SIZE.recommendedBytes.value},wsize=${NFS_TRANSFER_SIZE.recommendedBytes.value} on ANF. Keep a smaller value where an application vendor prescribes it; annotate the mount (\`# anf: workload=oracle\`) so anf-lint knows.`,
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=4194304,wsize=4194304  0  0',
        better: `10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=${NFS_TRANSFER_SIZE.recommendedBytes.value},wsize=${NFS_TRANSFER_SIZE.recommendedBytes.value}  0  0`,
        language: 'fstab',
      },
    ],
    sources: ['MO', 'NFS5', 'ORAKNFS', 'SAPNW', 'ANFLINT'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    const target = targetOfMount(context, judged);
    const anf = target.kind === 'anf';
    for (let n = 0; n < TRANSFER_OPTIONS.length; n++) {
      const name = TRANSFER_OPTIONS[n]!;
      const value = integerOf(effective, name);
      const option = effective.byGroup.get(name);
      if (value === undefined || !option || value === 0) continue;
      // What is wrong is decided here (it counts); the message is written only for a listed finding.
      let problem: 'above-max' | 'above-recommended' | 'small';
      let severity: 'warning' | 'info' = 'warning';
      let found: ReturnType<typeof workloadOfMount>;
      let bound = false;
      if (value > NFS_TRANSFER_SIZE.maxBytes.value) problem = 'above-max';
      else if (!anf) continue;
      else if (value > NFS_TRANSFER_SIZE.recommendedBytes.value) {
        problem = 'above-recommended';
        // On a server known to be ANF the guide's measured penalty applies: a warning. On a server only
        // taken to be ANF by default, a note.
        severity = target.known ? 'warning' : 'info';
      } else if (value <= NFS_TRANSFER_SIZE.smallWarningBytes.value) {
        found = workloadOfMount(context, judged);
        const prescribed = found ? WORKLOADS[found.workload].prescribedTransferBytes : undefined;
        if (prescribed && value >= prescribed.bytes) continue; // the vendor's own size for this workload
        // SAS GRID (ANF's mount-option guide): 64 KiB with nconnect, by design, on an HPC grid too:
        // the guide names it as SAS GRID's own choice, with read-ahead raised to make up for it.
        if (value === NFS_TRANSFER_SIZE.smallWarningBytes.value && effective.byGroup.has('nconnect')) continue;
        // 64 KiB itself is a configuration Microsoft documents (SAS GRID, SAP NetWeaver): a hint even
        // for a throughput-bound workload; only a size below it is a warning there.
        bound =
          value < NFS_TRANSFER_SIZE.smallWarningBytes.value &&
          found !== undefined &&
          WORKLOADS[found.workload].throughputBound;
        severity = bound ? 'warning' : 'info';
        problem = 'small';
      } else continue;
      context.report(transferFinding(name, value, option, problem, severity, anf, target, bound, found));
    }
  },
});

const callsPerGiB = (bytes: number) =>
  formatNumber(
    Math.ceil(
      GiB / Math.max(NFS_TRANSFER_SIZE.minBytes.value, bytes - (bytes % NFS_TRANSFER_SIZE.multipleOfBytes.value)),
    ),
    0,
  );

/** The options this rule judges, in the order it reports them on a mount. */
const TRANSFER_OPTIONS = ['rsize', 'wsize'] as const;

function transferFinding(
  name: string,
  value: number,
  option: MountOption,
  problem: 'above-max' | 'above-recommended' | 'small',
  severity: 'warning' | 'info',
  anf: boolean,
  target: ServerTarget,
  bound: boolean,
  found: ReturnType<typeof workloadOfMount>,
): Finding {
  return lazyFinding({ span: option.span, severity }, () => ({
    message:
      problem === 'above-max'
        ? `${name}=${value} is above ${NFS_TRANSFER_SIZE.maxBytes.value} (1 MiB): the kernel clamps it to 1 MiB.${anf ? ` ANF recommends ${NFS_TRANSFER_SIZE.recommendedBytes.value}.` : ''}`
        : problem === 'above-recommended'
          ? target.known
            ? `${name}=${value} is above ANF's recommended ${NFS_TRANSFER_SIZE.recommendedBytes.value} (256 KiB) on a server known to be ANF: ANF's mount-option guide says you might observe "both increased latency and decreased throughput" with rsize and wsize above 256 KiB. ${target.why}`
            : `${name}=${value} is above ANF's recommended ${NFS_TRANSFER_SIZE.recommendedBytes.value} (256 KiB), which gives the best throughput and latency on ANF.${assumedAnfWords(target)}`
          : `${name}=${value} is small for ANF: sequential I/O needs many more round trips (1 GiB takes ${callsPerGiB(value)} calls at this size, ${callsPerGiB(NFS_TRANSFER_SIZE.recommendedBytes.value)} at 256 KiB)${value < 1024 ? `, and values below 1024 become ${NFS_TRANSFER_SIZE.minBytes.value}` : ''}${bound ? `, and ${workloadWords(found!)} is throughput-bound` : ''}. ANF recommends ${NFS_TRANSFER_SIZE.recommendedBytes.value}.${assumedAnfWords(target)}`,
    fixes: mountFix.unsafe(
      `Set ${name}=${NFS_TRANSFER_SIZE.recommendedBytes.value}`,
      replaceValue(option, String(NFS_TRANSFER_SIZE.recommendedBytes.value)),
    ),
  }));
}
