import {
  ATTRIBUTE_CACHE,
  NCONNECT,
  NFS_OPTION_LIMITS,
  NFS_PROTOCOL,
  NFS_TIMEOUTS,
  NFS_TRANSFER_SIZE,
  SOURCES,
  type SourceKey,
} from '../facts';
import { normalizeServer } from './endpoint';
import { ownCopy } from '../text/ownText';
import type { MountEntry, MountOption } from './model';

/**
 * The mount-option catalog: every option of nfs(5) and the generic mount(8), systemd and autofs
 * options people write next to them. Rules, hover and completion all read this one table; every
 * number in it comes from the facts table.
 */
export type OptionKind = 'flag' | 'integer' | 'enum' | 'string' | 'version';
export type OptionScope = 'nfs' | 'generic' | 'systemd' | 'autofs';

export interface OptionSpec {
  /** The canonical name (`vers`, not `nfsvers`). */
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly kind: OptionKind;
  readonly scope: OptionScope;
  /**
   * Options of one group set the same thing (`hard`/`soft`/`softerr`, `vers`/`nfsvers`,
   * `ac`/`noac`): when several appear, the kernel keeps the last one.
   */
  readonly group: string;
  /** The flag that undoes this one (`ac` ↔ `noac`). */
  readonly negation?: string;
  /** Integer options: inclusive range the kernel accepts. */
  readonly min?: number;
  readonly max?: number;
  readonly unit?: string;
  /** Enum options: the accepted values (`sec=` also takes a colon-separated list). */
  readonly values?: readonly string[];
  /** The default as nfs(5) states it, in words where it depends on something. */
  readonly default?: string;
  /** First kernel version that knows the option. */
  readonly minKernel?: string;
  /** Accepted but has no effect (`intr` since 2.6.25). */
  readonly ignoredSince?: string;
  /** A flag that may also take a value (`fsc` or `fsc=cookie`). */
  readonly optionalValue?: boolean;
  /** May appear more than once on purpose (`x-systemd.requires=`). */
  readonly repeatable?: boolean;
  readonly summary: string;
  readonly source: SourceKey;
  /** Where to read more when the source is not nfs(5) (mount(8), systemd.mount(5), autofs(5)). */
  readonly see?: string;
}

const MOUNT8 = 'https://man7.org/linux/man-pages/man8/mount.8.html';
const SYSTEMD_MOUNT5 = 'https://www.freedesktop.org/software/systemd/man/latest/systemd.mount.html';
const AUTOFS5 = 'https://man7.org/linux/man-pages/man5/autofs.5.html';
const AUTO_MASTER5 = 'https://man7.org/linux/man-pages/man5/auto.master.5.html';

const n = (f: { value: number }) => f.value;
const SECURITY_FLAVORS = [
  'sys',
  'krb5',
  'krb5i',
  'krb5p',
  'none',
  'lkey',
  'lkeyi',
  'lkeyp',
  'spkm',
  'spkmi',
  'spkmp',
] as const;

function flag(name: string, group: string, summary: string, extra: Partial<OptionSpec> = {}): OptionSpec {
  return { name, kind: 'flag', scope: 'nfs', group, summary, source: 'NFS5', ...extra };
}
function generic(name: string, group: string, summary: string, extra: Partial<OptionSpec> = {}): OptionSpec {
  return { name, kind: 'flag', scope: 'generic', group, summary, source: 'NFS5', see: MOUNT8, ...extra };
}
/** A flag and the flag that undoes it (`ac`/`noac`): one group, named after the first, each the other's negation. */
function flagPair(on: string, onSummary: string, off: string, offSummary: string): OptionSpec[] {
  return [flag(on, on, onSummary, { negation: off }), flag(off, on, offSummary, { negation: on })];
}
function genericPair(on: string, onSummary: string, off: string, offSummary: string): OptionSpec[] {
  return [generic(on, on, onSummary, { negation: off }), generic(off, on, offSummary, { negation: on })];
}
function integer(name: string, summary: string, extra: Partial<OptionSpec> = {}): OptionSpec {
  return { name, kind: 'integer', scope: 'nfs', group: name, summary, source: 'NFS5', min: 0, ...extra };
}

