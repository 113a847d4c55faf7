import { defineRule } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { isConfigFile } from './problemRule';

export const unknownConfigKey = defineRule({
  code: 'ANF901',
  name: 'unknown-config-key',
  domain: 'config',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Unknown key in the configuration file',
    what: 'A key in `.anf-lint.yaml` that anf-lint does not know, such as `rule:` for `rules:` or `netwrok:` for `network:`. The message names the closest known key.',
    why: 'An unknown key is ignored, so the setting you meant never applies: a misspelt `rules:` leaves every rule at its default, a misspelt `workload:` leaves mounts without a workload. The CLI stops with exit code 2 so that the mistake is seen.',
    instead:
      'Rename the key to the one you meant (the fix does it when there is a close match; review it), or remove it. The known keys are `rules`, `region`, `prices`, `kernelVersion`, `network` (`rtt`, `bandwidth`), `workload`, `behindAzureLoadBalancer`, `sapHanaBehindLoadBalancer` (its older, narrower form) and `nfsServers` (`anf`, `other`, `default`).',
    examples: [
      {
        flagged: 'netwrok:\n  rtt: 0.5 ms',
        better: 'network:\n  rtt: 0.5 ms',
        language: 'yaml',
      },
    ],
  },
  appliesTo: isConfigFile,
  check: (context) => reportProblems('ANF901', context),
});
