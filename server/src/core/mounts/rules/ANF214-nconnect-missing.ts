import { NCONNECT, SLOTS, WORKLOADS } from '../../facts';
import { compareKernelVersions } from '../../config';
import { defineRule } from '../../rules/rule';
import { usesKerberos } from '../catalog';
import { fix, insertOption } from '../fixes';
import type { MountEntry } from '../model';
import { hasNfsMounts, nfsMounts, transportKey, volumeOfMount, workloadOfMount, workloadWords } from './common';

const BEST = NCONNECT.bestTested.value;

/** True when no earlier mount (same file above it, or an earlier non-Markdown file) shares its server, version and transport. */
function isFirstToServer(all: readonly MountEntry[], mount: MountEntry): boolean {
  const key = transportKey(mount);
  if (!key) return true;
  for (const other of all) {
    if (other === mount) return true;
    if (!other.isNfs || transportKey(other) !== key) continue;
    if (other.uri === mount.uri || (other.host !== 'markdown' && other.host !== 'rst')) return false;
  }
  return true;
}

export const nconnectMissing = defineRule({
  code: 'ANF214',
  name: 'nconnect-missing',
  domain: 'mount',
  defaultSeverity: 'hint',
  fix: 'unsafe',
  doc: {
    title: '`nconnect` would help this throughput-bound mount',
    what: `A mount of a throughput-bound workload (EDA, HPC, SAP HANA data, Oracle) over NFSv3 or NFSv4.1 without \`nconnect\`, when it is the first mount to its server address (the first mount decides nconnect for all). Only when anf-lint knows the workload, not with Kerberos, and not when the manifest gives the volume so many clients that ${BEST} connections of ${SLOTS.anfInFlightPerConnection.value} requests each would exceed the endpoint's ${SLOTS.endpointTotalMax.value.toLocaleString('en-US')} slots.`,
    why: `ANF handles at most ${SLOTS.anfInFlightPerConnection.value} requests in flight per TCP connection; \`nconnect\` opens several connections per mount (Linux ${NCONNECT.minKernel.value}+, RHEL 8.3, SLES 15 SP1). ANF's testing found nconnect=${BEST} the most performant; a SAS GRID run went from ${NCONNECT.sasGridHoursWithout.value} h to ${NCONNECT.sasGridHoursWith.value} h with it.`,
    instead: `Add \`nconnect=${BEST}\`. Mind the slot tables: clients × nconnect × slots should stay within the endpoint's budget.`,
    examples: [
      {
        flagged: '# anf: workload=eda-scratch\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev  0  0',
        better: `# anf: workload=eda-scratch\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev,nconnect=${BEST}  0  0`,
        language: 'fstab',
      },
    ],
    sources: ['MO', 'CS', 'SEED_COURSE'],
  },
  appliesTo: hasNfsMounts,
  check(context) {
    const kernel = context.config.kernelVersion;
    if (kernel && compareKernelVersions(kernel, NCONNECT.minKernel.value) < 0) return;
    const all = context.workspace.mounts();
    for (const { mount, effective } of nfsMounts(context)) {
      if (effective.templated || effective.byGroup.has('nconnect') || usesKerberos(effective)) continue;
      const version = effective.version?.text;
      if (version !== '3' && version !== '4.1') continue;
      const found = workloadOfMount(context, mount);
      if (!found || !WORKLOADS[found.workload].throughputBound) continue;
      // The first mount to an address decides nconnect for all: only the first one can take it.
      if (!isFirstToServer(all, mount)) continue;
      // Large farms: the endpoint's slot budget leaves no room for more connections per client.
      const clients = volumeOfMount(context, mount)?.clients;
      if (clients !== undefined && clients * BEST * SLOTS.anfInFlightPerConnection.value > SLOTS.endpointTotalMax.value) continue;
      const span = mount.optionsSpan && mount.optionsSpan.end > mount.optionsSpan.start ? mount.optionsSpan : mount.span;
      context.report({
        span,
        message: `No \`nconnect\` on this mount of ${workloadWords(found)}: one TCP connection carries at most ${SLOTS.anfInFlightPerConnection.value} requests in flight on ANF. nconnect=${BEST} tested best (SAS GRID: ${NCONNECT.sasGridHoursWithout.value} h → ${NCONNECT.sasGridHoursWith.value} h).`,
        fixes: fix(`Add nconnect=${BEST}`, false, insertOption(mount, `nconnect=${BEST}`)),
      });
    }
  },
});