const SPECS: readonly OptionSpec[] = [
  // Version and transport
  {
    name: 'vers',
    aliases: ['nfsvers'],
    kind: 'version',
    scope: 'nfs',
    group: 'vers',
    values: ['2', '3', '4', '4.0', '4.1', '4.2'],
    default: `negotiated: the client tries ${NFS_OPTION_LIMITS.firstTriedVersion.value} first and goes down`,
    summary: `NFS protocol version. ANF serves ${NFS_PROTOCOL.supportedVersions.value.join(' and ')}: pin one of them. \`vers=4\` alone can negotiate 4.2.`,
    source: 'NFS5',
  },
  integer('minorversion', 'NFSv4 minor version; `vers=4,minorversion=1` is the same as `vers=4.1`.', {
    max: n(NFS_OPTION_LIMITS.minorVersionMax),
    default: 'negotiated',
  }),
  {
    name: 'proto',
    kind: 'enum',
    scope: 'nfs',
    group: 'transport',
    values: ['tcp', 'udp', 'rdma', 'tcp6', 'udp6', 'rdma6'],
    default: 'tcp',
    summary: 'Transport for NFS requests. Use TCP; NFSv4 requires it.',
    source: 'NFS5',
  },
  flag('tcp', 'transport', 'Same as `proto=tcp`.'),
  flag('udp', 'transport', 'Same as `proto=udp`: NFSv3 only, not for ANF.'),
  flag('rdma', 'transport', 'Same as `proto=rdma`.'),
  integer('port', 'Server port for NFS; 0 asks the portmapper.', {
    max: n(NFS_OPTION_LIMITS.portMax),
    default: '2049 for NFSv4, portmapper for v3',
  }),
  {
    name: 'mountproto',
    kind: 'enum',
    scope: 'nfs',
    group: 'mountproto',
    values: ['tcp', 'udp', 'tcp6', 'udp6'],
    summary: 'Transport for the NFSv3 MOUNT protocol.',
    source: 'NFS5',
  },
  integer('mountport', "Port of the server's mountd (NFSv3).", { max: n(NFS_OPTION_LIMITS.portMax) }),
  {
    name: 'mounthost',
    kind: 'string',
    scope: 'nfs',
    group: 'mounthost',
    summary: 'Host running mountd (NFSv3).',
    source: 'NFS5',
  },
  integer('mountvers', 'MOUNT protocol version (NFSv3).', { min: 1, max: 3 }), // not a fact: protocol versions 1..3 of MOUNT
  {
    name: 'addr',
    kind: 'string',
    scope: 'nfs',
    group: 'addr',
    summary: 'Server address (mount.nfs fills it in; seen in /proc/mounts copies).',
    source: 'NFS5',
  },
  {
    name: 'clientaddr',
    kind: 'string',
    scope: 'nfs',
    group: 'clientaddr',
    summary: 'NFSv4 callback address of the client.',
    source: 'NFS5',
  },
  {
    name: 'mountaddr',
    kind: 'string',
    scope: 'nfs',
    group: 'mountaddr',
    summary: 'Address of mountd (filled in by mount.nfs).',
    source: 'NFS5',
  },
  {
    name: 'xprtsec',
    kind: 'enum',
    scope: 'nfs',
    group: 'xprtsec',
    values: ['none', 'tls', 'mtls'],
    default: 'none',
    summary: 'RPC-with-TLS transport security.',
    source: 'NFS5',
  },

  // Recovery
  flag(
    'hard',
    'recovery',
    'Retry NFS requests until the server answers (the default). Applications wait instead of seeing errors.',
    { default: 'on' },
  ),
  flag('soft', 'recovery', 'Give up after `retrans` retries and return EIO: can cause silent data corruption.'),
  flag('softerr', 'recovery', 'Like `soft`, but return ETIMEDOUT.'),
  flag('softreval', 'softreval', 'Serve cached attributes when the server is down (soft mounts).', {
    negation: 'nosoftreval',
  }),
  flag('nosoftreval', 'softreval', 'Do not serve cached attributes when the server is down (the default).', {
    negation: 'softreval',
  }),
  integer('timeo', 'Time before the first retransmission, in tenths of a second. The client backs off linearly.', {
    min: 1,
    unit: 'deciseconds',
    default: `${NFS_TIMEOUTS.tcpTimeoDeciseconds.value} (TCP), ${NFS_TIMEOUTS.udpTimeoDeciseconds.value} (UDP)`,
  }),
  integer('retrans', 'Retries before a soft mount fails or a hard mount logs "server not responding".', {
    default: `${NFS_TIMEOUTS.tcpRetransDefault.value} (TCP), ${NFS_TIMEOUTS.udpRetransDefault.value} (UDP)`,
  }),
  integer('retry', 'Minutes the mount command keeps trying.', {
    unit: 'minutes',
    default: `${NFS_OPTION_LIMITS.retryForegroundMinutes.value} (foreground), ${NFS_OPTION_LIMITS.retryBackgroundMinutes.value} (bg)`,
  }),
  flag('intr', 'intr', 'Let signals interrupt NFS calls.', {
    ignoredSince: NFS_PROTOCOL.intrIgnoredSinceKernel.value,
    negation: 'nointr',
  }),
  flag('nointr', 'intr', 'Do not let signals interrupt NFS calls.', {
    ignoredSince: NFS_PROTOCOL.intrIgnoredSinceKernel.value,
    negation: 'intr',
  }),
  flag('bg', 'bg', 'Retry a failed mount in the background.', { negation: 'fg', see: MOUNT8 }),
  flag('fg', 'bg', 'Retry a failed mount in the foreground (the default).', { negation: 'bg' }),

  // Transfer sizes and connections
  integer(
    'rsize',
    `Largest READ payload. ANF recommends ${NFS_TRANSFER_SIZE.recommendedBytes.value}; above ${NFS_TRANSFER_SIZE.maxBytes.value} the kernel clamps.`,
    {
      min: 1,
      unit: 'bytes',
      default: 'negotiated (ANF offers 1 MiB)',
    },
  ),
  integer(
    'wsize',
    `Largest WRITE payload. ANF recommends ${NFS_TRANSFER_SIZE.recommendedBytes.value}; above ${NFS_TRANSFER_SIZE.maxBytes.value} the kernel clamps.`,
    {
      min: 1,
      unit: 'bytes',
      default: 'negotiated (ANF offers 1 MiB)',
    },
  ),
  integer(
    'nconnect',
    `TCP connections per server address. ${NCONNECT.bestTested.value} tested best on ANF; the first mount to an address decides for all.`,
    {
      min: 1,
      max: n(NCONNECT.max),
      unit: 'connections',
      default: '1',
      minKernel: NCONNECT.minKernel.value,
      source: 'MO',
    },
  ),
  integer('max_connect', 'NFSv4.1+ session trunking: most transports to different server addresses.', {
    min: 1,
    max: n(NFS_OPTION_LIMITS.maxConnectMax),
    default: '1',
  }),
  flag('trunkdiscovery', 'trunkdiscovery', 'Discover session trunking on NFSv4.1+.', { negation: 'notrunkdiscovery' }),
  flag('notrunkdiscovery', 'trunkdiscovery', 'Do not discover session trunking (the default).', {
    negation: 'trunkdiscovery',
  }),

  // Caching
  flag('ac', 'ac', 'Cache file attributes (the default).', { negation: 'noac' }),
  flag('noac', 'ac', 'No attribute caching; also makes every write synchronous: a large performance cost.', {
    negation: 'ac',
  }),
  integer('acregmin', 'Shortest time file attributes are cached, in seconds.', {
    unit: 's',
    default: String(ATTRIBUTE_CACHE.acregminSeconds.value),
  }),
  integer('acregmax', 'Longest time file attributes are cached, in seconds.', {
    unit: 's',
    default: String(ATTRIBUTE_CACHE.acregmaxSeconds.value),
  }),
  integer('acdirmin', 'Shortest time directory attributes are cached, in seconds.', {
    unit: 's',
    default: String(ATTRIBUTE_CACHE.acdirminSeconds.value),
  }),
  integer('acdirmax', 'Longest time directory attributes are cached, in seconds.', {
    unit: 's',
    default: String(ATTRIBUTE_CACHE.acdirmaxSeconds.value),
  }),
  integer(
    'actimeo',
    `Sets acregmin, acregmax, acdirmin and acdirmax to one value. ${ATTRIBUTE_CACHE.edaToolsActimeoSeconds.value} for EDA tools and libraries.`,
    { unit: 's', source: 'MO' },
  ),
  flag('cto', 'cto', 'Close-to-open consistency: revalidate on open, flush on close (the default).', {
    negation: 'nocto',
  }),
  flag(
    'nocto',
    'cto',
    "Skip close-to-open revalidation: fewer GETATTRs, but other clients' changes show up late. Only for read-mostly data.",
    { negation: 'cto', source: 'MO' },
  ),
  {
    name: 'lookupcache',
    kind: 'enum',
    scope: 'nfs',
    group: 'lookupcache',
    values: ['all', 'none', 'pos', 'positive'],
    default: 'all',
    summary: 'Which directory-entry lookups are cached.',
    source: 'NFS5',
  },
  flag(
    'sharecache',
    'sharecache',
    "Mounts of the same export share caches and options: the first mount's options apply (the default).",
    { negation: 'nosharecache' },
  ),
  flag('nosharecache', 'sharecache', 'Give this mount its own cache and options.', { negation: 'sharecache' }),
  flag('fsc', 'fsc', 'Use FS-Cache (cachefilesd) for this mount; `fsc=<id>` names the cache.', {
    negation: 'nofsc',
    optionalValue: true,
  }),
  flag('nofsc', 'fsc', 'No FS-Cache (the default).', { negation: 'fsc' }),
  ...flagPair('rdirplus', 'Use READDIRPLUS (the default).', 'nordirplus', 'Do not use READDIRPLUS.'),
  integer('namlen', 'Longest file name the server supports.', {
    default: String(NFS_OPTION_LIMITS.namlenDefault.value),
  }),

  // Security and locking
  {
    name: 'sec',
    kind: 'enum',
    scope: 'nfs',
    group: 'sec',
    values: SECURITY_FLAVORS,
    default: 'sys',
    summary: 'Security flavor(s), colon-separated. Kerberos on ANF needs NFSv4.1 and does not mix with nconnect.',
    source: 'NFS5',
  },
  ...flagPair('lock', 'Use NLM locking (NFSv3; the default).', 'nolock', 'Local locks only (NFSv3).'),
  {
    name: 'local_lock',
    kind: 'enum',
    scope: 'nfs',
    group: 'local_lock',
    values: ['none', 'all', 'flock', 'posix'],
    default: 'none',
    summary: 'Which locks stay local.',
    source: 'NFS5',
  },
  ...flagPair('acl', 'Use the NFSACL side protocol (NFSv3).', 'noacl', 'Do not use NFSACL (NFSv3).'),
  ...flagPair(
    'resvport',
    'Use a privileged source port (the default).',
    'noresvport',
    'Use a non-privileged source port.',
  ),
  ...flagPair(
    'migration',
    'NFSv4 transparent state migration.',
    'nomigration',
    'No NFSv4 migration support (the default).',
  ),
  flag('sloppy', 'sloppy', 'Ignore unknown options instead of failing the mount.'),
  ...flagPair('posix', 'Old NFSv2 POSIX semantics (ignored by current kernels).', 'noposix', 'See posix.'),

  // Generic mount(8) options
  generic('defaults', 'defaults', 'rw, suid, dev, exec, auto, nouser, async.'),
  ...genericPair('rw', 'Read-write (the default).', 'ro', 'Read-only.'),
  ...genericPair(
    'sync',
    'Every write waits for the server: a large performance cost on NFS.',
    'async',
    'Writes are buffered (the default).',
  ),
  ...genericPair('auto', 'Mounted by `mount -a` (the default).', 'noauto', 'Not mounted at boot or by `mount -a`.'),
  ...genericPair(
    'atime',
    'Update access times per the kernel default.',
    'noatime',
    'Do not update access times: fewer metadata writes.',
  ),
  generic('relatime', 'atime', 'Update access times only when older than modification time.'),
  generic('norelatime', 'atime', 'Turn off relatime.'),
  generic('strictatime', 'atime', 'Always update access times.'),
  generic('nostrictatime', 'atime', 'Turn off strictatime.'),
  ...genericPair('diratime', 'Update directory access times.', 'nodiratime', 'Do not update directory access times.'),
  ...genericPair('lazytime', 'Keep timestamp updates in memory.', 'nolazytime', 'Turn off lazytime.'),
  ...genericPair('exec', 'Allow running binaries (the default).', 'noexec', 'Do not allow running binaries.'),
  ...genericPair('suid', 'Honour set-user-ID bits (the default).', 'nosuid', 'Ignore set-user-ID bits.'),
  ...genericPair('dev', 'Interpret device files (the default).', 'nodev', 'Do not interpret device files.'),
  ...genericPair('user', 'Any user may mount it.', 'nouser', 'Only root may mount it (the default).'),
  generic('users', 'user', 'Any user may mount and unmount it.'),
  generic('owner', 'owner', 'The device owner may mount it.'),
  generic('group', 'group', 'Members of the device group may mount it.'),
  ...genericPair('mand', 'Mandatory locks (removed from current kernels).', 'nomand', 'No mandatory locks.'),
  generic('dirsync', 'dirsync', 'Directory updates are synchronous.'),
  ...genericPair(
    'symfollow',
    'Follow symbolic links (the default).',
    'nosymfollow',
    'Do not follow symbolic links on this mount.',
  ),
  ...genericPair('iversion', 'Increment i_version.', 'noiversion', 'Do not increment i_version.'),
  ...genericPair('silent', 'Fewer kernel messages.', 'loud', 'Normal kernel messages.'),
  generic('remount', 'remount', 'Change the options of a mounted file system.'),
  generic('bind', 'bind', 'Bind mount.'),
  generic('_netdev', '_netdev', 'Needs the network: mount after it is up, unmount before it goes down.'),
  generic('nofail', 'nofail', 'Do not fail the boot when the mount fails.'),
  {
    name: 'comment',
    kind: 'string',
    scope: 'generic',
    group: 'comment',
    repeatable: true,
    summary: 'Free text for tools; ignored by mount.',
    source: 'NFS5',
    see: MOUNT8,
  },
  {
    name: 'context',
    kind: 'string',
    scope: 'generic',
    group: 'context',
    summary: 'SELinux context of the whole mount.',
    source: 'NFS5',
    see: MOUNT8,
  },
  {
    name: 'fscontext',
    kind: 'string',
    scope: 'generic',
    group: 'fscontext',
    summary: 'SELinux file-system context.',
    source: 'NFS5',
    see: MOUNT8,
  },
  {
    name: 'defcontext',
    kind: 'string',
    scope: 'generic',
    group: 'defcontext',
    summary: 'SELinux default context for unlabeled files.',
    source: 'NFS5',
    see: MOUNT8,
  },
  {
    name: 'rootcontext',
    kind: 'string',
    scope: 'generic',
    group: 'rootcontext',
    summary: 'SELinux context of the root inode.',
    source: 'NFS5',
    see: MOUNT8,
  },

  // systemd (fstab and .mount units)
  {
    name: 'x-systemd.automount',
    kind: 'flag',
    scope: 'systemd',
    group: 'x-systemd.automount',
    summary: 'Mount on first access through an automount unit.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.requires',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.requires',
    repeatable: true,
    summary: 'Requires= and After= on a unit.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.requires-mounts-for',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.requires-mounts-for',
    repeatable: true,
    summary: 'RequiresMountsFor= a path.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.after',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.after',
    repeatable: true,
    summary: 'After= a unit.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.before',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.before',
    repeatable: true,
    summary: 'Before= a unit.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.wanted-by',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.wanted-by',
    repeatable: true,
    summary: 'WantedBy= a unit.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.required-by',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.required-by',
    repeatable: true,
    summary: 'RequiredBy= a unit.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.idle-timeout',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.idle-timeout',
    summary: 'Unmount an automount after this idle time.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.device-timeout',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.device-timeout',
    summary: 'How long to wait for the device.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.mount-timeout',
    kind: 'string',
    scope: 'systemd',
    group: 'x-systemd.mount-timeout',
    summary: 'How long the mount may take.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.makefs',
    kind: 'flag',
    scope: 'systemd',
    group: 'x-systemd.makefs',
    summary: 'Create the file system first (block devices only).',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.growfs',
    kind: 'flag',
    scope: 'systemd',
    group: 'x-systemd.growfs',
    summary: 'Grow the file system (block devices only).',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-systemd.rw-only',
    kind: 'flag',
    scope: 'systemd',
    group: 'x-systemd.rw-only',
    summary: 'Fail instead of falling back to read-only.',
    source: 'NFS5',
    see: SYSTEMD_MOUNT5,
  },
  {
    name: 'x-mount.mkdir',
    kind: 'string',
    scope: 'generic',
    group: 'x-mount.mkdir',
    summary: 'Create the mount point if it is missing.',
    source: 'NFS5',
    see: MOUNT8,
  },

  // autofs map options
  {
    name: 'fstype',
    kind: 'string',
    scope: 'autofs',
    group: 'fstype',
    summary: 'autofs: file system type of the map entry (nfs when left out).',
    source: 'NFS5',
    see: AUTOFS5,
  },
  {
    name: 'strict',
    kind: 'flag',
    scope: 'autofs',
    group: 'strict',
    summary: 'autofs: fail a multi-mount when one of its mounts fails.',
    source: 'NFS5',
    see: AUTOFS5,
  },
  {
    name: 'browse',
    kind: 'flag',
    scope: 'autofs',
    group: 'browse',
    summary: 'autofs: show the map keys as directories.',
    source: 'NFS5',
    see: AUTOFS5,
    negation: 'nobrowse',
  },
  {
    name: 'nobrowse',
    kind: 'flag',
    scope: 'autofs',
    group: 'browse',
    summary: 'autofs: hide map keys until mounted.',
    source: 'NFS5',
    see: AUTOFS5,
    negation: 'browse',
  },
  {
    name: 'nobind',
    kind: 'flag',
    scope: 'autofs',
    group: 'nobind',
    summary: "autofs: mount the server's path even when it is on this host (no bind mount of the local path).",
    source: 'NFS5',
    see: AUTO_MASTER5,
  },
  {
    name: 'symlink',
    kind: 'flag',
    scope: 'autofs',
    group: 'symlink',
    summary: 'autofs: use a symlink instead of a bind mount for a local path.',
    source: 'NFS5',
    see: AUTO_MASTER5,
  },
  {
    name: 'strictexpire',
    kind: 'flag',
    scope: 'autofs',
    group: 'strictexpire',
    summary: 'autofs: expire mounts strictly at the timeout, even when recently looked up.',
    source: 'NFS5',
    see: AUTO_MASTER5,
  },
  {
    name: 'use-weight-only',
    kind: 'flag',
    scope: 'autofs',
    group: 'use-weight-only',
    summary: 'autofs: pick among replicated servers by weight alone.',
    source: 'NFS5',
    see: AUTOFS5,
    negation: 'no-use-weight-only',
  },
  {
    name: 'no-use-weight-only',
    kind: 'flag',
    scope: 'autofs',
    group: 'use-weight-only',
    summary: 'autofs: undo use-weight-only from the master map.',
    source: 'NFS5',
    see: AUTOFS5,
    negation: 'use-weight-only',
  },
  {
    name: 'ghost',
    kind: 'flag',
    scope: 'autofs',
    group: 'browse',
    aliases: ['-ghost'],
    summary: 'autofs (master map): old name of browse.',
    source: 'NFS5',
    see: AUTO_MASTER5,
  },
  {
    name: 'random-multimount-selection',
    kind: 'flag',
    scope: 'autofs',
    group: 'random-multimount-selection',
    summary: 'autofs (master map): pick a random server among replicated ones.',
    source: 'NFS5',
    see: AUTO_MASTER5,
  },
];

