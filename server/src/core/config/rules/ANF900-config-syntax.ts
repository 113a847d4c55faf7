import { defineRule } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { isConfigFile } from './problemRule';

export const configSyntax = defineRule({
  code: 'ANF900',
  name: 'config-syntax',
  domain: 'config',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'The configuration file is not valid YAML',
    what: 'A YAML syntax error in `.anf-lint.yaml`: bad indentation, an unclosed quote or bracket, a key written twice, or nesting deeper than 200 levels (refused before parsing: such input only comes from a generator gone wrong or an attack, and deep enough it exhausts the parser stack).',
    why: 'anf-lint cannot read any of the file then, so it lints with the defaults: every severity you set and every setting you chose is ignored. The CLI stops with exit code 2 rather than report with the wrong settings.',
    instead:
      'Fix the YAML at the marked place. Keys are written `key: value`, nested keys are indented by two spaces, and each key appears once.',
    examples: [
      {
        flagged: 'rules:\n  ANF204: off\n   ANF101: error',
        better: 'rules:\n  ANF204: off\n  ANF101: error',
        language: 'yaml',
      },
    ],
  },
  appliesTo: isConfigFile,
  check: (context) => reportProblems('ANF900', context),
});
