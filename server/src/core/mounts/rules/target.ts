import type { ResolvedConfig } from '../../config';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { baseName } from '../../fileKind';
import { normalizeServer } from '../../workspace/links';
import { formatMiBps, formatSize, GiB } from '../../units/units';
import type { WorkspaceView } from '../../workspace/workspaceView';
import { effectiveOptions } from '../catalog';
import type { MountEntry } from '../model';

export interface MountTarget {
  readonly volume: VolumeSummary;
  /** One line: "this mount reaches volume `tools`: Premium, 2 TiB, 128 MiB/s". */
  readonly summary: string;
  /** A few Markdown lines for hover: the summary, workload, protocol versions and a mismatch, if any. */
  readonly markdown: string;
}

/**
 * What a mount line reaches in the manifest, in words for hover and messages. Undefined when the
 * mount matches no manifest volume (by server and export path, or by mount path).
 */
export function describeMountTarget(mount: MountEntry, workspace: WorkspaceView): MountTarget | undefined {
  const volume = workspace.volumeForMount(mount);
  if (!volume) return undefined;
  const facts = [
    volume.serviceLevel,
    formatSize(volume.quotaGiB * GiB),
    formatMiBps(volume.throughputMiBps),
    ...(volume.qos === 'manual' ? ['manual QoS'] : []),
    ...(volume.largeVolume ? ['large volume'] : []),
    ...(volume.coolAccess ? ['cool access'] : []),
  ];
  const summary = `this mount reaches volume \`${volume.name}\`: ${facts.join(', ')}`;
  const lines = [
    `This mount reaches volume \`${volume.name}\` (${volume.account}/${volume.pool}): ${facts.join(', ')}.`,
  ];
  const workload = workspace.workloadOf(mount);
  if (workload)
    lines.push(
      `Workload: \`${workload.workload}\` (from the ${workload.source === 'annotation' ? '`# anf:` annotation' : workload.source === 'manifest' ? 'manifest' : workload.source === 'mount-path' ? 'mount point, by convention; `# anf: workload=<kind>` overrides it' : 'configuration'}).`,
    );
  if (volume.nfsVersions.length > 0) {
    const version = effectiveOptions(mount).version;
    const served = volume.nfsVersions.map((v) => `NFSv${v}`).join(' and ');
    const mismatch = version?.pinned && !volume.nfsVersions.includes(version.text as '3' | '4.1');
    lines.push(`The volume serves ${served}${mismatch ? `; this mount asks for NFSv${version!.text}` : ''}.`);
  }
  if (volume.kerberos) lines.push('The volume uses Kerberos.');
  return { volume, summary, markdown: lines.join('\n\n') };
}

/**
 * What kind of NFS server a mount talks to. ANF advice (versions ANF serves, nconnect, 256 KiB
 * transfers) applies to `anf` only; generic NFS advice (soft, udp, intr, sizes the kernel clamps)
 * to every kind.
 */
export type ServerKind = 'anf' | 'azure-files' | 'azure-blob' | 'other' | 'unknown';

export interface ServerTarget {
  readonly kind: ServerKind;
  /**
   * True when something names the server (the manifest, the configuration, an Azure endpoint
   * name); false when `anf` is only the configured or built-in default. Advice that holds only on
   * ANF is never an error on a server that is not known to be ANF.
   */
  readonly known: boolean;
  /** Why, in words for hover and messages: "10.20.1.4 is the mount target of volume `hana-data` (hana.anf.yaml)". */
  readonly why: string;
}

type ServerConfig = Pick<ResolvedConfig, 'nfsServers'>;

const AZURE_FILES = /\.file\.core\.windows\.net$/;
const AZURE_BLOB = /\.blob\.core\.windows\.net$/;

/** What the server of a mount is taken to be, and why. */
export function serverTarget(
  mount: MountEntry,
  workspace: Pick<WorkspaceView, 'volumes' | 'volumeForMount'>,
  config: ServerConfig,
): ServerTarget {
  const early = mountTypeTarget(mount);
  if (early) return early;
  const byServer = targetsOfServer(mount.server, workspace.volumes(), config);
  if (byServer.named) return byServer.named;
  const volume = workspace.volumeForMount(mount);
  return volume ? volumeTarget(volume) : byServer.otherwise;
}

/** What the mount itself says its server is (a Trident backend, a StorageClass, `-t aznfs`); undefined for most mounts. */
export function mountTypeTarget(mount: MountEntry): ServerTarget | undefined {
  if (mount.serverKind) return { kind: mount.serverKind.kind, known: true, why: mount.serverKind.why };
  if (mount.fsType === 'aznfs')
    return {
      kind: 'azure-blob',
      known: true,
      why: 'The `aznfs` mount type is Azure Blob NFS (the AZNFS mount helper).',
    };
  return undefined;
}

/**
 * What a server name (as written) says, given the volumes and the configuration: `named` when the
 * name settles it (an Azure endpoint, `nfsServers`, a manifest mount target), else `otherwise`,
 * the answer for a mount that reaches no manifest volume either. The same for every mount of the
 * server: mount rules ask it once per server name and workspace state (common.ts).
 */
export interface ServerTargets {
  readonly named: ServerTarget | undefined;
  readonly otherwise: ServerTarget;
}

