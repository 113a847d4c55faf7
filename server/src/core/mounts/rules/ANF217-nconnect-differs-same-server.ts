import { lazyFinding, type Finding } from '../../diagnostics';
import { defineRule, type RuleContext } from '../../rules/rule';
import { effectiveOptions, valueOf } from '../catalog';
import { mountFix, removeOption, replaceValue } from '../fixes';
import type { MountEntry, MountOption } from '../model';
import { baseName } from '../../fileKind';
import { onHostWords, type Host } from '../../workspace/hosts';
import { FirstMounts, mountEditOf } from './firstMounts';
import { hasNfsMounts, lineOf, mountName, transportKey } from './common';

export const nconnectDiffersSameServer = defineRule({
  code: 'ANF217',
  name: 'nconnect-differs-same-server',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: '`nconnect` differs between mounts to the same server address',
    what: 'A mount whose `nconnect` differs from the first mount to the same server address (IP or name) with the same NFS version and transport on the same machine. The first mount is the earliest of the host: files in path order, then lines in order (fstab order is boot order). Mounts of different hosts (`hana-node1/etc/fstab` and `hana-node2/etc/fstab`; each cloud-init file, Ansible play and Kubernetes manifest is a machine of its own) are never compared: two VMs never share TCP connections. Markdown snippets and templated servers never decide.',
    why: 'All mounts from one client to one storage endpoint share its transport: they inherit the nconnect of the first mount to that address, and later `nconnect=` values are silently ignored. The setting does not carry across different endpoint addresses (nor, in the kernel, across NFS versions: an NFSv3 and an NFSv4.1 mount of one address are separate clients), nor across machines.',
    instead:
      'Use the same nconnect on every mount to one address. To give a volume a different number of connections, mount it through a different mount target IP. The fix writes the value that is in effect on the running client, or removes `nconnect` when the first mount has none. It is not a safe fix: if the first mount is ever removed or reordered, or the file is also applied to a machine where this mount comes first, the written value is what that machine gets; review it (`--unsafe-fixes`).',
    examples: [
      {
        flagged:
          '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,nconnect=8  0  0\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=16  0  0',
        better:
          '10.10.1.4:/eda-tools    /tools    nfs  ro,hard,vers=3,nconnect=8  0  0\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,nconnect=8  0  0',
        language: 'fstab',
      },
    ],
    sources: ['MO', 'NFS5'],
  },
  // Besides the mount itself, a finding reads the first mount to its server on its host: its
  // nconnect, name, file, line and option span, and how the message names the host. On a one-file
  // host the first mount is named by its token (firstMounts.ts: the same while a re-read mount
  // replaces a re-read one) and the line and columns of the note's span, not by offsets: an edit
  // on an earlier line keeps the findings, and their notes move with the line (lint.ts). A mount's
  // findings read only its own server's first mount: when only some servers' parts change, only
  // their mounts are judged again (`reads.keyOf`).
  reads: {
    what: "the first mount to each server address on the host, and the host's name",
    of(context) {
      const host = context.workspace.hostOf(context.file.uri);
      return { host, onHost: onHostWords(context.workspace.hosts(), host) };
    },
    fingerprint(context) {
      const model = context.workspace.hosts();
      const host = context.workspace.hostOf(context.file.uri);
      const firsts = host ? firstMountByServer(host) : undefined;
      const edit = host ? oneFileEdit(host) : NOT_ONE_FILE;
      const tokens = host && edit !== NOT_ONE_FILE ? FIRSTS.tokens(host.mounts, edit) : undefined;
      const byKey = new Map<string, string>();
      for (const [key, first] of firsts ?? []) {
        const option = effectiveOptions(first).byGroup.get('nconnect');
        const noteSpan = option?.span ?? first.span;
        // A note on the first mount's own line moves with it (rules/engine.ts), and so does one on the option
        // list it reads off its line (a shell script's `OPTS=...`, rules/engine.ts's inRemoteOptions): the
        // fingerprint holds its line and column (and then the first mount's line, which the message
        // names), not offsets, which any edit above changes.
        if (tokens && first.uri === context.file.uri) {
          const onLine = noteSpan.start >= first.span.start && noteSpan.end <= first.span.end;
          if (onLine || offLineOptions(first, noteSpan)) {
            const note = context.file.source.rangeOf(noteSpan);
            const line = onLine ? '' : `\t${lineOf(context, first.uri, first.span.start)}`;
            byKey.set(
              key,
              `${tokens.get(key)}\t${note.start.line}:${note.start.character}-${note.end.line}:${note.end.character}\t${option?.value ?? ''}\t${mountName(first)}${line}`,
            );
            continue;
          }
        }
        byKey.set(
          key,
          `${first.uri}\t${lineOf(context, first.uri, first.span.start)}\t${first.span.start}\t${option?.span.start ?? ''}-${option?.span.end ?? ''}\t${option?.value ?? ''}\t${mountName(first)}`,
        );
      }
      return { shared: onHostWords(model, host), byKey };
    },
    // A mount that does not decide is never reported; one that does reads its server's first mount.
    keyOf: (mount) => (decides(mount) ? transportKey(mount) : undefined),
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount, effective }, context, { host, onHost }) {
    if (!decides(mount)) return;
    const option = effective.byGroup.get('nconnect');
    if (!option?.value || !/^\d+$/.test(option.value)) return;
    const first = host ? firstMountByServer(host).get(transportKey(mount)!) : undefined;
    if (!first || first === mount) return;
    const firstOption = effectiveOptions(first).byGroup.get('nconnect');
    const firstValue = firstOption ? valueOf(effectiveOptions(first), 'nconnect') : undefined;
    if (Number(firstValue ?? '1') === Number(option.value)) return;
    context.report(
      differsFinding(context, context.file.source.text, onHost, mount, option, first, firstOption, firstValue),
    );
  },
});

