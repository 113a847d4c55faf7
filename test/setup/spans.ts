import { expect } from 'vitest';
import { LineSpan } from '../../server/src/core/mounts/lineSpan';

/**
 * A `LineSpan` (an fstab line's spans, kept as columns from the line's anchor: mounts/lineSpan.ts)
 * equals a span with the same offsets, whichever way either is stored: a whole read makes anchored
 * spans where an edited file's kept problems hold plain copies, and both mean the same text.
 */
expect.addEqualityTesters([
  function lineSpanEquality(a: unknown, b: unknown): boolean | undefined {
    if (!(a instanceof LineSpan) && !(b instanceof LineSpan)) return undefined;
    const offsets = (span: unknown): string | undefined => {
      if (span instanceof LineSpan) return `${span.start}-${span.end}`;
      if (typeof span !== 'object' || span === null) return undefined;
      const keys = Object.keys(span);
      const { start, end } = span as { start?: unknown; end?: unknown };
      return keys.length === 2 && typeof start === 'number' && typeof end === 'number' ? `${start}-${end}` : undefined;
    };
    const left = offsets(a);
    return left !== undefined && left === offsets(b);
  },
]);
