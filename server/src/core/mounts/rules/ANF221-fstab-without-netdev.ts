import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountEntry } from '../model';
import { insertOption, mountFix } from '../fixes';
import { hasNfsMounts, targetOfMount } from './common';
import { persistsToFstab } from '../persistence';

export const fstabWithoutNetdev = defineRule({
  code: 'ANF221',
  name: 'fstab-without-netdev',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: ['safe'],
  doc: {
    title: 'fstab NFS entry without `_netdev` or `nofail`',
    what: 'An NFS line in fstab (or written to fstab by a script, in cloud-init `mounts:` with explicit options, or by a Salt, Puppet or Chef mount resource that persists it) with neither `_netdev` nor `nofail`.',
    why: '`_netdev` tells every init system that the mount needs the network: mount it after the network is up and unmount it before the network goes down. systemd guesses this for `nfs`, other tools (and `mount -a` in scripts) do not. Without `nofail`, a volume that cannot be reached at boot (a mount target IP changed, a maintenance window) can drop the VM into emergency mode. Every ANF guide writes `_netdev`.',
    instead:
      'Add `_netdev`; add `nofail` too where the VM must boot even when the volume is unreachable. The fix adds `_netdev`, which does not change how systemd already treats the mount.',
    examples: [
      {
        flagged: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,hard,vers=4.1,rsize=262144,wsize=262144  0  0',
        better: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,hard,vers=4.1,rsize=262144,wsize=262144,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['HANA', 'NFS5'],
  },
  appliesTo: (file) => hasNfsMounts(file) && file.mounts.some(persistsToFstab),
  checkMount(judged, context) {
    const { mount, effective } = judged;
    if (!persistsToFstab(mount) || effective.templated || mount.options.length === 0) return;
    // A Salt, Puppet or Chef resource to another service (Azure Files) keeps that service's documented options.
    if (mount.origin !== 'fstab' && !['anf', 'unknown'].includes(targetOfMount(context, judged).kind)) return;
    if (
      effective.byGroup.has('_netdev') ||
      effective.byGroup.has('nofail') ||
      effective.byGroup.get('auto')?.name === 'noauto'
    )
      return;
    context.report(netdevFinding(mount));
  },
});

function netdevFinding(mount: MountEntry): Finding {
  return lazyFinding(
    {
      // The type field: `_netdev` is about what kind of mount this is (a network file system), not about any one option.
      span: mount.fsTypeSpan ?? mount.optionsSpan ?? mount.span,
    },
    () => ({
      message:
        'No `_netdev` (or `nofail`) on this NFS fstab entry: say that it needs the network, and add `nofail` where the VM must boot even when the volume is unreachable.',
      fixes: mountFix.safe('Add `_netdev`', insertOption(mount, '_netdev')),
    }),
  );
}
