import { isWhole } from '../../calc/throughput';
import { SOURCES, VOLUME_LIMITS } from '../../facts';
import { volumeIsLarge } from '../model';
import { volumeCoolAccess } from '../summary';
import { defineRule } from '../../rules/rule';
import { bytesToGiB, formatNumber, formatSizeIn, GiB } from '../../units/units';
import { isManifest, named, manifestExample } from './helpers';

const tib = (gib: number) => formatSizeIn(gib * GiB, 'TiB');

export const volumeQuotaRange = defineRule({
  code: 'ANF111',
  name: 'volume-quota-range',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Volume quota outside the regular or large-volume range',
    what: `A regular volume quota below ${VOLUME_LIMITS.regularMinGiB.value} GiB or above ${tib(VOLUME_LIMITS.regularMaxGiB.value)}, a large volume below ${tib(VOLUME_LIMITS.largeMinGiB.value)} or above ${tib(VOLUME_LIMITS.largeMaxGiB.value)}, a large volume in breakthrough mode outside ${formatNumber(VOLUME_LIMITS.breakthroughMinGiB.value)} GiB to ${tib(VOLUME_LIMITS.breakthroughMaxGiB.value)}, or a quota that is not a whole number of GiB. A large volume between ${tib(VOLUME_LIMITS.largeMaxGiB.value)} and ${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)} is a warning, not an error: Azure creates it on request. Above that, only an extra-large volume with cool access (preview, up to ${tib(VOLUME_LIMITS.extraLargeMaxGiB.value)}) holds it: a warning when the volume has cool access, else an error.`,
    why: `Azure refuses the volume. The limits moved: regular volumes started at 100 GiB until 2024 (an older edition of the Microsoft Learn module on ANF service levels for HPC still says 100 GB to 100 TB) and large volumes at 102,401 GiB in 2023; today regular volumes are ${VOLUME_LIMITS.regularMinGiB.value} GiB to ${tib(VOLUME_LIMITS.regularMaxGiB.value)} and large volumes ${tib(VOLUME_LIMITS.largeMinGiB.value)} to ${tib(VOLUME_LIMITS.largeMaxGiB.value)}. Requirements and considerations for large volumes (${SOURCES.LV.date}) says: "The maximum size of a large volume is 1,024 TiB, though 2-PiB large volumes are available on request depending on regional dedicated capacity availability. To request 2-PiB large volumes, contact your account team." What needs the request is the size above ${tib(VOLUME_LIMITS.largeMaxGiB.value)}, up to ${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)}. The same page gives breakthrough mode (preview) ${formatNumber(VOLUME_LIMITS.breakthroughMinGiB.value)} GiB to ${tib(VOLUME_LIMITS.breakthroughMaxGiB.value)}, and extra-large volumes with cool access (preview) up to ${tib(VOLUME_LIMITS.extraLargeMaxGiB.value)}, with cool access enabled at creation and at least ${VOLUME_LIMITS.extraLargeMinCoolDataPercent.value} % of the data expected in the cool tier.`,
    instead:
      'Pick a quota within the range of the volume type, in whole GiB; above 100 TiB set `largeVolume: true` (large volumes cannot be converted from regular ones later), or split the data over several volumes. For a large volume above 1,024 TiB, ask your account team for the 2-PiB large volume before deploying.',
    examples: [
      manifestExample(
        '- name: archive-pool\n  serviceLevel: Standard\n  size: 128 TiB\n  volumes:\n    - name: archive\n      quota: 120 TiB',
        '- name: archive-pool\n  serviceLevel: Standard\n  size: 128 TiB\n  volumes:\n    - name: archive\n      quota: 120 TiB\n      largeVolume: true',
      ),
      manifestExample(
        '- name: scratch-pool\n  serviceLevel: Standard\n  size: 1 TiB\n  volumes:\n    - name: scratch\n      quota: 20 GiB',
        '- name: scratch-pool\n  serviceLevel: Standard\n  size: 1 TiB\n  volumes:\n    - name: scratch\n      quota: 50 GiB',
      ),
    ],
    sources: ['RL', 'LV', 'CA'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context) {
    if (!volume.quota) return;
    const gib = bytesToGiB(volume.quota.value.bytes);
    const breakthrough = volume.breakthroughMode?.value ?? false;
    const large = volumeIsLarge(volume);
    const name = named('volume', volume.name);
    const reasons: string[] = [];
    let severity: 'error' | 'warning' = 'error';
    // A decimal unit (`8 TB`) is never whole GiB: ANF124 reports that, with the binary value.
    if (volume.quota.value.system === 'binary' && !isWhole(gib))
      reasons.push(`is not a whole number of GiB (${formatNumber(gib, 3)} GiB)`);
    if (!large && gib < VOLUME_LIMITS.regularMinGiB.value)
      reasons.push(`is below the ${VOLUME_LIMITS.regularMinGiB.value} GiB minimum of a regular volume`);
    if (!large && gib > VOLUME_LIMITS.regularMaxGiB.value) {
      reasons.push(
        `is above the ${tib(VOLUME_LIMITS.regularMaxGiB.value)} maximum of a regular volume: set \`largeVolume: true\` (large volumes take ${tib(VOLUME_LIMITS.largeMinGiB.value)} to ${tib(VOLUME_LIMITS.largeMaxGiB.value)}) or split the data`,
      );
    }
    if (breakthrough) {
      if (gib < VOLUME_LIMITS.breakthroughMinGiB.value)
        reasons.push(
          `is below the ${formatNumber(VOLUME_LIMITS.breakthroughMinGiB.value)} GiB minimum of a large volume in breakthrough mode`,
        );
      if (gib > VOLUME_LIMITS.breakthroughMaxGiB.value)
        reasons.push(
          `is above the ${tib(VOLUME_LIMITS.breakthroughMaxGiB.value)} maximum of a large volume in breakthrough mode`,
        );
    } else if (large) {
      if (gib < VOLUME_LIMITS.largeMinGiB.value)
        reasons.push(`is below the ${tib(VOLUME_LIMITS.largeMinGiB.value)} minimum of a large volume`);
      const onRequest = reasons.length === 0;
      if (
        gib > VOLUME_LIMITS.largeOnRequestMaxGiB.value &&
        volumeCoolAccess(volume) &&
        gib <= VOLUME_LIMITS.extraLargeMaxGiB.value
      ) {
        reasons.push(
          `is above the ${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)} of a large volume on request; only an extra-large volume with cool access (preview, up to ${tib(VOLUME_LIMITS.extraLargeMaxGiB.value)}) holds it: cool access must be enabled when it is created, and at least ${VOLUME_LIMITS.extraLargeMinCoolDataPercent.value} % of the data should be cool`,
        );
        if (onRequest) severity = 'warning';
      } else if (gib > VOLUME_LIMITS.largeOnRequestMaxGiB.value) {
        reasons.push(
          `is above the ${tib(VOLUME_LIMITS.largeMaxGiB.value)} maximum of a large volume and the ${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)} available on request`,
        );
      } else if (gib > VOLUME_LIMITS.largeMaxGiB.value) {
        reasons.push(
          `is above the ${tib(VOLUME_LIMITS.largeMaxGiB.value)} maximum of a large volume: 2-PiB large volumes (up to ${tib(VOLUME_LIMITS.largeOnRequestMaxGiB.value)}) are available on request, depending on regional dedicated capacity; ask your account team before deploying`,
        );
        if (onRequest) severity = 'warning';
      }
    }
    if (reasons.length === 0) return;
    context.report({
      span: volume.quota.span,
      severity,
      message: `The quota of ${name} (${volume.quota.raw.replace(/^["']|["']$/g, '')}) ${reasons.join(', and ')}.`,
    });
  },
});
