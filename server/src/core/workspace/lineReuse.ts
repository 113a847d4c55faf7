/**
 * Re-reading a line-based file after an edit (issue 17): only the lines the edit touched are read
 * again, plus the lines whose meaning depends on them; the other lines' mounts are kept, the same
 * objects, their offsets moved by the edit's length (in place, see `LineEdit`). Falls back to a
 * whole read (returns undefined) whenever it cannot be sure the result equals one.
 *
 * Kinds read this way: fstab (one mount per line; a `# anf:` annotation applies to the mount below
 * its comment block, so an edit also re-reads the first line after the comment lines that follow it);
 * autofs maps (as fstab, an entry's lines joined by a trailing `\` read together; a multi-mount
 * entry's mounts are read together);
 * sysctl.conf and sysctl.d (one setting or problem per line, nothing spans lines); modprobe.d (the
 * settings of one `options` line, lines joined by a trailing `\` read together).
 */
import { MALFORMED_CODE, parseFstabLine } from '../mounts/fstab';
import { parseAutofsMap } from '../mounts/autofs';
import { annotateNewMount, ANNOTATION_CODE, COMMENT_LINE, FENCE_LINE, readAnnotations } from '../mounts/annotation';
import type { MountEntry, MountOption } from '../mounts/model';
import { anchorOf } from '../mounts/lineSpan';
import type { ParseProblem } from '../diagnostics';
import { changedRegion } from '../text/changedRegion';
import { ownCopy, ownItems } from '../text/ownText';
import { firstStartingAt, type SourceText, type Span } from '../text/sourceText';
import type { LineEdit, ParsedFile } from './parsedFile';
import { MALFORMED_MODPROBE_LINE, MALFORMED_SYSCTL_LINE, QUOTED_KERNEL_LINE } from '../sysctl/lines';
import { extractModprobeFile, extractSysctlFile } from '../sysctl/extract';
import type { KernelSetting } from '../sysctl/model';

/** The kinds re-read line by line: their mounts keep their identity from version to version. */
export const LINE_REUSE_KINDS: ReadonlySet<string> = new Set(['fstab', 'autofs', 'sysctl', 'modprobe']);

/** The kinds whose items are mounts read line by line (the others' are kernel settings). */
export const MOUNT_LINE_KINDS: ReadonlySet<string> = new Set(['fstab', 'autofs']);

export interface LineReread {
  readonly mounts: MountEntry[];
  readonly problems: ParseProblem[];
  readonly edit: LineEdit;
}

/**
 * The lines an edit touched: lines [first, oldLast] of the old text became [first, newLast] of the
 * new one; every line after them starts after the common suffix begins, so it is the same text in
 * both, `delta` further on. Undefined when the first touched line does not start at the same
 * offset in both (a whole read then).
 */
function editedLines(
  before: SourceText,
  source: SourceText,
): { first: number; oldLast: number; newLast: number; delta: number } | undefined {
  const region = changedRegion(before.text, source.text);
  const first = before.positionAt(region.start).line;
  if (source.lineStart(first) !== before.lineStart(first)) return undefined;
  return {
    first,
    oldLast: before.positionAt(region.oldEnd).line,
    newLast: source.positionAt(region.newEnd).line,
    delta: source.text.length - before.text.length,
  };
}