const BY_NAME = new Map<string, OptionSpec>();
for (const spec of SPECS) {
  BY_NAME.set(spec.name, spec);
  for (const alias of spec.aliases ?? []) BY_NAME.set(alias, spec);
}

/** Every option the catalog knows, canonical names only (for completion). */
export const MOUNT_OPTIONS: readonly OptionSpec[] = SPECS;

/** Every name the catalog accepts, aliases included (for did-you-mean). */
export const KNOWN_OPTION_NAMES: readonly string[] = [...BY_NAME.keys()];

const X_PREFIX: OptionSpec = {
  name: 'x-*',
  kind: 'string',
  scope: 'generic',
  group: 'x-*',
  repeatable: true,
  summary: 'A userspace option for other tools (x-*): mount ignores it.',
  source: 'NFS5',
  see: MOUNT8,
};

/** The catalog entry of an option name as written (`nfsvers` finds `vers`). Case matters, as for the kernel. */
export function findOption(name: string): OptionSpec | undefined {
  const spec = BY_NAME.get(name);
  if (spec) return spec;
  // libmount passes any `x-*` (and `X-*`) option to userspace helpers; mount itself ignores them.
  if (name.startsWith('x-') || name.startsWith('X-')) return { ...X_PREFIX, name, group: name };
  return undefined;
}

