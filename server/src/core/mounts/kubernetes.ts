import { isMap, isScalar, isSeq, type Document, type Scalar, type YAMLMap } from 'yaml';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import type { MountEntry, MountOption } from './model';
import { serverKindOf } from './contentStrings';
import { readOptionText } from './optionStrings';
import { isTemplated, literalParts, splitNfsSource } from './optionText';
import { parseYaml, scalarContent } from './yamlHosts';

/**
 * NFS mounts in Kubernetes manifests (kubernetes.io/docs/concepts/storage):
 *
 * - a PersistentVolume: `spec.mountOptions` (the whole option list the kubelet passes to mount,
 *   one option or a comma list per item) with its `spec.nfs` source (`server`, `path`) or a CSI
 *   source; the mount point is the kubelet's own, never written;
 * - a StorageClass: `mountOptions`, copied into every volume it provisions. Trident's provisioner
 *   (`csi.trident.netapp.io`) may add its backend's `nfsMountOptions`, so its list stays "options
 *   only" (what is missing is not judged);
 * - Pods and the workloads that hold a pod template (Deployment, StatefulSet, DaemonSet,
 *   ReplicaSet, Job, CronJob, ReplicationController): inline `volumes[].nfs` sources. The mount
 *   point is the `mountPath` of the containers' `volumeMounts` of that volume when they agree on
 *   one; Kubernetes gives an inline NFS volume no mount options, so the kernel's defaults apply.
 *
 * Option lists of an Azure Files SMB volume (`file.csi.azure.com` with SMB options) are not NFS and
 * are left to the option-string reader, which skips them. Never throws.
 */
export function parseKubernetes(source: SourceText, uri: string, problems: ParseProblem[]): MountEntry[] {
  void problems;
  if (!source.text.includes('nfs') && !source.text.includes('mountOptions')) return [];
  const mounts: MountEntry[] = [];
  for (const doc of parseYaml(source)) {
    if (doc.errors.length > 0) continue; // a broken document: the option-string reader reads it line by line
    for (const entry of documentMounts(source.text, uri, doc)) mounts.push(entry);
  }
  return mounts;
}

const POD_TEMPLATE_KINDS = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'ReplicationController',
]);
const TRIDENT_PROVISIONERS = new Set(['csi.trident.netapp.io', 'netapp.io/trident']);
/** The NFS CSI driver (kubernetes-csi/csi-driver-nfs, docs/driver-parameters.md): `server` and `share`. */
const NFS_CSI_DRIVER = 'nfs.csi.k8s.io';
const SMB_OPTION = /^(?:dir_mode|file_mode|credentials|serverino|mfsymlinks|cache|uid|gid|nosharesock)$/;

function documentMounts(text: string, uri: string, doc: Document.Parsed): MountEntry[] {
  const root = doc.contents;
  if (!isMap(root)) return [];
  const kind = stringAt(root, 'kind');
  const spec = mapAt(root, 'spec');
  if (kind === 'PersistentVolume' && spec) {
    // The NFS CSI driver (csi-driver-nfs): `csi.volumeAttributes.server` and `.share` are the source.
    const csi = mapAt(spec, 'csi');
    const csiNfs = stringAt(csi, 'driver') === NFS_CSI_DRIVER ? csiSource(mapAt(csi, 'volumeAttributes')) : undefined;
    const entry = csiNfs
      ? volumeMount(text, uri, spec, spec, csiNfs, undefined, false, 'share')
      : volumeMount(text, uri, spec, spec, mapAt(spec, 'nfs'), undefined, false);
    return entry ? [entry] : [];
  }
  if (kind === 'StorageClass') {
    const provisioner = stringAt(root, 'provisioner');
    // csi-driver-nfs: `parameters.server` and `.share` (each volume is a sub directory of the share).
    const parameters = provisioner === NFS_CSI_DRIVER ? csiSource(mapAt(root, 'parameters')) : undefined;
    const entry = volumeMount(
      text,
      uri,
      root,
      root,
      parameters,
      undefined,
      provisioner !== undefined && TRIDENT_PROVISIONERS.has(provisioner),
      'share',
    );
    return entry ? [entry] : [];
  }
  const podSpec =
    kind === 'Pod'
      ? spec
      : kind && POD_TEMPLATE_KINDS.has(kind)
        ? mapAt(mapAt(spec, 'template'), 'spec')
        : kind === 'CronJob'
          ? mapAt(mapAt(mapAt(mapAt(spec, 'jobTemplate'), 'spec'), 'template'), 'spec')
          : undefined;
  if (!podSpec) return [];
  const mounts: MountEntry[] = [];
  const volumes = podSpec.get('volumes');
  if (!isSeq(volumes)) return [];
  for (const volume of volumes.items) {
    if (!isMap(volume)) continue;
    const nfs = mapAt(volume, 'nfs');
    if (!nfs) continue;
    const name = stringAt(volume, 'name');
    const entry = volumeMount(
      text,
      uri,
      volume,
      undefined,
      nfs,
      name !== undefined ? mountPathOf(text, podSpec, name) : undefined,
      false,
    );
    if (entry) mounts.push(entry);
  }
  return mounts;
}

/** The NFS CSI driver's `server` and `share` map, when both are written (else its options stay a list of their own). */
function csiSource(map: YAMLMap | undefined): YAMLMap | undefined {
  return map && stringAt(map, 'server') !== undefined && stringAt(map, 'share') !== undefined ? map : undefined;
}

