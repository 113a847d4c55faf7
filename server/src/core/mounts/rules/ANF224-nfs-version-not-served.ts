import { WORKLOADS } from '../../facts';
import { lazyFinding, type RelatedSpan, type SpanEdit } from '../../diagnostics';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { defineRule, type RuleContext } from '../../rules/rule';
import { baseName } from '../../fileKind';
import { usesKerberos } from '../catalog';
import { mountFix, removeOption, replaceValue } from '../fixes';
import type { MountEntry } from '../model';
import { hasNfsMounts, isNfs4Type, manifestVolumeOf, volumeOfMount, workloadOfMount, workloadWords } from './common';

export const nfsVersionNotServed = defineRule({
  code: 'ANF224',
  name: 'nfs-version-not-served',
  domain: 'mount',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Mount pins an NFS version its manifest volume does not serve',
    what: "A mount that reaches a volume of a sizing manifest and pins `vers=3` or `vers=4.1` (also `nfsvers=`, `vers=4,minorversion=1`, `nfs4` with `minorversion=1`) while the volume's `protocols` do not include that version (a volume without `protocols` serves NFSv3). Mounts without a pinned version (ANF211), with a version ANF never serves (ANF211), or that reach no manifest volume are not judged here.",
    why: "An ANF volume answers only the NFS version of its protocol type (set when it is created); its export policy refuses the other one, so the mount fails (`mount.nfs: access denied by server`), for an fstab line at boot. ANF220 judges the same option against the workload; on a token ANF224 reports, ANF220 stays silent and this message says when the workload also calls for the volume's version (ANF serves only NFSv3 and NFSv4.1, so the one the volume lacks is the one the workload advises against): one finding per token. When the pinned version is the one the workload requires (SAP HANA data and log: NFSv4.1) or the one Kerberos needs (NFSv4.1), ANF224 still reports, because the mount fails all the same, but offers no fix: pinning the volume's version would trade a failing mount for an unsupported one, and the volume's `protocols` are what must change (ANF119, ANF120 report the manifest side). A Kerberos mount of a volume without Kerberos is ANF225.",
    instead:
      "Pin the version the volume serves, or change the volume's `protocols` when the mount's version is the right one. The fix pins the version the volume serves (only when it serves exactly one NFS version, and not on an `nfs4` mount, which cannot pin NFSv3); it is never applied automatically, because you must decide which side is wrong.",
    examples: [
      {
        flagged: '10.20.3.4:/hana-dev-log  /hana/log/DEV  nfs  rw,hard,vers=3,rsize=262144,wsize=262144,_netdev  0  0',
        better: '10.20.3.4:/hana-dev-log  /hana/log/DEV  nfs  rw,hard,vers=4.1,rsize=262144,wsize=262144,_netdev  0  0',
        language: 'fstab',
        context: [
          {
            path: 'hana.anf.yaml',
            text: 'accounts:\n  - name: sap-dev\n    pools:\n      - name: hana-dev\n        serviceLevel: Premium\n        size: 4 TiB\n        volumes:\n          - name: hana-dev-log\n            quota: 1 TiB\n            protocols: [NFSv4.1]\n            mountTarget: 10.20.3.4\n            exportPath: /hana-dev-log',
          },
        ],
      },
    ],
    sources: ['FAQN', 'NFS5', 'KRB', 'HANA'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount, effective } = judged;
    // A template placeholder may hold another vers=: this rule reports a hard failure, so it must be sure.
    if (effective.templated) return;
    const version = effective.version;
    if (!version?.pinned || (version.text !== '3' && version.text !== '4.1')) return;
    const volume = volumeOfMount(context, judged);
    if (!volume || volume.nfsVersions.includes(version.text)) return;

    const asked =
      version.option && version.minorOption
        ? `\`${version.option.name}=${version.option.value ?? ''},${version.minorOption.name}=${version.minorOption.value ?? ''}\``
        : version.option
          ? `\`${version.option.name}=${version.option.value ?? ''}\``
          : `\`nfs4\` with \`${version.minorOption?.name ?? 'minorversion'}=${version.minorOption?.value ?? ''}\``;
    const head = `${asked}, but volume \`${volume.name}\` (${baseName(volume.uri)}) ${servedWords(volume)}: the mount fails (${volume.nfsVersions.length > 0 ? '`access denied by server`' : 'no NFS export'}).`;

    const needed = neededVersion(context, mount, version.text, usesKerberos(effective));
    const target = volume.nfsVersions.length === 1 ? volume.nfsVersions[0]! : undefined;
    // nfs(5): the `nfs4` type takes every option but `vers`/`nfsvers`, so it cannot be pinned to NFSv3.
    const nfs4Type = isNfs4Type(mount);
    const editable = version.option !== undefined && !(nfs4Type && target === '3');
    const edits: SpanEdit[] = [];
    if (target && !needed && version.option && editable) {
      edits.push(replaceValue(version.option, target));
      if (version.minorOption) edits.push(removeOption(text, mount, version.minorOption));
    }
    // ANF220 stays silent on this token: say here when the workload also calls for the volume's version.
    const found = workloadOfMount(context, judged);
    const traits = found ? WORKLOADS[found.workload].nfsVersion : undefined;
    const wanted = traits
      ? (traits.requires ?? (traits.preferred === 'either' ? undefined : traits.preferred))
      : undefined;
    const agrees =
      !needed && found && target && wanted === target
        ? ` ${capitalize(workloadWords(found))} calls for NFSv${target} too.`
        : '';
    const advice = needed
      ? ` ${capitalize(needed)}, so change the volume's \`protocols\` instead.`
      : !target
        ? " Mount it over SMB, or add an NFS version to the volume's `protocols`."
        : editable
          ? ` Use \`vers=${target}\`, or change the volume's \`protocols\`.`
          : ` Mount it as \`nfs\` with \`vers=${target}\` (\`nfs4\` takes no \`vers=\`), or change the volume's \`protocols\`.`;

    context.report(
      lazyFinding({ span: (version.option ?? version.minorOption)?.span ?? mount.fsTypeSpan ?? mount.span }, () => ({
        message: head + advice + agrees,
        related: [protocolsOf(context, volume)],
        ...(edits.length > 0
          ? { fixes: mountFix.unsafe(`Use vers=${target!}, the version volume \`${volume.name}\` serves`, ...edits) }
          : {}),
      })),
    );
  },
});

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "serves only NFSv3", "serves only NFSv4.1", "serves no NFS version (SMB only)". */
function servedWords(volume: VolumeSummary): string {
  if (volume.nfsVersions.length === 0) return 'serves no NFS version (SMB only)';
  return `serves only ${volume.nfsVersions.map((v) => `NFSv${v}`).join(' and ')}`;
}

