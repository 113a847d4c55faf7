import { lazyFinding } from '../../diagnostics';
import { ATTRIBUTE_CACHE, WORKLOADS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { mountFix, removeOption } from '../fixes';
import { hasNfsMounts, workloadOfMount, workloadWords } from './common';

const DEFAULT_MAX = Math.max(ATTRIBUTE_CACHE.acregmaxSeconds.value, ATTRIBUTE_CACHE.acdirmaxSeconds.value);

export const relaxedCacheOnSharedData = defineRule({
  code: 'ANF218',
  name: 'relaxed-cache-on-shared-data',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`nocto` or a long `actimeo` on data several clients write',
    what: `\`nocto\`, or \`actimeo\`/\`acregmax\`/\`acdirmax\` above the ${DEFAULT_MAX} s default, on a mount whose workload has data written by several clients at once: EDA scratch and project data, HPC, databases, SAP HANA, VDI, general purpose.`,
    why: "Close-to-open consistency is what lets one client see another's writes when it opens the file. Without it, and with attributes cached for minutes, a job can read a stale or half-written file another node just produced. The guidance (Linux NFS mount options best practices, the Microsoft Learn HPC and EDA modules) recommends nocto and actimeo=600 only for data one client owns or that is read-mostly and updated another way, like EDA tools and libraries.",
    instead:
      'Remove `nocto` and keep the attribute cache at its defaults on shared read-write data. Use `# anf: workload=eda-tools` (or the manifest) for volumes that really are read-mostly.',
    examples: [
      {
        flagged:
          '# anf: workload=eda-scratch\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nocto,actimeo=600,nconnect=8  0  0',
        better: '# anf: workload=eda-scratch\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8  0  0',
        language: 'fstab',
      },
    ],
    sources: ['MO', 'SEED_COURSE', 'SEED_MOUNT'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount, effective } = judged;
    const found = workloadOfMount(context, judged);
    if (!found || !WORKLOADS[found.workload].sharedWrites) return;
    const relaxed = [];
    const cto = effective.byGroup.get('cto');
    if (cto?.name === 'nocto') relaxed.push(cto);
    for (const group of ['actimeo', 'acregmax', 'acdirmax']) {
      const option = effective.byGroup.get(group);
      if (option?.value && /^\d+$/.test(option.value) && Number(option.value) > DEFAULT_MAX) relaxed.push(option);
    }
    for (const option of relaxed) {
      const written = option.value !== undefined ? `${option.name}=${option.value}` : option.name;
      context.report(
        lazyFinding({ span: option.span }, () => ({
          message: `\`${written}\` on ${workloadWords(found)}, which several clients write: ${option.name === 'nocto' ? 'without close-to-open consistency a client can open a file another node just changed and read stale data' : `attributes cached for ${option.value} s hide other clients' changes that long`}.`,
          fixes: mountFix.unsafe(`Remove \`${written}\``, removeOption(text, mount, option)),
        })),
      );
    }
  },
});
