/**
 * The one edit that turns `before` into `after`: their common prefix and common suffix stay, the
 * text between them was replaced. Offsets in UTF-16 code units. Every incremental reader (manifest,
 * line-based files, tree-sitter) and the sizing insertion start from it.
 */
export interface ChangedRegion {
  /** Where the two texts first differ (the common prefix's length). */
  readonly start: number;
  /** End of the replaced text in `before`. */
  readonly oldEnd: number;
  /** End of the replacing text in `after`. */
  readonly newEnd: number;
}

/** Texts are compared in chunks of this many characters first: comparing slices is native, a loop over characters is not. */
const CHUNK = 4096; // not a fact: comparison chunk size in characters

/**
 * The last pair compared and its region. A version's text is compared with its previous one by
 * SourceText.edited and again by the reader of its kind (lineReuse.ts, shellReuse.ts, ...): at
 * 10,000 lines each comparison is about 0.1 ms of a keystroke. Holds two texts that the workspace
 * keeps anyway (the current version and the one before it).
 */
let last: { before: string; after: string; region: ChangedRegion } | undefined;

/** The changed region of two texts; for equal texts an empty one at their end. */
export function changedRegion(before: string, after: string): ChangedRegion {
  // Same string objects: a pointer comparison (equal texts of other objects give the same region too).
  if (last && last.before === before && last.after === after) return last.region;
  const region = compare(before, after);
  last = { before, after, region };
  return region;
}

function compare(before: string, after: string): ChangedRegion {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start + CHUNK <= shorter && before.slice(start, start + CHUNK) === after.slice(start, start + CHUNK))
    start += CHUNK;
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // The suffix never reaches into the prefix: at most what is left of the shorter text.
  const max = shorter - start;
  let suffix = 0;
  while (
    suffix + CHUNK <= max &&
    before.slice(before.length - suffix - CHUNK, before.length - suffix) ===
      after.slice(after.length - suffix - CHUNK, after.length - suffix)
  )
    suffix += CHUNK;
  while (suffix < max && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix))
    suffix++;
  return { start, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}
