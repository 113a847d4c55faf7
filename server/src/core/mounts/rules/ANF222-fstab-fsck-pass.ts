import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { Span } from '../../text/sourceText';
import { mountFix } from '../fixes';
import { hasNfsMounts } from './common';

export const fstabFsckPass = defineRule({
  code: 'ANF222',
  name: 'fstab-fsck-pass',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['safe'],
  doc: {
    title: 'Non-zero fsck pass on an NFS mount',
    what: 'An NFS fstab entry (or Ansible `passno:`) whose sixth field, the fsck pass, is not 0.',
    why: 'There is nothing for fsck to check on an NFS client: the file system lives on ANF. fsck.nfs only exists as a no-op on some distributions; where it is missing, or where the boot runs fsck before the network is up, a non-zero pass makes the boot wait or fail.',
    instead: 'Write 0 in the sixth field (and in the fifth, dump). The fix sets the pass to 0.',
    examples: [
      {
        flagged: '10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3,_netdev  0  2',
        better: '10.10.1.4:/eda-tools  /tools  nfs  ro,hard,vers=3,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount }, context) {
    const pass = mount.fsckPass;
    const passSpan = mount.fsckPassSpan;
    if (!passSpan || pass === undefined || !/^\d+$/.test(pass) || Number(pass) === 0) return;
    context.report(fsckFinding(pass, passSpan));
  },
});

function fsckFinding(pass: string, passSpan: Span): Finding {
  return lazyFinding({ span: passSpan }, () => ({
    message: `fsck pass ${pass} on an NFS mount: there is nothing to check on the client, and a missing fsck.nfs can hold up the boot. Use 0.`,
    fixes: mountFix.safe('Set the fsck pass to 0', { span: passSpan, newText: '0' }),
  }));
}
