import { lazyFinding, type Finding } from '../../diagnostics';
import { NFS_TRANSFER_SIZE } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { integerOf } from '../catalog';
import { mountFix, replaceValue } from '../fixes';
import { hasNfsMounts, nfsMounts, onAnf } from './common';

const RECOMMENDED = NFS_TRANSFER_SIZE.recommendedBytes.value;

// Made outside the loop over the mounts: a closure in the loop body would make V8 allocate its
// captured variables for every mount, reported or not.
function differFinding(rsize: number, wsize: number, r: MountOption, w: MountOption, later: MountOption): Finding {
  return lazyFinding({ span: later.span }, () => ({
    message: `rsize=${rsize} and wsize=${wsize} differ; ANF recommends the same value for both, ${RECOMMENDED} (256 KiB).`,
    fixes: mountFix.unsafe(`Set rsize and wsize to ${RECOMMENDED}`, ...[r, w].filter((o) => o.value !== String(RECOMMENDED)).map((o) => replaceValue(o, String(RECOMMENDED)))),
  }));
}

export const rsizeWsizeDiffer = defineRule({
  code: 'ANF205',
  name: 'rsize-wsize-differ',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`rsize` and `wsize` differ',
    what: 'A mount that sets `rsize` and `wsize` to different values.',
    why: `ANF's guidance is to set rsize and wsize to the same value, ${RECOMMENDED} (256 KiB) for most workloads: reads and writes then travel in the same number of round trips, and the value matches what ANF was tuned and measured with.`,
    instead: `Set both to ${RECOMMENDED}. The fix changes both values.`,
    examples: [
      {
        flagged: 'sudo mount -t nfs -o rw,hard,vers=3,rsize=1048576,wsize=65536 10.10.1.4:/eda-scratch /scratch',
        better: `sudo mount -t nfs -o rw,hard,vers=3,rsize=${RECOMMENDED},wsize=${RECOMMENDED} 10.10.1.4:/eda-scratch /scratch`,
        language: 'sh',
      },
    ],
    sources: ['MO', 'SEED_MOUNT'],
  },
  perMount: true,
  appliesTo: hasNfsMounts,
  check(context) {
    const judgedMounts = nfsMounts(context);
    for (let index = 0; index < judgedMounts.length; index++) {
      const judged = judgedMounts[index]!;
      const { mount, effective } = judged;
      if (!onAnf(context, judged)) continue; // ANF's advice; other servers have their own
      const rsize = integerOf(effective, 'rsize');
      const wsize = integerOf(effective, 'wsize');
      if (rsize === undefined || wsize === undefined || rsize === wsize) continue;
      const r = effective.byGroup.get('rsize')!;
      const w = effective.byGroup.get('wsize')!;
      const later = r.span.start > w.span.start ? r : w;
      context.report(differFinding(rsize, wsize, r, w, later));
    }
  },
});
