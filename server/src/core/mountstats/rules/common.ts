import type { MountEntry } from '../../mounts/model';
import type { RuleContext } from '../../rules/rule';
import type { MountstatsDevice } from '../parse';

/** The mount the host's files declare at a captured device's mount point (the last one written: boot order). */
export function declaredMount(context: RuleContext, device: MountstatsDevice): MountEntry | undefined {
  const host = context.workspace.hostOf(context.file.uri);
  if (!host || host.kind === 'documentation') return undefined;
  let found: MountEntry | undefined;
  for (const mount of host.nfsMounts) {
    if (mount.templated) continue;
    const point = (mount.mountPointDecoded ?? mount.mountPoint)?.replace(/\/+$/, '') || undefined;
    if (point === device.mountPoint.replace(/\/+$/, '')) found = mount;
  }
  return found;
}
