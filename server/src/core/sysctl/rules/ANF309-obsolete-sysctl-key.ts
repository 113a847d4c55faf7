import { compareKernelVersions } from '../../config';
import { defineRule } from '../../rules/rule';
import { findKey } from '../catalog';
import { removeLineFixes } from '../scope';
import { hasSettings } from './common';

export const obsoleteSysctlKey = defineRule({
  code: 'ANF309',
  name: 'obsolete-sysctl-key',
  domain: 'sysctl',
  defaultSeverity: 'warning',
  fix: 'safe',
  doc: {
    title: 'A kernel key that was removed, or no longer does anything',
    what: 'Keys copied from old tuning guides: `net.ipv4.tcp_fack` (removed in 4.15), `net.ipv4.tcp_tw_recycle` (removed in 4.12) and `net.ipv4.tcp_low_latency` (accepted but ignored since 4.14). With `kernelVersion` in `.anf-lint.yaml`, a key that still exists on that kernel is not reported, except `tcp_tw_recycle`, which breaks connections through NAT and Azure Load Balancer wherever it exists.',
    why: 'A removed key makes `sysctl --system` report an error at every boot, which buries real errors; a no-op key suggests tuning that does not happen. Seed 001\'s block sets both `tcp_fack` and `tcp_low_latency`.',
    instead: 'Delete the line. The fix deletes it (or comments it out); on current kernels that changes nothing.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_low_latency = 1\nnet.ipv4.tcp_fack = 0',
        better: '# (nothing: both keys are obsolete)',
        language: 'ini',
      },
    ],
    sources: ['KDOC', 'SEED_MOUNT'],
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
          fixes: removeLineFixes(context.file, setting, `removed in kernel ${version}`, !stillThere),
        });
        continue;
      }
      const version = entry.noOpSince!.value;
      if (kernel !== undefined && compareKernelVersions(kernel, version) < 0) continue;
      context.report({
        span: setting.keySpan,
        message: `\`${setting.key}\` has no effect since kernel ${version}: the kernel accepts the value and ignores it. Remove the line.`,
        tags: ['unnecessary'],
        fixes: removeLineFixes(context.file, setting, `no effect since kernel ${version}`, true),
      });
    }
  },
});
