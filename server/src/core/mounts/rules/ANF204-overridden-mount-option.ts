import { lazyFinding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { findOption } from '../catalog';
import { mountFix, removeOption } from '../fixes';
import { hasNfsMounts } from './common';

export const overriddenMountOption = defineRule({
  code: 'ANF204',
  name: 'overridden-mount-option',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['safe'],
  doc: {
    title: 'Duplicate or conflicting mount options',
    what: 'The same option twice, or options that set the same thing to different values (`hard` and `soft`, `vers=3` and `nfsvers=4.1`, `ac` and `noac`, `tcp` and `proto=udp`). The message says which one the kernel uses: the last one written.',
    why: 'Only one of them takes effect, so the line says two things and does one. Long option lists copied from several guides often end with an old value winning over the new one.',
    instead:
      'Keep the option you mean and remove the other. The fix removes the option that has no effect, which changes nothing on the mount itself.',
    examples: [
      {
        flagged: '10.20.1.4:/hana-data  /hana/data  nfs  rw,soft,vers=4.1,hard,rsize=262144,wsize=262144  0  0',
        better: '10.20.1.4:/hana-data  /hana/data  nfs  rw,vers=4.1,hard,rsize=262144,wsize=262144  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount, effective }, context) {
    const text = context.file.source.text;
    if (effective.overridden.length === 0) return; // nearly every mount: no slice to make
    // A machine-generated list with thousands of repeats needs a handful of findings, not thousands.
    for (const { option, winner } of effective.overridden.slice(0, MAX_FINDINGS_PER_MOUNT)) {
      const written = (o: typeof option) => (o.value !== undefined ? `${o.name}=${o.value}` : o.name);
      const same = findOption(option.name)?.name === findOption(winner.name)?.name && option.value === winner.value;
      const message = same
        ? `\`${written(option)}\` is set again later in this option list (\`${written(winner)}\`); this one is redundant.`
        : `\`${written(option)}\` has no effect: \`${written(winner)}\` later in this option list sets the same thing, and the kernel uses the last one (\`${written(winner)}\`).`;
      context.report(
        lazyFinding({ span: option.span, tags: ['unnecessary'] }, () => ({
          message,
          fixes: mountFix.safe(
            `Remove \`${written(option)}\` (the kernel uses \`${written(winner)}\`)`,
            removeOption(text, mount, option),
          ),
        })),
      );
    }
  },
});

/** anf-lint's own cap on one mount's findings: a machine-generated list may repeat an option thousands of times. */
const MAX_FINDINGS_PER_MOUNT = 100;
