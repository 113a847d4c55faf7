import { lazyFinding, type Finding } from '../../diagnostics';
import { formatNumber } from '../../units/units';
import { NCONNECT, SLOTS, WORKLOADS, type WorkloadKind } from '../../facts';
import { compareKernelVersions } from '../../config';
import { defineRule, type RuleContext } from '../../rules/rule';
import { usesKerberos } from '../catalog';
import type { Span } from '../../text/sourceText';
import type { ServerTarget } from './target';
import { insertOption, mountFix } from '../fixes';
import type { MountEntry } from '../model';
import { FirstMounts, mountEditOf } from './firstMounts';
import {
  assumedAnfWords,
  hasNfsMounts,
  targetOfMount,
  transportKey,
  volumeOfMount,
  workloadOfMount,
  workloadWords,
} from './common';

const FIRSTS = new WeakMap<readonly MountEntry[], Map<string, ReadonlyMap<string, MountEntry>>>();
/** firstsOf for a list of one file's mounts: its NFS mounts with a transport key count. */
const ONE_FILE_FIRSTS = new FirstMounts((m) => m.isNfs && transportKey(m) !== undefined);

export const nconnectMissing = defineRule({
  code: 'ANF214',
  name: 'nconnect-missing',
  domain: 'mount',
  defaultSeverity: 'info',
  fixes: ['unsafe'],
  doc: {
    title: 'No `nconnect` on an ANF mount',
    what: `A mount of an ANF server without \`nconnect\`, when it is the first mount to its server address on its host (the first mount decides nconnect for all mounts of that machine): a warning on a throughput-bound workload (EDA, HPC, SAP HANA data) over NFSv3 or NFSv4.1, an info note on any other NFSv3 mount of a server known to be ANF (a manifest volume's mount target, or listed under \`nfsServers.anf\`). Not with Kerberos, not when the manifest gives the volume so many clients that ${NCONNECT.bestTested.value} connections of ${SLOTS.anfInFlightPerConnection.value} requests each would exceed the endpoint's ${formatNumber(SLOTS.endpointTotalMax.value)} slots, and not on workloads whose vendor prescribes its own mount line: Oracle (Oracle Support Doc ID 359515.1 for kNFS; dNFS opens its own connections) and SAP NetWeaver shares. SAP HANA mounts are not judged: Microsoft's SAP HANA guide sends readers to the OS releases that support nconnect, and with NFSv4.1 those are newer (SLES 15 SP2, RHEL 8.3) than with NFSv3; anf-lint does not know the OS, so it stays silent. Azure Files, Blob NFS and other servers are not judged.`,
    why: `ANF handles at most ${SLOTS.anfInFlightPerConnection.value} requests in flight per TCP connection; \`nconnect\` opens several connections per mount (Linux ${NCONNECT.minKernel.value}+, RHEL 8.3, SLES 15 SP1 for NFSv3, SLES 15 SP2 for NFSv4.1). Linux NFS mount options best practices for Azure NetApp Files: "Testing has found nconnect=${NCONNECT.bestTested.value} to be the most performant"; a SAS GRID run went from ${NCONNECT.sasGridHoursWithout.value} h to ${NCONNECT.sasGridHoursWith.value} h with it.`,
    instead: `Add \`nconnect=${NCONNECT.bestTested.value}\`. Mind the slot tables: clients × nconnect × slots should stay within the endpoint's budget.`,
    examples: [
      {
        flagged:
          '# anf: workload=eda-scratch\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev  0  0',
        better: `# anf: workload=eda-scratch\n10.10.1.4:/eda-scratch  /scratch  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev,nconnect=${NCONNECT.bestTested.value}  0  0`,
        language: 'fstab',
      },
    ],
    sources: ['MO', 'CS', 'HANA', 'ORAKNFS'],
  },
  // Besides the mount itself, a finding reads which mount is the first to its server on the host.
  reads: {
    // The first mount of each address on this machine decides; other hosts' mounts never count.
    what: 'the first mount to each server address on the host',
    of: firstsFor,
    fingerprint(context) {
      // A kept mount's finding depends on whether it is first to its server. On a one-file host a
      // key's token stays while a re-read mount replaces a re-read one (firstMounts.ts); else the
      // first mount's identity. When only some servers' parts change, only their mounts are judged again.
      const tokens = oneFileTokens(context);
      const byKey = new Map<string, string>();
      for (const [key, first] of firstsFor(context))
        byKey.set(key, tokens ? `t${tokens.get(key)}` : String(idOf(first)));
      return { shared: '', byKey };
    },
    // A mount without a transport key is first to no server's list (isFirstToServer): it reads no part.
    keyOf: transportKey,
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context, firsts) {
    const kernel = context.config.kernelVersion;
    if (kernel && compareKernelVersions(kernel, NCONNECT.minKernel.value) < 0) return;
    const { mount, effective } = judged;
    if (effective.templated || effective.byGroup.has('nconnect') || usesKerberos(effective)) return;
    const version = effective.version?.text;
    if (version !== '3' && version !== '4.1') return;
    const target = targetOfMount(context, judged);
    if (target.kind !== 'anf') return;
    const found = workloadOfMount(context, judged);
    if (found && (OS_DEPENDENT.has(found.workload) || WORKLOADS[found.workload].prescribedTransferBytes)) return;
    const bound = found !== undefined && WORKLOADS[found.workload].throughputBound;
    // The info note needs a server known to be ANF (a manifest mount target, `nfsServers.anf`): on a
    // server only assumed to be ANF, a plain NFSv3 line is not worth a note.
    if (!bound && (version !== '3' || !target.known)) return;
    // The first mount to an address decides nconnect for all: only the first one can take it.
    if (!isFirstToServer(firsts, mount)) return;
    // Large farms: the endpoint's slot budget leaves no room for more connections per client.
    const clients = volumeOfMount(context, judged)?.clients;
    if (
      clients !== undefined &&
      clients * NCONNECT.bestTested.value * SLOTS.anfInFlightPerConnection.value > SLOTS.endpointTotalMax.value
    )
      return;
    const span = mount.optionsSpan && mount.optionsSpan.end > mount.optionsSpan.start ? mount.optionsSpan : mount.span;
    context.report(missingFinding(mount, span, bound, found, target));
  },
});

