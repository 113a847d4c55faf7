import { lazyFinding, type Finding } from '../../diagnostics';
import { NFS_TRANSFER_SIZE } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { integerOf } from '../catalog';
import { mountFix, replaceValue } from '../fixes';
import { hasNfsMounts, onAnf } from './common';

export const rsizeWsizeDiffer = defineRule({
  code: 'ANF205',
  name: 'rsize-wsize-differ',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: ['unsafe'],
  doc: {
    title: '`rsize` and `wsize` differ',
    what: 'A mount that sets `rsize` and `wsize` to different values.',
    why: `Linux NFS mount options best practices for Azure NetApp Files asks only for an upper bound: "for best overall throughput and latency, Azure NetApp Files recommends setting both \`rsize\` and \`wsize\` no larger than 262,144 Bytes (256 K)". It does not ask for equal values, and reads and writes of different sizes work. Different values are still worth a look: they are often what is left when one of the two was edited and the other forgotten, and every example on that page sets both to the same ${NFS_TRANSFER_SIZE.recommendedBytes.value}. That is why this is a note (info), not a warning; a value above 256 KiB is ANF206's business.`,
    instead: `Keep the difference if it is meant. Otherwise set both to ${NFS_TRANSFER_SIZE.recommendedBytes.value}: the fix (unsafe: it changes the transfer size the host uses) writes that value into both.`,
    examples: [
      {
        flagged: 'sudo mount -t nfs -o rw,hard,vers=3,rsize=1048576,wsize=65536 10.10.1.4:/eda-scratch /scratch',
        better: `sudo mount -t nfs -o rw,hard,vers=3,rsize=${NFS_TRANSFER_SIZE.recommendedBytes.value},wsize=${NFS_TRANSFER_SIZE.recommendedBytes.value} 10.10.1.4:/eda-scratch /scratch`,
        language: 'sh',
      },
    ],
    sources: ['MO'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    if (!onAnf(context, judged)) return; // ANF's advice; other servers have their own
    const rsize = integerOf(effective, 'rsize');
    const wsize = integerOf(effective, 'wsize');
    if (rsize === undefined || wsize === undefined || rsize === wsize) return;
    const r = effective.byGroup.get('rsize')!;
    const w = effective.byGroup.get('wsize')!;
    const later = r.span.start > w.span.start ? r : w;
    context.report(differFinding(rsize, wsize, r, w, later));
  },
});

function differFinding(rsize: number, wsize: number, r: MountOption, w: MountOption, later: MountOption): Finding {
  return lazyFinding({ span: later.span }, () => ({
    message: `rsize=${rsize} and wsize=${wsize} differ. ANF's guidance does not ask for equal values, only that both be no larger than ${NFS_TRANSFER_SIZE.recommendedBytes.value} (256 KiB); this note is here in case one of them was meant to match the other.`,
    fixes: mountFix.unsafe(
      `Set rsize and wsize to ${NFS_TRANSFER_SIZE.recommendedBytes.value}`,
      ...[r, w]
        .filter((o) => o.value !== String(NFS_TRANSFER_SIZE.recommendedBytes.value))
        .map((o) => replaceValue(o, String(NFS_TRANSFER_SIZE.recommendedBytes.value))),
    ),
  }));
}
