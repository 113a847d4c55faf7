import { defineRule } from '../../rules/rule';
import { EVALUATION_STOPPED_CODE } from '../arm';
import { IAC_KINDS } from '../read';

/** Reported by the ARM and Bicep readers when their work budget (iac/values.ts Budget) runs out. */
export const evaluationStopped = defineRule({
  code: EVALUATION_STOPPED_CODE,
  name: 'iac-evaluation-stopped',
  domain: 'iac',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'anf-lint stopped evaluating a template',
    what: 'An ARM template or Bicep file whose loops (ARM `copy`, Bicep `[for ...]`, also through modules) make more resource instances, or more expressions to evaluate, than anf-lint reads in one file (1,000 instances, 500,000 expressions: our own bound on work, not a limit of Azure).',
    why: 'Loops nested through modules multiply: `range(0, 64)` three modules deep is 262,144 instances. anf-lint reads up to its bound and says where it stopped, so the editor stays responsive; resources past that point are not in the figures and the values it had not evaluated are unknown.',
    instead: 'Nothing is wrong with the template. Check the resources past the bound with a smaller loop in a test file, or size them in an anf-lint manifest.',
    examples: [
      {
        flagged: "module level1 './level.bicep' = [for i in range(0, 64): {\n  name: 'l1-${i}'\n}]",
        better: "module level1 './level.bicep' = [for i in range(0, 4): {\n  name: 'l1-${i}'\n}]",
        language: 'bicep',
      },
    ],
    sources: ['ARM_TEMPLATE_PARAMETERS'],
  },
  appliesTo: (file) => IAC_KINDS.has(file.kind),
  check(context) {
    for (const problem of context.file.problems) {
      if (problem.code !== EVALUATION_STOPPED_CODE) continue;
      const { code: _code, ...finding } = problem;
      context.report(finding);
    }
  },
});
