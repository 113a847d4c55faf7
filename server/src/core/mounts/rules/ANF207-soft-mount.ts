import { lazyFinding, type Finding } from '../../diagnostics';
import { NFS_TIMEOUTS } from '../../facts';
import { defineRule } from '../../rules/rule';
import { mountFix, removeOption, replaceOption } from '../fixes';
import type { MountEntry, MountOption } from '../model';
import { hasNfsMounts } from './common';

export const softMount = defineRule({
  code: 'ANF207',
  name: 'soft-mount',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`soft` or `softerr` NFS mount',
    what: 'A mount whose recovery behaviour is `soft` or `softerr` (the last of `hard`/`soft`/`softerr` wins).',
    why: `A soft mount gives up after \`retrans\` retries (${NFS_TIMEOUTS.tcpRetransDefault.value} on TCP by default) and returns an I/O error to the application. nfs(5) warns that this "can cause silent data corruption": a write the application believes done may never reach the volume. During an ANF maintenance event or a short network blip, a hard mount waits and carries on.`,
    instead:
      'Use `hard` (the default). If a hung process is the worry, that is what `timeo`/`retrans` and monitoring are for, not `soft`.',
    examples: [
      {
        flagged: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,soft,vers=4.1,rsize=262144,wsize=262144,_netdev  0  0',
        better: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,hard,vers=4.1,rsize=262144,wsize=262144,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5', 'SEED_MOUNT'],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount, effective }, context) {
    const text = context.file.source.text;
    const option = effective.byGroup.get('recovery');
    if (!option || (option.name !== 'soft' && option.name !== 'softerr')) return;
    context.report(softFinding(text, mount, option));
  },
});

function softFinding(text: string, mount: MountEntry, option: MountOption): Finding {
  // An earlier `hard` that this option overrides: removing this one is enough.
  const earlierHard = mount.options.some((o) => o.name === 'hard' && o.span.start < option.span.start);
  return lazyFinding({ span: option.span }, () => ({
    message: `\`${option.name}\` makes NFS requests fail with ${option.name === 'soft' ? 'EIO' : 'ETIMEDOUT'} after \`retrans\` retries, which can silently lose writes; use \`hard\` (the default).`,
    fixes: earlierHard
      ? mountFix.unsafe(
          `Remove \`${option.name}\` (the earlier \`hard\` then applies)`,
          removeOption(text, mount, option),
        )
      : mountFix.unsafe('Change to `hard`', replaceOption(option, 'hard')),
  }));
}
