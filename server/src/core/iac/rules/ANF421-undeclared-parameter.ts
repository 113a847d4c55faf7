import { reportProblems } from '../../rules/problems';
import { defineRule } from '../../rules/rule';
import { UNDECLARED_PARAMETER_CODE } from '../arm';
import { IAC_KINDS } from '../read';

/** Reported by the readers (iac/arm.ts, iac/parameters.ts): a parameter the template or Bicep file does not declare. */
export const undeclaredParameter = defineRule({
  code: UNDECLARED_PARAMETER_CODE,
  name: 'undeclared-parameter',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A parameter the template does not declare',
    what: "An ARM template uses `parameters('x')` for an `x` its `parameters` section does not declare, or a parameters file (`azuredeploy.parameters.json`, `main.bicepparam`) sets a parameter its template does not declare.",
    why: 'Azure Resource Manager rejects the deployment ("the template parameters ... are not valid; they are not present in the original template"). anf-lint cannot know which value was meant, so every value that uses the parameter is unknown: sizes and throughputs built from it are missing from the figures.',
    instead:
      'Declare the parameter in the template, or fix its name (a typo, or a parameter renamed in the template but not in its parameters file).',
    examples: [
      {
        flagged:
          '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#",\n  "contentVersion": "1.0.0.0",\n  "parameters": {\n    "poolSize": { "value": 4 },\n    "poolSzie": { "value": 8 }\n  }\n}',
        better:
          '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentParameters.json#",\n  "contentVersion": "1.0.0.0",\n  "parameters": {\n    "poolSize": { "value": 8 }\n  }\n}',
        language: 'json',
        file: 'azuredeploy.parameters.json',
        context: [
          {
            path: 'azuredeploy.json',
            text: '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",\n  "contentVersion": "1.0.0.0",\n  "parameters": {\n    "poolSize": { "type": "int" }\n  },\n  "resources": [\n    {\n      "type": "Microsoft.NetApp/netAppAccounts/capacityPools",\n      "apiVersion": "2025-06-01",\n      "name": "anf-prod/premium",\n      "location": "westeurope",\n      "properties": { "serviceLevel": "Premium", "size": "[mul(parameters(\'poolSize\'), 1099511627776)]" }\n    }\n  ]\n}',
          },
        ],
      },
    ],
    sources: ['ARM_PARAMETER_FILES', 'ARM_TEMPLATE_PARAMETERS', 'BICEP_PARAMETER_FILES'],
  },
  appliesTo: (file) => IAC_KINDS.has(file.kind),
  check: (context) => reportProblems(UNDECLARED_PARAMETER_CODE, context),
});
