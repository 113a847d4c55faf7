import { defineRule } from '../../rules/rule';
import { effectiveOptions, valueOf } from '../catalog';
import { fix, removeOption, replaceValue } from '../fixes';
import type { MountEntry } from '../model';
import { baseName } from '../../workspace/fileKind';
import { hasNfsMounts, lineOf, mountName, nfsMounts, transportKey } from './common';

/** Documentation snippets are not one machine's mounts: they never decide for others. */
const decides = (m: MountEntry) => m.isNfs && m.host !== 'markdown' && m.host !== 'rst' && transportKey(m) !== undefined;

export const nconnectDiffersSameServer = defineRule({
  code: 'ANF217',
  name: 'nconnect-differs-same-server',
  domain: 'mount',
  defaultSeverity: 'warning',
  fix: 'safe',
  doc: {
    title: '`nconnect` differs between mounts to the same server address',
    what: 'A mount whose `nconnect` differs from the first mount to the same server address (IP or name) with the same NFS version and transport. The first mount is the earliest in the workspace: files in path order, then lines in order (fstab order is boot order). Markdown snippets and templated servers never decide.',
    why: 'All mounts from one storage endpoint share its transport: they inherit the nconnect of the first mount to that address, and later `nconnect=` values are silently ignored. The setting does not carry across different endpoint addresses (nor, in the kernel, across NFS versions: an NFSv3 and an NFSv4.1 mount of one address are separate clients).',
    instead: 'Use the same nconnect on every mount to one address. To give a volume a different number of connections, mount it through a different mount target IP. The fix writes the value that is in effect anyway (so it changes nothing on the client), or removes `nconnect` when the first mount has none.',
    examples: [
      {
        flagged: '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,nconnect=8  0  0\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=16  0  0',
        better: '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,nconnect=8  0  0\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8  0  0',
        language: 'fstab',
      },
    ],
    sources: ['MO', 'NFS5'],
  },
  appliesTo: hasNfsMounts,
  check(context) {
    const firstByServer = firstMountByServer(context.workspace.mounts());
    const text = context.file.source.text;
    for (const { mount, effective } of nfsMounts(context)) {
      if (!decides(mount)) continue;
      const option = effective.byGroup.get('nconnect');
      if (!option?.value || !/^\d+$/.test(option.value)) continue;
      const first = firstByServer.get(transportKey(mount)!);
      if (!first || first === mount) continue;
      const firstOption = effectiveOptions(first).byGroup.get('nconnect');
      const firstValue = firstOption ? valueOf(effectiveOptions(first), 'nconnect') : undefined;
      if (Number(firstValue ?? '1') === Number(option.value)) continue;
      const sameFile = first.uri === mount.uri;
      const where = `${sameFile ? 'line' : `${baseName(first.uri)} line`} ${lineOf(context, first.uri, first.span.start)}`;
      const decided = firstValue ? `nconnect=${firstValue}` : 'no nconnect (one connection)';
      context.report({
        span: option.span,
        message: `nconnect=${option.value} is ignored: the first mount to ${mount.server} (${mountName(first)}, ${where}) has ${decided}, and every later mount to that address shares its connections.`,
        related: [{ uri: first.uri, span: firstOption?.span ?? first.span, message: `First mount to ${mount.server}: its ${decided} applies to all mounts of this address` }],
        fixes: firstValue
          ? fix(`Set nconnect=${firstValue} (what the client uses anyway)`, true, replaceValue(option, firstValue))
          : fix('Remove `nconnect` (the first mount to this address decides)', true, removeOption(text, mount, option)),
      });
    }
  },
});

/**
 * The first deciding mount of each address, once per workspace state (the mounts array changes
 * whenever a document does): built per file, it made a 500-file workspace quadratic.
 */
const FIRST_BY_SERVER = new WeakMap<readonly MountEntry[], ReadonlyMap<string, MountEntry>>();
function firstMountByServer(mounts: readonly MountEntry[]): ReadonlyMap<string, MountEntry> {
  let firstByServer = FIRST_BY_SERVER.get(mounts);
  if (firstByServer) return firstByServer;
  const map = new Map<string, MountEntry>();
  for (const mount of mounts) {
    if (!decides(mount)) continue;
    const key = transportKey(mount)!;
    if (!map.has(key)) map.set(key, mount);
  }
  FIRST_BY_SERVER.set(mounts, map);
  firstByServer = map;
  return firstByServer;
}
