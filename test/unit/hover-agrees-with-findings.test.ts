import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, Workspace } from '../../server/src/core';
import { computeHover } from '../../server/src/core/features/hover';
import { FIXTURE_ROOT, fixtureDirectories } from '../support/fixtures';

/**
 * Issue 26: on `vers=4.1` in a host's fstab, ANF224 said "use `vers=3`, the version volume
 * `eda-tools` serves" while the hover recommended `vers=4.1`. The hover and the version rules now
 * share one decision (mounts/rules/versionAdvice.ts). Over every rule fixture: wherever ANF220 or
 * ANF224 offers "Use vers=X" on a token, the hover on that token recommends `vers=X` too.
 */
function filesOf(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (dir === base && (entry === 'expected.txt' || entry === 'fixed' || entry === '.anf-lint.yaml')) return [];
    return statSync(path).isDirectory() ? filesOf(path, base) : [relative(base, path)];
  });
}

describe('the hover on a version recommends what the version findings ask for', () => {
  let compared = 0;
  for (const directory of fixtureDirectories()) {
    it(directory, () => {
      const dir = join(FIXTURE_ROOT, directory);
      const configPath = join(dir, '.anf-lint.yaml');
      const config = resolveConfig(
        existsSync(configPath) ? configSchema.parse(parseYaml(readFileSync(configPath, 'utf8')) ?? {}) : {},
      );
      const workspace = new Workspace(config);
      const paths = filesOf(dir);
      const uriOf = (path: string) => `file:///fixture/${path}`;
      for (const path of paths) workspace.set(uriOf(path), readFileSync(join(dir, path), 'utf8'));
      const disagreements: string[] = [];
      for (const path of paths) {
        const uri = uriOf(path);
        const source = workspace.file(uri)?.source;
        if (!source) continue;
        for (const d of lintFile(workspace, uri, config)) {
          if (d.code !== 'ANF220' && d.code !== 'ANF224') continue;
          const asked = d.fixes.map((f) => /Use (?:`)?vers=(3|4\.1)/.exec(f.title)?.[1]).find((v) => v !== undefined);
          if (!asked) continue;
          const hover = computeHover(workspace, uri, source.offsetAt(d.range.start) + 1, config)?.markdown ?? '';
          const line = hover.split('\n').find((l) => l.startsWith('ANF recommendation for ')) ?? '';
          const recommended = [...line.matchAll(/`(?:nfs)?vers=(3|4\.1)`/g)].pop()?.[1];
          compared++;
          if (recommended !== asked)
            disagreements.push(
              `${path}:${d.range.start.line + 1} ${d.code} asks vers=${asked}, the hover recommends ${recommended ? `vers=${recommended}` : 'no version'}`,
            );
        }
      }
      expect(disagreements).toEqual([]);
    });
  }

  it('compared some findings (the fixtures hold version findings with fixes)', () => {
    expect(compared).toBeGreaterThan(3);
  });
});
