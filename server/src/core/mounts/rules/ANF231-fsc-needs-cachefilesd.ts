import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountOption } from '../model';
import { hasNfsMounts } from './common';

export const fscNeedsCachefilesd = defineRule({
  code: 'ANF231',
  name: 'fsc-needs-cachefilesd',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: '`fsc`: a local disk cache that needs cachefilesd',
    what: 'A mount with `fsc` (or `fsc=<id>`). anf-lint cannot see whether the host runs cachefilesd, so this is a note, not a finding of a fault.',
    why: 'nfs(5): `fsc` caches read data on the local disk through FS-Cache, and the cachefilesd daemon must be configured and running for it to do anything: without it the option is silently a no-op. With it, every read miss also writes the data to the local cache disk (space and write I/O on the VM), which pays off only for data read again and again (tools, libraries) on a disk faster than the volume.',
    instead: 'Keep `fsc` only where cachefilesd runs on the host and the data is read-mostly; remove it elsewhere.',
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,fsc,_netdev  0  0',
        better: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ effective }, context) {
    const option = effective.byGroup.get('fsc');
    if (!option || option.name !== 'fsc') return;
    context.report(fscFinding(option));
  },
});

function fscFinding(option: MountOption): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message:
      '`fsc` caches reads on local disk only while cachefilesd is configured and running on this host (otherwise it does nothing), and then costs local disk space and a disk write on every read miss. Keep it for read-mostly data on hosts that run cachefilesd.',
  }));
}
