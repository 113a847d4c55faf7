import { compareKernelVersions } from '../../config';
import { NCONNECT } from '../../facts';
import { defineRule } from '../../rules/rule';
import { findOption } from '../catalog';
import { hasNfsMounts, nfsMounts } from './common';

export const optionNeedsNewerKernel = defineRule({
  code: 'ANF223',
  name: 'option-needs-newer-kernel',
  domain: 'mount',
  defaultSeverity: 'info',
  fix: 'none',
  doc: {
    title: 'Mount option newer than the configured client kernel',
    what: `An option that arrived in a later Linux kernel than \`kernelVersion\` in .anf-lint.yaml (the oldest client kernel the configuration must work on): \`nconnect\` needs ${NCONNECT.minKernel.value}. Only reported when \`kernelVersion\` is set.`,
    why: `On an upstream kernel older than the option, mount.nfs rejects the whole mount ("an incorrect mount option was specified"). Distributions backport some options: RHEL 8.3+ and SLES 15 SP1+ (kernel 4.18 and 4.12) support nconnect, which is why this is information, not an error.`,
    instead: `Check that every client runs a kernel or distribution release that has the option (\`uname -r\`), raise \`kernelVersion\` in .anf-lint.yaml once they do, or leave the option out for older clients.`,
    examples: [
      {
        flagged: '# .anf-lint.yaml: kernelVersion: 4.18\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8,_netdev  0  0',
        better: '# .anf-lint.yaml: kernelVersion: 5.14\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['MO', 'SEED_COURSE'],
  },
  appliesTo: hasNfsMounts,
  check(context) {
    const kernel = context.config.kernelVersion;
    if (!kernel) return;
    for (const { mount } of nfsMounts(context)) {
      for (const option of mount.options) {
        if (option.templated) continue;
        const needs = findOption(option.name)?.minKernel;
        if (!needs || compareKernelVersions(kernel, needs) >= 0) continue;
        context.report({
          span: option.nameSpan,
          message: `\`${option.name}\` needs Linux ${needs} or a distribution that backported it (RHEL 8.3+, SLES 15 SP1+); .anf-lint.yaml says clients may run ${kernel}, where mount.nfs would reject the mount.`,
        });
      }
    }
  },
});