/** The one `mountPath` the containers (and init containers) mount a volume at; undefined when none or several. */
function mountPathOf(text: string, podSpec: YAMLMap, volume: string): { path: string; span: Span } | undefined {
  const found = new Map<string, Span>();
  for (const list of ['containers', 'initContainers']) {
    const containers = podSpec.get(list);
    if (!isSeq(containers)) continue;
    for (const container of containers.items) {
      const mounts = isMap(container) ? container.get('volumeMounts') : undefined;
      if (!isSeq(mounts)) continue;
      for (const mount of mounts.items) {
        if (!isMap(mount) || stringAt(mount, 'name') !== volume) continue;
        const path = mount.get('mountPath', true);
        const content = isScalar(path) && typeof path.value === 'string' ? scalarContent(text, path) : undefined;
        if (content && !found.has(path!.value as string))
          found.set(path!.value as string, { start: content.start, end: content.end });
      }
    }
  }
  if (found.size !== 1) return undefined;
  const [path, span] = [...found][0]!;
  return { path, span };
}

/**
 * One NFS mount: an `nfs: { server, path }` source and/or a `mountOptions` list (of `owner`). A
 * list without a source is still a mount, of a server named elsewhere (a CSI driver's).
 */
function volumeMount(
  text: string,
  uri: string,
  at: YAMLMap,
  owner: YAMLMap | undefined,
  nfs: YAMLMap | undefined,
  mountPoint: { path: string; span: Span } | undefined,
  optionsOnly: boolean,
  /** The key of the export path in `nfs`: `path` for an `nfs:` source, `share` for the NFS CSI driver. */
  pathKey = 'path',
): MountEntry | undefined {
  const list = owner?.get('mountOptions', true);
  const options: MountOption[] = [];
  if (isSeq(list)) {
    for (const item of list.items) {
      const content = isScalar(item) ? scalarContent(text, item) : undefined;
      if (content) for (const option of readOptionText(content.raw, content.start).options) options.push(option);
    }
  }
  if (options.some((o) => SMB_OPTION.test(o.name))) return undefined; // Azure Files SMB
  const server = nfs?.get('server', true);
  const path = nfs?.get(pathKey, true);
  const serverText = isScalar(server) ? String(server.value ?? '') : undefined;
  const pathText = isScalar(path) ? String(path.value ?? '') : undefined;
  if (!nfs && options.length === 0) return undefined;
  if (nfs && (!serverText || !pathText)) return undefined;
  const sourceText = serverText !== undefined && pathText !== undefined ? `${serverText}:${pathText}` : undefined;
  const parts = sourceText ? splitNfsSource(sourceText) : undefined;
  const serverSpan = isScalar(server) ? contentSpan(text, server) : undefined;
  const range = at.range;
  const span = range ? { start: range[0], end: range[1] } : { start: 0, end: 0 };
  const listSpan =
    options.length > 0 ? { start: options[0]!.span.start, end: options[options.length - 1]!.span.end } : undefined;
  const kind = owner ? (serverKindOf(owner) ?? csiServerKind(owner)) : undefined;
  const templated =
    [sourceText, mountPoint?.path].some((t) => t !== undefined && isTemplated(t)) || options.some((o) => o.templated);
  return {
    uri,
    origin: 'kubernetes',
    host: 'kubernetes',
    fsType: 'nfs',
    ...(sourceText ? { source: sourceText } : {}),
    ...(serverSpan ? { sourceSpan: serverSpan } : {}),
    ...(parts ? literalParts(parts) : {}),
    ...(mountPoint
      ? { mountPoint: mountPoint.path, mountPointSpan: mountPoint.span, mountPointDecoded: mountPoint.path }
      : {}),
    options,
    ...(listSpan ? { optionsSpan: listSpan } : {}),
    isNfs: true,
    span: listSpan && !nfs ? listSpan : span,
    ...(optionsOnly ? { optionsOnly: true } : {}),
    ...(options.length === 0
      ? {
          optionsNote:
            "Kubernetes gives an inline NFS volume no mount options: the kubelet mounts it with the kernel's defaults (the NFS version negotiated, `hard`, transfer sizes the server offers).",
        }
      : {}),
    ...(templated ? { templated: true } : {}),
    ...(kind ? { serverKind: kind } : {}),
  };
}

/** A PV's CSI driver that names the server kind (Azure Files, Blob NFS). */
function csiServerKind(spec: YAMLMap): MountEntry['serverKind'] {
  const driver = stringAt(mapAt(spec, 'csi'), 'driver');
  if (driver === 'file.csi.azure.com')
    return {
      kind: 'azure-files',
      why: "The PersistentVolume's CSI driver is `file.csi.azure.com`: Azure Files (NFS).",
    };
  if (driver === 'blob.csi.azure.com')
    return { kind: 'azure-blob', why: "The PersistentVolume's CSI driver is `blob.csi.azure.com`: Azure Blob NFS." };
  if (driver && TRIDENT_PROVISIONERS.has(driver)) return undefined;
  return undefined;
}

function contentSpan(text: string, node: Scalar): Span | undefined {
  const content = scalarContent(text, node);
  return content ? { start: content.start, end: content.end } : undefined;
}

function mapAt(map: unknown, key: string): YAMLMap | undefined {
  if (!isMap(map)) return undefined;
  const value = map.get(key, true);
  return isMap(value) ? value : undefined;
}

function stringAt(map: unknown, key: string): string | undefined {
  if (!isMap(map)) return undefined;
  const value = map.get(key, true);
  return isScalar(value) && typeof value.value === 'string' ? value.value : undefined;
}
