import { defineRule } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { isConfigFile } from './problemRule';

export const unknownRuleCode = defineRule({
  code: 'ANF903',
  name: 'unknown-rule-code',
  domain: 'config',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'Configuration names a rule that does not exist',
    what: 'A key under `rules:` that is not the code of an anf-lint rule, such as `ANF2O4` (letter O) or `ANF999`.',
    why: 'The setting silences or raises nothing, so the rule you meant keeps its default severity. A well-formed code that this anf-lint does not know may belong to a newer version, so it is a warning and the setting is kept.',
    instead:
      'Use a code from `anf-lint rules` (or docs/rules/). When a known code is one edit away, the fix changes it; review it.',
    examples: [
      {
        flagged: 'rules:\n  ANF2O4: off',
        better: 'rules:\n  ANF204: off',
        language: 'yaml',
      },
    ],
  },
  appliesTo: isConfigFile,
  check: (context) => reportProblems('ANF903', context),
});
