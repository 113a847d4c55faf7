import { NFS_OPTION_LIMITS, NFS_PROTOCOL } from '../../facts';
import { lazyFinding, type Fix, type Finding, type SpanEdit } from '../../diagnostics';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { defineRule } from '../../rules/rule';
import { baseName } from '../../fileKind';
import type { Span } from '../../text/sourceText';
import { findOption, type NfsVersion } from '../catalog';
import { isIpv4Address, type ServerTarget } from './target';
import { insertOption, mountFix, removeOption, replaceValue } from '../fixes';
import type { MountEntry, MountOption } from '../model';
import { assumedAnfWords, hasNfsMounts, isNfs4Type, targetOfMount, versionToPin, volumeOfMount } from './common';

export const nfsVersionNotPinned = defineRule({
  code: 'ANF211',
  name: 'nfs-version-not-pinned',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: ['unsafe'],
  doc: {
    title: 'NFS version not pinned to one ANF serves',
    what: `A mount of an ANF server with no \`vers\`/\`nfsvers\` (warning), with \`vers=4\` or \`-t nfs4\` without a minor version (warning), with \`vers=4.2\` (warning: it mounts, but ANF does not support it), or with a version ANF does not serve: 2 or 4.0 (error; a warning when the server is only assumed to be ANF). Mounts of Azure Files, Azure Blob NFS and servers listed under \`nfsServers.other\` are not judged.`,
    why: `Without a version the client asks for NFSv${NFS_OPTION_LIMITS.firstTriedVersion.value} first and negotiates down; \`vers=4\` alone can also settle on 4.0 or 4.2. ANF serves NFSv${NFS_PROTOCOL.supportedVersions.value.join(' and NFSv')} only, so an unpinned mount depends on negotiation, and a pinned 2 or 4.0 fails. NFSv4.2 is different: the NFS FAQs for Azure NetApp Files say that "although you can mount an NFS4.1 volume on Azure NetApp Files with NFSv4.2 protocol, the use of NFSv4.2 isn't supported", and ask to pin NFSv4.1. A volume's protocol is fixed when it is created: the mount should say which one it expects.`,
    instead:
      "Pin `vers=3` or `vers=4.1` (the same as `vers=4,minorversion=1`). The fix pins the version the manifest volume serves when it serves only one (another would fail to mount, ANF224; ANF220 says so if the workload needs the other one; no fix for an SMB-only volume), else the workload's version where anf-lint knows the workload (annotation, manifest volume or configuration): NFSv3 for EDA and HPC, NFSv4.1 for SAP HANA.",
    examples: [
      {
        flagged: '10.20.1.4:/hana-shared  /hana/shared  nfs4  rw,hard,rsize=262144,wsize=262144,_netdev  0  0',
        better: '10.20.1.4:/hana-shared  /hana/shared  nfs4  rw,hard,rsize=262144,wsize=262144,_netdev,vers=4.1  0  0',
        language: 'fstab',
      },
    ],
    sources: ['FAQN', 'NFS5'],
  },
  appliesTo: hasNfsMounts,
  checkMount(judged, context) {
    const text = context.file.source.text;
    const { mount, effective } = judged;
    // A placeholder may set the version; an option list found alone (optionsOnly) may have it
    // elsewhere, but a version it writes is still the one the mount asks for.
    if (
      effective.templated &&
      (mount.optionsOnly !== true || mount.options.some((o) => o.templated) || !effective.version)
    )
      return;
    // Which versions a server serves is ANF's to say here; Azure Files, Blob NFS and other servers differ.
    const serverTarget = targetOfMount(context, judged);
    if (serverTarget.kind !== 'anf') return;
    const version = effective.version;
    // Fixes pin only what the manifest volume serves: another version would fail to mount (ANF224).
    const volume = volumeOfMount(context, judged);
    const served = volume?.nfsVersions.length === 1 ? volume.nfsVersions[0] : undefined;
    const smbOnly = volume?.nfsVersions.length === 0 ? volume : undefined;
    const pin =
      volume && served
        ? { version: served, why: `volume \`${volume.name}\` serves only NFSv${served}` }
        : versionToPin(context, judged);
    const nfs4Type = isNfs4Type(mount);
    const where =
      mount.optionsSpan && mount.optionsSpan.end > mount.optionsSpan.start
        ? mount.optionsSpan
        : (mount.fsTypeSpan ?? mount.sourceSpan ?? mount.span);
    // A Kubernetes NFS source that writes no options, to a server named by a host name and only
    // assumed to be ANF: ANF mount targets are IP addresses, and in a cluster such names are often
    // other filers or in-cluster servers. A false alarm there costs more than the miss.
    if (
      !version &&
      mount.origin === 'kubernetes' &&
      mount.options.length === 0 &&
      !serverTarget.known &&
      !isIpv4Address(mount.server ?? '')
    )
      return;
    if (!version) {
      const vers = effective.byGroup.get('vers');
      if (vers) return; // an invalid value: ANF203 reports it
      context.report(unpinnedFinding(mount, where, serverTarget, smbOnly, pin, served));
      return;
    }
    if (version.text === '4' || (version.major === 4 && !version.pinned)) {
      const option = version.option;
      const what = option ? `\`${option.name}=${option.value ?? ''}\`` : '`nfs4` without a minor version';
      if (volume && (smbOnly || served === '3')) {
        // The volume does not serve NFSv4.1: no NFSv4 minor version mounts it.
        const pinnable = served === '3' && option !== undefined && !nfs4Type;
        const advice = smbOnly
          ? 'mount it over SMB, or add an NFS version to its `protocols`'
          : pinnable
            ? "pin `vers=3`, or change the volume's `protocols`"
            : "mount it as `nfs` with `vers=3` (`nfs4` takes no `vers=`), or change the volume's `protocols`";
        context.report(notServedFinding(mount, where, option, what, volume, smbOnly, advice, pinnable));
        return;
      }
      const fixes: Fix[] = option
        ? mountFix.unsafe('Set `vers=4.1`', replaceValue(option, '4.1'))
        : mountFix.unsafe('Add `vers=4.1`', insertOption(mount, 'vers=4.1'));
      context.report(unpinned4Finding(mount, where, option, what, serverTarget, fixes));
      return;
    }
    if (!NFS_PROTOCOL.supportedVersions.value.includes(version.text)) {
      const target = served ?? (version.major === 4 ? '4.1' : (pin?.version ?? '3'));
      // `nfs4` cannot be pinned to NFSv3, and `minorversion=` alone only picks an NFSv4 minor version.
      const editable = !smbOnly && !(target === '3' && (nfs4Type || !version.option));
      const edits = !editable
        ? []
        : version.minorOption && version.option
          ? [replaceValue(version.option, target), removeOption(text, mount, version.minorOption)]
          : version.option
            ? [replaceValue(version.option, target)]
            : version.minorOption
              ? [replaceValue(version.minorOption, '1')]
              : [];
      const spec = version.option ? findOption(version.option.name) : undefined;
      if (version.option && spec?.values && !spec.values.includes(version.option.value ?? '')) return; // ANF203
      const advice = smbOnly
        ? `${capitalize(smbWords(smbOnly))}.`
        : !volume || !served
          ? `Use \`vers=${target}\`.`
          : editable
            ? `Use \`vers=${target}\` (volume \`${volume.name}\` serves only NFSv${target}).`
            : `Mount it as \`nfs\` with \`vers=3\` (volume \`${volume.name}\` serves only NFSv3; \`nfs4\` takes no \`vers=\`).`;
      // FAQN: an NFSv4.2 mount of an NFSv4.1 volume succeeds, but NFSv4.2 is unsupported on ANF.
      const v42 = version.major === 4 && version.text === '4.2' && !smbOnly && served !== '3';
      context.report(unsupportedFinding(version, where, serverTarget, v42, advice, edits, target));
    }
  },
});

