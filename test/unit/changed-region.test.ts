import { describe, expect, it } from 'vitest';
import { changedRegion } from '../../server/src/core/text/changedRegion';

/** The naive answer: a character loop from each end. */
function naive(before: string, after: string) {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start++;
  let suffix = 0;
  while (suffix < shorter - start && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix++;
  return { start, oldEnd: before.length - suffix, newEnd: after.length - suffix };
}

describe('changedRegion: the one edit between two texts', () => {
  it('finds a typed and a deleted character, with the suffix never reaching into the prefix', () => {
    expect(changedRegion('hard,vers=3', 'hard,vers=3x')).toEqual({ start: 11, oldEnd: 11, newEnd: 12 });
    expect(changedRegion('aaa', 'aa')).toEqual({ start: 2, oldEnd: 3, newEnd: 2 });
    expect(changedRegion('same', 'same')).toEqual({ start: 4, oldEnd: 4, newEnd: 4 });
    expect(changedRegion('', 'x')).toEqual({ start: 0, oldEnd: 0, newEnd: 1 });
  });

  it("gives the character loop's answer on texts longer than its comparison chunk", () => {
    const line = '10.0.0.4:/vol /mnt/vol nfs rw,hard,vers=3,rsize=262144,wsize=262144 0 0\n';
    const text = line.repeat(400); // about 29,000 characters: several chunks
    for (const at of [0, 1, 4095, 4096, 4097, 15_000, text.length - 1, text.length]) {
      for (const [before, after] of [
        [text, `${text.slice(0, at)}x${text.slice(at)}`],
        [text, text.slice(0, at) + text.slice(at + 1)],
        [text, text.slice(0, at) + line + text.slice(at)],
      ] as const) {
        expect(changedRegion(before, after)).toEqual(naive(before, after));
      }
    }
  });
});
