import { lazyFinding } from '../../diagnostics';
import { ATTRIBUTE_CACHE, WORKLOADS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { insertOption, mountFix } from '../fixes';
import { hasNfsMounts, thousands, workloadOfMount, workloadWords } from './common';

const FIGURES = `on an EDA tools volume, actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value} cut IOPS from over ${thousands(ATTRIBUTE_CACHE.edaToolsIopsBefore.value)} to about ${thousands(ATTRIBUTE_CACHE.edaToolsIopsAfter.value)}, and with nocto latency fell from ${ATTRIBUTE_CACHE.edaLatencyDefaultMs.value} to ${ATTRIBUTE_CACHE.edaLatencyActimeoNoctoMs.value} ms`;

export const attributeCacheReadMostly = defineRule({
  code: 'ANF219',
  name: 'attribute-cache-read-mostly',
  domain: 'mount',
  defaultSeverity: 'hint',
  fixes: ['unsafe'],
  doc: {
    title: 'Read-mostly tools volume without `nocto`/`actimeo`',
    what: 'A mount of a read-mostly workload (EDA tools and libraries) without `nocto` or without a long `actimeo`.',
    why: `Tools and libraries change rarely, yet every open asks the server for fresh attributes. The HPC training on Microsoft Learn: ${FIGURES} (${formatNumber(ATTRIBUTE_CACHE.edaLatencyActimeoMs.value)} ms with actimeo alone). The guidance suggests actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value} for EDA tools and libraries.`,
    instead: `Add \`nocto,actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value}\` on read-mostly volumes whose content is updated through another path (a release process), never on scratch or project data several clients write (ANF218).`,
    examples: [
      {
        flagged: '# anf: workload=eda-tools\n10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3,nconnect=8  0  0',
        better: `# anf: workload=eda-tools\n10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3,nconnect=8,nocto,actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value}  0  0`,
        language: 'fstab',
      },
    ],
    sources: ['MO', 'SEED_COURSE', 'SEED_MOUNT'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    if (effective.templated) return;
    const found = workloadOfMount(context, judged);
    if (!found || !WORKLOADS[found.workload].readMostly) return;
    const missing: string[] = [];
    if (effective.byGroup.get('cto')?.name !== 'nocto') missing.push('nocto');
    if (
      !['actimeo', 'acregmin', 'acregmax', 'acdirmin', 'acdirmax'].some((g) => effective.byGroup.has(g)) &&
      effective.byGroup.get('ac')?.name !== 'noac'
    )
      missing.push(`actimeo=${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value}`);
    if (missing.length === 0) return;
    // Underline what the finding is about: the attribute-cache option already written, else the mount point (what is read-mostly).
    const present = ['actimeo', 'acregmax', 'acregmin', 'acdirmax', 'acdirmin', 'cto']
      .map((g) => effective.byGroup.get(g))
      .find((o) => o !== undefined);
    const span =
      present?.span ??
      mount.mountPointSpan ??
      (mount.optionsSpan && mount.optionsSpan.end > mount.optionsSpan.start ? mount.optionsSpan : mount.span);
    context.report(
      lazyFinding({ span }, () => ({
        message: `This mount serves ${workloadWords(found)}, which is read-mostly: add \`${missing.join(',')}\`. In the HPC training on Microsoft Learn, ${FIGURES}.`,
        fixes: mountFix.unsafe(`Add ${missing.join(',')}`, insertOption(mount, missing.join(','))),
      })),
    );
  },
});
