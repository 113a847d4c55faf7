import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SOURCES, type SourceKey } from '../../server/src/core/facts';
import { describeOption, MOUNT_OPTIONS } from '../../server/src/core/mounts/catalog';
import { ALL_RULES } from '../../server/src/core/registry';
import { renderRuleDoc } from '../../server/src/core/rules/ruleDoc';
import { CATALOG_KEYS, describeKey } from '../../server/src/core/sysctl/catalog';

/**
 * User-facing text names real documents by their titles and links canonical English pages: never the
 * project's internal names for its reading material ("seed 001", "the seed course", "Swedish edition"),
 * a non-English Learn page, or a bare source key ("Source: NFS5").
 */
const INTERNAL = [/\bseeds?\b/i, /swedish/i, /sv-se/i, /learn\.microsoft\.com\/(?!en-us\/)[a-z]{2}-[a-z]{2}\//];
/** Source keys that are also ordinary words in the text. */
const WORDS: ReadonlySet<string> = new Set(['EDA', 'HANA', 'ORACLE', 'PRICE', 'CALC']);
const BARE_KEYS = (Object.keys(SOURCES) as SourceKey[])
  .filter((k) => !WORDS.has(k))
  .map((k) => new RegExp(`(?<![\\w/.-])${k}(?![\\w-])`));

function problems(text: string): string[] {
  return [...INTERNAL, ...BARE_KEYS]
    .filter((pattern) => pattern.test(text))
    .map(
      (pattern) =>
        `${pattern} in: ${text.match(new RegExp(`.{0,60}${pattern.source}.{0,30}`, pattern.flags))?.[0] ?? text.slice(0, 80)}`,
    );
}

const FIXTURES = join(__dirname, '..', 'fixtures', 'rules');

describe('user-facing text names real documents', () => {
  it('the pattern catches what it is for (the test can fail)', () => {
    expect(problems('Source: NFS5')).not.toEqual([]);
    expect(problems('as seed 001 says')).not.toEqual([]);
    expect(problems('https://learn.microsoft.com/sv-se/training/x')).not.toEqual([]);
    expect(problems('the EDA benchmark and nfs(5), see https://learn.microsoft.com/en-us/azure/x')).toEqual([]);
  });

  it('source titles and links', () => {
    for (const [key, source] of Object.entries(SOURCES)) {
      expect(problems(`${source.title} ${source.url}`), key).toEqual([]);
      if (source.url.includes('learn.microsoft.com')) expect(source.url, key).toContain('learn.microsoft.com/en-us/');
    }
  });

  it.each(ALL_RULES.map((rule) => [rule.code, rule] as const))('the generated page of %s', (_code, rule) => {
    expect(problems(renderRuleDoc(rule))).toEqual([]);
  });

  it('messages in the rule fixtures', () => {
    for (const dir of readdirSync(FIXTURES)) {
      const expected = join(FIXTURES, dir, 'expected.txt');
      if (!existsSync(expected)) continue;
      expect(problems(readFileSync(expected, 'utf8')), dir).toEqual([]);
    }
  });

  it('hovers of kernel keys and mount options', () => {
    for (const entry of CATALOG_KEYS) expect(problems(describeKey(entry.key) ?? ''), entry.key).toEqual([]);
    for (const option of MOUNT_OPTIONS) expect(problems(describeOption(option.name) ?? ''), option.name).toEqual([]);
  });
});