/** Re-reads an fstab or an autofs map after an edit, or undefined when only a whole read is sure to be right. */
export function rereadMountLines(previous: ParsedFile, source: SourceText, uri: string): LineReread | undefined {
  if (!MOUNT_LINE_KINDS.has(previous.kind) || previous.uri !== uri) return undefined;
  for (const problem of previous.problems)
    if (problem.code !== MALFORMED_CODE && problem.code !== ANNOTATION_CODE) return undefined;
  const autofs = previous.kind === 'autofs';
  const before = previous.source;
  const lines = editedLines(before, source);
  if (!lines) return undefined;
  const { delta } = lines;
  let { first, oldLast, newLast } = lines;
  // autofs joins a line ending in `\` with the next (autofs.ts): start at the entry's first line (the lines above the edit are the same in both versions).
  if (autofs) while (first > 0 && CONTINUED.test(before.lineText(first - 1))) first--;
  // An annotation applies to the mount under its comment block: read on through the comment lines
  // after the edit, to the first other line, whose annotation the edit may have changed.
  const commentAt = (text: SourceText, line: number) =>
    COMMENT_LINE.test(text.lineText(line)) || FENCE_LINE.test(text.lineText(line));
  // Not needed when the last edited line is no comment line in either version (it ends any block
  // above the next mount), nor when every edited line is a comment without `anf:` in both versions
  // (the block above the next mount holds the same annotation).
  const plainComments = (text: SourceText, last: number) => {
    for (let line = first; line <= last; line++)
      if (!commentAt(text, line) || text.lineText(line).includes('anf:')) return false;
    return true;
  };
  const extend =
    (commentAt(before, oldLast) || commentAt(source, newLast)) &&
    !(plainComments(before, oldLast) && plainComments(source, newLast));
  while (extend && newLast + 1 < source.lineCount && oldLast + 1 < before.lineCount) {
    newLast++;
    oldLast++;
    const text = source.lineText(newLast);
    if (!COMMENT_LINE.test(text) && !FENCE_LINE.test(text)) break;
  }
  // And, in an autofs map, end at the last line of the entry the edit ends in, in both versions.
  const edit = editedSpan(before, source, first, oldLast, newLast, delta, autofs);
  if (!edit) return undefined;
  ({ oldLast, newLast } = edit);
  const { changedStart, oldEnd, newEnd } = edit;

  // The mounts and problems before the edit stay, those after it move; those on the lines between are read again.
  const oldMounts = previous.mounts;
  // An fstab's mounts are one per line, in offset order: found by bisection, not by a walk that
  // touches every mount above the edit. An autofs map's entries may hold several mounts: walked.
  const { from, to } = itemsBetween(
    oldMounts,
    autofs ? 0 : firstStartingAt(oldMounts, changedStart),
    changedStart,
    oldEnd,
  );

  const freshProblems: ParseProblem[] = [];
  let fresh: MountEntry[] = [];
  if (autofs) fresh = parseAutofsMap(source, uri, freshProblems, { from: first, to: newLast + 1 });
  else {
    for (let line = first; line <= newLast; line++) {
      const entry = parseFstabLine(
        ownCopy(source.lineText(line)),
        source.lineStart(line),
        uri,
        freshProblems,
        'fstab',
        true,
      );
      if (entry) fresh.push(entry);
    }
  }
  // Annotations: those on the re-read lines (with their problems), and the comment block above them.
  let top = first;
  while (top > 0 && (COMMENT_LINE.test(source.lineText(top - 1)) || FENCE_LINE.test(source.lineText(top - 1)))) top--;
  const annotationProblems: ParseProblem[] = [];
  const annotations = readAnnotations(source, annotationProblems, { from: top, to: newLast });
  if (annotations.size > 0) for (const mount of fresh) annotateNewMount(mount, source, annotations);
  // Kept for later versions: their strings must not hold this version's text (text/ownText.ts). An
  // fstab line is copied before it is read (cheaper: one copy per line); an autofs entry's strings after.
  if (autofs) ownItems(fresh);
  ownItems(freshProblems);
  ownItems(annotationProblems);

  // Problems in the order a whole read gives them: the fstab lines' (ANF200), then the annotations' (ANF201).
  // (Copied before the mounts move: a malformed line's problem shares its span with its mount.)
  const problems: ParseProblem[] = [];
  mergeProblems(problems, previous.problems, MALFORMED_CODE, changedStart, oldEnd, delta, freshProblems);
  mergeProblems(
    problems,
    previous.problems,
    ANNOTATION_CODE,
    changedStart,
    oldEnd,
    delta,
    annotationProblems.filter((p) => p.span.start >= changedStart),
  );

  const removed = oldMounts.slice(from, to);
  // The kept mounts by native copies (a push per mount was most of this function's own time at 10,000 lines).
  const mounts = oldMounts.slice(0, from).concat(fresh, oldMounts.slice(to));
  // An autofs multi-mount entry's mounts share their key, options and options span objects: each is moved once.
  const seen = autofs ? new Set<Span>() : undefined;
  if (delta !== 0) for (let i = to; i < oldMounts.length; i++) shiftMount(oldMounts[i]!, delta, seen);
  return {
    mounts,
    problems,
    edit: {
      previousItems: oldMounts,
      itemsFrom: from,
      itemsTo: from + fresh.length,
      removed,
      changed: { start: changedStart, end: newEnd },
      delta,
    },
  };
}