/** Documentation snippets are not one machine's mounts: they never decide for others. */
const decides = (m: MountEntry) =>
  m.isNfs && m.host !== 'markdown' && m.host !== 'rst' && transportKey(m) !== undefined;

function differsFinding(
  context: RuleContext,
  text: string,
  onHost: string,
  mount: MountEntry,
  option: MountOption,
  first: MountEntry,
  firstOption: MountOption | undefined,
  firstValue: string | undefined,
): Finding {
  return lazyFinding({ span: option.span }, () => {
    const sameFile = first.uri === mount.uri;
    const where = `${sameFile ? 'line' : `${baseName(first.uri)} line`} ${lineOf(context, first.uri, first.span.start)}`;
    const decided = firstValue ? `nconnect=${firstValue}` : 'no nconnect (one connection)';
    return {
      message: `nconnect=${option.value} is ignored${onHost}: the first mount to ${mount.server} (${mountName(first)}, ${where}) has ${decided}, and every later mount to that address shares its connections.`,
      related: [
        {
          uri: first.uri,
          span: firstOption?.span ?? first.span,
          message: `First mount to ${mount.server}: its ${decided} applies to all mounts of this address`,
        },
      ],
      fixes: firstValue
        ? mountFix.unsafe(
            `Set nconnect=${firstValue} (what the first mount to this address decides)`,
            replaceValue(option, firstValue),
          )
        : mountFix.unsafe(
            'Remove `nconnect` (the first mount to this address decides)',
            removeOption(text, mount, option),
          ),
    };
  });
}

/** Whether `span` lies in `mount`'s option list and that list lies off the mount's own text (rules/engine.ts, inRemoteOptions). */
function offLineOptions(mount: MountEntry, span: { start: number; end: number }): boolean {
  const options = mount.optionsSpan;
  if (
    mount.origin !== 'mount-command' ||
    !options ||
    (options.start >= mount.span.start && options.end <= mount.span.end)
  )
    return false;
  return span.start >= options.start && span.end <= options.end;
}

/** The first deciding mount of each address, per host mount list (firstMounts.ts: updated from an fstab edit). */
const FIRSTS = new FirstMounts(decides);
const NOT_ONE_FILE = null;
/** A one-file host's mounts are its file's (hosts.ts): an edit read line by line says what changed. */
function oneFileEdit(host: Host) {
  return host.files.length === 1 && host.files[0]!.mounts === host.mounts ? mountEditOf(host.files[0]!) : NOT_ONE_FILE;
}
function firstMountByServer(host: Host): ReadonlyMap<string, MountEntry> {
  return FIRSTS.of(host.mounts, oneFileEdit(host) ?? undefined);
}
