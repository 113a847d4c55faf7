import type { MountEntry } from '../model';
import type { LineEdit } from '../../workspace/parsedFile';
import { transportKey } from './common';

/**
 * For each transport key, the first mount of a list that `counts` (the mount that decides nconnect
 * for the later ones), once per list and question. After an edit of a one-file list read line by
 * line (`edit`: the list's `lineEdit`, from the list last asked about), the previous list's answer
 * is updated from the edit, not built again by a walk of every mount: the re-read mounts leave and
 * join, the others are the same objects in the same order. The previous list's answer is handed
 * over (a newer version replaces it). Issue 17: an fstab edit's work in proportion to the edit.
 */
export class FirstMounts {
  private readonly answers = new WeakMap<readonly MountEntry[], Map<string, MountEntry>>();

  constructor(private readonly counts: (mount: MountEntry) => boolean) {}

  of(mounts: readonly MountEntry[], edit?: LineEdit): ReadonlyMap<string, MountEntry> {
    let firsts = this.answers.get(mounts);
    if (firsts) return firsts;
    const previous = edit ? this.answers.get(edit.previousItems as readonly MountEntry[]) : undefined;
    if (edit && previous) {
      this.answers.delete(edit.previousItems as readonly MountEntry[]);
      firsts = this.updated(previous, mounts, edit);
    } else {
      firsts = this.built(mounts);
    }
    this.answers.set(mounts, firsts);
    return firsts;
  }

  private built(mounts: readonly MountEntry[]): Map<string, MountEntry> {
    const firsts = new Map<string, MountEntry>();
    for (const mount of mounts) {
      if (!this.counts(mount)) continue;
      const key = transportKey(mount)!;
      if (!firsts.has(key)) firsts.set(key, mount);
    }
    return firsts;
  }

  /** `previous` (the answer for the list before the edit) made the answer for `mounts`. */
  private updated(previous: Map<string, MountEntry>, mounts: readonly MountEntry[], edit: LineEdit): Map<string, MountEntry> {
    // Keys whose first mount was re-read: their first is now the earliest of the list from the edit on.
    const lost = new Set<string>();
    for (const mount of edit.removed as readonly MountEntry[]) {
      if (!this.counts(mount)) continue;
      const key = transportKey(mount)!;
      if (previous.get(key) === mount) {
        previous.delete(key);
        lost.add(key);
      }
    }
    for (let i = edit.itemsFrom; i < edit.itemsTo; i++) {
      const mount = mounts[i]!;
      if (!this.counts(mount)) continue;
      const key = transportKey(mount)!;
      const first = previous.get(key);
      // Mounts before the edit are kept in place and mounts after it moved together: offsets order them.
      if (!first || first.span.start > mount.span.start) {
        previous.set(key, mount);
        lost.delete(key);
      }
    }
    if (lost.size > 0) {
      for (let i = edit.itemsTo; i < mounts.length && lost.size > 0; i++) {
        const mount = mounts[i]!;
        if (!this.counts(mount)) continue;
        const key = transportKey(mount)!;
        if (!lost.delete(key)) continue;
        previous.set(key, mount);
      }
    }
    return previous;
  }
}