export interface SettingReread {
  readonly settings: KernelSetting[];
  readonly problems: ParseProblem[];
  readonly edit: LineEdit;
}

/** The problems each kind's lines make (lines.ts): each lies on its own (logical) line. */
const LINE_CODES: Readonly<Record<string, ReadonlySet<string>>> = {
  sysctl: new Set([MALFORMED_SYSCTL_LINE, QUOTED_KERNEL_LINE]),
  modprobe: new Set([MALFORMED_MODPROBE_LINE, QUOTED_KERNEL_LINE]),
};

/** modprobe.d joins a line ending in `\` with the next one (extract.ts). */
const CONTINUED = /\\\s*$/;

/**
 * The items (in offset order) that start between `changedStart` and `oldEnd`, the lines an edit
 * re-reads, searched from `start`: `from` is the first of them, `to` the one after the last.
 */
function itemsBetween(
  items: readonly { span: Span }[],
  start: number,
  changedStart: number,
  oldEnd: number,
): { from: number; to: number } {
  let from = start;
  while (from < items.length && items[from]!.span.start < changedStart) from++;
  let to = from;
  while (to < items.length && items[to]!.span.start <= oldEnd) to++;
  return { from, to };
}

/**
 * The re-read lines' last line in each version and their offsets, from `first` to `oldLast` (old
 * version) and `newLast` (new one). With `joined`, the lines end with the joined line (`\`
 * continuations) they end in. Undefined when a joined line runs on past what both versions share,
 * or the lines do not hold the whole edit.
 */
function editedSpan(
  before: SourceText,
  source: SourceText,
  first: number,
  oldLast: number,
  newLast: number,
  delta: number,
  joined: boolean,
): { oldLast: number; newLast: number; changedStart: number; oldEnd: number; newEnd: number } | undefined {
  if (joined) {
    const ends = endOfJoinedLine(before, source, oldLast, newLast);
    if (!ends) return undefined;
    ({ oldLast, newLast } = ends);
  }
  const changedStart = source.lineStart(first);
  const oldEnd = before.lineEnd(oldLast);
  const newEnd = source.lineEnd(newLast);
  if (oldEnd + delta !== newEnd) return undefined;
  return { oldLast, newLast, changedStart, oldEnd, newEnd };
}

/**
 * The last lines, in the old and the new version, of the joined line (`\` continuations) that
 * `oldLast` and `newLast` are in; undefined when it runs on past what both versions share.
 */
function endOfJoinedLine(
  before: SourceText,
  source: SourceText,
  oldLast: number,
  newLast: number,
): { oldLast: number; newLast: number } | undefined {
  while (
    newLast + 1 < source.lineCount &&
    oldLast + 1 < before.lineCount &&
    (CONTINUED.test(source.lineText(newLast)) || CONTINUED.test(before.lineText(oldLast)))
  ) {
    newLast++;
    oldLast++;
  }
  if (
    (CONTINUED.test(source.lineText(newLast)) && newLast + 1 < source.lineCount) ||
    (CONTINUED.test(before.lineText(oldLast)) && oldLast + 1 < before.lineCount)
  )
    return undefined;
  return { oldLast, newLast };
}