/** A short Markdown description of an option for hover: what, default, range, kernel, source. */
export function describeOption(name: string): string | undefined {
  const spec = findOption(name);
  if (!spec) return undefined;
  const lines = [
    `**${spec.name}**${spec.aliases?.length ? ` (also \`${spec.aliases.join('`, `')}\`)` : ''}: ${spec.summary}`,
  ];
  const facts: string[] = [];
  if (spec.default) facts.push(`default ${spec.default}`);
  if (spec.min !== undefined && spec.max !== undefined)
    facts.push(`range ${spec.min}–${spec.max}${spec.unit ? ` ${spec.unit}` : ''}`);
  else if (spec.unit) facts.push(`in ${spec.unit}`);
  if (spec.values) facts.push(`values: ${spec.values.join(', ')}`);
  if (spec.negation) facts.push(`opposite: \`${spec.negation}\``);
  if (spec.minKernel) facts.push(`needs kernel ${spec.minKernel}+`);
  if (spec.ignoredSince) facts.push(`ignored since kernel ${spec.ignoredSince}`);
  if (facts.length > 0) lines.push(facts.join('; ') + '.');
  // Name the document by its title and link it; never the internal source key.
  const source = SOURCES[spec.source];
  const page = spec.see?.match(/\/man\d\/([^/]+)\.(\d)\.html$/);
  const seeTitle = page
    ? `${page[1]}(${page[2]})`
    : spec.see?.slice(spec.see.lastIndexOf('/') + 1).replace(/\.html$/, '');
  lines.push(
    `Source: ${spec.see && spec.source === 'NFS5' ? `[${seeTitle}](${spec.see})` : `[${source.title}](${source.url})`}`,
  );
  return lines.join('\n\n');
}

