import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../server/src/cli/run';
import { CLI, ROOT, run, tempProject } from './helpers';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('documentation matches what the tests run', () => {
  it.each(['examples/hooks/pre-commit', '.pre-commit-hooks.yaml', 'docs/github-workflow.yml'])('README shows %s verbatim', (path) => {
    const readme = read('README.md');
    expect(readme).toContain(`\n${read(path).trimEnd()}\n\`\`\``);
  });

  it('docs/cli.md documents every flag of the usage text', () => {
    const doc = read('docs/cli.md');
    const flags = [...new Set(USAGE.match(/--[a-z][a-z-]+/g))];
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(doc, flag).toMatch(new RegExp(`${flag}\\b`));
  });

  it('exit code 3 on an internal error, with a message instead of silence', () => {
    // A CLI bundle without its language-server sibling cannot start `lsp`.
    const dir = tempProject({});
    mkdirSync(join(dir, 'cli'));
    copyFileSync(CLI, join(dir, 'cli', 'anf-lint.js'));
    const result = run(['lsp', '--stdio'], { cwd: dir, cli: join(dir, 'cli', 'anf-lint.js') });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the language server is not built');
  });
});
