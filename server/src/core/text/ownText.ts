/**
 * Strings that do not hold on to the whole document (issue 17). V8 makes a substring of 13 or more
 * characters a slice of its parent, and a string built from one (a template, a concatenation) may
 * point to it: every string a reader takes from a line (a server, an option, a sysctl key, a
 * variable's value) keeps that version's whole text alive. An item that a re-read keeps for later
 * versions (workspace/lineReuse.ts, shellReuse.ts) then keeps one text per version it was read in:
 * the live heap grows with every edit (bench/notes.md, session 7, linetail and linetail2).
 */

/** V8's shortest sliced string (SlicedString::kMinLength): shorter substrings are copies already. */
const SLICE_MIN = 13; // not a fact: a V8 constant

/**
 * A copy of `text` that holds nothing else: prefixing makes a new string, which the slice
 * flattens into a copy of `text` alone.
 */
export function ownCopy(text: string): string {
  return text.length < SLICE_MIN ? text : (' ' + text).slice(1);
}

/** How deep `ownStrings` walks: an item, its options or fields, their details, a fix's edits. */
const DEPTH = 4; // not a fact: the depth of the read models (MountEntry, KernelSetting, ParseProblem)

/**
 * Replaces, in place, every string of a freshly read item (a mount, a kernel setting, a problem,
 * a variable's assignment) and of the plain objects and arrays it holds, by its own copy. Only for
 * objects a reader has just made: frozen objects (shared constants) are left alone.
 */
export function ownStrings(item: object, depth = DEPTH): void {
  if (Object.isFrozen(item)) return;
  if (Array.isArray(item)) {
    for (let i = 0; i < item.length; i++) {
      const value: unknown = item[i];
      if (typeof value === 'string') {
        if (value.length >= SLICE_MIN) item[i] = ownCopy(value);
      } else if (typeof value === 'object' && value !== null && depth > 0) ownStrings(value, depth - 1);
    }
    return;
  }
  const record = item as Record<string, unknown>;
  for (const key in record) {
    // The document's uri: given to the reader, not taken from the text (and shared by every item).
    if (key === 'uri') continue;
    const value = record[key];
    if (typeof value === 'string') {
      if (value.length >= SLICE_MIN) record[key] = ownCopy(value);
    } else if (typeof value === 'object' && value !== null && depth > 0 && !isSpan(value)) ownStrings(value, depth - 1);
  }
}

/** Spans (two numbers) are most of what a read item holds: not walked. */
function isSpan(value: object): boolean {
  return (
    typeof (value as { start?: unknown }).start === 'number' && typeof (value as { end?: unknown }).end === 'number'
  );
}

/** `ownStrings` of each item of a list. */
export function ownItems(items: readonly object[]): void {
  for (const item of items) ownStrings(item);
}
