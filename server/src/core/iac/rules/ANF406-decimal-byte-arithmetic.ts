import { unsafeFix } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import { estateOf, isIac } from './helpers';

export const decimalByteArithmetic = defineRule({
  code: 'ANF406',
  name: 'decimal-byte-arithmetic',
  domain: 'iac',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'A byte count computed with decimal multipliers (1000) where the API counts GiB',
    what: 'A pool `size` or volume `usageThreshold` in bytes written as `100 * 1000 * 1000 * 1000` or `100000000000`: a whole number of GB (10^9 bytes) that is not a whole number of GiB (2^30).',
    why: 'ARM sizes are bytes and Azure NetApp Files counts binary units: 100 GB is 93.13 GiB. The volume comes out 7% smaller than meant, below a minimum, or not a whole GiB.',
    instead:
      'Multiply by 1024 (`100 * 1024 * 1024 * 1024`), or write the byte count of the GiB you mean. The fix does that.',
    examples: [
      {
        flagged:
          "resource volume 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {\n  name: 'anf-prod/premium/data'\n  location: resourceGroup().location\n  properties: {\n    creationToken: 'data'\n    usageThreshold: 100 * 1000 * 1000 * 1000\n  }\n}",
        better:
          "resource volume 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {\n  name: 'anf-prod/premium/data'\n  location: resourceGroup().location\n  properties: {\n    creationToken: 'data'\n    usageThreshold: 100 * 1024 * 1024 * 1024\n  }\n}",
        language: 'bicep',
      },
    ],
    sources: ['NETAPP_ARM'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = estateOf(context.file);
    if (!estate) return;
    for (const slip of estate.slips) {
      context.report({
        span: slip.span,
        message: slip.message,
        ...(slip.edits.length > 0 ? { fixes: [unsafeFix('Count in binary units (GiB)', [...slip.edits])] } : {}),
      });
    }
  },
});