/**
 * Why the mount's own version is the right one, when it is: its workload requires it (SAP HANA
 * data and log need NFSv4.1), or it uses Kerberos, which ANF serves only over NFSv4.1. Then
 * pinning the volume's version would trade a failing mount for an unsupported one.
 */
function neededVersion(
  context: RuleContext,
  mount: MountEntry,
  version: '3' | '4.1',
  kerberos: boolean,
): string | undefined {
  const found = workloadOfMount(context, mount);
  if (found && WORKLOADS[found.workload].nfsVersion.requires === version)
    return `${workloadWords(found)} needs NFSv${version}`;
  if (kerberos && version === '4.1') return 'Kerberos (`sec=krb5*`) needs NFSv4.1 on ANF';
  return undefined;
}

/** Related information: the volume's `protocols` in its manifest, else its name (no `protocols`: the default, NFSv3). */
function protocolsOf(context: RuleContext, volume: VolumeSummary): RelatedSpan {
  const node = manifestVolumeOf(context, volume)?.protocolsNode;
  const versions = volume.nfsVersions.map((v) => `NFSv${v}`).join(' and ') || 'SMB only';
  return node
    ? { uri: volume.uri, span: node.span, message: `Volume \`${volume.name}\` serves ${versions}` }
    : {
        uri: volume.uri,
        span: volume.nameSpan,
        message: `Volume \`${volume.name}\` has no \`protocols\`: it serves NFSv3, the default`,
      };
}
