import { defineRule } from '../../rules/rule';
import { reportProblems } from '../../rules/problems';
import { isConfigFile } from './problemRule';

export const deprecatedConfigKey = defineRule({
  code: 'ANF905',
  name: 'deprecated-config-key',
  domain: 'config',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A configuration key in its old place',
    what: '`terraform.varFiles` in `.anf-lint.yaml`: the var files of a Terraform module are now named under `iac:` as `iac.varFiles`, beside the ARM and Bicep `iac.parameterFiles`.',
    why: 'The old key is still read, so nothing changes today; one block for the files that give infrastructure code its values is easier to find and keep, and the old key may go in a later version.',
    instead: 'Move the map under `iac:` as `varFiles`. Where both keys name a folder, `iac.varFiles` wins.',
    examples: [
      {
        flagged: 'terraform:\n  varFiles:\n    infra: [environments/prod.tfvars]',
        better: 'iac:\n  varFiles:\n    infra: [environments/prod.tfvars]',
        language: 'yaml',
      },
    ],
    sources: ['TF_VARIABLES'],
  },
  appliesTo: isConfigFile,
  check: (context) => reportProblems('ANF905', context),
});
