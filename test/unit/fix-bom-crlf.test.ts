import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyEdits, fitEdit } from '../../server/src/core';
import { fixFiles } from '../../server/src/core/project/fixes';
import { FIXTURE_ROOT, fixtureDirectories } from '../support/fixtures';
import { folderWorkspace } from '../support/effectiveState';

const BOM = '\uFEFF';
const BARE_LF = /(?:^|[^\r])\n/;

/** Every fix keeps a file's byte order mark and line endings (issues 26.10, 32). */
describe('fixes keep the BOM and CRLF line endings', () => {
  it("an edit at the start of a file goes after the BOM, and inserted lines take the file's line break", () => {
    const text = `${BOM}param location string\r\nparam size int\r\n`;
    const fixed = applyEdits(text, [{ span: { start: 0, end: 0 }, newText: '// anf-lint-workload: hana\n' }]).text;
    expect(fixed).toBe(`${BOM}// anf-lint-workload: hana\r\nparam location string\r\nparam size int\r\n`);
    expect(fitEdit('a\nb\n', { span: { start: 0, end: 0 }, newText: 'x\r\n' }).newText).toBe('x\n');
  });

  const withFixes = fixtureDirectories().filter((d) => existsSync(join(FIXTURE_ROOT, d, 'fixed')));
  let changedFiles = 0;

  it.each(withFixes)('%s with a BOM and CRLF', (directory) => {
    const { workspace, config, uris } = folderWorkspace(
      join(FIXTURE_ROOT, directory),
      (text) => BOM + text.replace(/\r?\n/g, '\r\n'),
    );
    const before = new Map(uris.map((uri) => [uri, workspace.file(uri)!.source.text]));
    const run = fixFiles(workspace, uris, () => config, 'unsafe');
    for (const [uri, text] of run.texts) {
      if (text === before.get(uri)) continue;
      changedFiles++;
      expect(text.startsWith(BOM), `${uri} lost its BOM`).toBe(true);
      expect(text.indexOf(BOM, 1), `${uri} has a second BOM`).toBe(-1);
      expect(BARE_LF.test(text), `${uri} has a bare LF after fixing:\n${text}`).toBe(false);
    }
  });

  it('changed files in the fixtures', () => {
    expect(changedFiles).toBeGreaterThan(30);
  });
});
