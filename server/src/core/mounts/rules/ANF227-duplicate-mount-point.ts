import { lazyFinding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountEntry } from '../model';
import { mountName } from './common';

/** Mounts of one host's fstab: not documentation (Markdown shows alternatives), not autofs keys or commands. */
function isFstabEntry(mount: MountEntry): boolean {
  return mount.origin === 'fstab' && mount.host !== 'markdown';
}

function atLeastTwo(mounts: readonly MountEntry[]): boolean {
  let found = 0;
  for (const mount of mounts) if (isFstabEntry(mount) && ++found > 1) return true;
  return false;
}

/**
 * The mount point a mount claims (trailing slashes trimmed), or null when it claims none that can
 * clash. Cached per mount: an edited fstab keeps its other mounts (workspace/lineReuse.ts), and this
 * ran a regular expression on every line of a 10,000-line fstab on every keystroke.
 */
function pointOf(mount: MountEntry): string | null {
  let point = POINTS.get(mount);
  if (point === undefined) {
    point = null;
    if (isFstabEntry(mount) && !mount.templated) {
      const written = mount.mountPointDecoded ?? mount.mountPoint;
      // Trailing slashes trimmed (a regular expression only for the few points that end in one).
      const trimmed = written?.endsWith('/') ? written.replace(/(?<=.)\/+$/, '') : written;
      if (trimmed && trimmed.startsWith('/') && !hasNoauto(mount)) point = trimmed;
    }
    POINTS.set(mount, point);
  }
  return point;
}

const POINTS = new WeakMap<MountEntry, string | null>();

function hasNoauto(mount: MountEntry): boolean {
  for (const option of mount.options) if (option.name === 'noauto') return true;
  return false;
}

export const duplicateMountPoint = defineRule({
  code: 'ANF227',
  name: 'duplicate-mount-point',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'The same mount point twice in one fstab',
    what: 'Two fstab entries of one file (one host) with the same mount point, neither of them `noauto`. Documentation (Markdown) is not judged: it may show alternatives.',
    why: 'At boot both are mounted, one over the other: the later mount hides the first, so what a path shows depends on the order systemd finished the mounts, and unmounting one uncovers the other. It is usually a line left behind when a volume moved (a new mount target or export).',
    instead: 'Keep one entry per mount point; mark an alternative `noauto` (or comment it out) if you keep it for reference.',
    examples: [
      {
        flagged: '10.20.1.4:/sapmnt-qas  /sapmnt/QAS  nfs  rw,hard,vers=4.1,_netdev  0  0\n10.20.2.4:/sapmnt-qas  /sapmnt/QAS  nfs  rw,hard,vers=4.1,_netdev  0  0',
        better: '10.20.2.4:/sapmnt-qas  /sapmnt/QAS  nfs  rw,hard,vers=4.1,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: (file) => atLeastTwo(file.mounts),
  check(context) {
    const first = new Map<string, MountEntry>();
    for (const mount of context.file.mounts) {
      const point = pointOf(mount);
      if (point === null) continue;
      const earlier = first.get(point);
      if (!earlier) {
        first.set(point, mount);
        continue;
      }
      context.report(
        lazyFinding({ span: mount.mountPointSpan ?? mount.span }, () => ({
          message: `\`${mountName(mount)}\` is mounted twice in this file (line ${context.file.source.positionAt(earlier.span.start).line + 1} too): the later mount hides the earlier one. Keep one entry, or mark the other \`noauto\`.`,
          related: [{ uri: earlier.uri, span: earlier.mountPointSpan ?? earlier.span, message: `First entry for ${point}` }],
        })),
      );
    }
  },
});
