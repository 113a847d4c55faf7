import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { displayPathOf } from '../../server/src/cli/files';

/** What the CLI showed before its fast path: `path.relative`, `/`-separated, absolute outside the folder. */
function byRelative(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel === '' ? '.' : rel.startsWith('..') ? path : rel;
}

describe('displayPathOf', () => {
  const cases: [string, string][] = [
    ['/repo/a/b.tf', '/repo'],
    ['/repo', '/repo'],
    ['/repo/', '/repo'],
    ['/repository/a.tf', '/repo'],
    ['/repo/./a.tf', '/repo'],
    ['/repo/a/../b.tf', '/repo'],
    ['/repo//a.tf', '/repo'],
    ['/repo/..a/b.tf', '/repo'],
    ['/repo/.hidden/b.tf', '/repo'],
    ['/other/a.tf', '/repo'],
    ['/a.tf', '/'],
    ['/repo/a/b.tf', '/repo/a/b.tf'],
  ];
  it.each(cases)('%s from %s is shown as path.relative shows it', (path, cwd) => {
    expect(displayPathOf(path, cwd)).toBe(byRelative(path, cwd));
  });
});
