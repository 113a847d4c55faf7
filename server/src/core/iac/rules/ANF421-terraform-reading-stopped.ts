import { defineRule } from '../../rules/rule';
import { estateOf, isIac } from './helpers';

export const terraformReadingStopped = defineRule({
  code: 'ANF421',
  name: 'terraform-reading-stopped',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'A Terraform module whose loops anf-lint stopped expanding (work budget)',
    what: 'A root module whose `module` blocks and resources with `count` or `for_each` make more instances than anf-lint reads in one go (1,000 module and resource instances, or 2,000,000 evaluation steps: anf-lint\'s own bounds, not Terraform\'s). The loops past the bound are read once, as repeated, and their values are unknown.',
    why: 'Nested loops multiply: three modules each calling the next over 64 keys make 262,144 instances. Reading them all would stall the editor and the CLI; reading fewer without saying so would look like a smaller estate.',
    instead: 'Nothing is wrong with the code. Lint the inner modules as roots, or keep loops smaller, to have every instance checked.',
    examples: [],
    sources: ['TF_VARIABLES'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = estateOf(context.file);
    if (!estate?.stopped) return;
    const first = estate.calls?.[0];
    context.report({ span: first?.headSpan ?? { start: 0, end: 0 }, message: estate.stopped });
  },
});
