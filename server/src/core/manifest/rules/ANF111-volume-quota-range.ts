import { isWhole } from '../../calc/throughput';
import { VOLUME_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { bytesToGiB, formatNumber, formatSizeIn, GiB } from '../../units/units';
import { isManifest, manifestOf, named, volumes, manifestExample } from './helpers';

const tib = (gib: number) => formatSizeIn(gib * GiB, 'TiB');

export const volumeQuotaRange = defineRule({
  code: 'ANF111',
  name: 'volume-quota-range',
  domain: 'manifest',
  defaultSeverity: 'error',
  fix: 'none',
  doc: {
    title: 'Volume quota outside the regular or large-volume range',
    what: `A regular volume quota below ${VOLUME_LIMITS.regularMinGiB.value} GiB or above ${tib(VOLUME_LIMITS.regularMaxGiB.value)}, a large volume below ${tib(VOLUME_LIMITS.largeMinGiB.value)} or above ${tib(VOLUME_LIMITS.largeMaxGiB.value)}, or a quota that is not a whole number of GiB.`,
    why: `Azure refuses the volume. The limits moved: regular volumes started at 100 GiB until 2024 (an older edition of the Microsoft Learn module on ANF service levels for HPC still says 100 GB to 100 TB) and large volumes at 102,401 GiB in 2023; today regular volumes are ${VOLUME_LIMITS.regularMinGiB.value} GiB to ${tib(VOLUME_LIMITS.regularMaxGiB.value)} and large volumes ${tib(VOLUME_LIMITS.largeMinGiB.value)} to ${tib(VOLUME_LIMITS.largeMaxGiB.value)} (${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)} on request).`,
    instead: 'Pick a quota within the range of the volume type, in whole GiB; above 100 TiB set `largeVolume: true` (large volumes cannot be converted from regular ones later), or split the data over several volumes.',
    examples: [
      {
        flagged: manifestExample('- name: archive-pool\n  serviceLevel: Standard\n  size: 128 TiB\n  volumes:\n    - name: archive\n      quota: 120 TiB'),
        better: manifestExample('- name: archive-pool\n  serviceLevel: Standard\n  size: 128 TiB\n  volumes:\n    - name: archive\n      quota: 120 TiB\n      largeVolume: true'),
        language: 'yaml',
      },
      {
        flagged: manifestExample('- name: scratch-pool\n  serviceLevel: Standard\n  size: 1 TiB\n  volumes:\n    - name: scratch\n      quota: 20 GiB'),
        better: manifestExample('- name: scratch-pool\n  serviceLevel: Standard\n  size: 1 TiB\n  volumes:\n    - name: scratch\n      quota: 50 GiB'),
        language: 'yaml',
      },
    ],
    sources: ['RL', 'LV', 'SEED_COURSE'],
  },
  appliesTo: isManifest,
  check(context) {
    const manifest = manifestOf(context);
    if (!manifest) return;
    for (const { volume } of volumes(manifest)) {
      if (!volume.quota) continue;
      const gib = bytesToGiB(volume.quota.value.bytes);
      const large = volume.largeVolume?.value ?? false;
      const name = named('volume', volume.name);
      const reasons: string[] = [];
      // A decimal unit (`8 TB`) is never whole GiB: ANF124 reports that, with the binary value.
      if (volume.quota.value.system === 'binary' && !isWhole(gib)) reasons.push(`is not a whole number of GiB (${formatNumber(gib, 3)} GiB)`);
      if (!large && gib < VOLUME_LIMITS.regularMinGiB.value) reasons.push(`is below the ${VOLUME_LIMITS.regularMinGiB.value} GiB minimum of a regular volume`);
      if (!large && gib > VOLUME_LIMITS.regularMaxGiB.value) {
        reasons.push(`is above the ${tib(VOLUME_LIMITS.regularMaxGiB.value)} maximum of a regular volume: set \`largeVolume: true\` (large volumes take ${tib(VOLUME_LIMITS.largeMinGiB.value)} to ${tib(VOLUME_LIMITS.largeMaxGiB.value)}) or split the data`);
      }
      if (large && gib < VOLUME_LIMITS.largeMinGiB.value) reasons.push(`is below the ${tib(VOLUME_LIMITS.largeMinGiB.value)} minimum of a large volume`);
      if (large && gib > VOLUME_LIMITS.largeMaxGiB.value) {
        reasons.push(`is above the ${tib(VOLUME_LIMITS.largeMaxGiB.value)} maximum of a large volume (${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)} only on request, with dedicated capacity)`);
      }
      if (reasons.length === 0) continue;
      context.report({ span: volume.quota.span, message: `The quota of ${name} (${volume.quota.raw.replace(/^["']|["']$/g, '')}) ${reasons.join(', and ')}.` });
    }
  },
});
