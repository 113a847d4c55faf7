import { defineRule } from '../../rules/rule';
import { MALFORMED_SYSCTL_LINE } from '../lines';
import { reportProblems } from '../../rules/problems';
import { hasProblem } from './common';

export const malformedSysctlLine = defineRule({
  code: 'ANF300',
  name: 'malformed-sysctl-line',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A line of a sysctl file is not `key = value`',
    what: "A line of `sysctl.conf`, a `sysctl.d/*.conf` drop-in or a tuned profile's `[sysctl]` section that is neither a comment nor `key = value`: a missing `=`, a key with spaces, no key or no value, or a comment after the value.",
    why: 'systemd-sysctl and `sysctl --system` skip such a line with an error in the boot log (or write the comment into the kernel as part of the value, which the kernel rejects), so the tuning you wrote silently does not happen.',
    instead: 'Write one `key = value` per line and put comments on their own lines, starting with `#` or `;`.',
    examples: [
      {
        flagged: 'net.ipv4.tcp_sack 1\nvm.swappiness = 10 # keep page cache',
        better: 'net.ipv4.tcp_sack = 1\n# keep page cache\nvm.swappiness = 10',
        language: 'ini',
        file: '/etc/sysctl.d/90-nfs.conf',
      },
    ],
    sources: ['KDOC'],
  },
  appliesTo: hasProblem(MALFORMED_SYSCTL_LINE),
  check: (context) => reportProblems(MALFORMED_SYSCTL_LINE, context),
});
