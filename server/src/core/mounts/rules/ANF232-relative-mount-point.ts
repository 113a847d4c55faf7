import { lazyFinding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountEntry } from '../model';

export const relativeMountPoint = defineRule({
  code: 'ANF232',
  name: 'relative-mount-point',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Relative mount point',
    what: "An fstab entry, systemd mount unit or Ansible mount task whose mount point does not start with `/` (`none` and `swap` excepted). Shell commands (relative to the working directory) and autofs map keys (relative to the map's directory) are not judged.",
    why: 'fstab(5) and systemd.mount(5) take absolute paths: systemd-fstab-generator ignores an fstab line whose mount point is not absolute, and mount -a resolves it against whatever directory it runs in. The volume is not mounted where the application expects it, at boot or at all.',
    instead: 'Write the absolute path (`/hana/shared`, not `hana/shared`).',
    examples: [
      {
        flagged: '10.20.1.4:/hana-shared  hana/shared  nfs  rw,hard,vers=4.1,_netdev  0  0',
        better: '10.20.1.4:/hana-shared  /hana/shared  nfs  rw,hard,vers=4.1,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  judges: 'any mount',
  appliesTo: (file) => file.mounts.some(needsAbsolute),
  checkMount({ mount }, context) {
    if (!needsAbsolute(mount) || mount.templated) return;
    const point = mount.mountPointDecoded ?? mount.mountPoint;
    if (!point || point.startsWith('/') || NOT_A_PATH.has(point) || /[{}$%<>`]/.test(point)) return;
    context.report(
      lazyFinding({ span: mount.mountPointSpan ?? mount.span }, () => ({
        message: `Mount point \`${point}\` is relative: fstab and systemd need an absolute path (systemd-fstab-generator ignores this entry). Write \`/${point.replace(/^\.\//, '')}\`.`,
      })),
    );
  },
});

/** Where a mount point must be absolute: fstab, systemd units, Ansible's mount module. A shell command may use a relative one; autofs keys are relative by design. */
function needsAbsolute(mount: MountEntry): boolean {
  return (
    mount.origin === 'fstab' ||
    mount.origin === 'systemd' ||
    mount.origin === 'ansible' ||
    mount.origin === 'salt' ||
    mount.origin === 'puppet' ||
    mount.origin === 'chef'
  );
}

const NOT_A_PATH = new Set(['none', 'swap']);
