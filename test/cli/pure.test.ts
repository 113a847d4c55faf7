import { describe, expect, it } from 'vitest';
import { colorsEnabled } from '../../server/src/cli/color';
import { parseChangedLines } from '../../server/src/node/nodeEnvironment';
import { parseRuleOverrides } from '../../server/src/cli/lint';

/** The CLI's few pure helpers, checked without a process. */
describe('CLI helpers', () => {
  it('reads the changed lines of a -U0 diff (0-based, new side)', () => {
    const diff = [
      'diff --git a/f b/f',
      '@@ -1,0 +2,3 @@',
      '+a',
      '+b',
      '+c',
      '@@ -10 +12 @@',
      '-x',
      '+y',
      '@@ -20,2 +22,0 @@',
      '-gone',
      '-gone',
    ].join('\n');
    expect([...parseChangedLines(diff)].sort((a, b) => a - b)).toEqual([1, 2, 3, 11]);
  });

  it('decides colors: FORCE_COLOR, then NO_COLOR, then a TTY that is not dumb', () => {
    expect(colorsEnabled({ isTTY: false }, { FORCE_COLOR: '1' })).toBe(true);
    expect(colorsEnabled({ isTTY: true }, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(colorsEnabled({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(colorsEnabled({ isTTY: true }, { TERM: 'dumb' })).toBe(false);
    expect(colorsEnabled({ isTTY: false }, {})).toBe(false);
  });

  it('parses --rule values', () => {
    expect(parseRuleOverrides(['ANF001=off', 'anf002 = Error', 'ANF900:warning'])).toEqual({
      ANF001: 'off',
      ANF002: 'error',
      ANF900: 'warning',
    });
  });
});
