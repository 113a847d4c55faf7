import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { magicNumbersIn } from '../support/magicNumbers';

/**
 * Every limit, rate, price, default and measured figure lives in server/src/core/facts/ with its
 * source; this test finds numeric literals elsewhere in the product code. What is allowed without a
 * word, and why, is defined in test/support/magicNumbers.ts.
 */
const ROOT = join(__dirname, '..', '..');
const SCANNED = ['server/src', 'client/src'];
const EXEMPT = ['server/src/core/facts/', 'server/src/core/units/units.ts'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('no magic numbers outside the facts table', () => {
  it('finds none', () => {
    const offenders: string[] = [];
    for (const base of SCANNED) {
      for (const path of files(join(ROOT, base))) {
        const rel = relative(ROOT, path);
        if (EXEMPT.some((e) => rel.startsWith(e))) continue;
        readFileSync(path, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            for (const literal of magicNumbersIn(line))
              offenders.push(`${rel}:${index + 1}: ${literal}  ${line.trim()}`);
          });
      }
    }
    expect(offenders, `numbers outside the facts table:\n${offenders.join('\n')}`).toEqual([]);
  });

  it('still catches thresholds, and says nothing of structural numbers', () => {
    // Thresholds: each needs a source.
    expect(magicNumbersIn('  if (quota > 4398046511104) return;')).toEqual(['4398046511104']);
    expect(magicNumbersIn('  if (throughput < 64) report();')).toEqual(['64']);
    expect(magicNumbersIn('const MAX_DEPTH = 24;')).toEqual(['24']);
    expect(magicNumbersIn('  if (settings.size > 40) return;')).toEqual(['40']);
    expect(magicNumbersIn('  const slots = Math.min(clients * 128, 10_000);')).toEqual(['128', '10_000']);
    expect(magicNumbersIn('  const shown = [12, 40];')).toEqual(['12', '40']);
    expect(magicNumbersIn('  if (code > 4398046511104 && text.charCodeAt(0) === 47) return;')).toEqual([
      '4398046511104',
    ]);
    expect(magicNumbersIn('  return quota > 64 ? text.slice(0, 40) : text;')).toEqual(['64']);
    // The comment still lets one through.
    expect(magicNumbersIn('const MAX_DEPTH = 24; // not a fact: bound on work')).toEqual([]);
    // Structural.
    for (const line of [
      '  const head = text.slice(0, 40);',
      '  const name = match[12]!;',
      '  if (name.length > 3) return;',
      '  if (12 <= parts.length) return;',
      '  if (text.charCodeAt(i) === 47) return;',
      "  return b.toString(16).padStart(2, '0');",
      '  const n = parseInt(octal, 8);',
      '  return ((n << 8) | Number(o)) >>> 0;',
      '  chmodSync(path, mode & 0o7777);',
      '  const network = base % 2 ** (32 - length);',
      '  const c = String.fromCharCode(parseInt(e.slice(1), 16));',
    ])
      expect(magicNumbersIn(line), line).toEqual([]);
  });
});
