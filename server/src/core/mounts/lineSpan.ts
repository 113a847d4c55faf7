import type { Span } from '../text/sourceText';

/** Where a line of a line-based file starts (mutable: moved when an edit above the line changes its offset). */
export interface LineAnchor {
  start: number;
}

/**
 * A span on one line, kept as columns from the line's anchor: moving the anchor moves every span of
 * the line at once. An fstab file's mounts are kept from version to version (workspace/lineReuse.ts),
 * and an edit moves every mount after it: with their spans anchored that is one write per mount,
 * not one per span (about 30 a mount). Readers see a `Span` (`start`/`end` are getters); `toJSON`
 * writes it as a plain one.
 */
export class LineSpan implements Span {
  constructor(
    readonly anchor: LineAnchor,
    /** Columns from `anchor.start`. */
    readonly from: number,
    readonly to: number,
  ) {}

  get start(): number {
    return this.anchor.start + this.from;
  }

  get end(): number {
    return this.anchor.start + this.to;
  }

  toJSON(): Span {
    return { start: this.start, end: this.end };
  }
}

/** The anchor every span of a mount read with one is relative to, if its span is a `LineSpan`. */
export function anchorOf(span: Span): LineAnchor | undefined {
  return span instanceof LineSpan ? span.anchor : undefined;
}
