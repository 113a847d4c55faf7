import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../server/src/core/registry';
import { renderRuleCatalog } from '../../server/src/core/rules/catalog';
import { renderRuleDoc, renderRuleIndex } from '../../server/src/core/rules/ruleDoc';
import { GENERATED_SCHEMAS } from '../support/generatedSchemas';

/**
 * Generated files are checked in so that people can read them on GitHub, and checked here so
 * that they never drift from their source. `npm run generate` rewrites them.
 */
const UPDATE = process.env.UPDATE_GENERATED === '1';
const ROOT = join(__dirname, '..', '..');

function checkGenerated(relativePath: string, expected: string): void {
  const path = join(ROOT, relativePath);
  if (UPDATE) {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, expected);
  }
  expect(existsSync(path), `${relativePath} is missing: run npm run generate`).toBe(true);
  expect(readFileSync(path, 'utf8'), `${relativePath} is out of date: run npm run generate`).toBe(expected);
}

describe('generated files are current', () => {
  it.each(ALL_RULES.map((rule) => [rule.code, rule] as const))('docs/rules/%s.md', (code, rule) => {
    checkGenerated(`docs/rules/${code}.md`, renderRuleDoc(rule));
  });

  it('server/src/core/rules/catalog.generated.ts', () => {
    checkGenerated('server/src/core/rules/catalog.generated.ts', renderRuleCatalog(ALL_RULES));
  });

  it('docs/rules/README.md', () => {
    checkGenerated('docs/rules/README.md', renderRuleIndex(ALL_RULES));
  });

  it('docs/rules has no page for a rule that no longer exists', () => {
    const codes = new Set(ALL_RULES.map((r) => r.code));
    const stale = readdirSync(join(ROOT, 'docs', 'rules')).filter(
      (f) => /^ANF\d{3}\.md$/.test(f) && !codes.has(f.slice(0, 6)),
    );
    expect(stale).toEqual([]);
  });

  it.each(GENERATED_SCHEMAS.map((s) => [s.path, s] as const))('%s', (_path, schema) => {
    checkGenerated(schema.path, `${JSON.stringify(schema.build(), null, 2)}\n`);
  });
});
