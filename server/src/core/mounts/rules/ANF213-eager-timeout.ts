import { lazyFinding, type Finding } from '../../diagnostics';
import { NFS_TIMEOUTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { integerOf, transportOf } from '../catalog';
import { mountFix, replaceValue } from '../fixes';
import { hasNfsMounts } from './common';

export const eagerTimeout = defineRule({
  code: 'ANF213',
  name: 'eager-timeout',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`timeo`/`retrans` that retry too eagerly or give up too soon',
    what: `On TCP: \`timeo\` below ${NFS_TIMEOUTS.tcpTimeoMinSensibleDeciseconds.value} deciseconds (${NFS_TIMEOUTS.tcpTimeoMinSensibleDeciseconds.value / 10} s), or \`retrans=0\`.`,
    why: `Over TCP the transport itself retransmits lost packets; the NFS timeout only decides when the client gives up on a reply and sends the request again. nfs(5) sets it to ${NFS_TIMEOUTS.tcpTimeoDeciseconds.value} (60 s) for TCP. A short timeo resends requests a busy volume is still working on (adding load exactly when it is slow), and \`retrans=0\` reports "server not responding" — or, on a soft mount, fails the call — at the first timeout. Every ANF guide (SAP HANA, Oracle, EDA) keeps timeo=${NFS_TIMEOUTS.tcpTimeoDeciseconds.value}.`,
    instead: `Leave \`timeo\` and \`retrans\` out, or write \`timeo=${NFS_TIMEOUTS.tcpTimeoDeciseconds.value}\` and \`retrans=${NFS_TIMEOUTS.tcpRetransDefault.value}\`.`,
    examples: [
      {
        flagged:
          '10.20.1.4:/hana-log  /hana/log  nfs  rw,hard,vers=4.1,timeo=14,rsize=262144,wsize=262144,_netdev  0  0',
        better: `10.20.1.4:/hana-log  /hana/log  nfs  rw,hard,vers=4.1,timeo=${NFS_TIMEOUTS.tcpTimeoDeciseconds.value},rsize=262144,wsize=262144,_netdev  0  0`,
        language: 'fstab',
      },
    ],
    sources: ['NFS5', 'HANA'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ effective }, context) {
    const transport = transportOf(effective);
    if (transport.startsWith('udp')) return;
    const timeo = integerOf(effective, 'timeo');
    const timeoOption = effective.byGroup.get('timeo');
    if (timeo !== undefined && timeoOption && timeo > 0 && timeo < NFS_TIMEOUTS.tcpTimeoMinSensibleDeciseconds.value) {
      context.report(timeoFinding(timeo, timeoOption));
    }
    const retrans = integerOf(effective, 'retrans');
    const retransOption = effective.byGroup.get('retrans');
    if (retrans === 0 && retransOption) {
      const soft = ['soft', 'softerr'].includes(effective.byGroup.get('recovery')?.name ?? '');
      context.report(retransFinding(soft, retransOption));
    }
  },
});

function timeoFinding(timeo: number, timeoOption: MountOption): Finding {
  return lazyFinding({ span: timeoOption.span }, () => ({
    message: `timeo=${timeo} resends a request after ${timeo / 10} s; over TCP the default is ${NFS_TIMEOUTS.tcpTimeoDeciseconds.value} (60 s). A short timeout resends work a busy volume is still doing.`,
    fixes: mountFix.unsafe(
      `Set timeo=${NFS_TIMEOUTS.tcpTimeoDeciseconds.value}`,
      replaceValue(timeoOption, String(NFS_TIMEOUTS.tcpTimeoDeciseconds.value)),
    ),
  }));
}

function retransFinding(soft: boolean, retransOption: MountOption): Finding {
  return lazyFinding({ span: retransOption.span }, () => ({
    message: `retrans=0 ${soft ? 'fails every call at its first timeout on this soft mount' : 'reports "server not responding" at the first timeout'}; the TCP default is ${NFS_TIMEOUTS.tcpRetransDefault.value}.`,
    fixes: mountFix.unsafe(
      `Set retrans=${NFS_TIMEOUTS.tcpRetransDefault.value}`,
      replaceValue(retransOption, String(NFS_TIMEOUTS.tcpRetransDefault.value)),
    ),
  }));
}