// ---------------------------------------------------------------------------------------------
// Effective options: what the kernel ends up using for one mount.

export interface NfsVersion {
  /** `3`, `4`, `4.1`, `4.2`... as resolved from vers/nfsvers, minorversion and the fs type. */
  readonly text: string;
  readonly major: number;
  readonly minor?: number;
  /** The option that set it, if any (`vers=4.1`, `nfsvers=3`). */
  readonly option?: MountOption;
  readonly minorOption?: MountOption;
  /** False when nothing pins the version (the client negotiates). */
  readonly pinned: boolean;
}

/** The winning option of each group, by group name: only `get` and `has` (see `EffectiveOptions.byGroup`). */
export interface OptionGroups {
  get(group: string): MountOption | undefined;
  has(group: string): boolean;
}

export interface EffectiveOptions {
  /** The option that wins for each group (last one written), by group name. */
  readonly byGroup: OptionGroups;
  /** Options a later option of the same group overrides, with the one that wins. */
  readonly overridden: readonly { readonly option: MountOption; readonly winner: MountOption }[];
  readonly version: NfsVersion | undefined;
  /** Some option is a template placeholder, or only the option list is known: the list may hold anything. */
  readonly templated: boolean;
  /**
   * `findOption` of each of the mount's options, by index (undefined for a templated or unknown one):
   * looked up once per option list, not again by every rule that reads every option.
   */
  readonly specs: readonly (OptionSpec | undefined)[];
  /** The winning value of a group (`valueOf`). */
  value(group: string): string | undefined;
  /** The winning value of a group as an integer, undefined when missing or not a number (`integerOf`). */
  integer(group: string): number | undefined;
  /** `tcp`, `udp`, `rdma`... (`transportOf`). */
  readonly transport: string;
  /**
   * An answer about the option list, worked out once per list by `compute` (which also names the
   * question): the mounts that write the same list share it. `compute` is given the options and
   * their specs and may read only their names, values and placeholder flags (what decides a shape),
   * never a span: it must be a module-level function of those alone.
   */
  perList<T>(compute: OptionListQuestion<T>): T;
}