/**
 * Re-reads a sysctl.conf / sysctl.d or modprobe.d file after an edit, or undefined when only a
 * whole read is sure to be right. sysctl.d(5) has no continuation lines: a line's setting (or
 * problem) depends on that line alone. modprobe.d joins a line ending in `\` with the next: the
 * re-read lines grow to whole joined lines, in the old version and the new one.
 */
export function rereadSettings(previous: ParsedFile, source: SourceText, uri: string): SettingReread | undefined {
  const codes = LINE_CODES[previous.kind];
  if (!codes || previous.uri !== uri || previous.mounts.length > 0) return undefined;
  for (const problem of previous.problems) if (!codes.has(problem.code)) return undefined;
  const modprobe = previous.kind === 'modprobe';
  const before = previous.source;
  const lines = editedLines(before, source);
  if (!lines) return undefined;
  const { delta } = lines;
  let { first, oldLast, newLast } = lines;
  if (modprobe) {
    // The lines above the edit are the same in both versions; those below it too.
    while (first > 0 && CONTINUED.test(before.lineText(first - 1))) first--;
  }
  const edit = editedSpan(before, source, first, oldLast, newLast, delta, modprobe);
  if (!edit) return undefined;
  ({ oldLast, newLast } = edit);
  const { changedStart, oldEnd, newEnd } = edit;

  const old = previous.settings;
  // Settings are in offset order, one line (or joined line) each: bisection, as for an fstab.
  const { from, to } = itemsBetween(old, firstStartingAt(old, changedStart), changedStart, oldEnd);

  const sink = { uri, settings: [] as KernelSetting[], problems: [] as ParseProblem[] };
  if (modprobe) extractModprobeFile(source, sink, first, newLast + 1);
  else extractSysctlFile(source, sink, first, newLast + 1);
  // Kept for later versions: their strings must not hold this version's text (text/ownText.ts).
  ownItems(sink.settings);
  ownItems(sink.problems);
  // Problems first: copied before the settings move (nothing shares spans between them, but cheap to keep the order).
  const problems: ParseProblem[] = [];
  let inserted = false;
  for (const problem of previous.problems) {
    if (problem.span.start < changedStart) {
      problems.push(problem);
      continue;
    }
    if (!inserted) {
      for (const p of sink.problems) problems.push(p);
      inserted = true;
    }
    if (problem.span.start > oldEnd) problems.push(delta === 0 ? problem : shiftProblem(problem, delta));
  }
  if (!inserted) for (const p of sink.problems) problems.push(p);

  const removed = old.slice(from, to);
  const settings: KernelSetting[] = [];
  for (let i = 0; i < from; i++) settings.push(old[i]!);
  for (const setting of sink.settings) settings.push(setting);
  for (let i = to; i < old.length; i++) settings.push(delta === 0 ? old[i]! : shiftSetting(old[i]!, delta));
  return {
    settings,
    problems,
    edit: {
      previousItems: old,
      itemsFrom: from,
      itemsTo: from + sink.settings.length,
      removed,
      changed: { start: changedStart, end: newEnd },
      delta,
    },
  };
}

/** Moves a kept setting's offsets in place (as `shiftMount`); its spans are its own objects (piece.ts). */
function shiftSetting(setting: KernelSetting, delta: number): KernelSetting {
  move(setting.span, delta);
  move(setting.keySpan, delta);
  move(setting.valueSpan, delta);
  move(setting.moduleSpan, delta);
  if (setting.fields) for (const field of setting.fields) move(field.span, delta);
  return setting;
}

