import { volumeCeilingMiBps } from '../../calc/throughput';
import { largeVolumeUnsuitableReason } from '../../calc/advisor';
import { SOURCES, VOLUME_LIMITS, VOLUME_THROUGHPUT_CEILING } from '../../facts';
import { volumeIsLarge } from '../model';
import { defineRule } from '../../rules/rule';
import { formatMiBps, formatNumber, formatSizeIn, GiB } from '../../units/units';
import { figuresOf, isManifest, Named, manifestExample } from './helpers';

export const needsLargeVolume = defineRule({
  code: 'ANF118',
  name: 'needs-large-volume',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Required throughput above what the volume type delivers',
    what: `A regular volume whose requirements ask for more than ${formatMiBps(VOLUME_THROUGHPUT_CEILING.regularMiBps.value)}, the most a regular volume delivers whatever its quota or service level; or a large volume (not in breakthrough mode) that asks for more than ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}. This rule owns that shortage: ANF116 does not report the same throughput again (it reports what a bigger quota or assignment fixes).`,
    why: `No quota or assignment raises a volume above the ceiling of its type. The calculator says it too: "Volumes with a throughput greater than 4500 MiB/s or a size greater than 100 TiB require large volumes". Large volumes cannot be converted from regular ones later, so this has to be decided up front. The ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)} of a large volume (all service levels) is not the end either: large volumes in breakthrough mode (preview) have no predefined throughput limit; Microsoft's page says up to ${formatNumber(VOLUME_THROUGHPUT_CEILING.breakthroughUpToMiBps.value / 1024)} GiB/s depending on the workload, on dedicated capacity, in regions where it is configured and after onboarding (Requirements and considerations for large volumes, ${SOURCES.LV.date}). A volume with \`breakthroughMode: true\` is therefore not checked against a ceiling.`,
    instead: `Make it a large volume (\`largeVolume: true\`, at least ${formatSizeIn(VOLUME_LIMITS.largeMinGiB.value * GiB, 'TiB')}, up to ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}); beyond that, a large volume in breakthrough mode (\`breakthroughMode: true\`, preview), or spread the data over several volumes. Database data and log volumes (SAP HANA, Oracle) do not belong on large volumes: split them instead.`,
    examples: [
      manifestExample(
        '- name: scratch-pool\n  serviceLevel: Ultra\n  size: 64 TiB\n  volumes:\n    - name: eda-scratch\n      quota: 60 TiB\n      requirements:\n        throughput: 6000 MiB/s',
        '- name: scratch-pool\n  serviceLevel: Ultra\n  size: 64 TiB\n  volumes:\n    - name: eda-scratch\n      quota: 60 TiB\n      largeVolume: true\n      requirements:\n        throughput: 6000 MiB/s',
      ),
    ],
    sources: ['LV', 'CALC', 'RL', 'EDA'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context, manifest) {
    const figures = figuresOf(context, manifest);
    const f = figures.volume(volume);
    const req = volume.requirements;
    if (!f || f.requiredThroughputMiBps === undefined || !req) return;
    const large = volumeIsLarge(volume);
    const breakthrough = volume.breakthroughMode?.value ?? false;
    const ceiling = volumeCeilingMiBps(large, breakthrough);
    if (f.requiredThroughputMiBps <= ceiling) return;
    const span = (req.throughput ?? req.iops)?.span ?? req.span;
    const workload = volume.workload?.value;
    const breakthroughNote = `large volumes in breakthrough mode (preview) have no predefined limit (Microsoft says up to ${formatNumber(VOLUME_THROUGHPUT_CEILING.breakthroughUpToMiBps.value / 1024)} GiB/s, depending on the workload, where the region offers it): set \`breakthroughMode: true\``;
    let advice: string;
    if (largeVolumeUnsuitableReason(workload)) {
      advice = `${largeVolumeUnsuitableReason(workload)}: spread it over several regular volumes.`;
    } else if (large)
      advice = `Beyond a large volume's ceiling, ${breakthroughNote}, or spread the data over several volumes.`;
    else if (f.requiredThroughputMiBps > volumeCeilingMiBps(true))
      advice = `Even a large volume delivers at most ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}; ${breakthroughNote} (with \`largeVolume: true\`), or spread the data over several volumes.`;
    else
      advice = `Make it a large volume (\`largeVolume: true\`, quota at least ${formatSizeIn(VOLUME_LIMITS.largeMinGiB.value * GiB, 'TiB')}, up to ${formatMiBps(VOLUME_THROUGHPUT_CEILING.largeMiBps.value)}) or spread the data over several volumes.`;
    context.report({
      span,
      message: `${Named('volume', volume.name)} needs ${formatMiBps(f.requiredThroughputMiBps)}, more than the ${formatMiBps(ceiling)} a ${large ? 'large' : 'regular'} volume delivers. ${advice}`,
    });
  },
});
