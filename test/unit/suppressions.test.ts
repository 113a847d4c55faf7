/**
 * Suppression comments are found on the lines that name the tool, wherever it is named: a header
 * comment that mentions anf-lint, a reason that names it again, the last line without a line break.
 */
import { describe, expect, it } from 'vitest';
import { parseSuppressions } from '../../server/src/core/suppressions';
import { SourceText } from '../../server/src/core/text/sourceText';

describe('parseSuppressions', () => {
  it('reads every suppression comment, once per line, in line order', () => {
    const text = [
      '# /etc/fstab of the EDA farm: checked by anf-lint in CI',
      '# anf-lint disable-next-line ANF207 -- scratch is soft on purpose; anf-lint agrees with the owner',
      '10.10.1.4:/eda-scratch /scratch nfs rw,soft,vers=3 0 0',
      '10.10.1.4:/eda-tools /tools nfs ro,hard,vers=3 0 0 # not anf-lint disable-next-line: a trailing comment',
      '; anf-lint disable-file ANF214',
    ].join('\n');
    const found = parseSuppressions(new SourceText(text));
    expect(
      found.map((s) => ({
        scope: s.scope,
        codes: s.codes,
        reason: s.reason,
        firstLine: s.firstLine,
        lastLine: s.lastLine,
      })),
    ).toEqual([
      {
        scope: 'next-line',
        codes: ['ANF207'],
        reason: 'scratch is soft on purpose; anf-lint agrees with the owner',
        firstLine: 2,
        lastLine: 2,
      },
      { scope: 'file', codes: ['ANF214'], reason: undefined, firstLine: 0, lastLine: 4 },
    ]);
    expect(found[1]!.span).toEqual({ start: text.lastIndexOf(';'), end: text.length });
  });

  it('finds them after every comment mark and whitespace, and not where the tool is named on the line after a mark', () => {
    const text = [
      '<!-- anf-lint disable-next-line ANF202 -->',
      '    mount -o rw,hard,vers=3 10.10.1.4:/tools /tools',
      '#',
      'anf-lint disable-file is not a comment here',
      '\t#\t anf-lint   disable-file',
      '',
    ].join('\n');
    const found = parseSuppressions(new SourceText(text));
    expect(found.map((s) => [s.scope, s.codes.join(','), s.firstLine, s.lastLine])).toEqual([
      ['next-line', 'ANF202', 1, 1],
      ['file', '', 0, 5],
    ]);
  });

  it('finds none in a file that never names the tool', () => {
    expect(parseSuppressions(new SourceText('# disable-next-line ANF207\n10.0.0.4:/v /v nfs soft 0 0\n'))).toEqual([]);
  });
});