function unpinnedFinding(
  mount: MountEntry,
  where: Span,
  serverTarget: ServerTarget,
  smbOnly: VolumeSummary | undefined,
  pin: { version: '3' | '4.1'; why: string } | undefined,
  served: '3' | '4.1' | undefined,
): Finding {
  return lazyFinding({ span: where }, () => ({
    message: `No NFS version pinned: the client tries NFSv${NFS_OPTION_LIMITS.firstTriedVersion.value} first, which ANF does not serve, and negotiates down. ${smbOnly ? `${capitalize(smbWords(smbOnly))}.` : `Pin ${pin ? `\`vers=${pin.version}\` (${pin.why})` : '`vers=3` or `vers=4.1`'}.`}${assumedAnfWords(serverTarget)}`,
    fixes: smbOnly ? [] : served ? pinFixes(mount, served, true) : pinFixes(mount, pin?.version),
  }));
}

function notServedFinding(
  mount: MountEntry,
  where: Span,
  option: MountOption | undefined,
  what: string,
  volume: VolumeSummary,
  smbOnly: VolumeSummary | undefined,
  advice: string,
  pinnable: boolean,
): Finding {
  return lazyFinding({ span: option?.span ?? mount.fsTypeSpan ?? where }, () => ({
    message: `${what} lets the client negotiate NFSv4.0, 4.1 or 4.2, but volume \`${volume.name}\` (${baseName(volume.uri)}) ${smbOnly ? 'serves no NFS version' : 'serves only NFSv3'}: the mount fails. ${capitalize(advice)}.`,
    fixes: pinnable && option ? mountFix.unsafe('Set `vers=3`', replaceValue(option, '3')) : [],
  }));
}

