import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_ROOT, fixtureDirectories } from '../support/fixtures';
import { checkFixMeaning, folderWorkspace } from '../support/effectiveState';

/**
 * The fix engine keeps meaning: applying the safe fixes of every rule fixture that has fixes, and
 * of the examples, changes what a host ends up with (its winning kernel values per file and
 * condition, its mounts' options) only where a fix means to (the option or value it edits). A
 * neutral fix (ANF306 deleting a value that never takes effect) changes nothing at all.
 */
describe('safe fixes change nothing a host ends up with beyond what they are about', () => {
  const withFixes = fixtureDirectories().filter((d) => existsSync(join(FIXTURE_ROOT, d, 'fixed')));

  it('covers the fixtures with fixes', () => {
    expect(withFixes.length).toBeGreaterThan(50);
  });

  it.each(withFixes)('%s', (directory) => {
    const { workspace, config } = folderWorkspace(join(FIXTURE_ROOT, directory));
    expect(checkFixMeaning(workspace, () => config)).toEqual([]);
  });

  it('examples/', () => {
    const { workspace, config } = folderWorkspace(join(__dirname, '..', '..', 'examples'));
    expect(checkFixMeaning(workspace, () => config)).toEqual([]);
  });
});
