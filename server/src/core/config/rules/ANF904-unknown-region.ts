import { defineRule } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { isConfigFile } from './problemRule';

export const unknownRegion = defineRule({
  code: 'ANF904',
  name: 'unknown-region',
  domain: 'config',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'No list prices for the configured region',
    what: '`region:` in `.anf-lint.yaml` names a region for which anf-lint has no list prices.',
    why: 'Cost figures (hover, the figures section of the CLI, `anf-lint size`) then use East US list prices, which can differ from the region you deploy to, notably for the Flexible service level.',
    instead:
      'Use a region anf-lint has prices for, or give your own rates under `prices:` (capacity per GiB-hour per service level, Flexible throughput per MiB/s-hour).',
    examples: [
      {
        flagged: 'region: mars-north',
        better: 'region: westeurope',
        language: 'yaml',
      },
    ],
    sources: ['PRICE'],
  },
  appliesTo: isConfigFile,
  check: (context) => reportProblems('ANF904', context),
});
