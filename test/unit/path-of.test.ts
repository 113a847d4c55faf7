import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePathOf, pathByUrl as byUrl } from '../../server/src/core/fileKind';
import { propertyRuns } from '../support/propertyRuns';

describe('pathOf of a file URI', () => {
  it('agrees with the URL parser, plain or not', () => {
    for (const uri of [
      'file:///repo/stacks/dev-1/main.tf',
      'file:///',
      'file:///repo/./x.tf',
      'file:///repo/../x.tf',
      'file:///repo//x.tf',
      'file:///repo/x/..',
      'file:///repo/.anf-lint.yaml',
      'file:///repo/a%20b/x.tf',
      'file:///c%3A/repo/x.tf',
      'file://host/share/x.tf',
      'untitled:Untitled-1',
      '/plain/path/x.tf',
      'C:\\repo\\x.tf',
    ])
      expect(computePathOf(uri), uri).toBe(byUrl(uri));
    const chars = 'aZ09._+=,@/-~% #?';
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...chars), { maxLength: 16 }).map((c) => `file:///${c.join('')}`),
        (uri) => {
          expect(computePathOf(uri)).toBe(byUrl(uri));
        },
      ),
      { numRuns: propertyRuns(5000, 50) },
    );
  });
});
