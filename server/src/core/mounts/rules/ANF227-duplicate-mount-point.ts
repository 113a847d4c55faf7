import { lazyFinding } from '../../diagnostics';
import { defineRule } from '../../rules/rule';
import type { MountEntry } from '../model';
import type { ParsedFile } from '../../workspace/parsedFile';
import { mountName } from './common';
import { mountEditOf } from './firstMounts';

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
    instead:
      'Keep one entry per mount point; mark an alternative `noauto` (or comment it out) if you keep it for reference.',
    examples: [
      {
        flagged:
          '10.20.1.4:/sapmnt-qas  /sapmnt/QAS  nfs  rw,hard,vers=4.1,_netdev  0  0\n10.20.2.4:/sapmnt-qas  /sapmnt/QAS  nfs  rw,hard,vers=4.1,_netdev  0  0',
        better: '10.20.2.4:/sapmnt-qas  /sapmnt/QAS  nfs  rw,hard,vers=4.1,_netdev  0  0',
        language: 'fstab',
      },
    ],
    sources: ['NFS5'],
  },
  appliesTo: (file) => atLeastTwo(file.mounts),
  check(context) {
    // Every entry after the first of its point, in line order (the order a walk of the file reports them in).
    const later: { mount: MountEntry; earlier: MountEntry; point: string }[] = [];
    const index = pointIndexOf(context.file);
    for (const point of index.twice) {
      const list = index.byPoint.get(point)!;
      for (let i = 1; i < list.length; i++) later.push({ mount: list[i]!, earlier: list[0]!, point });
    }
    later.sort((a, b) => a.mount.span.start - b.mount.span.start);
    for (const { mount, earlier, point } of later) {
      context.report(
        lazyFinding({ span: mount.mountPointSpan ?? mount.span }, () => ({
          message: `\`${mountName(mount)}\` is mounted twice in this file (line ${context.file.source.positionAt(earlier.span.start).line + 1} too): the later mount hides the earlier one. Keep one entry, or mark the other \`noauto\`.`,
          related: [
            { uri: earlier.uri, span: earlier.mountPointSpan ?? earlier.span, message: `First entry for ${point}` },
          ],
        })),
      );
    }
  },
});

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

/** A file's fstab entries by the mount point they claim, in line order, and the points claimed twice or more. */
interface PointIndex {
  readonly byPoint: Map<string, MountEntry[]>;
  readonly twice: Set<string>;
}

/**
 * The point index of a mount list, once per list. After an edit read line by line (the mount list
 * has a `lineEdit` from the list last indexed), the index of the previous list is updated, not
 * built again: the re-read mounts leave and join their points, the others are the same objects
 * in the same order. The previous list's index is handed over (a newer version replaces it).
 */
function pointIndexOf(file: ParsedFile): PointIndex {
  const mounts = file.mounts;
  let index = INDEXES.get(mounts);
  if (index) return index;
  const edit = mountEditOf(file);
  const previous = edit ? INDEXES.get(edit.previousItems as readonly MountEntry[]) : undefined;
  if (edit && previous) {
    INDEXES.delete(edit.previousItems as readonly MountEntry[]);
    const touched = new Set<string>();
    for (const mount of edit.removed as readonly MountEntry[]) {
      const point = pointOf(mount);
      if (point === null) continue;
      const list = previous.byPoint.get(point)!;
      list.splice(list.indexOf(mount), 1);
      if (list.length === 0) previous.byPoint.delete(point);
      touched.add(point);
    }
    for (let i = edit.itemsFrom; i < edit.itemsTo; i++) {
      const mount = mounts[i]!;
      const point = pointOf(mount);
      if (point === null) continue;
      let list = previous.byPoint.get(point);
      if (!list) previous.byPoint.set(point, (list = []));
      let at = list.length;
      while (at > 0 && list[at - 1]!.span.start > mount.span.start) at--;
      list.splice(at, 0, mount);
      touched.add(point);
    }
    for (const point of touched) {
      if ((previous.byPoint.get(point)?.length ?? 0) > 1) previous.twice.add(point);
      else previous.twice.delete(point);
    }
    index = previous;
  } else {
    index = { byPoint: new Map(), twice: new Set() };
    for (const mount of mounts) {
      const point = pointOf(mount);
      if (point === null) continue;
      const list = index.byPoint.get(point);
      if (!list) index.byPoint.set(point, [mount]);
      else {
        list.push(mount);
        index.twice.add(point);
      }
    }
  }
  INDEXES.set(mounts, index);
  return index;
}

const INDEXES = new WeakMap<readonly MountEntry[], PointIndex>();
