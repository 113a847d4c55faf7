import { lazyFinding, type Finding } from '../../diagnostics';
import { NCONNECT } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountEntry, MountOption } from '../model';
import { hasNfsMounts, targetOfMount } from './common';

export const maxConnectOnAnf = defineRule({
  code: 'ANF230',
  name: 'max-connect-on-anf',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: '`max_connect` on an ANF mount',
    what: 'A mount of an ANF server with `max_connect=`.',
    why: 'nfs(5): `max_connect` limits the transports NFSv4.1 session trunking opens "to different server network addresses" of one server. An ANF volume is reached through its one mount-target address and ANF offers no session trunking across addresses, so the option adds no connections: it only looks like it does. `nconnect` is what opens several connections to one address.',
    instead: `Remove \`max_connect\`; use \`nconnect=${NCONNECT.bestTested.value}\` for more connections to the mount target.`,
    examples: [
      {
        flagged: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,hard,vers=4.1,max_connect=4,_netdev  0  0',
        better: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,hard,vers=4.1,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5', 'MO'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const { mount, effective } = judged;
    const option = effective.byGroup.get('max_connect');
    if (!option || targetOfMount(context, judged).kind !== 'anf') return;
    context.report(maxConnectFinding(mount, option));
  },
});

function maxConnectFinding(mount: MountEntry, option: MountOption): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message: `\`${option.name}=${option.value ?? ''}\` limits NFSv4.1 session trunking to other server addresses; an ANF volume has one mount-target address and ANF does no session trunking, so it adds no connections. Use \`nconnect\` for more connections to one address.`,
  }));
}
