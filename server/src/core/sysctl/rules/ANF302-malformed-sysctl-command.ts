import { defineRule } from '../../rules/rule';
import { MALFORMED_SYSCTL_COMMAND } from '../lines';
import { reportProblems } from '../../rules/problems';
import { hasProblem } from './common';

export const malformedSysctlCommand = defineRule({
  code: 'ANF302',
  name: 'malformed-sysctl-command',
  domain: 'sysctl',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A `sysctl -w` or `/proc/sys` write that sets nothing',
    what: 'A `sysctl -w` command in a script with spaces around `=` (`sysctl -w net.ipv4.tcp_sack = 1`), a key without a value, or an `echo` into `/proc/sys` with nothing to write.',
    why: 'The shell passes `key`, `=` and `1` as separate arguments: sysctl reads the key, complains about the rest, and sets nothing. The script goes on as if the tuning had been applied.',
    instead:
      'Write `sysctl -w key=value` as one argument, and quote values with spaces: `sysctl -w net.ipv4.tcp_rmem="4096 131072 16777216"`.',
    examples: [
      {
        flagged: 'sysctl -w net.ipv4.tcp_sack = 1',
        better: 'sysctl -w net.ipv4.tcp_sack=1',
        language: 'sh',
      },
    ],
    sources: ['KDOC'],
  },
  appliesTo: hasProblem(MALFORMED_SYSCTL_COMMAND),
  check: (context) => reportProblems(MALFORMED_SYSCTL_COMMAND, context),
});
