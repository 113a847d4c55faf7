import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountEntry, MountOption } from '../model';
import { usesKerberos } from '../catalog';
import type { ServerTarget } from './target';
import { assumedAnfWords, hasNfsMounts, targetOfMount, volumeOfMount } from './common';

export const kerberosOnNfsv3 = defineRule({
  code: 'ANF228',
  name: 'kerberos-on-nfsv3',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'Kerberos (`sec=krb5*`) on an NFSv3 mount of ANF',
    what: "A mount of an ANF server that pins NFSv3 and asks for `sec=krb5`, `krb5i` or `krb5p`, when it reaches no manifest volume (with a manifest, ANF224 and ANF225 judge the volume's protocols and Kerberos). An error when the server is known to be ANF (a manifest mount target, `nfsServers.anf`), a warning when ANF is only assumed.",
    why: 'Configure NFSv4.1 Kerberos encryption for Azure NetApp Files: Kerberos is available for NFSv4.1 volumes only. An NFSv3 volume has no Kerberos, so the mount fails or never gets the protection it asks for.',
    instead: 'Mount an NFSv4.1 volume created with Kerberos (`vers=4.1,sec=krb5p`), or use `sec=sys` on NFSv3.',
    examples: [
      {
        flagged: '10.20.1.4:/finance  /finance  nfs  rw,hard,vers=3,sec=krb5p,_netdev  0  0',
        better: '10.20.1.4:/finance  /finance  nfs  rw,hard,vers=4.1,sec=krb5p,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['KRB'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    // Both are written (an option list found alone included): only a placeholder could change them.
    if (
      (effective.templated && (mount.optionsOnly !== true || mount.options.some((o) => o.templated))) ||
      !usesKerberos(effective) ||
      effective.version?.text !== '3'
    )
      return;
    const target = targetOfMount(context, judged);
    if (target.kind !== 'anf' || volumeOfMount(context, judged)) return;
    const sec = effective.byGroup.get('sec')!;
    const pinned = effective.version.option;
    context.report(nfsv3Finding(mount, sec, target, pinned));
  },
});

function nfsv3Finding(
  mount: MountEntry,
  sec: MountOption,
  target: ServerTarget,
  pinned: MountOption | undefined,
): Finding {
  return lazyFinding({ span: sec.span, severity: target.known ? 'error' : 'warning' }, () => ({
    message: `\`sec=${sec.value ?? ''}\` on an NFSv3 mount: Kerberos on ANF needs NFSv4.1 (NFSv3 volumes have no Kerberos), so this mount fails or goes without the protection it asks for. Mount an NFSv4.1 volume with Kerberos (\`vers=4.1\`), or use \`sec=sys\`.${assumedAnfWords(target)}`,
    ...(pinned ? { related: [{ uri: mount.uri, span: pinned.span, message: 'NFSv3 is pinned here' }] } : {}),
  }));
}
