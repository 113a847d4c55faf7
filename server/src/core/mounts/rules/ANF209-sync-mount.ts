import { lazyFinding, type Finding } from '../../diagnostics';
import { SYNC_WRITE_COST } from '../../facts';
import { defineRule } from '../../rules/rule';
import { formatNumber } from '../../units/units';
import { mountFix, removeOption } from '../fixes';
import type { MountEntry, MountOption } from '../model';
import { hasNfsMounts } from './common';

const FIGURES = `writing a 1 GiB file in 8 KiB blocks took ${formatNumber(SYNC_WRITE_COST.syncWrites.value)} WRITE calls and ${SYNC_WRITE_COST.syncSeconds.value} s with \`sync\`, and ${formatNumber(SYNC_WRITE_COST.asyncWrites.value)} calls and ${SYNC_WRITE_COST.asyncSeconds.value} s without it`;

export const syncMount = defineRule({
  code: 'ANF209',
  name: 'sync-mount',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`sync` NFS mount',
    what: 'A mount with `sync` (the last of `sync`/`async` wins).',
    why: `With \`sync\`, every write system call is sent to the server as a stable FILE_SYNC write and waits for it, in chunks of the application's block size regardless of wsize. In the test of the Microsoft Learn module on ANF performance for EDA and HPC, ${FIGURES}. ANF already protects acknowledged writes in battery-backed NVRAM, so \`async\` (the default) is the preferred choice in almost every case.`,
    instead:
      'Remove `sync`. Applications that need a write on stable storage before going on (databases) open their files with O_SYNC/O_DIRECT or call fsync themselves.',
    examples: [
      {
        flagged: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,sync,vers=3,rsize=262144,wsize=262144  0  0',
        better: '10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144  0  0',
        language: 'fstab',
      },
    ],
    sources: ['SEED_MOUNT', 'NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount, effective }, context) {
    const text = context.file.source.text;
    const option = effective.byGroup.get('sync');
    if (!option || option.name !== 'sync') return;
    context.report(syncFinding(text, mount, option));
  },
});

function syncFinding(text: string, mount: MountEntry, option: MountOption): Finding {
  return lazyFinding({ span: option.span }, () => ({
    message: `\`sync\` makes every write wait for the server: ${FIGURES} (Microsoft Learn module on ANF performance for EDA and HPC).`,
    fixes: mountFix.unsafe('Remove `sync`', removeOption(text, mount, option)),
  }));
}
