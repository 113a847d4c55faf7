import { lazyFinding } from '../../diagnostics';
import { WORKLOADS } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { hasNfsMounts, workloadOfMount, workloadWords } from './common';

export const lockOrLookupCacheOnSharedData = defineRule({
  code: 'ANF229',
  name: 'lock-or-lookup-cache-on-shared-data',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: '`nolock`, `local_lock=all` or `lookupcache=none` on data several clients write',
    what: 'A read-write mount of a workload whose data several clients write (EDA scratch, HPC, databases, SAP, VDI, general purpose) with `nolock`, `local_lock=all` (or `flock`/`posix`), or `lookupcache=none`. Mounts whose workload anf-lint does not know are not judged, nor `ro` mounts.',
    why: 'nfs(5): with `nolock` (NFSv3) or `local_lock=`, locks are kept on the client only: "applications can lock files, but such locks provide exclusion only against other applications running on the same client", so two nodes can hold the same lock and write over each other. `lookupcache=none` stops caching directory entries: every open sends LOOKUPs for the path to the server, a large metadata load and added latency, for a consistency that close-to-open already gives at open.',
    instead:
      'Leave locking on (the default, `lock`) on shared read-write data; use `nolock` only where one client owns the data. Keep `lookupcache` at its default (`all`), or `positive` where clients must see new files quickly.',
    examples: [
      {
        flagged:
          '# anf: workload=eda-scratch\n10.10.1.5:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nolock,nconnect=8,_netdev  0  0',
        better:
          '# anf: workload=eda-scratch\n10.10.1.5:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    if (effective.byGroup.get('rw')?.name === 'ro') return;
    const found = workloadOfMount(context, judged);
    if (!found || !WORKLOADS[found.workload].sharedWrites) return;
    const costly: { option: MountOption; cost: string }[] = [];
    const lock = effective.byGroup.get('lock');
    if (lock?.name === 'nolock')
      costly.push({
        option: lock,
        cost: 'locks stay on this client only, so another node can take the same lock and both write',
      });
    const local = effective.byGroup.get('local_lock');
    if (local?.value && local.value !== 'none')
      costly.push({
        option: local,
        cost: `${local.value === 'all' ? 'all locks' : `${local.value} locks`} stay on this client only, so another node can take the same lock and both write`,
      });
    const lookup = effective.byGroup.get('lookupcache');
    if (lookup?.value === 'none')
      costly.push({
        option: lookup,
        cost: 'every open sends LOOKUPs for its path to the server: more metadata calls and latency on every file access',
      });
    for (const { option, cost } of costly) {
      const written = option.value !== undefined ? `${option.name}=${option.value}` : option.name;
      context.report(
        lazyFinding({ span: option.span }, () => ({
          message: `\`${written}\` on ${workloadWords(found)}, which several clients write: ${cost}. Remove it unless one client owns this data.`,
        })),
      );
    }
  },
});