/** A question about an option list alone (`EffectiveOptions.perList`). */
export type OptionListQuestion<T> = (options: readonly MountOption[], specs: readonly (OptionSpec | undefined)[]) => T;

/**
 * What the effective options of an option list are, by option index: the same for every mount
 * that writes the same list (names, values, placeholders) with the same file system type. A
 * 10,000-line fstab repeats a few lists, so this is worked out once per list, and each mount's
 * `EffectiveOptions` only points at its own options by these indexes. It holds no mount, span or
 * workspace state: a cached shape is never stale.
 */
interface OptionListShape {
  /** Group name to the index of the option that wins it. */
  readonly winners: ReadonlyMap<string, number>;
  /** Index pairs: the overridden option, the one that wins (groups in first-written order). */
  readonly overridden: readonly (readonly [number, number])[];
  readonly templated: boolean;
  readonly specs: readonly (OptionSpec | undefined)[];
  readonly version: VersionShape | undefined;
  /** The winning value of each group (values are part of the shape's key). */
  readonly values: ReadonlyMap<string, string | undefined>;
  /** `integer(group)` answers, when first asked (`null`: not an integer). */
  readonly integers: Map<string, number | null>;
  readonly transport: string;
  /** `transportKey` by server as written. */
  readonly transportKeys: Map<string, string>;
  /** `perList` answers by question. */
  readonly answers: Map<OptionListQuestion<unknown>, unknown>;
}

/** `NfsVersion` with its options as indexes. */
interface VersionShape {
  readonly text: string;
  readonly major: number;
  readonly minor: number | undefined;
  readonly option: number | undefined;
  readonly minorOption: number | undefined;
  readonly pinned: boolean;
}

const NO_PAIRS: readonly (readonly [number, number])[] = Object.freeze([]);
const NO_OVERRIDDEN: EffectiveOptions['overridden'] = Object.freeze([]);

/** One mount's effective options: its option list's shape applied to its own options. */
class MountEffectiveOptions implements EffectiveOptions, OptionGroups {
  /** Lazily: most rules never ask for the version objects of most mounts. */
  private versionMade: NfsVersion | null | undefined = undefined;
  /**
   * The kernel's transport key (`transportKey`), when first asked; `null`: asked, and the mount
   * has none. Here rather than in a second per-mount map: weak-map entries are what the garbage
   * collector works hardest on in a large fstab.
   */
  transportKey: string | null | undefined = undefined;

  constructor(
    private readonly shape: OptionListShape,
    private readonly options: readonly MountOption[],
  ) {}

  get byGroup(): OptionGroups {
    return this;
  }

