import { volumeCeilingMiBps } from '../../calc/throughput';
import { largeVolumeUnsuitableReason } from '../../calc/advisor';
import { VOLUME_LIMITS, VOLUME_THROUGHPUT_CEILING } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatSizeIn, GiB } from '../../units/units';
import { figuresOf, isManifest, manifestOf, Named, volumes, manifestExample } from './helpers';

export const needsLargeVolume = defineRule({
  code: 'ANF118',
  name: 'needs-large-volume',
  domain: 'manifest',
  defaultSeverity: 'error',
  fix: 'none',
  doc: {
    title: 'Required throughput above what a regular volume delivers',
    what: `A regular volume whose requirements ask for more than ${formatMiBps(VOLUME_THROUGHPUT_CEILING.regularMiBps.value)}, the most a regular volume delivers whatever its quota or service level; or any volume that asks for more than a large volume's ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}.`,
    why: 'No quota or assignment raises a regular volume above its ceiling. The calculator says it too: "Volumes with a throughput greater than 4500 MiB/s or a size greater than 100 TiB require large volumes". Large volumes cannot be converted from regular ones later, so this has to be decided up front.',
    instead: `Make it a large volume (\`largeVolume: true\`, at least ${formatSizeIn(VOLUME_LIMITS.largeMinGiB.value * GiB, 'TiB')}, up to ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}), or spread the data over several regular volumes. Database data and log volumes (SAP HANA, Oracle) do not belong on large volumes: split them instead.`,
    examples: [
      {
        flagged: manifestExample('- name: scratch-pool\n  serviceLevel: Ultra\n  size: 64 TiB\n  volumes:\n    - name: eda-scratch\n      quota: 60 TiB\n      requirements:\n        throughput: 6000 MiB/s'),
        better: manifestExample('- name: scratch-pool\n  serviceLevel: Ultra\n  size: 64 TiB\n  volumes:\n    - name: eda-scratch\n      quota: 60 TiB\n      largeVolume: true\n      requirements:\n        throughput: 6000 MiB/s'),
        language: 'yaml',
      },
    ],
    sources: ['LV', 'CALC', 'RL'],
  },
  appliesTo: isManifest,
  check(context) {
    const manifest = manifestOf(context);
    if (!manifest) return;
    const figures = figuresOf(context, manifest);
    for (const { volume } of volumes(manifest)) {
      const f = figures.volume(volume);
      const req = volume.requirements;
      if (!f || f.requiredThroughputMiBps === undefined || !req) continue;
      const large = volume.largeVolume?.value ?? false;
      const ceiling = volumeCeilingMiBps(large);
      if (f.requiredThroughputMiBps <= ceiling) continue;
      const span = (req.throughput ?? req.iops)?.span ?? req.span;
      const workload = volume.workload?.value;
      let advice: string;
      if (large) advice = 'No single volume delivers that: spread the data over several volumes.';
      else if (largeVolumeUnsuitableReason(workload)) {
        advice = `${largeVolumeUnsuitableReason(workload)}: spread it over several regular volumes.`;
      } else if (f.requiredThroughputMiBps > volumeCeilingMiBps(true)) advice = 'Even a large volume delivers less: spread the data over several volumes.';
      else advice = `Make it a large volume (\`largeVolume: true\`, quota at least ${formatSizeIn(VOLUME_LIMITS.largeMinGiB.value * GiB, 'TiB')}, up to ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}) or spread the data over several volumes.`;
      context.report({
        span,
        message: `${Named('volume', volume.name)} needs ${formatMiBps(f.requiredThroughputMiBps)}, more than the ${formatMiBps(ceiling)} a ${large ? 'large' : 'regular'} volume delivers. ${advice}`,
      });
    }
  },
});
