import { defineRule } from '../../rules/rule';
import { coolAccessSpan, isManifest, Named, named, manifestExample } from './helpers';

export const coolAccessPoolDisabled = defineRule({
  code: 'ANF125',
  name: 'cool-access-pool-disabled',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Cool-access volume in a pool without cool access',
    what: 'A volume with cool access enabled in a capacity pool that does not have `coolAccess: true`.',
    why: 'A cool-access volume can only live in, or move to, a pool with cool access enabled. Azure refuses the volume as written.',
    instead:
      'Enable cool access on the pool (it cannot be turned off again at pool level), or move the volume to a cool-access pool.',
    examples: [
      manifestExample(
        '- name: archive-pool\n  serviceLevel: Standard\n  size: 20 TiB\n  volumes:\n    - { name: old-projects, quota: 20 TiB, coolAccess: true }',
        '- name: archive-pool\n  serviceLevel: Standard\n  size: 20 TiB\n  coolAccess: true\n  volumes:\n    - { name: old-projects, quota: 20 TiB, coolAccess: true }',
      ),
    ],
    sources: ['CA'],
  },
  appliesTo: isManifest,
  checkVolume({ pool, volume }, context) {
    if (!volume.coolAccess?.enabled || pool.coolAccess?.value === true) return;
    context.report({
      span: coolAccessSpan(volume.coolAccess),
      message: `${Named('volume', volume.name)} uses cool access, but ${named('pool', pool.name)} does not allow it: set \`coolAccess: true\` on the pool (permanent) or move the volume.`,
      ...(pool.coolAccess
        ? { related: [{ uri: context.file.uri, span: pool.coolAccess.span, message: 'pool coolAccess' }] }
        : {}),
    });
  },
});
