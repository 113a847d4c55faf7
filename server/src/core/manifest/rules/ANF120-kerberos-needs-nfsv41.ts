import { defineRule } from '../../rules/rule';
import { volumeSecurity } from '../model';
import { isManifest, Named, manifestExample } from './helpers';

export const kerberosNeedsNfsv41 = defineRule({
  code: 'ANF120',
  name: 'kerberos-needs-nfsv41',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Kerberos on an NFSv3 volume',
    what: 'A volume with `security: krb5`, `krb5i` or `krb5p` whose protocols include NFSv3.',
    why: 'ANF configures Kerberos only on NFSv4.1 volumes; an NFSv3 volume cannot use it, so the data would travel and be accessed with AUTH_SYS after all.',
    instead:
      'Use NFSv4.1 for volumes that need Kerberos, or `security: sys` on NFSv3. Expect krb5i/krb5p to cost throughput (Configure NFSv4.1 Kerberos encryption: up to -70% and -85% sequential).',
    examples: [
      manifestExample(
        '- name: home-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - name: home\n      quota: 1 TiB\n      protocols: [NFSv3]\n      security: krb5p',
        '- name: home-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - name: home\n      quota: 1 TiB\n      protocols: [NFSv4.1]\n      security: krb5p',
      ),
    ],
    sources: ['KRB', 'FAQN'],
  },
  appliesTo: isManifest,
  checkVolume({ volume }, context) {
    const security = volumeSecurity(volume);
    const v3 = volume.protocols.find((p) => p.value === 'NFSv3');
    const defaulted = !volume.protocolsNode;
    if (security === 'sys' || !volume.security || (!v3 && !defaulted)) return;
    context.report({
      span: volume.security.span,
      message: `${Named('volume', volume.name)} asks for Kerberos (${security}) but serves NFSv3${defaulted ? ' (the default: it has no `protocols`)' : ''}; ANF supports Kerberos only on NFSv4.1 volumes.`,
      ...(v3 ? { related: [{ uri: context.file.uri, span: v3.span, message: 'NFSv3' }] } : {}),
    });
  },
});
