import { lazyFinding } from '../../diagnostics';
import { NFS_PROTOCOL } from '../../facts';
import { defineRule } from '../../rules/rule';
import { mountFix, removeOption } from '../fixes';
import { hasNfsMounts, workloadOfMount } from './common';

export const intrIgnored = defineRule({
  code: 'ANF208',
  name: 'intr-ignored',
  domain: 'mount',
  defaultSeverity: 'hint',
  fixes: ['safe'],
  doc: {
    title: '`intr`/`nointr` has no effect',
    what: "`intr` or `nointr` in an NFS option list (on every NFS server), except `nointr` on the `oracle` workload, where Oracle's own kNFS mount options write it.",
    why: `nfs(5): "provided for backward compatibility", ignored since kernel ${NFS_PROTOCOL.intrIgnoredSinceKernel.value}. Current kernels always let SIGKILL interrupt a waiting NFS call. Older guides (the Microsoft Learn module on ANF performance for EDA and HPC among them) still recommend \`hard,intr\`.`,
    instead: 'Remove it. The fix removes the option and its comma; the mount behaves exactly the same.',
    examples: [
      {
        flagged: 'sudo mount -t nfs -o rw,hard,intr,vers=3,rsize=262144,wsize=262144 10.10.1.4:/eda-tools /tools',
        better: 'sudo mount -t nfs -o rw,hard,vers=3,rsize=262144,wsize=262144 10.10.1.4:/eda-tools /tools',
        language: 'sh',
      },
    ],
    sources: ['NFS5', 'ORAKNFS'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount } = judged;
    const options = mount.options;
    for (let o = 0; o < options.length; o++) {
      const option = options[o]!;
      if (option.templated || (option.name !== 'intr' && option.name !== 'nointr')) continue;
      // Oracle's kNFS prescription (Oracle Support Doc ID 359515.1) writes `nointr`: harmless, and not ours to correct.
      if (option.name === 'nointr' && workloadOfMount(context, judged)?.workload === 'oracle') continue;
      context.report(
        lazyFinding({ span: option.span, tags: ['unnecessary'] }, () => ({
          message: `\`${option.name}\` is ignored since kernel ${NFS_PROTOCOL.intrIgnoredSinceKernel.value}; remove it.`,
          fixes: mountFix.safe(`Remove \`${option.name}\``, removeOption(text, mount, option)),
        })),
      );
    }
  },
});
