import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every limit, rate, price, default and measured figure lives in server/src/core/facts/ with its
 * source. This test finds numeric literals elsewhere in the product code. Small structural numbers
 * (indexes, the 1024 of binary units, percent, ms per s) are allowed; anything else needs either a
 * row in the facts table or, when it is truly not a fact (a character code, a protocol constant),
 * a `// not a fact: why` comment on its line.
 */
const ROOT = join(__dirname, '..', '..');
const SCANNED = ['server/src', 'client/src'];
const EXEMPT = ['server/src/core/facts/', 'server/src/core/units/units.ts'];
const ALLOWED = new Set([0, 1, 2, 3, 4, 5, 6, 7, 10, 100, 1000, 1024]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Blanks out comments, strings and regular-expression literals so only code remains. */
function codeOnly(line: string): string {
  return line
    .replace(/\/\/.*$/, '')
    .replace(/\/\*.*?\*\//g, '')
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`/g, '""')
    .replace(/\/(?:[^/\\\n]|\\.)+\/[gimsuy]*/g, '/re/');
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
            if (/not a fact:/.test(line) || /^\s*(\*|\/\/|\/\*)/.test(line)) return;
            for (const match of codeOnly(line).matchAll(/(?<![\w.$])(\d[\d_]*(?:\.\d+)?(?:e\d+)?)(?![\w])/g)) {
              const value = Number(match[1]!.replace(/_/g, ''));
              if (!ALLOWED.has(value)) offenders.push(`${rel}:${index + 1}: ${match[1]}  ${line.trim()}`);
            }
          });
      }
    }
    expect(offenders, `numbers outside the facts table:\n${offenders.join('\n')}`).toEqual([]);
  });
});