  get(group: string): MountOption | undefined {
    const index = this.shape.winners.get(group);
    return index === undefined ? undefined : this.options[index];
  }

  has(group: string): boolean {
    return this.shape.winners.has(group);
  }

  get overridden(): EffectiveOptions['overridden'] {
    const pairs = this.shape.overridden;
    if (pairs.length === 0) return NO_OVERRIDDEN;
    return pairs.map(([option, winner]) => ({ option: this.options[option]!, winner: this.options[winner]! }));
  }

  get templated(): boolean {
    return this.shape.templated;
  }

  get specs(): readonly (OptionSpec | undefined)[] {
    return this.shape.specs;
  }

  value(group: string): string | undefined {
    return this.shape.values.get(group);
  }

  integer(group: string): number | undefined {
    const integers = this.shape.integers;
    let found = integers.get(group);
    if (found === undefined) {
      const value = this.shape.values.get(group);
      found = value !== undefined && /^\d+$/.test(value) ? Number(value) : null;
      integers.set(group, found);
    }
    return found ?? undefined;
  }

  get transport(): string {
    return this.shape.transport;
  }

  perList<T>(compute: OptionListQuestion<T>): T {
    const answers = this.shape.answers;
    if (answers.has(compute)) return answers.get(compute) as T;
    const answer = compute(this.options, this.shape.specs);
    answers.set(compute, answer);
    return answer;
  }

  /** `transportKey` for a server as written: one string per option list and server, shared by their mounts. */
  transportKeyFor(server: string): string {
    const keys = this.shape.transportKeys;
    let key = keys.get(server);
    if (key === undefined) {
      if (keys.size >= SHAPES_KEPT) keys.clear();
      key = `${normalizeServer(server)}|${this.shape.version?.text ?? 'negotiated'}|${this.shape.transport}`;
      keys.set(server, key);
    }
    return key;
  }

  get version(): NfsVersion | undefined {
    if (this.versionMade === undefined) {
      const v = this.shape.version;
      if (v) {
        // Property by property (the keys in the order spreads gave them): no temporary objects per mount.
        const made = { text: v.text, major: v.major } as { -readonly [K in keyof NfsVersion]: NfsVersion[K] };
        if (v.minor !== undefined) made.minor = v.minor;
        if (v.option !== undefined) made.option = this.options[v.option]!;
        if (v.minorOption !== undefined) made.minorOption = this.options[v.minorOption]!;
        made.pinned = v.pinned;
        this.versionMade = made;
      } else this.versionMade = null;
    }
    return this.versionMade ?? undefined;
  }
}

const MEMO = new WeakMap<MountEntry, MountEffectiveOptions>();

function memoOf(mount: MountEntry): MountEffectiveOptions {
  let memo = MEMO.get(mount);
  if (!memo) {
    memo = new MountEffectiveOptions(shapeOf(mount), mount.options);
    MEMO.set(mount, memo);
  }
  return memo;
}

/** Resolves duplicates and conflicts the way the kernel does (the last one wins) and the NFS version. Cached per mount, worked out per option list. */
export function effectiveOptions(mount: MountEntry): EffectiveOptions {
  return memoOf(mount);
}

/**
 * The kernel shares one NFS client (and its connections) per server address, NFS version and
 * transport: mounts with the same key share the first mount's nconnect. Undefined when the server
 * is unknown or templated. Cached per mount: ANF214 and ANF217 compare each mount of a file with
 * every mount of the workspace.
 */
export function transportKey(mount: MountEntry): string | undefined {
  const memo = memoOf(mount);
  if (memo.transportKey === undefined) {
    memo.transportKey = !mount.server || mount.templated ? null : memo.transportKeyFor(mount.server);
  }
  return memo.transportKey ?? undefined;
}

/** Shapes by option list (`shapeKey`), for mounts without `optionListText`. Bounded: an editor session types many lists that are gone a keystroke later. */
const SHAPES = new Map<string, OptionListShape>();
const SHAPES_KEPT = 4096; // not a fact: a cache bound, far above the distinct option lists of a real estate

/**
 * What a shape depends on, as one string: the file system type (`nfs4` sets the version), whether
 * only the list is known, and each option's name, value and placeholder flag.
 */
function shapeKey(mount: MountEntry): string {
  let key = `${mount.fsType ?? ''}\u0001${mount.optionsOnly === true ? '1' : '0'}`;
  const options = mount.options;
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    // Lengths first: a name or value holding a separator cannot make two lists' keys equal.
    key +=
      option.value === undefined
        ? `\u0000${option.name.length}:${option.name}`
        : `\u0000${option.name.length}:${option.name}\u0002${option.value.length}:${option.value}`;
    if (option.templated) key += '\u0003';
  }
  return key;
}

function shapeOf(mount: MountEntry): OptionListShape {
  const text = mount.optionListText;
  if (text !== undefined && mount.optionsOnly !== true) {
    // The reader's own text of the list (a plain fstab line): no key to build, by file system type.
    const fsType = mount.fsType ?? '';
    let byText = SHAPES_BY_TEXT.get(fsType);
    if (!byText) {
      if (SHAPES_BY_TEXT.size >= SHAPES_KEPT) SHAPES_BY_TEXT.clear();
      SHAPES_BY_TEXT.set(fsType, (byText = new Map()));
    }
    return cachedShape(byText, text, mount);
  }
  return cachedShape(SHAPES, shapeKey(mount), mount);
}

