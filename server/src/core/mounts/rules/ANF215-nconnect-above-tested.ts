import { lazyFinding, type Finding } from '../../diagnostics';
import { NCONNECT, SLOTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { integerOf } from '../catalog';
import { mountFix, replaceValue } from '../fixes';
import { hasNfsMounts, onAnf } from './common';

export const nconnectAboveTested = defineRule({
  code: 'ANF215',
  name: 'nconnect-above-tested',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: ['unsafe'],
  doc: {
    title: `\`nconnect\` above ${NCONNECT.bestTested.value}`,
    what: `\`nconnect\` between ${NCONNECT.bestTested.value + 1} and ${NCONNECT.max.value}. (Above ${NCONNECT.max.value} the kernel refuses the mount: ANF203.)`,
    why: `ANF's mount-option guidance: "Testing has found nconnect=${NCONNECT.bestTested.value} to be the most performant." More connections multiply the requests a client can put in flight (each connection up to ${SLOTS.anfInFlightPerConnection.value} on ANF), which crowds out other clients of the same storage endpoint without making this one faster. The \`nconnect=16\` example of the HPC training on Microsoft Learn predates that finding.`,
    instead: `Use \`nconnect=${NCONNECT.bestTested.value}\`.`,
    examples: [
      {
        flagged: 'sudo mount -t nfs -o rw,nconnect=16,nocto,actimeo=600,hard,vers=3,tcp 10.10.1.4:/eda-tools /tools',
        better: `sudo mount -t nfs -o rw,nconnect=${NCONNECT.bestTested.value},nocto,actimeo=600,hard,vers=3,tcp 10.10.1.4:/eda-tools /tools`,
        language: 'sh',
      },
    ],
    sources: ['MO', 'SEED_COURSE'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    if (!onAnf(context, judged)) return; // tested on ANF; Azure Files recommends its own value
    const value = integerOf(effective, 'nconnect');
    const option = effective.byGroup.get('nconnect');
    if (value === undefined || !option || value <= NCONNECT.bestTested.value || value > NCONNECT.max.value) return;
    context.report(aboveFinding(option, value));
  },
});

function aboveFinding(option: MountOption, value: number): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message: `nconnect=${value} is above ${NCONNECT.bestTested.value}, the value ANF testing found most performant; more connections add load on the storage endpoint without making this client faster.`,
    fixes: mountFix.unsafe(
      `Set nconnect=${NCONNECT.bestTested.value}`,
      replaceValue(option, String(NCONNECT.bestTested.value)),
    ),
  }));
}
