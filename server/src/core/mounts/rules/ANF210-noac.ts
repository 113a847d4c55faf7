import { lazyFinding, type Finding } from '../../diagnostics';
import { formatNumber } from '../../units/units';
import { ATTRIBUTE_CACHE, WORKLOADS } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountEntry, MountOption } from '../model';
import { mountFix, removeOption } from '../fixes';
import { hasNfsMounts, thousands, workloadOfMount } from './common';

export const noac = defineRule({
  code: 'ANF210',
  name: 'noac',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`noac` turns off attribute caching and makes writes synchronous',
    what: 'A mount with `noac` (the last of `ac`/`noac` wins), except on the `oracle` workload: Oracle Support Doc ID 359515.1 prescribes `noac` and `actimeo=0` for RAC clusterware files (OCR, voting files) on NFS.',
    why: `\`noac\` sends a GETATTR to the server for nearly every file operation and, as nfs(5) says, also makes every write synchronous, "a significant performance penalty". The Microsoft Learn course on HPC/EDA applications on ANF measured the opposite direction: caching attributes longer (\`actimeo\`) cut an EDA tools volume from over ${formatNumber(ATTRIBUTE_CACHE.edaToolsIopsBefore.value)} to about ${formatNumber(ATTRIBUTE_CACHE.edaToolsIopsAfter.value)} IOPS and latency from ${ATTRIBUTE_CACHE.edaLatencyDefaultMs.value} to ${ATTRIBUTE_CACHE.edaLatencyActimeoMs.value} ms.`,
    instead:
      "Remove `noac`. Where several clients must see each other's changes quickly, the default close-to-open consistency (`cto`) is enough for most applications; use a small `actimeo` rather than none.",
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,noac,vers=3  0  0',
        better: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5', 'SEED_COURSE', 'MO', 'ORAKNFS'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount, effective } = judged;
    const option = effective.byGroup.get('ac');
    if (!option || option.name !== 'noac') return;
    // Oracle RAC: Oracle Support Doc ID 359515.1 prescribes noac/actimeo=0 for OCR and voting files.
    const found = workloadOfMount(context, judged);
    if (found && WORKLOADS[found.workload].prescribesNoAttributeCache) return;
    context.report(noacFinding(text, mount, option));
  },
});

function noacFinding(text: string, mount: MountEntry, option: MountOption): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message: `\`noac\` turns off attribute caching and makes every write synchronous: a GETATTR round trip for nearly every operation. Caching works the other way round: longer caching took an EDA tools volume from over ${thousands(ATTRIBUTE_CACHE.edaToolsIopsBefore.value)} to about ${thousands(ATTRIBUTE_CACHE.edaToolsIopsAfter.value)} IOPS (the Microsoft Learn course on HPC/EDA applications on ANF). Remove \`noac\` unless an application documents that it needs it (annotate Oracle mounts \`# anf: workload=oracle\`).`,
    fixes: mountFix.unsafe('Remove `noac`', removeOption(text, mount, option)),
  }));
}
