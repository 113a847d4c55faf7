import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../server/src/core/registry';
import { fixtureDirectories, runFixture } from '../support/fixtures';

/** Rules the engine reports itself, tested in test/unit/lint.test.ts instead of a fixture. */
const ENGINE_RULES = new Set(['ANF002', 'ANF003', 'ANF010', 'ANF011']); // ANF010: test/unit/finding-limits.test.ts; ANF011: test/lsp/large-document.test.ts

describe('rule fixtures', () => {
  const directories = fixtureDirectories();

  it.each(directories)('%s', (directory) => {
    const result = runFixture(directory);
    expect(result.actual, `diagnostics of ${directory}`).toBe(result.expected);
    for (const file of result.fixed) {
      expect(file.expected, `fixed/${file.path} is missing (UPDATE_FIXTURES=1 writes it)`).toBeDefined();
      expect(file.actual, `text after the fix in fixed/${file.path}`).toBe(file.expected);
    }
  });

  it.each(ALL_RULES.filter((r) => !ENGINE_RULES.has(r.code)).map((r) => [r.code, r.name] as const))(
    '%s (%s) has a fixture that produces it',
    (code, name) => {
      const directory = directories.find((d) => d.startsWith(`${code}-`));
      expect(directory, `test/fixtures/rules/${code}-${name}/ is missing`).toBeDefined();
      expect(runFixture(directory!).actual, `${directory} produces no ${code} diagnostic`).toContain(` ${code} `);
    },
  );

  it.each(ALL_RULES.filter((r) => r.fixes.length > 0 && !ENGINE_RULES.has(r.code)).map((r) => [r.code] as const))(
    '%s has a fix test (fixed/)',
    (code) => {
      const directory = directories.find((d) => d.startsWith(`${code}-`));
      expect(
        directory && runFixture(directory).fixed.length,
        `${code} declares a fix but its fixture has no fixed/ folder`,
      ).toBeGreaterThan(0);
    },
  );
});