/** The mounts of the file's host; the whole file's (not a view of some of its mounts) when it has none. */
function hostMountsOf(context: RuleContext): readonly MountEntry[] {
  const uri = context.file.uri;
  return context.workspace.hostOf(uri)?.mounts ?? context.workspace.file(uri)?.mounts ?? context.file.mounts;
}

/** The first mount to each server that decides for this file's mounts (see firstsOf). */
function firstsFor(context: RuleContext): ReadonlyMap<string, MountEntry> {
  const all = hostMountsOf(context);
  const file = context.workspace.file(context.file.uri);
  // The host's mounts are the file's own array when the file is the host's one file (hosts.ts): then
  // every mount is the file's, and an edit read line by line updates the answer (firstMounts.ts).
  return file && file.mounts === all ? ONE_FILE_FIRSTS.of(all, mountEditOf(file)) : firstsOf(all, context.file.uri);
}

/** The tokens of firstsFor's answer when the file is its host's one file (firstMounts.ts). */
function oneFileTokens(context: RuleContext): ReadonlyMap<string, number> | undefined {
  const all = hostMountsOf(context);
  const file = context.workspace.file(context.file.uri);
  return file && file.mounts === all ? ONE_FILE_FIRSTS.tokens(all, mountEditOf(file)) : undefined;
}

/** True when no earlier mount of the same host (same file above it, or an earlier non-Markdown file) shares its server, version and transport. */
function isFirstToServer(firsts: ReadonlyMap<string, MountEntry>, mount: MountEntry): boolean {
  const key = transportKey(mount);
  if (!key) return true;
  const first = firsts.get(key);
  return first === undefined || first === mount;
}

/**
 * For each transport key, the first mount of `all` that decides for a mount of file `uri` (a NFS
 * mount of that file, or of any host file but Markdown and reStructuredText snippets). Once per
 * host mount list and file: asked per mount, a scan from the top made a large fstab quadratic.
 */
function firstsOf(all: readonly MountEntry[], uri: string): ReadonlyMap<string, MountEntry> {
  let byUri = FIRSTS.get(all);
  if (!byUri) FIRSTS.set(all, (byUri = new Map()));
  let firsts = byUri.get(uri);
  if (!firsts) {
    const built = new Map<string, MountEntry>();
    firsts = built;
    for (const other of all) {
      if (!other.isNfs) continue;
      const key = transportKey(other);
      if (key === undefined || built.has(key)) continue;
      if (other.uri === uri || (other.host !== 'markdown' && other.host !== 'rst')) built.set(key, other);
    }
    byUri.set(uri, firsts);
  }
  return firsts;
}

/** A number per mount object, for fingerprints: an edit keeps the other mounts' objects (workspace/lineReuse.ts). */
function idOf(mount: MountEntry): number {
  let id = IDS.get(mount);
  if (id === undefined) IDS.set(mount, (id = ++lastId));
  return id;
}

const IDS = new WeakMap<MountEntry, number>();

let lastId = 0;

/** SAP HANA: nconnect over NFSv4.1 only on the OS releases the SAP note allows; anf-lint does not know the OS. */
const OS_DEPENDENT: ReadonlySet<WorkloadKind> = new Set(['sap-hana-data', 'sap-hana-log', 'sap-hana-shared']);

function missingFinding(
  mount: MountEntry,
  span: Span,
  bound: boolean,
  found: ReturnType<typeof workloadOfMount>,
  target: ServerTarget,
): Finding {
  return lazyFinding({ span, severity: bound ? 'warning' : 'info' }, () => ({
    message: `No \`nconnect\` on this ${bound ? `mount of ${workloadWords(found!)}` : 'NFSv3 mount of ANF'}: one TCP connection carries at most ${SLOTS.anfInFlightPerConnection.value} requests in flight on ANF. nconnect=${NCONNECT.bestTested.value} tested best (SAS GRID: ${NCONNECT.sasGridHoursWithout.value} h down to ${NCONNECT.sasGridHoursWith.value} h).${assumedAnfWords(target)}`,
    fixes: mountFix.unsafe(
      `Add nconnect=${NCONNECT.bestTested.value}`,
      insertOption(mount, `nconnect=${NCONNECT.bestTested.value}`),
    ),
  }));
}
