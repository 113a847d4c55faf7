import { compareKernelVersions } from '../../config';
import { defineRule } from '../../rules/rule';
import { findKey } from '../catalog';
import { removeLineFixes } from './scope';
import { hasSettings } from './common';

export const obsoleteSysctlKey = defineRule({
  code: 'ANF309',
  name: 'obsolete-sysctl-key',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fixes: ['safe', 'unsafe'],
  doc: {
    title: 'A kernel key that was removed, or no longer does anything',
    what: 'Keys copied from old tuning guides. `net.ipv4.tcp_tw_recycle` was removed in 4.12: the key no longer exists (a warning). `net.ipv4.tcp_fack` (since 4.15) and `net.ipv4.tcp_low_latency` (since 4.14) are still registered by the kernel but do nothing (information, tagged unnecessary). With `kernelVersion` in `.anf-lint.yaml`, a key that still works on that kernel is not reported, except `tcp_tw_recycle`, which breaks connections through NAT and Azure Load Balancer wherever it exists.',
    why: 'A removed key makes `sysctl --system` report an error at every boot, which buries real errors. A key the kernel accepts and ignores fails nothing, but it suggests tuning that does not happen. Checked against the kernel source: `net/ipv4/sysctl_net_ipv4.c` still lists `tcp_fack` and `tcp_low_latency` ("a legacy option, it has no effect anymore", ip-sysctl.rst), and lost `tcp_tw_recycle` in commit 4396e46187ca. The client block of the Microsoft Learn module on ANF performance for EDA and HPC sets both `tcp_fack` and `tcp_low_latency`.',
    instead:
      'Delete the line. The fix deletes it (or comments it out); on current kernels that changes nothing. Where `kernelVersion` says the key still exists (`tcp_tw_recycle` before 4.12), deleting it changes behaviour, so there the fix is offered but not applied by `--fix`.',
    examples: [
      {
        flagged:
          'net.core.rmem_max = 16777216\nnet.ipv4.tcp_low_latency = 1\nnet.ipv4.tcp_fack = 0\nnet.ipv4.tcp_tw_recycle = 1',
        better: 'net.core.rmem_max = 16777216',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KSYSCTL_IPV4', 'KDOC', 'SEED_MOUNT'],
  },
  appliesTo: hasSettings,
  check(context) {
    const kernel = context.config.kernelVersion;
    for (const setting of context.file.settings) {
      if (setting.templated) continue;
      const entry = findKey(setting.key);
      if (!entry || (!entry.removedIn && !entry.noOpSince)) continue;
      if (entry.removedIn) {
        const version = entry.removedIn.value;
        const stillThere = kernel !== undefined && compareKernelVersions(kernel, version) < 0;
        if (stillThere && setting.key !== 'net.ipv4.tcp_tw_recycle') continue;
        context.report({
          span: setting.keySpan,
          message: stillThere
            ? `\`${setting.key}\` still exists on kernel ${kernel} but was removed in ${version}, and it breaks TCP for clients behind NAT or Azure Load Balancer. Remove it.`
            : `\`${setting.key}\` was removed in kernel ${version}: writing it fails${setting.ignoreFailure ? ' (ignored here by the `-` prefix)' : ' and logs an error at every boot'}. Remove the line.`,
          tags: ['deprecated'],
          // Where the key still exists, deleting the line changes behaviour: offer it, but not as safe.
          fixes: removeLineFixes[stillThere ? 'unsafe' : 'safe'](context.file, setting, `removed in kernel ${version}`),
        });
        continue;
      }
      const version = entry.noOpSince!.value;
      if (kernel !== undefined && compareKernelVersions(kernel, version) < 0) continue;
      context.report({
        span: setting.keySpan,
        message: `\`${setting.key}\` has no effect since kernel ${version}: the kernel still registers the key, accepts the value and ignores it. Remove the line.`,
        severity: 'info',
        tags: ['unnecessary'],
        fixes: removeLineFixes.safe(context.file, setting, `no effect since kernel ${version}`),
      });
    }
  },
});
