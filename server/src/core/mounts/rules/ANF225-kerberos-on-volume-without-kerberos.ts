import { lazyFinding, type RelatedSpan, type Finding } from '../../diagnostics';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { defineRule, type RuleContext } from '../../rules/rule';
import type { MountOption } from '../model';
import { baseName } from '../../fileKind';
import { hasNfsMounts, manifestVolumeOf, volumeOfMount } from './common';

export const kerberosOnVolumeWithoutKerberos = defineRule({
  code: 'ANF225',
  name: 'kerberos-on-volume-without-kerberos',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Kerberos mount (`sec=krb5*`) of a volume without Kerberos',
    what: 'A mount with `sec=krb5`, `krb5i` or `krb5p` (for a `sec=` list: only Kerberos flavors in it) that reaches a manifest volume whose `security` is `sys` or missing (`sys` is the default).',
    why: 'ANF grants Kerberos access only on volumes created with Kerberos: the export policy of any other volume allows AUTH_SYS alone, and nfs(5) says a mount fails when the server supports none of the `sec=` flavors. It fails (`access denied by server`), for an fstab line at boot. The reverse is not reported: without `sec=` the client negotiates a flavor both sides support, and whether `sec=sys` reaches a Kerberos volume depends on the flavors its export policy allows, which the manifest does not describe. A `sec=` list that includes `sys` is not reported either (the client may fall back to it). ANF120 judges the volume (Kerberos needs NFSv4.1), ANF216 nconnect with Kerberos.',
    instead:
      "Decide which side is right: set the volume's `security` to the flavor the clients use (Kerberos needs NFSv4.1 and an Active Directory connection), or mount with `sec=sys` if the data needs no Kerberos. There is no automatic fix: dropping Kerberos from a mount is a security decision.",
    examples: [
      {
        flagged: '10.10.1.4:/eda-home  /home  nfs  rw,hard,vers=4.1,sec=krb5p,_netdev  0  0',
        better: '10.10.1.4:/eda-home  /home  nfs  rw,hard,vers=4.1,sec=sys,_netdev  0  0',
        language: 'fstab',
        context: [
          {
            path: 'eda.anf.yaml',
            text: 'accounts:\n  - name: eda-prod\n    pools:\n      - name: eda-premium\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: eda-home\n            quota: 2 TiB\n            protocols: [NFSv4.1]\n            mountTarget: 10.10.1.4\n            exportPath: /eda-home',
          },
        ],
      },
    ],
    sources: ['KRB', 'NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    if (effective.templated) return;
    const sec = effective.byGroup.get('sec');
    if (!sec) return; // most mounts: no list to split
    const flavors = sec.value?.split(':') ?? [];
    // `sec=krb5p:sys` lets the client fall back to AUTH_SYS: only an all-Kerberos list is sure to fail.
    if (flavors.length === 0 || !flavors.every((f) => f.startsWith('krb5'))) return;
    const volume = volumeOfMount(context, judged);
    if (!volume || volume.kerberos) return;
    // ANF120: Kerberos needs NFSv4.1, so an NFSv3 volume needs both changed.
    const volumeChange = volume.nfsVersions.includes('4.1')
      ? `\`security\` to \`${flavors[0]!}\``
      : `\`security\` to \`${flavors[0]!}\` and its \`protocols\` to NFSv4.1 (Kerberos needs it)`;
    context.report(noKerberosFinding(context, sec, volume, volumeChange));
  },
});

function noKerberosFinding(
  context: RuleContext,
  sec: MountOption,
  volume: VolumeSummary,
  volumeChange: string,
): Finding {
  return lazyFinding({ span: sec.span }, () => ({
    message: `\`${sec.name}=${sec.value ?? ''}\`, but volume \`${volume.name}\` (${baseName(volume.uri)}) does not use Kerberos: its export policy allows AUTH_SYS only, so the mount fails (\`access denied by server\`). Set the volume's ${volumeChange}, or mount with \`sec=sys\`.`,
    related: [securityOf(context, volume)],
  }));
}

/** Related information: the volume's `security` in its manifest, else its name (no `security`: sys, the default). */
function securityOf(context: RuleContext, volume: VolumeSummary): RelatedSpan {
  const security = manifestVolumeOf(context, volume)?.security;
  return security
    ? { uri: volume.uri, span: security.span, message: `Volume \`${volume.name}\` has \`security: ${security.value}\`` }
    : {
        uri: volume.uri,
        span: volume.nameSpan,
        message: `Volume \`${volume.name}\` has no \`security\`: sys, the default`,
      };
}
