import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { transportOf } from '../catalog';
import { mountFix, replaceOption, replaceValue } from '../fixes';
import { hasNfsMounts } from './common';

export const udpTransport = defineRule({
  code: 'ANF212',
  name: 'udp-transport',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'NFS over UDP',
    what: 'A mount with `udp` or `proto=udp`/`udp6` (the last transport option wins).',
    why: 'NFSv4 requires TCP, recent kernels no longer build NFS over UDP by default, and UDP has no congestion control: with rsize/wsize above a few KiB a single lost fragment resends the whole request. The HPC training on Microsoft Learn measured TCP slightly ahead of UDP on ANF, and every ANF guide mounts with `tcp`.',
    instead: 'Use `tcp` (or `proto=tcp`), the default for NFSv4 and for NFSv3 on current kernels.',
    examples: [
      {
        flagged: 'tools  -fstype=nfs,rw,hard,vers=3,udp  10.10.1.4:/eda-tools',
        better: 'tools  -fstype=nfs,rw,hard,vers=3,tcp  10.10.1.4:/eda-tools',
        language: '',
        file: '/etc/auto.eda',
      },
    ],
    sources: ['NFS5', 'SEED_COURSE'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ effective }, context) {
    const transport = transportOf(effective);
    if (transport !== 'udp' && transport !== 'udp6') return;
    const option = effective.byGroup.get('transport')!;
    const tcp = transport === 'udp6' ? 'tcp6' : 'tcp';
    context.report(udpFinding(option, tcp));
  },
});

function udpFinding(option: MountOption, tcp: string): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message: `NFS over UDP: NFSv4 requires TCP and ANF is mounted over TCP everywhere in its guidance; a lost fragment resends the whole request. Use \`${option.value !== undefined ? `${option.name}=${tcp}` : 'tcp'}\`.`,
    fixes: mountFix.unsafe(
      `Use ${tcp}`,
      option.value !== undefined ? replaceValue(option, tcp) : replaceOption(option, 'tcp'),
    ),
  }));
}
