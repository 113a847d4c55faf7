import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountEntry, MountOption } from '../model';
import { usesKerberos } from '../catalog';
import { mountFix, removeOption } from '../fixes';
import { hasNfsMounts, onAnf } from './common';

export const nconnectWithKerberos = defineRule({
  code: 'ANF216',
  name: 'nconnect-with-kerberos',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`nconnect` together with Kerberos (`sec=krb5*`)',
    what: 'A mount with both `nconnect` and `sec=krb5`, `krb5i` or `krb5p`.',
    why: "ANF's guidance: do not combine nconnect with Kerberos. The GSS security context is shared by all the connections, and packets that arrive out of the sequence window force context renegotiation, which stalls I/O.",
    instead:
      'Remove `nconnect` from Kerberos mounts (or use `sec=sys` where Kerberos is not required). The fix removes `nconnect`.',
    examples: [
      {
        flagged:
          '[Mount]\nWhat=10.20.1.4:/hana-shared\nWhere=/hana/shared\nType=nfs\nOptions=rw,hard,vers=4.1,sec=krb5p,nconnect=4\n\n[Install]\nWantedBy=remote-fs.target',
        better:
          '[Mount]\nWhat=10.20.1.4:/hana-shared\nWhere=/hana/shared\nType=nfs\nOptions=rw,hard,vers=4.1,sec=krb5p\n\n[Install]\nWantedBy=remote-fs.target',
        language: 'ini',
        file: '/etc/systemd/system/hana-shared.mount',
      },
    ],
    sources: ['MO', 'KRB'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount, effective } = judged;
    const option = effective.byGroup.get('nconnect');
    if (!option || !usesKerberos(effective) || !onAnf(context, judged)) return;
    const sec = effective.byGroup.get('sec')!;
    context.report(kerberosFinding(text, mount, option, sec));
  },
});

function kerberosFinding(text: string, mount: MountEntry, option: MountOption, sec: MountOption): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message: `\`${option.name}=${option.value ?? ''}\` with \`sec=${sec.value ?? ''}\`: the connections share one GSS context, and out-of-window packets force renegotiation. Do not combine nconnect with Kerberos on ANF.`,
    related: [{ uri: mount.uri, span: sec.span, message: 'Kerberos is set here' }],
    fixes: mountFix.unsafe('Remove `nconnect`', removeOption(text, mount, option)),
  }));
}
