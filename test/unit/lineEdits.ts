/**
 * Random edits for the line-reuse property tests (fstab, sysctl.d, autofs): a place in the text,
 * some characters removed, one of the file kind's typical insertions, and whether to lint after it.
 */
import fc from 'fast-check';

export interface LineEdit {
  /** Where, as a fraction of the text's length. */
  readonly at: number;
  readonly remove: number;
  readonly insert: string;
  /** Lint after this edit (else the next edit comes first, as when typing outpaces the lints). */
  readonly lint: boolean;
}

/** Edits that insert one of `typed` (or nothing), sometimes removing up to 60 characters. */
export function lineEdits(typed: readonly string[]): fc.Arbitrary<LineEdit> {
  return fc.record({
    at: fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true }),
    remove: fc.oneof(
      { weight: 3, arbitrary: fc.constant(0) },
      { weight: 1, arbitrary: fc.integer({ min: 1, max: 60 }) },
    ),
    insert: fc.oneof(fc.constantFrom(...typed), fc.constant('')),
    lint: fc.boolean(),
  });
}

export function applyEdit(text: string, e: LineEdit): string {
  const at = Math.floor(e.at * (text.length + 1));
  return text.slice(0, at) + e.insert + text.slice(at + e.remove);
}
