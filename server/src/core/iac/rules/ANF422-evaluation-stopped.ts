import { reportProblems } from '../../rules/problems';
import { defineRule } from '../../rules/rule';
import { EVALUATION_STOPPED_CODE } from '../arm';
import { IAC_KINDS } from '../read';
import { estateOf } from './helpers';

/**
 * Reported by the ARM and Bicep readers when their work budget (iac/values.ts Budget) runs out, and
 * for a Terraform root module whose loops passed the Terraform reading's budget (`estate.stopped`).
 */
export const evaluationStopped = defineRule({
  code: EVALUATION_STOPPED_CODE,
  name: 'iac-evaluation-stopped',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'anf-lint stopped evaluating a template or module',
    what: 'An ARM template, Bicep file or Terraform root module whose loops (ARM `copy`, Bicep `[for ...]`, Terraform `count`/`for_each` on resources and `module` blocks, also through modules) make more resource instances, or more expressions to evaluate, than anf-lint reads in one go (1,000 instances; 500,000 expressions for ARM and Bicep, 2,000,000 evaluation steps for Terraform: our own bounds on work, not limits of Azure or Terraform). Terraform loops past the bound are read once, as repeated. A Bicep file with no `Microsoft.NetApp` resource type and no module declaration is checked for syntax only: it deploys nothing anf-lint reads, so the instances and expressions of its own loops do not count (the module instances that call it still do).',
    why: 'Loops nested through modules multiply: `range(0, 64)` three modules deep is 262,144 instances. anf-lint reads up to its bound and says where it stopped, so the editor stays responsive; resources past that point are not in the figures and the values it had not evaluated are unknown.',
    instead:
      'Nothing is wrong with the template. Check the resources past the bound with a smaller loop in a test file, or size them in an anf-lint manifest.',
    examples: [
      {
        flagged:
          "param project string = 'eda'\n\nmodule projects './level.bicep' = [for i in range(0, 64): {\n  name: '${project}-${i}'\n  params: {\n    prefix: '${project}-${i}'\n  }\n}]",
        better:
          "param project string = 'eda'\n\nmodule projects './level.bicep' = [for i in range(0, 4): {\n  name: '${project}-${i}'\n  params: {\n    prefix: '${project}-${i}'\n  }\n}]",
        language: 'bicep',
        file: 'main.bicep',
        context: [
          {
            path: 'level.bicep',
            text: "param prefix string\n\nresource volumes 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2024-07-01' = [for k in range(0, 64): {\n  name: 'anf-${prefix}/pool/vol-${k}'\n  location: resourceGroup().location\n  properties: {\n    creationToken: '${prefix}-vol-${k}'\n    usageThreshold: 107374182400\n  }\n}]",
          },
        ],
      },
    ],
    sources: ['ARM_TEMPLATE_PARAMETERS'],
  },
  appliesTo: (file) => IAC_KINDS.has(file.kind),
  check(context) {
    reportProblems(EVALUATION_STOPPED_CODE, context);
    // Terraform: the module reading records where it stopped on the estate, not as a problem.
    const stopped = estateOf(context.file)?.stopped;
    if (stopped)
      context.report({ span: estateOf(context.file)?.calls?.[0]?.headSpan ?? { start: 0, end: 0 }, message: stopped });
  },
});