function mergeProblems(
  into: ParseProblem[],
  old: readonly ParseProblem[],
  code: string,
  start: number,
  oldEnd: number,
  delta: number,
  fresh: readonly ParseProblem[],
): void {
  let inserted = false;
  for (const problem of old) {
    if (problem.code !== code) continue;
    if (problem.span.start < start) {
      into.push(problem);
      continue;
    }
    if (!inserted) {
      for (const p of fresh) into.push(p);
      inserted = true;
    }
    if (problem.span.start > oldEnd) into.push(delta === 0 ? problem : shiftProblem(problem, delta));
  }
  if (!inserted) for (const p of fresh) into.push(p);
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function move(span: Span | undefined, delta: number, seen?: Set<Span>): void {
  if (!span) return;
  if (seen) {
    if (seen.has(span)) return;
    seen.add(span);
  }
  const writable = span as Writable<Span>;
  writable.start += delta;
  writable.end += delta;
}

/**
 * Moves a kept mount's offsets in place: a copy of every mount after an edit was most of the cost
 * (and garbage) of an edit near the top of a large file, and keeping the object keeps what is
 * cached per mount (effective options, transport key, rule findings). Every span object is moved
 * once: an option without a value shares its span with its name (optionText.ts).
 * An fstab line without placeholders or quotes (nearly all) has its spans on one anchor
 * (mounts/lineSpan.ts): moving the anchor moves them all; only its annotation, on a comment line
 * above it, is a span of its own.
 */
function shiftMount(mount: MountEntry, delta: number, seen?: Set<Span>): MountEntry {
  if (seen) return shiftSharedMount(mount, delta, seen);
  const anchor = anchorOf(mount.span);
  if (anchor) {
    anchor.start += delta;
    move(mount.annotationSpan, delta);
    return mount;
  }
  move(mount.span, delta);
  move(mount.sourceSpan, delta);
  move(mount.mountPointSpan, delta);
  move(mount.fsTypeSpan, delta);
  move(mount.optionsSpan, delta);
  move(mount.annotationSpan, delta);
  move(mount.dumpSpan, delta);
  move(mount.fsckPassSpan, delta);
  if (mount.optionsFsType) move(mount.optionsFsType.span, delta);
  if (mount.optionsQuotes) {
    move(mount.optionsQuotes.open, delta);
    move(mount.optionsQuotes.close, delta);
  }
  for (const option of mount.options) shiftOption(option, delta);
  return mount;
}

function shiftOption(option: MountOption, delta: number): void {
  move(option.span, delta);
  if (option.nameSpan !== option.span) move(option.nameSpan, delta);
  if (option.valueSpan && option.valueSpan !== option.span && option.valueSpan !== option.nameSpan)
    move(option.valueSpan, delta);
}

/**
 * An autofs mount: its `fstype=` value is its file system type's span, and a multi-mount entry's
 * mounts share the key, the options and their spans. Every span object is moved once (`seen`).
 */
function shiftSharedMount(mount: MountEntry, delta: number, seen: Set<Span>): MountEntry {
  for (const span of [
    mount.span,
    mount.sourceSpan,
    mount.mountPointSpan,
    mount.fsTypeSpan,
    mount.optionsSpan,
    mount.annotationSpan,
    mount.dumpSpan,
    mount.fsckPassSpan,
    mount.optionsFsType?.span,
    mount.optionsQuotes?.open,
    mount.optionsQuotes?.close,
  ])
    move(span, delta, seen);
  for (const option of mount.options)
    for (const span of [option.span, option.nameSpan, option.valueSpan]) move(span, delta, seen);
  return mount;
}

/** Problems are few: copied, with their fixes' edits (all in this file: readers make no edits elsewhere). */
function shiftProblem(problem: ParseProblem, delta: number): ParseProblem {
  const span = (s: Span): Span => ({ start: s.start + delta, end: s.end + delta });
  return {
    ...problem,
    span: span(problem.span),
    ...(problem.fixes
      ? { fixes: problem.fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => ({ ...e, span: span(e.span) })) })) }
      : {}),
  };
}
