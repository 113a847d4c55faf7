import { describe, expect, it } from 'vitest';
import { SourceText } from '../../server/src/core/text/sourceText';

/** Every line's start and end, as a whole scan of the text finds them. */
function lines(source: SourceText): [number, number][] {
  return Array.from({ length: source.lineCount }, (_, line) => [source.lineStart(line), source.lineEnd(line)]);
}

function expectSameIndex(before: string, after: string): void {
  const edited = SourceText.edited(new SourceText(before), after);
  expect(edited.text).toBe(after);
  expect(lines(edited)).toEqual(lines(new SourceText(after)));
}

describe('SourceText.edited: a later version derives its line index from the previous one', () => {
  it("gives a whole scan's line index for typing, deleting and pasting lines", () => {
    const fstab = '# fstab\n10.0.0.4:/vol1 /mnt/vol1 nfs rw,hard 0 0\n10.0.0.4:/vol2 /mnt/vol2 nfs rw 0 0\n';
    expectSameIndex(fstab, fstab.replace('hard', 'ha0rd'));
    expectSameIndex(fstab, fstab.replace('# fstab\n', ''));
    expectSameIndex(fstab, fstab.replace('\n10.0.0.4:/vol2', '\nx\ny\n10.0.0.4:/vol2'));
    expectSameIndex(fstab, `x${fstab}`);
    expectSameIndex(fstab, `${fstab}tail`);
    expectSameIndex(fstab, '');
    expectSameIndex('', fstab);
    expectSameIndex(fstab, fstab);
  });

  it('keeps CR LF, lone CR and LF breaks apart where an edit splits or joins them', () => {
    const crlf = 'a\r\nb\r\nc\r\n';
    expectSameIndex(crlf, 'a\r\nb\rx\nc\r\n'); // a character typed between CR and LF: two breaks
    expectSameIndex('a\r\nb\rx\nc\r\n', crlf); // and deleted again: one
    expectSameIndex('a\rb', 'a\r\nb'); // lone CR becomes CR LF
    expectSameIndex('a\r\nb', 'a\rb');
    expectSameIndex('a\nb', 'a\r\nb');
    expectSameIndex('a\r', 'a\r\n');
    expectSameIndex('\n\n\n', '\n\r\n\n');
  });

  it('matches a whole scan on random edits of a text with every kind of line break', () => {
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pieces = ['\n', '\r\n', '\r', 'a', 'bc', ' '];
    let text = Array.from({ length: 60 }, () => pieces[random(pieces.length)]).join('');
    let source = new SourceText(text);
    for (let i = 0; i < 2000; i++) {
      const at = random(text.length + 1);
      const removed = random(4);
      const inserted = Array.from({ length: random(3) }, () => pieces[random(pieces.length)]).join('');
      const next = text.slice(0, at) + inserted + text.slice(Math.min(text.length, at + removed));
      source = SourceText.edited(source, next);
      expect(lines(source), `edit ${i}`).toEqual(lines(new SourceText(next)));
      text = next;
    }
  });
});
