import { lazyFinding } from '../../diagnostics';
import { compareKernelVersions } from '../../config';
import { NCONNECT } from '../../facts';
import { defineRule } from '../../rules/rule';
import { findOption } from '../catalog';
import { hasNfsMounts, workloadOfMount } from './common';

export const optionNeedsNewerKernel = defineRule({
  code: 'ANF223',
  name: 'option-needs-newer-kernel',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'Mount option newer than the configured client kernel',
    what: `An option that arrived in a later Linux kernel than \`kernelVersion\` in .anf-lint.yaml (the oldest client kernel the configuration must work on): \`nconnect\` needs ${NCONNECT.minKernel.value}. Only reported when \`kernelVersion\` is set.`,
    why: `On an upstream kernel older than the option, mount.nfs rejects the whole mount ("an incorrect mount option was specified"). Distributions backport some options: RHEL 8.3+ and SLES 15 SP1+ (kernel 4.18 and 4.12) support nconnect over NFSv3, and SLES needs 15 SP2 for nconnect over NFSv4.1 (Linux NFS mount options best practices for Azure NetApp Files), which is why this is information, not an error. Microsoft's SAP HANA guide on ANF points to the same table: on SAP HANA (NFSv4.1) nconnect is for the releases that support it with NFSv4.1.`,
    instead: `Check that every client runs a kernel or distribution release that has the option (\`uname -r\`), raise \`kernelVersion\` in .anf-lint.yaml once they do, or leave the option out for older clients.`,
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8,_netdev  0  0',
        better: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,_netdev  0  0',
        language: 'fstab',
        context: [{ path: '.anf-lint.yaml', text: 'kernelVersion: "3.10"' }],
      },
    ],
    sources: ['MO', 'HANA'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const kernel = context.config.kernelVersion;
    if (!kernel) return;
    const { mount, effective } = judged;
    const options = mount.options;
    for (let o = 0; o < options.length; o++) {
      const option = options[o]!;
      if (option.templated) continue;
      const needs = findOption(option.name)?.minKernel;
      if (!needs || compareKernelVersions(kernel, needs) >= 0) continue;
      // nconnect over NFSv4.1 came to SLES later (15 SP2) than over NFSv3 (15 SP1); SAP HANA runs NFSv4.1.
      const v41 = effective.version?.text === '4.1';
      const found = workloadOfMount(context, judged);
      const hana = found?.workload.startsWith('sap-hana')
        ? ` For SAP HANA, Microsoft's guide "NFS v4.1 volumes on Azure NetApp Files for SAP HANA" points to the OS releases that support nconnect; with NFSv4.1 those are SLES 15 SP2 or later and RHEL 8.3 or later.`
        : '';
      context.report(
        lazyFinding({ span: option.nameSpan }, () => ({
          message: `\`${option.name}\` needs Linux ${needs} or a distribution that backported it (RHEL 8.3+, ${v41 ? 'SLES 15 SP2+ with NFSv4.1' : 'SLES 15 SP1+'}); .anf-lint.yaml says clients may run ${kernel}, where mount.nfs would reject the mount.${hana}`,
        })),
      );
    }
  },
});
