import type { MountEntry } from '../model';
import type { LineEdit, ParsedFile } from '../../workspace/parsedFile';
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
  /**
   * Per list answered, a token per transport key for its first mount, for fingerprints. An update
   * keeps a key's token when its first mount was re-read and a re-read mount is first again: the
   * mounts kept through the edit were not first before and are not now. A kept mount that becomes
   * first (or stops being first) gets a new token.
   */
  private readonly tokenMaps = new WeakMap<readonly MountEntry[], Map<string, number>>();
  private lastToken = 0;

  constructor(private readonly counts: (mount: MountEntry) => boolean) {}

  of(mounts: readonly MountEntry[], edit?: LineEdit): ReadonlyMap<string, MountEntry> {
    let firsts = this.answers.get(mounts);
    if (firsts) return firsts;
    const previous = edit ? this.answers.get(edit.previousItems as readonly MountEntry[]) : undefined;
    const previousTokens = edit ? this.tokenMaps.get(edit.previousItems as readonly MountEntry[]) : undefined;
    let tokens: Map<string, number>;
    if (edit && previous && previousTokens) {
      this.answers.delete(edit.previousItems as readonly MountEntry[]);
      this.tokenMaps.delete(edit.previousItems as readonly MountEntry[]);
      tokens = previousTokens;
      firsts = this.updated(previous, tokens, mounts, edit);
    } else {
      tokens = new Map();
      firsts = this.built(mounts, tokens);
    }
    this.answers.set(mounts, firsts);
    this.tokenMaps.set(mounts, tokens);
    return firsts;
  }

  /** The tokens of `of(mounts, edit)`'s answer, by transport key (see tokenMaps). */
  tokens(mounts: readonly MountEntry[], edit?: LineEdit): ReadonlyMap<string, number> {
    this.of(mounts, edit);
    return this.tokenMaps.get(mounts)!;
  }

  private built(mounts: readonly MountEntry[], tokens: Map<string, number>): Map<string, MountEntry> {
    const firsts = new Map<string, MountEntry>();
    for (const mount of mounts) {
      if (!this.counts(mount)) continue;
      const key = transportKey(mount)!;
      if (!firsts.has(key)) {
        firsts.set(key, mount);
        tokens.set(key, ++this.lastToken);
      }
    }
    return firsts;
  }

  /** `previous` (the answer for the list before the edit) made the answer for `mounts`. */
  private updated(
    previous: Map<string, MountEntry>,
    tokens: Map<string, number>,
    mounts: readonly MountEntry[],
    edit: LineEdit,
  ): Map<string, MountEntry> {
    // Keys whose first mount was re-read: their first is now the earliest of the list from the edit on.
    const lost = new Map<string, MountEntry>();
    for (const mount of edit.removed as readonly MountEntry[]) {
      if (!this.counts(mount)) continue;
      const key = transportKey(mount)!;
      if (previous.get(key) === mount) {
        previous.delete(key);
        lost.set(key, mount);
      }
    }
    // A shell script's edit may list kept mounts as read again (workspace/shellReuse.ts, a run over
    // both parts of its mount list): the memo keeps their findings, so a key's token stays only
    // when its first mount is the same or both it and the one before are new objects.
    let removed: Set<MountEntry> | undefined;
    const kept = (mount: MountEntry) => (removed ??= new Set(edit.removed as readonly MountEntry[])).has(mount);
    const sameOrBothNew = (before: MountEntry, now: MountEntry) =>
      before === now || (!kept(now) && !this.reread(before, mounts, edit));
    for (let i = edit.itemsFrom; i < edit.itemsTo; i++) {
      const mount = mounts[i]!;
      if (!this.counts(mount)) continue;
      const key = transportKey(mount)!;
      const first = previous.get(key);
      // Mounts before the edit are kept in place and mounts after it moved together: offsets order them.
      if (!first || first.span.start > mount.span.start) {
        // A kept first mount displaced, or a key new to the list: a new token. A re-read first replaced: the same.
        const before = lost.get(key);
        if (first ? !this.reread(first, mounts, edit) : !before || !sameOrBothNew(before, mount))
          tokens.set(key, ++this.lastToken);
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
        // A kept mount becomes first.
        previous.set(key, mount);
        tokens.set(key, ++this.lastToken);
      }
    }
    for (const key of lost.keys()) tokens.delete(key);
    return previous;
  }

  /** Whether `mount` (first in the updated answer) is one of the edit's re-read mounts. */
  private reread(mount: MountEntry, mounts: readonly MountEntry[], edit: LineEdit): boolean {
    for (let i = edit.itemsFrom; i < edit.itemsTo; i++) if (mounts[i] === mount) return true;
    return false;
  }
}

/**
 * The edit of a file's mount list from its previous version's (`ParsedFile.lineEdit`): a shell
 * script's edit lists mounts and settings together, and gives the mounts' own run when it has one
 * (workspace/shellReuse.ts); an fstab's or autofs map's lists mounts.
 */
export function mountEditOf(file: ParsedFile): LineEdit | undefined {
  const edit = file.lineEdit;
  return edit && file.kind === 'shell' ? edit.mounts : edit;
}
