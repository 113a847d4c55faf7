import { defineRule } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { isConfigFile } from './problemRule';

export const invalidConfigValue = defineRule({
  code: 'ANF902',
  name: 'invalid-config-value',
  domain: 'config',
  defaultSeverity: 'error',
  fixes: ['safe', 'unsafe'],
  doc: {
    title: 'Invalid value in the configuration file',
    what: 'A value in `.anf-lint.yaml` of the wrong type or outside the allowed set: a severity that is not `off`, `hint`, `info`, `warning` or `error`, an unknown workload, a round-trip time or bandwidth without a unit, a kernel version that is not `5.14` or `5.14.0`.',
    why: 'anf-lint leaves an invalid value out and uses the default instead, so a rule you turned off stays on, or sizing rules assume a different network. The CLI stops with exit code 2 rather than lint with settings you did not choose.',
    instead:
      'Write a value the message lists. Sizes and rates carry their unit (`0.5 ms`, `10 Gbps`, `1200 MiB/s`). Where the value is a near miss the fix offers the closest allowed value (applied by `--fix` only when it is the same word in another case, or `false` for `off`, or a kernel version put in quotes).',
    examples: [
      {
        flagged: 'rules:\n  ANF204: of\nnetwork:\n  rtt: 0.5',
        better: 'rules:\n  ANF204: off\nnetwork:\n  rtt: 0.5 ms',
        language: 'yaml',
      },
    ],
  },
  appliesTo: isConfigFile,
  check: (context) => reportProblems('ANF902', context),
});