/**
 * The shape kept under `key`, computed on a miss (a full cache is emptied first). The key is stored as a
 * copy of its own (text/ownText.ts): a list's text may be a slice of its file's whole text, and a built key
 * is made over such slices, while the cache outlives the version.
 */
function cachedShape(cache: Map<string, OptionListShape>, key: string, mount: MountEntry): OptionListShape {
  let shape = cache.get(key);
  if (!shape) {
    if (cache.size >= SHAPES_KEPT) cache.clear();
    shape = computeShape(mount);
    cache.set(ownCopy(key), shape);
  }
  return shape;
}

/** Shapes of lists whose text decides them (`MountEntry.optionListText`), by file system type, then text. */
const SHAPES_BY_TEXT = new Map<string, Map<string, OptionListShape>>();

function computeShape(mount: MountEntry): OptionListShape {
  const winners = new Map<string, number>();
  const overridden: (readonly [number, number])[] = [];
  // The options of each group in order; a list only for a group written more than once (rare).
  let repeated: Map<string, number[]> | undefined;
  // An option list found on its own (optionsOnly): the rest of the mount is elsewhere, so what
  // the list leaves out is as unknown as a placeholder would make it.
  let templated = mount.optionsOnly === true;
  const options = mount.options;
  const specs: (OptionSpec | undefined)[] = new Array(options.length);
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    if (option.templated) {
      templated = true;
      continue;
    }
    const spec = findOption(option.name);
    specs[i] = spec;
    if (spec?.repeatable) continue;
    const group = spec?.group ?? `?${option.name}`;
    const earlier = winners.get(group);
    if (earlier !== undefined) {
      repeated ??= new Map();
      const list = repeated.get(group);
      if (list) list.push(i);
      else repeated.set(group, [earlier, i]);
    }
    winners.set(group, i);
  }
  if (repeated) {
    // Groups in the order they first appear (a Map keeps it), each option but the last overridden by the last.
    for (const group of winners.keys()) {
      const list = repeated.get(group);
      if (!list) continue;
      const winner = list[list.length - 1]!;
      for (let i = 0; i < list.length - 1; i++) overridden.push([list[i]!, winner]);
    }
  }
  const values = new Map<string, string | undefined>();
  for (const [group, index] of winners) values.set(group, options[index]!.value);
  const transportIndex = winners.get('transport');
  const transport =
    transportIndex === undefined ? 'tcp' : (options[transportIndex]!.value ?? options[transportIndex]!.name);
  return {
    winners,
    overridden: overridden.length > 0 ? overridden : NO_PAIRS,
    version: resolveVersion(mount, winners),
    templated,
    specs,
    values,
    integers: new Map(),
    transport,
    transportKeys: new Map(),
    answers: new Map(),
  };
}

function resolveVersion(mount: MountEntry, winners: ReadonlyMap<string, number>): VersionShape | undefined {
  const options = mount.options;
  const versIndex = winners.get('vers');
  const minorIndex = winners.get('minorversion');
  const vers = versIndex === undefined ? undefined : options[versIndex]!;
  const minor = minorIndex === undefined ? undefined : options[minorIndex]!;
  const minorValue = minor?.value !== undefined && /^\d+$/.test(minor.value) ? Number(minor.value) : undefined;
  if (vers?.value !== undefined) {
    const match = /^(\d+)(?:\.(\d+))?$/.exec(vers.value);
    if (!match) return undefined;
    const major = Number(match[1]);
    const explicitMinor = match[2] !== undefined ? Number(match[2]) : undefined;
    const resolvedMinor = explicitMinor ?? (major === 4 ? minorValue : undefined);
    return {
      text: resolvedMinor !== undefined ? `${major}.${resolvedMinor}` : String(major),
      major,
      minor: resolvedMinor,
      option: versIndex,
      minorOption: minor && explicitMinor === undefined ? minorIndex : undefined,
      pinned: major !== 4 || resolvedMinor !== undefined,
    };
  }
  if (mount.fsType === 'nfs4' || options.some((o) => o.name === 'fstype' && o.value === 'nfs4')) {
    return {
      text: minorValue !== undefined ? `4.${minorValue}` : '4',
      major: 4,
      minor: minorValue,
      option: undefined,
      minorOption: minor ? minorIndex : undefined,
      pinned: minorValue !== undefined,
    };
  }
  return undefined;
}

/** The winning value of an option group, e.g. `valueOf(eff, 'nconnect')`. */
export function valueOf(effective: EffectiveOptions, group: string): string | undefined {
  return effective.value(group);
}

/** The winning option of a flag group, by name (`hasFlag(eff, 'recovery', 'soft')`). */
export function winningName(effective: EffectiveOptions, group: string): string | undefined {
  return effective.byGroup.get(group)?.name;
}

/** An integer option's value, or undefined when missing or not a number. */
export function integerOf(effective: EffectiveOptions, group: string): number | undefined {
  return effective.integer(group);
}

/** Mounts where the transport is UDP (`udp`, `proto=udp`, `proto=udp6`). */
export function transportOf(effective: EffectiveOptions): string {
  return effective.transport;
}

/** True for `sec=krb5`, `krb5i`, `krb5p` (alone or in a list). */
export function usesKerberos(effective: EffectiveOptions): boolean {
  const sec = valueOf(effective, 'sec');
  return sec !== undefined && sec.split(':').some((flavor) => flavor.startsWith('krb5'));
}