function unpinned4Finding(
  mount: MountEntry,
  where: Span,
  option: MountOption | undefined,
  what: string,
  serverTarget: ServerTarget,
  fixes: Fix[],
): Finding {
  return lazyFinding({ span: option?.span ?? mount.fsTypeSpan ?? where }, () => ({
    message: `${what} lets the client negotiate NFSv4.0, 4.1 or 4.2; ANF serves 4.1 only. Pin \`vers=4.1\`.${assumedAnfWords(serverTarget)}`,
    fixes,
  }));
}

function unsupportedFinding(
  version: NfsVersion,
  where: Span,
  serverTarget: ServerTarget,
  v42: boolean,
  advice: string,
  edits: SpanEdit[],
  target: '3' | '4.1',
): Finding {
  return lazyFinding(
    {
      span: (version.minorOption ?? version.option)?.span ?? where,
      // Never an error on a server that is only assumed to be ANF (an on-premises filer may serve it).
      severity: v42 || !serverTarget.known ? 'warning' : 'error',
    },
    () => ({
      message: v42
        ? `NFSv4.2 is not supported on ANF: the mount of an NFSv4.1 volume succeeds, but ANF does not support NFSv4.2 or its features, and issues with it are out of support scope (NFS FAQs for Azure NetApp Files). ${advice}${assumedAnfWords(serverTarget)}`
        : `NFSv${version.text} is not a version ANF serves (only NFSv${NFS_PROTOCOL.supportedVersions.value.join(' and NFSv')}): the mount fails. ${advice}${assumedAnfWords(serverTarget)}`,
      ...(edits.length > 0 ? { fixes: mountFix.unsafe(`Use NFSv${target}`, ...edits) } : {}),
    }),
  );
}

/** "volume `profiles` (sap.anf.yaml) serves no NFS version (SMB only): mount it over SMB, ...": nothing to pin. */
function smbWords(volume: VolumeSummary): string {
  return `volume \`${volume.name}\` (${baseName(volume.uri)}) serves no NFS version (SMB only): mount it over SMB, or add an NFS version to its \`protocols\``;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Fixes that pin a version, the preferred one first; `only`: the preferred one alone (the volume serves no other). */
function pinFixes(mount: MountEntry, preferred: '3' | '4.1' | undefined, only = false): Fix[] {
  const order: ('3' | '4.1')[] = preferred === '4.1' ? ['4.1', '3'] : preferred === '3' ? ['3', '4.1'] : ['3', '4.1'];
  if (only && preferred) order.splice(1);
  const nfs4 = mount.fsType === 'nfs4';
  return order
    .filter((v) => !(nfs4 && v === '3'))
    .flatMap((v) => mountFix.unsafe(`Pin \`vers=${v}\``, insertOption(mount, `vers=${v}`)));
}