export function targetsOfServer(
  written: string | undefined,
  volumes: readonly VolumeSummary[],
  config: ServerConfig,
): ServerTargets {
  const server = written ? normalizeServer(written) : undefined;
  const named = server ? `\`${server}\`` : 'The server';
  const known = (target: ServerTarget): ServerTargets => ({ named: target, otherwise: target });
  if (server && AZURE_BLOB.test(server))
    return known({
      kind: 'azure-blob',
      known: true,
      why: `${named} is an Azure Blob Storage endpoint (\`*.blob.core.windows.net\`): Azure Blob NFS 3.0.`,
    });
  if (server && AZURE_FILES.test(server))
    return known({
      kind: 'azure-files',
      known: true,
      why: `${named} is an Azure Files endpoint (\`*.file.core.windows.net\`): an NFS Azure file share.`,
    });
  const servers = config.nfsServers;
  const templated = !server || /[{}$%<>`]/.test(server);
  if (server && !templated && servers) {
    const other = servers.other.find((p) => serverMatches(server, p));
    if (other)
      return known({
        kind: 'other',
        known: true,
        why: `${named} is listed under \`nfsServers.other\` in .anf-lint.yaml (\`${other}\`): not ANF, so only generic NFS advice applies.`,
      });
    const anf = servers.anf.find((p) => serverMatches(server, p));
    if (anf)
      return known({
        kind: 'anf',
        known: true,
        why: `${named} is listed under \`nfsServers.anf\` in .anf-lint.yaml (\`${anf}\`).`,
      });
  }
  if (server && !templated) {
    const volume = mountTargetsOf(volumes).get(server);
    if (volume)
      return known({
        kind: 'anf',
        known: true,
        why: `${named} is a mount target of volume \`${volume.name}\` in ${baseName(volume.uri)}.`,
      });
  }
  const override = 'list it under `nfsServers` in .anf-lint.yaml to say otherwise';
  if (servers?.default === 'unknown') {
    return {
      named: undefined,
      otherwise: {
        kind: 'unknown',
        known: false,
        why: `${named} is named nowhere in the estate and \`nfsServers.default\` is \`unknown\`: only generic NFS advice applies (${override}).`,
      },
    };
  }
  return {
    named: undefined,
    otherwise: {
      kind: 'anf',
      known: false,
      why: `${templated && written ? 'The server is templated' : `${named} is named nowhere in the estate`}: taken to be ANF, anf-lint's default${servers ? ' (`nfsServers.default: anf`)' : ''}; ${override}.`,
    },
  };
}

/** The target of a mount that reaches a manifest volume its server does not name. */
export function volumeTarget(volume: VolumeSummary): ServerTarget {
  return { kind: 'anf', known: true, why: `This mount reaches volume \`${volume.name}\` of ${baseName(volume.uri)}.` };
}

/** Every manifest mount target, normalized, with the first volume behind it; built once per volume list. */
function mountTargetsOf(volumes: readonly VolumeSummary[]): ReadonlyMap<string, VolumeSummary> {
  let targets = MOUNT_TARGETS.get(volumes);
  if (!targets) {
    const built = new Map<string, VolumeSummary>();
    for (const volume of volumes)
      for (const target of volume.mountTargets)
        if (!built.has(normalizeServer(target))) built.set(normalizeServer(target), volume);
    targets = built;
    MOUNT_TARGETS.set(volumes, targets);
  }
  return targets;
}

const MOUNT_TARGETS = new WeakMap<readonly VolumeSummary[], ReadonlyMap<string, VolumeSummary>>();

/** `10.20.1.4`, `anf-*.contoso.internal` (a `*` pattern) or `10.20.0.0/16` (an IPv4 range). */
export function serverMatches(server: string, pattern: string): boolean {
  const p = normalizeServer(pattern);
  const cidr = /^(\d+\.\d+\.\d+\.\d+)\/(\d+)$/.exec(p);
  if (cidr) {
    const base = ipv4(cidr[1]!);
    const address = ipv4(server);
    const bits = Number(cidr[2]);
    if (base === undefined || address === undefined || bits > IPV4_BITS) return false;
    const mask = bits === 0 ? 0 : (~0 << (IPV4_BITS - bits)) >>> 0;
    return (base & mask) >>> 0 === (address & mask) >>> 0;
  }
  if (p.includes('*')) return new RegExp(`^${p.split('*').map(escapeRegExp).join('.*')}$`).test(server);
  return p === server;
}

const IPV4_BITS = 32; // not a fact: the width of an IPv4 address
const OCTET_MAX = 255; // not a fact: the largest byte

/** Whether a server is written as an IPv4 address, as ANF mount targets are (not a DNS name). */
export function isIpv4Address(text: string): boolean {
  return ipv4(text) !== undefined;
}

function ipv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((o) => !/^\d{1,3}$/.test(o) || Number(o) > OCTET_MAX)) return undefined;
  return parts.reduce((n, o) => ((n << 8) | Number(o)) >>> 0, 0);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One line for hover: what the server was taken to be and why. */
export function describeServer(
  mount: MountEntry,
  workspace: Pick<WorkspaceView, 'volumes' | 'volumeForMount'>,
  config: ServerConfig,
): string {
  const target = serverTarget(mount, workspace, config);
  return `**Server:** ${SERVER_KIND_WORDS[target.kind]}${target.known ? '' : ' (assumed)'}. ${target.why}`;
}

export const SERVER_KIND_WORDS: Readonly<Record<ServerKind, string>> = {
  anf: 'Azure NetApp Files',
  'azure-files': 'Azure Files (NFS)',
  'azure-blob': 'Azure Blob NFS',
  other: 'another NFS server (not ANF)',
  unknown: 'an NFS server anf-lint does not know',
};
