import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** docs/capabilities.md names a test for every capability; each must exist, so the table cannot drift. */
const ROOT = join(__dirname, '..', '..');
const DOC = readFileSync(join(ROOT, 'docs', 'capabilities.md'), 'utf8');
const table = DOC.slice(DOC.indexOf('## Capability table'), DOC.indexOf('## Settings'));
const rows = table
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| Capability') && !line.startsWith('|---'))
  .map((line) => line.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim()));

describe('docs/capabilities.md', () => {
  it('lists the capabilities of issue 6', () => {
    expect(rows.length).toBeGreaterThanOrEqual(40);
  });

  it.each(rows.map((row) => [row[0]!, row[2]!]))('%s is covered by an existing test', (_capability, coveredBy) => {
    const match = /^`([^`]+)` › (.+)$/.exec(coveredBy);
    expect(match, `"${coveredBy}" should read \`file\` › test name`).not.toBeNull();
    const [, file, name] = match!;
    expect(existsSync(join(ROOT, file!)), `${file} exists`).toBe(true);
    const source = readFileSync(join(ROOT, file!), 'utf8');
    expect(
      source.includes(`'${name}'`) || source.includes(`"${name}"`) || source.includes(`\`${name}\``),
      `${file} has a test named "${name}"`,
    ).toBe(true);
  });
});
