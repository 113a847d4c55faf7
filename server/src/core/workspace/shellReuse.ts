/**
 * Re-reading a shell script after an edit in the editor (issue 17): only the commands the edit
 * touched are read again; the other commands' mounts, kernel settings and problems are kept, the
 * same objects, their offsets moved by the edit's length in place (as workspace/lineReuse.ts does
 * for fstab). Falls back to a whole read whenever it cannot be sure the result equals one.
 *
 * What spans lines in a script, and how the re-read region covers it:
 * - The unit is a run of whole lines between two *fresh* line starts: places where the tokenizer
 *   (text/shell.ts) has no word, command, pipeline or here-document open, so that reading from
 *   there gives the commands a whole read gives. `\` continuations, quotes and `$(...)` over
 *   several lines, here-document bodies (`cat >> /etc/fstab <<EOF ... EOF`) and `... |` at a line's
 *   end leave no fresh start inside them. The region starts at the last fresh start before the edit
 *   and ends at the first fresh start after it where the new text's reading meets the old one's
 *   (the same offset less the edit's length was fresh in the old text, and the text after it is
 *   the same): from there on both readings are the same, moved.
 * - Variables (`OPTS="rw,hard"` ... `mount -o "$OPTS"`, shellMounts.ts): a variable assigned once
 *   to a literal and used once lends its text to the mount. For every variable the edit touches
 *   (assigned or used in the old or the new region), the region grows until it holds both the
 *   assignment and the use, in both versions; the others are the same in both.
 * - `# anf:` annotations apply to the mount under their comment block (annotation.ts): the comment
 *   block above the region is read with it, and a region that ends in a comment line (in either
 *   version) grows past the first line after it that is no comment.
 * - The looks at the whole script before reading it (does it say `mount` or `fstab`, does it hold
 *   anything like an option string) are asked of the whole new text, as a whole read asks them.
 *
 * The items of a script are its mounts and its kernel settings; for the per-item reuse of findings
 * (rules/engine.ts, LintMemo) they are one list ordered by offset (`shellItems`), which the edit's
 * `LineEdit` describes.
 */
