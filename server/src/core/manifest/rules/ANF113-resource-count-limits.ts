import { COUNT_LIMITS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { isManifest, named, pools } from './helpers';

export const resourceCountLimits = defineRule({
  code: 'ANF113',
  name: 'resource-count-limits',
  domain: 'manifest',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'More pools per account or volumes per pool than the default limits',
    what: `A NetApp account with more than ${COUNT_LIMITS.poolsPerAccount.value} capacity pools, or a capacity pool with more than ${COUNT_LIMITS.volumesPerPool.value} volumes.`,
    why: 'These are the default resource limits: Azure refuses the extra pool or volume until the limit is raised. Both limits are adjustable through a support request, so this is a warning, not an error.',
    instead:
      'Request a higher limit before deploying, or spread the pools over another NetApp account and the volumes over another pool.',
    sources: ['RL'],
  },
  appliesTo: isManifest,
  checkEstate(manifest, context) {
    for (const account of manifest.accounts) {
      const limit = COUNT_LIMITS.poolsPerAccount.value;
      if (account.pools.length > limit) {
        const first = account.pools[limit]!;
        context.report({
          span: first.name?.span ?? first.headSpan,
          message: `NetApp ${named('account', account.name)} has ${account.pools.length} capacity pools; the default limit is ${limit} per account (adjustable by support request). This is pool ${limit + 1}.`,
        });
      }
    }
    for (const { pool } of pools(manifest)) {
      const limit = COUNT_LIMITS.volumesPerPool.value;
      if (pool.volumes.length > limit) {
        const first = pool.volumes[limit]!;
        context.report({
          span: first.name?.span ?? first.headSpan,
          message: `Capacity ${named('pool', pool.name)} has ${pool.volumes.length} volumes; the default limit is ${limit} per pool (adjustable by support request). This is volume ${limit + 1}.`,
        });
      }
    }
  },
});