import { annotateNewMount, COMMENT_LINE, FENCE_LINE, readAnnotations, ANNOTATION_CODE } from '../mounts/annotation';
import { mayHoldOptionStrings, shellOptionWords } from '../mounts/contentStrings';
import { extractMounts } from '../mounts/extract';
import type { MountEntry } from '../mounts/model';
import {
  forEachAssignment,
  mayHoldMounts,
  shellMountsWith,
  VARIABLE_USE,
  type LiteralVariable,
} from '../mounts/shellMounts';
import { extractKernelSettings } from '../sysctl/extract';
import type { KernelSetting } from '../sysctl/model';
import { scanShell } from '../sysctl/shell';
import type { Sink } from '../sysctl/lines';
import { changedRegion, type ChangedRegion } from '../text/changedRegion';
import { ownItems } from '../text/ownText';
import { firstStartingAt, type SourceText, type Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import type { LineEdit, LineItem, ParsedFile } from './parsedFile';

/** What a script read gives parseFile: the mount reader's and the kernel-setting reader's results. */
export interface ShellRead {
  readonly mounts: MountEntry[];
  readonly settings: KernelSetting[];
  /** The mount reader's problems (fstab lines the script writes, then `# anf:` annotations). */
  readonly mountProblems: ParseProblem[];
  readonly kernelProblems: ParseProblem[];
  readonly edit?: LineEdit;
}

/** A variable's assignment (`value` when literal) or use, at an offset of the text. */
interface Assignment {
  at: number;
  readonly name: string;
  readonly value: { raw: string; start: number } | null;
}
interface Use {
  at: number;
  readonly name: string;
}

/** What a read of one version keeps for re-reading the next. */
interface ShellState {
  /** The fresh line starts, ascending (0 first). */
  readonly fresh: number[];
  /** `mounts[0, commandMounts)` come from commands, the rest are option strings found by content. */
  readonly commandMounts: number;
  /** `mountProblems[0, lineProblems)` come from the fstab lines the script writes, the rest from annotations. */
  readonly lineProblems: number;
  readonly assignments: Assignment[];
  readonly uses: Use[];
  /** Mounts and settings by offset (`shellItems`). */
  readonly items: readonly LineItem[];
  readonly mountProblems: readonly ParseProblem[];
  readonly kernelProblems: readonly ParseProblem[];
  /**
   * The mounts whose options lie outside their own text (`reachesOut`: `mount -o "$OPTS"` and the
   * assignment of OPTS), in no order: the only mounts before an edit that may have spans after it,
   * and the only ones whose option text an edit between the two must re-read (touchedVariables).
   * Kept per version so that an edit does not walk every mount's options to find them.
   */
  readonly reaching: readonly MountEntry[];
}

/** By version (its SourceText): a state is used once, by the read of the next version. */
const STATES = new WeakMap<SourceText, ShellState>();
/** By mount list: the script's items, for files read without a state (a whole lint after a CLI read). */
const ITEMS = new WeakMap<readonly MountEntry[], readonly LineItem[]>();

/** A region grows at most this many times (variables reaching further out) before a whole read is cheaper to trust. */
const MAX_GROWTH = 8; // not a fact: bound on region growth rounds

/**
 * Reads a shell script in the editor: from the previous version when it was read here too (only
 * the commands the edit touched), else whole, keeping what the next version's read needs.
 * Undefined when a reader fails (parseFile then reads it its own way and reports the failure).
 */
export function readShellScript(
  source: SourceText,
  uri: string,
  previous: ParsedFile | undefined,
): ShellRead | undefined {
  const state = previous && previous.kind === 'shell' && previous.uri === uri ? STATES.get(previous.source) : undefined;
  if (previous && state) {
    STATES.delete(previous.source);
    try {
      const reread = rereadShell(previous, state, source, uri);
      if (reread) return reread;
    } catch {
      // A whole read below: it reports a reader that fails as parseFile does.
    }
  }
  try {
    return readWhole(source, uri);
  } catch {
    return undefined;
  }
}

/** The mounts and kernel settings of a script in one list, by offset (mounts first at the same offset). */
export function shellItems(file: ParsedFile): readonly LineItem[] {
  let items = ITEMS.get(file.mounts);
  if (!items) ITEMS.set(file.mounts, (items = byOffset(file.mounts, file.settings)));
  return items;
}

const ORDERS = new WeakMap<readonly LineItem[], readonly number[]>();

/**
 * `shellItems(file)`'s indexes in the order rules report on them: the mounts in the mount list's
 * order (those of commands, then option strings found by content), then the settings. The first
 * findings of a rule in that order are the ones listed when it has too many (lint.ts).
 */
export function shellReportOrder(file: ParsedFile): readonly number[] {
  const items = shellItems(file);
  let order = ORDERS.get(items);
  if (!order) {
    // Each item found by bisection on its offset (the items are in offset order): no map of every item per version.
    const list = new Array<number>(items.length);
    let k = 0;
    let hint = 0;
    for (const mount of file.mounts) hint = (list[k++] = indexOfItem(items, mount, hint)) + 1;
    hint = 0;
    for (const setting of file.settings) hint = (list[k++] = indexOfItem(items, setting, hint)) + 1;
    ORDERS.set(items, (order = list));
  }
  return order;
}

/** How far indexOfItem walks from its hint before it bisects. */
const NEAR = 16; // not a fact: a few steps, about what a bisection of a few thousand items takes

/**
 * The index of `item` in `items` (in offset order; several may start at one offset), -1 if absent
 * (never: `shellItems` holds them all). `hint`: one past the index of the item asked before, which
 * mostly lies a few items above this one (each list is mostly in offset order): walked from there.
 */
function indexOfItem(items: readonly LineItem[], item: LineItem, hint: number): number {
  const at = item.span.start;
  let i = hint;
  if (i > 0 && i <= items.length && items[i - 1]!.span.start < at) {
    const stop = Math.min(items.length, i + NEAR);
    while (i < stop && items[i]!.span.start < at) i++;
    if (i < items.length && items[i]!.span.start < at) i = firstStartingAt(items, at);
  } else {
    i = firstStartingAt(items, at);
  }
  for (; i < items.length && items[i]!.span.start === at; i++) if (items[i] === item) return i;
  return -1;
}

function byOffset(mounts: readonly MountEntry[], settings: readonly KernelSetting[]): LineItem[] {
  const items: LineItem[] = [...mounts, ...settings];
  // Stable: at the same offset, mounts before settings, each in its reader's order.
  return items.sort((a, b) => a.span.start - b.span.start);
}

function readWhole(source: SourceText, uri: string): ShellRead {
  const mounted = extractMounts(source, uri, 'shell');
  const kernel = extractKernelSettings(source, uri, 'shell');
  const mounts = mounted.mounts as MountEntry[];
  const settings = kernel.settings as KernelSetting[];
  const mountProblems = mounted.problems as ParseProblem[];
  const kernelProblems = kernel.problems as ParseProblem[];
  // Option strings found by content come after the commands' mounts (mounts/extract.ts); annotation problems after the lines'.
  let commandMounts = mounts.length;
  while (commandMounts > 0 && mounts[commandMounts - 1]!.optionsOnly) commandMounts--;
  let lineProblems = mountProblems.length;
  while (lineProblems > 0 && mountProblems[lineProblems - 1]!.code === ANNOTATION_CODE) lineProblems--;
  const text = source.text;
  const fresh: number[] = [0];
  const assignments: Assignment[] = [];
  forEachAssignment(text, 0, text.length, (name, value, at) => assignments.push({ at, name, value }), {
    freshLine: (at) => void fresh.push(at),
  });
  const uses = usesIn(text, 0, text.length);
  const items = byOffset(mounts, settings);
  ITEMS.set(mounts, items);
  STATES.set(source, {
    fresh,
    commandMounts,
    lineProblems,
    assignments,
    uses,
    items,
    mountProblems,
    kernelProblems,
    reaching: mounts.filter(reachesOut),
  });
  return { mounts, settings, mountProblems, kernelProblems };
}

function usesIn(text: string, from: number, to: number): Use[] {
  const uses: Use[] = [];
  if (text.indexOf('$', from) < 0) return uses;
  const slice = text.slice(from, to);
  for (const match of slice.matchAll(VARIABLE_USE)) uses.push({ at: from + match.index, name: match[1]! });
  return uses;
}

/** The first index of an ascending list whose value is at least `value`. */
function lowerBound(list: readonly number[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (list[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

const commentAt = (text: SourceText, line: number) =>
  line >= 0 &&
  line < text.lineCount &&
  (COMMENT_LINE.test(text.lineText(line)) || FENCE_LINE.test(text.lineText(line)));

interface Region {
  /** Where the region starts (both versions) and ends in the old and the new text. */
  readonly from: number;
  readonly oldTo: number;
  readonly newTo: number;
  /** The new text's fresh line starts in (from, newTo]. */
  readonly fresh: number[];
  /** The new text's assignments and uses in [from, newTo). */
  readonly assignments: Assignment[];
  readonly uses: Use[];
}

function rereadShell(previous: ParsedFile, state: ShellState, source: SourceText, uri: string): ShellRead | undefined {
  const before = previous.source;
  const oldText = before.text;
  const text = source.text;
  const change = changedRegion(oldText, text);
  const delta = text.length - oldText.length;
  const oldFresh = state.fresh;
  let from = oldFresh[lowerBound(oldFresh, change.start + 1) - 1]!;
  let least = change.newEnd;
  let region: Region | undefined;
  let lineProblems: ParseProblem[] = [];
  let commandMounts: MountEntry[] = [];
  // Where the previous version's mounts take options from outside their own command (a variable's assignment).
  // Asked only when an edit keeps a variable's literal (touchedVariables): a walk of every mount.
  let remote: number[] | undefined;
  const remoteOf = (): readonly number[] => (remote ??= remoteOptions(state.reaching));
  const holdsMounts = mayHoldMounts(text);
  for (let round = 0; ; round++) {
    if (round > MAX_GROWTH) return undefined;
    region = readRegion(text, before, source, oldFresh, from, least, delta);
    // Variables the edit touches: their assignment and use lie in the region, in both versions, unless nothing else reads them.
    const grown = touchedVariables(state, remoteOf, region, change, delta);
    if (grown.from >= from && grown.least <= least) {
      // The region's commands, read as a whole read reads them.
      lineProblems = [];
      commandMounts = holdsMounts
        ? shellMountsWith(text, { uri, host: 'shell', problems: lineProblems }, from, region.newTo, grown.literals)
        : [];
      // A re-read mount that takes its options from a variable outside the region: both in it (as above).
      for (const mount of commandMounts) {
        const extent = remoteExtent(mount);
        if (extent && extent.start < from) grown.from = Math.min(grown.from, extent.start);
        if (extent && extent.end > region.newTo) grown.least = Math.max(grown.least, extent.end);
      }
      if (grown.from >= from && grown.least <= least) break;
    }
    from = Math.min(from, oldFresh[lowerBound(oldFresh, grown.from + 1) - 1]!);
    least = Math.max(least, grown.least);
  }
  const { oldTo, newTo } = region;
  const contentMounts = mayHoldOptionStrings(text)
    ? shellOptionWords(text, uri, 'shell', commandMounts, from, newTo)
    : [];
  const sink: Sink = { uri, settings: [], problems: [] };
  scanShell(text, from, newTo, sink);
  // Annotations: those on the region's lines, and the comment block above it (for its mounts).
  const annotationProblems: ParseProblem[] = [];
  if (newTo > from) {
    let top = source.positionAt(from).line;
    const last = source.positionAt(newTo - 1).line;
    while (top > 0 && commentAt(source, top - 1)) top--;
    const found: ParseProblem[] = [];
    const annotations = readAnnotations(source, found, { from: top, to: last });
    for (const problem of found) if (problem.span.start >= from) annotationProblems.push(problem);
    if (annotations.size > 0) {
      for (const mount of commandMounts) annotateNewMount(mount, source, annotations);
      for (const mount of contentMounts) annotateNewMount(mount, source, annotations);
    }
  }

  // Where the old lists' region entries are: each list holds the entries before the region, then its own, then those after.
  const mounts = previous.mounts;
  const oldCommand = mounts.slice(0, state.commandMounts);
  const oldContent = mounts.slice(state.commandMounts);
  const parts = [
    partition(oldCommand, from, oldTo),
    partition(oldContent, from, oldTo),
    partition(previous.settings, from, oldTo),
    partition(state.mountProblems.slice(0, state.lineProblems), from, oldTo),
    partition(state.mountProblems.slice(state.lineProblems), from, oldTo),
    partition(state.kernelProblems, from, oldTo),
  ];
  if (parts.some((p) => p === undefined)) return undefined;
  type Part = [number, number];
  const [commandPart, contentPart, settingPart, linePart, annotationPart, kernelPart] = parts as [
    Part,
    Part,
    Part,
    Part,
    Part,
    Part,
  ];
  const items = state.items;
  const itemsFrom = firstStartingAt(items, from);
  const itemsTo = firstStartingAt(items, oldTo);

  // Sure now: build the new lists (the kept entries move in place, the previous version is done with).
  // Problems first: copied before the mounts move (a malformed fstab line's problem shares its span with its mount).
  const keepProblem = (problem: ParseProblem) => shiftProblem(problem, oldTo, delta);
  const newLineProblems = splice(state.mountProblems.slice(0, state.lineProblems), linePart, lineProblems, keepProblem);
  const newAnnotationProblems = splice(
    state.mountProblems.slice(state.lineProblems),
    annotationPart,
    annotationProblems,
    keepProblem,
  );
  const mountProblems = newLineProblems.concat(newAnnotationProblems);
  const kernelProblems = splice(state.kernelProblems, kernelPart, sink.problems, keepProblem);
  const moved = new Set<Span>();
  // Kept mounts that reach out, found before any moves (old offsets); then the re-read ones.
  const reaching = state.reaching.filter((mount) => mount.span.start < from || mount.span.start >= oldTo);
  for (const mount of commandMounts) if (reachesOut(mount)) reaching.push(mount);
  for (const mount of contentMounts) if (reachesOut(mount)) reaching.push(mount);
  // Mounts before the region keep every span before it, but those whose options lie elsewhere (`reaching`).
  for (const mount of reaching)
    if (mount.span.start < from && mount.span.end < oldTo) shiftMount(mount, oldTo, delta, moved);
  const keepMount = (mount: MountEntry) => shiftMount(mount, oldTo, delta, moved);
  const keepBefore = (mount: MountEntry) => (mount.span.end < oldTo ? mount : shiftMount(mount, oldTo, delta, moved));
  const keepSetting = (setting: KernelSetting) => shiftSetting(setting, oldTo, delta, moved);
  const newCommand = splice(oldCommand, commandPart, commandMounts, keepMount, keepBefore);
  const newContent = splice(oldContent, contentPart, contentMounts, keepMount, keepBefore);
  const newMounts = newCommand.concat(newContent);
  const newSettings = splice(previous.settings, settingPart, sink.settings, keepSetting);

  const fresh = oldFresh.slice(0, lowerBound(oldFresh, from + 1));
  for (const at of region.fresh) fresh.push(at);
  for (let i = lowerBound(oldFresh, oldTo + 1); i < oldFresh.length; i++) fresh.push(oldFresh[i]! + delta);
  const assignments = spliceAt(state.assignments, from, oldTo, region.assignments, delta);
  const uses = spliceAt(state.uses, from, oldTo, region.uses, delta);

  // Kept for later versions: what this read made must not hold this version's text (text/ownText.ts).
  ownItems(commandMounts);
  ownItems(contentMounts);
  ownItems(sink.settings);
  ownItems(lineProblems);
  ownItems(annotationProblems);
  ownItems(sink.problems);
  ownItems(region.assignments);
  ownItems(region.uses);
  const readItems = byOffset(commandMounts.concat(contentMounts), sink.settings);
  const newItems = items.slice(0, itemsFrom).concat(readItems, items.slice(itemsTo));
  ITEMS.set(newMounts, newItems);
  STATES.set(source, {
    fresh,
    commandMounts: newCommand.length,
    lineProblems: newLineProblems.length,
    assignments,
    uses,
    items: newItems,
    mountProblems,
    kernelProblems,
    reaching,
  });
  const changed = { start: from, end: newTo };
  const mountEdit = mountEditOf(
    mounts,
    state.commandMounts,
    newCommand,
    newMounts,
    commandPart,
    commandMounts.length,
    contentPart,
    contentMounts.length,
    changed,
    delta,
  );
  const edit: LineEdit = {
    previousItems: items,
    itemsFrom,
    itemsTo: itemsFrom + readItems.length,
    removed: items.slice(itemsFrom, itemsTo),
    changed,
    delta,
    ...(mountEdit ? { mounts: mountEdit } : {}),
  };
  return { mounts: newMounts, settings: newSettings, mountProblems, kernelProblems, edit };
}

/**
 * The edit over the mount list alone (`LineEdit.mounts`), for the mount rules' indexes
 * (mounts/rules/firstMounts.ts, ANF227's point index), which update from an edit that lists mounts
 * in offset order. The list is the commands' mounts, then option strings found by content: an edit
 * whose re-read mounts are of one of the two parts is one run of the list. When both parts changed
 * (typing into `mount` makes a command's options an option string found by content, and back), the
 * run reaches from the commands' change to the option strings' one: the mounts between are kept
 * objects, listed as read again. The indexes order mounts with a server or an fstab mount point
 * by offset, and option strings found by content have neither: the run is given only when that
 * holds for every option string in it. Undefined when the commands' mounts are not in offset order
 * (the indexes compare offsets to place a re-read mount; they are then built again, as before).
 */
function mountEditOf(
  previous: readonly MountEntry[],
  oldCommands: number,
  newCommand: readonly MountEntry[],
  newMounts: readonly MountEntry[],
  [commandFrom, commandTo]: [number, number],
  commandRead: number,
  [contentFrom, contentTo]: [number, number],
  contentRead: number,
  changed: Span,
  delta: number,
): LineEdit | undefined {
  for (let i = 1; i < newCommand.length; i++)
    if (newCommand[i - 1]!.span.start > newCommand[i]!.span.start) return undefined;
  const contentUntouched = contentFrom === contentTo && contentRead === 0;
  if (contentUntouched)
    return {
      previousItems: previous,
      itemsFrom: commandFrom,
      itemsTo: commandFrom + commandRead,
      removed: previous.slice(commandFrom, commandTo),
      changed,
      delta,
    };
  const at = newCommand.length;
  if (commandFrom === commandTo && commandRead === 0) {
    // Only option strings found by content re-read: they follow the commands' mounts, whose count did not change.
    return {
      previousItems: previous,
      itemsFrom: at + contentFrom,
      itemsTo: at + contentFrom + contentRead,
      removed: previous.slice(at + contentFrom, at + contentTo),
      changed,
      delta,
    };
  }
  // Both: one run from the commands' change to the option strings' (old and new lists).
  const removed = previous.slice(commandFrom, oldCommands + contentTo);
  const itemsTo = at + contentFrom + contentRead;
  for (let i = oldCommands; i < oldCommands + contentTo; i++) if (!unindexed(previous[i]!)) return undefined;
  for (let i = at; i < itemsTo; i++) if (!unindexed(newMounts[i]!)) return undefined;
  return { previousItems: previous, itemsFrom: commandFrom, itemsTo, removed, changed, delta };
}

/** A mount the mount rules' indexes leave out: no server (no transport key) and no mount point. */
function unindexed(mount: MountEntry): boolean {
  return mount.server === undefined && mount.mountPoint === undefined;
}

/**
 * Reads the new text from the fresh start `from` on, to the first fresh start at or after `least`
 * where the old reading meets it again; past a region ending in a comment line, past the first
 * line after it that is no comment (annotations reach down through comment blocks).
 */
function readRegion(
  text: string,
  before: SourceText,
  source: SourceText,
  oldFresh: readonly number[],
  from: number,
  least: number,
  delta: number,
): Region {
  const fresh: number[] = [];
  const assignments: Assignment[] = [];
  let newTo = -1;
  let commentsChecked = false;
  forEachAssignment(text, from, text.length, (name, value, at) => assignments.push({ at, name, value }), {
    freshLine: (at) => {
      fresh.push(at);
      if (at < least) return false;
      const old = at - delta;
      const k = lowerBound(oldFresh, old);
      if (oldFresh[k] !== old) return false;
      if (!commentsChecked) {
        commentsChecked = true;
        const line = source.positionAt(at).line;
        const oldLine = before.positionAt(old).line;
        if (at < text.length && (commentAt(source, line - 1) || commentAt(before, oldLine - 1))) {
          let next = line;
          while (next < source.lineCount && commentAt(source, next)) next++;
          least = source.lineStart(next) + 1;
          if (at < least) return false;
        }
      }
      newTo = at;
      return true;
    },
  });
  // Without a meeting point, the region runs to the end of both texts.
  const met = newTo >= 0;
  if (!met) newTo = text.length;
  const oldTo = met ? newTo - delta : before.text.length;
  // Assignments the reading passed after the region's end belong to the old reading's (kept) part.
  while (assignments.length > 0 && assignments[assignments.length - 1]!.at >= newTo) assignments.pop();
  while (fresh.length > 0 && fresh[fresh.length - 1]! > newTo) fresh.pop();
  return { from, oldTo, newTo, fresh, assignments, uses: usesIn(text, from, newTo) };
}

/**
 * The variables the region touches and their literal values in the new version; `from`/`least`:
 * how far the region must reach (new offsets) to hold each one's assignment and use in both versions.
 */
function touchedVariables(
  state: ShellState,
  remoteOf: () => readonly number[],
  region: Region,
  change: ChangedRegion,
  delta: number,
): { literals: Map<string, LiteralVariable>; from: number; least: number } {
  const { from, oldTo, newTo } = region;
  const touched = new Set<string>();
  for (const a of state.assignments) if (a.at >= from && a.at < oldTo) touched.add(a.name);
  for (const u of state.uses) if (u.at >= from && u.at < oldTo) touched.add(u.name);
  for (const a of region.assignments) touched.add(a.name);
  for (const u of region.uses) touched.add(u.name);
  const literals = new Map<string, LiteralVariable>();
  let reach = from;
  let least = 0;
  // New offsets of old positions outside the region (before it, the same; after it, moved).
  const moved = (at: number) => (at < from ? at : at + delta);
  const want = (at: number) => {
    if (at < from) reach = Math.min(reach, at);
    else if (at >= newTo) least = Math.max(least, at + 1);
  };
  // A mount's findings on the assignment its options come from move with the mount (lint.ts,
  // extentOf): an edit between the two, touching neither, re-reads both (old offsets: the mounts
  // are the previous version's, not moved yet).
  for (const mount of state.reaching) {
    const extent = remoteExtent(mount);
    if (extent && extent.start < from && extent.end > oldTo) {
      want(moved(extent.start));
      want(moved(extent.end - 1));
    }
  }
  if (touched.size === 0) return { literals, from: reach, least };
  // Old offsets outside the edit's change, in the new text (undefined inside it).
  const same = (at: number) => (at < change.start ? at : at >= change.oldEnd ? at + delta : undefined);
  for (const name of touched) {
    // Old version: the whole old lists.
    const oldAssigned = state.assignments.filter((a) => a.name === name);
    const oldUsed = state.uses.filter((u) => u.name === name);
    const old =
      oldAssigned.length === 1 && oldAssigned[0]!.value && oldUsed.length === 1
        ? { at: oldAssigned[0]!.at, value: oldAssigned[0]!.value, use: oldUsed[0]!.at }
        : undefined;
    // New version: the old lists outside the region, and the region's.
    const assigned = oldAssigned
      .filter((a) => a.at < from || a.at >= oldTo)
      .map((a) => ({ at: moved(a.at), value: a.value && { raw: a.value.raw, start: moved(a.value.start) } }));
    for (const a of region.assignments) if (a.name === name) assigned.push({ at: a.at, value: a.value });
    const used = oldUsed.filter((u) => u.at < from || u.at >= oldTo).map((u) => moved(u.at));
    for (const u of region.uses) if (u.name === name) used.push(u.at);
    const now =
      assigned.length === 1 && assigned[0]!.value && used.length === 1
        ? { at: assigned[0]!.at, value: assigned[0]!.value, use: used[0]! }
        : undefined;
    if (now) literals.set(name, now.value);
    // The same literal at the same places, which no mount read: nothing outside the region changes.
    const unchanged =
      old === undefined
        ? now === undefined
        : now !== undefined &&
          old.value.raw === now.value.raw &&
          same(old.at) === now.at &&
          same(old.value.start) === now.value.start &&
          same(old.use) === now.use;
    if (
      unchanged &&
      !(old && remoteOf().some((at) => at >= old.value.start && at <= old.value.start + old.value.raw.length))
    )
      continue;
    // Else its assignment and use are read again, in both versions (those inside the old region are inside the new one already).
    if (old) for (const at of [old.at, old.use]) if (at < from || at >= oldTo) want(moved(at));
    if (now) {
      want(now.at);
      want(now.use);
    }
  }
  return { literals, from: reach, least };
}

/** A `mount -o "$OPTS"`'s text and its options' where they lie outside it (a variable's assignment); undefined for the others. */
function remoteExtent(mount: MountEntry): Span | undefined {
  if (mount.origin !== 'mount-command') return undefined;
  // Loops, not a closure: asked of every mount on every edit (touchedVariables).
  let start = mount.span.start;
  let end = mount.span.end;
  const options = mount.optionsSpan;
  if (options) {
    if (options.start < start) start = options.start;
    if (options.end > end) end = options.end;
  }
  for (const option of mount.options) {
    if (option.span.start < start) start = option.span.start;
    if (option.span.end > end) end = option.span.end;
  }
  return start < mount.span.start || end > mount.span.end ? { start, end } : undefined;
}

/** Whether a mount's options (their list or one of them) lie outside its own text. */
function reachesOut(mount: MountEntry): boolean {
  const { start, end } = mount.span;
  const options = mount.optionsSpan;
  if (options && (options.start < start || options.end > end)) return true;
  for (const option of mount.options) if (option.span.start < start || option.span.end > end) return true;
  return false;
}

/** Where mounts' options lie outside their own text (old offsets). */
function remoteOptions(mounts: readonly MountEntry[]): number[] {
  const found: number[] = [];
  for (const mount of mounts) {
    if (mount.origin !== 'mount-command') continue;
    for (const option of mount.options)
      if (option.span.start < mount.span.start || option.span.start > mount.span.end) found.push(option.span.start);
    const options = mount.optionsSpan;
    if (options && (options.start < mount.span.start || options.start > mount.span.end)) found.push(options.start);
  }
  return found;
}

/** `[from, to)`: the entries of `list` whose span starts in `[start, end)`; undefined when they are not one run between the others. */
function partition(list: readonly { span: Span }[], start: number, end: number): [number, number] | undefined {
  let from = 0;
  while (from < list.length && list[from]!.span.start < start) from++;
  let to = from;
  while (to < list.length && list[to]!.span.start < end) to++;
  for (let i = to; i < list.length; i++) if (list[i]!.span.start < end) return undefined;
  return [from, to];
}

/** `keepBefore`: how entries before the run are kept (`keep` by default). */
function splice<T>(
  list: readonly T[],
  [from, to]: [number, number],
  fresh: readonly T[],
  keep: (item: T) => T,
  keepBefore = keep,
): T[] {
  const result: T[] = [];
  for (let i = 0; i < from; i++) result.push(keepBefore(list[i]!));
  for (const item of fresh) result.push(item);
  for (let i = to; i < list.length; i++) result.push(keep(list[i]!));
  return result;
}

/** Assignments or uses: those before the region, the region's, those after it moved (in place). */
function spliceAt<T extends { at: number }>(
  list: readonly T[],
  from: number,
  oldTo: number,
  fresh: readonly T[],
  delta: number,
): T[] {
  const result: T[] = [];
  let i = 0;
  while (i < list.length && list[i]!.at < from) result.push(list[i++]!);
  for (const item of fresh) result.push(item);
  while (i < list.length && list[i]!.at < oldTo) i++;
  for (; i < list.length; i++) {
    const item = list[i]!;
    item.at += delta;
    const value = (item as { value?: { start: number } | null }).value;
    if (value) value.start += delta;
    result.push(item);
  }
  return result;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** Moves a span that lies after the region (at or past `limit`, old offsets), once. */
function move(span: Span | undefined, limit: number, delta: number, moved: Set<Span>): void {
  if (!span || span.start < limit || delta === 0 || moved.has(span)) return;
  moved.add(span);
  const writable = span as Writable<Span>;
  writable.start += delta;
  writable.end += delta;
}

/**
 * A kept mount: its spans after the region move (a mount before the region may take its options
 * from a variable assigned after it). Span objects may be shared (an option's name and value, an
 * annotation of several mounts): each moves once.
 */
function shiftMount(mount: MountEntry, limit: number, delta: number, moved: Set<Span>): MountEntry {
  if (delta === 0) return mount;
  // Most mounts before the region have every span before it.
  if (mount.span.end < limit && (mount.optionsSpan?.start ?? 0) < limit && !optionFrom(mount, limit)) return mount;
  // Spans shared within the mount (an option's name and its span) are found by identity here; an
  // annotation's span, shared by the mounts it applies to, through `moved`. One list for every
  // mount (OWN), not a list and a closure per mount: a script's edit moves hundreds of mounts.
  // The list's length is kept (its count is OWN_COUNT): setting an array's length to 0 drops its
  // backing store, and growing it again for every mount was most of an edit's allocation here.
  OWN_COUNT = 0;
  addOwn(mount.span, limit);
  addOwn(mount.sourceSpan, limit);
  addOwn(mount.mountPointSpan, limit);
  addOwn(mount.fsTypeSpan, limit);
  addOwn(mount.optionsSpan, limit);
  addOwn(mount.dumpSpan, limit);
  addOwn(mount.fsckPassSpan, limit);
  addOwn(mount.optionsFsType?.span, limit);
  addOwn(mount.optionsQuotes?.open, limit);
  addOwn(mount.optionsQuotes?.close, limit);
  for (const option of mount.options) {
    addOwn(option.span, limit);
    if (option.nameSpan !== option.span) addOwn(option.nameSpan, limit);
    if (option.valueSpan !== option.span) addOwn(option.valueSpan, limit);
  }
  const annotation = mount.annotationSpan;
  if (annotation && !isOwn(annotation)) move(annotation, limit, delta, moved);
  for (let i = 0; i < OWN_COUNT; i++) {
    const writable = OWN[i] as Writable<Span>;
    writable.start += delta;
    writable.end += delta;
    OWN[i] = NO_SPAN;
  }
  OWN_COUNT = 0;
  return mount;
}

/** Whether an option of the mount starts at or past `limit` (a loop: no closure per mount). */
function optionFrom(mount: MountEntry, limit: number): boolean {
  for (const option of mount.options) if (option.span.start >= limit) return true;
  return false;
}

/** shiftMount's list of a mount's spans to move: its first OWN_COUNT entries (the rest hold NO_SPAN, so that no old span stays alive). */
const OWN: Span[] = [];
let OWN_COUNT = 0;
const NO_SPAN: Span = { start: 0, end: 0 };

function isOwn(span: Span): boolean {
  for (let i = 0; i < OWN_COUNT; i++) if (OWN[i] === span) return true;
  return false;
}

function addOwn(span: Span | undefined, limit: number): void {
  if (!span || span.start < limit || isOwn(span)) return;
  if (OWN_COUNT < OWN.length) OWN[OWN_COUNT] = span;
  else OWN.push(span);
  OWN_COUNT++;
}

function shiftSetting(setting: KernelSetting, limit: number, delta: number, moved: Set<Span>): KernelSetting {
  if (delta === 0 || (setting.span.end < limit && setting.keySpan.start < limit && setting.valueSpan.start < limit))
    return setting;
  move(setting.span, limit, delta, moved);
  move(setting.keySpan, limit, delta, moved);
  move(setting.valueSpan, limit, delta, moved);
  move(setting.moduleSpan, limit, delta, moved);
  if (setting.fields) for (const field of setting.fields) move(field.span, limit, delta, moved);
  return setting;
}

/** Problems are few: copied, with their spans (and their fixes' edits) after the region moved. */
function shiftProblem(problem: ParseProblem, limit: number, delta: number): ParseProblem {
  if (delta === 0) return problem;
  const span = (s: Span): Span => (s.start >= limit ? { start: s.start + delta, end: s.end + delta } : s);
  const fixes = problem.fixes;
  if (problem.span.start < limit && !fixes) return problem;
  return {
    ...problem,
    span: span(problem.span),
    ...(fixes
      ? { fixes: fixes.map((fix) => ({ ...fix, edits: fix.edits.map((e) => ({ ...e, span: span(e.span) })) })) }
      : {}),
  };
}
