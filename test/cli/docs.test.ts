import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import Module from 'node:module';
import { Script } from 'node:vm';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../../server/src/cli/run';
import Ajv2020 from 'ajv/dist/2020';
import { CLI, CONFIG_UNKNOWN_REGION, FSTAB_UNUSED_SUPPRESSION, GOOD_CONFIG, ROOT, run, tempProject } from './helpers';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('documentation matches what the tests run', () => {
  it.each(['examples/hooks/pre-commit', '.pre-commit-hooks.yaml', 'docs/github-workflow.yml'])(
    'README shows %s verbatim',
    (path) => {
      const readme = read('README.md');
      expect(readme).toContain(`\n${read(path).trimEnd()}\n\`\`\``);
    },
  );

  it('docs/cli.md documents every flag of the usage text', () => {
    const doc = read('docs/cli.md');
    const flags = [...new Set(USAGE.match(/--[a-z][a-z-]+/g))];
    expect(flags.length).toBeGreaterThan(10);
    for (const flag of flags) expect(doc, flag).toMatch(new RegExp(`${flag}\\b`));
  });

  it('the JSON output matches the JSON Schema in docs/cli.md', () => {
    const doc = read('docs/cli.md');
    const block = /As a JSON Schema:\n\n```json\n([\s\S]*?)\n```/.exec(doc);
    expect(block, 'docs/cli.md has the JSON Schema of the json format').not.toBeNull();
    const validate = new Ajv2020({ strict: true, allErrors: true }).compile(JSON.parse(block![1]!));
    const dir = tempProject({
      '.anf-lint.yaml': GOOD_CONFIG,
      'etc/fstab': FSTAB_UNUSED_SUPPRESSION,
      'team/.anf-lint.yaml': CONFIG_UNKNOWN_REGION,
    });
    const output = JSON.parse(run(['-f', 'json'], { cwd: dir }).stdout);
    expect(output.flatMap((f: { diagnostics: unknown[] }) => f.diagnostics)).toHaveLength(2);
    expect(validate(output), JSON.stringify(validate.errors)).toBe(true);
    // Exactly the documented keys, no more: the format is stable.
    const schema = JSON.parse(block![1]!);
    // Optional keys (`notListed`, only when a report was cut) appear in the schema but not here.
    const optional = (key: string) => !schema.items.required.includes(key);
    expect(Object.keys(output[1])).toEqual(Object.keys(schema.items.properties).filter((key) => !optional(key)));
    expect(Object.keys(output[1].diagnostics[0])).toEqual(
      Object.keys(schema.items.properties.diagnostics.items.properties),
    );
  });

  it('exit code 3 on an internal error, with a message instead of silence', () => {
    // A CLI bundle without its language-server sibling cannot start `lsp`.
    const dir = tempProject({});
    mkdirSync(join(dir, 'cli'));
    // The loader and its bundle (scripts/cliBundle.mjs); the code cache is optional.
    copyFileSync(CLI, join(dir, 'cli', 'anf-lint.js'));
    copyFileSync(join(dirname(CLI), 'anf-lint-bundle.js'), join(dir, 'cli', 'anf-lint-bundle.js'));
    const result = run(['lsp', '--stdio'], { cwd: dir, cli: join(dir, 'cli', 'anf-lint.js') });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the language server is not built');
  });

  it('start-up (issue 17): the built code cache is accepted for the bundle it was made for, and the CLI runs without it', () => {
    const bundle = join(dirname(CLI), 'anf-lint-bundle.js');
    const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
      filename: bundle,
      cachedData: readFileSync(`${bundle}.cache`),
    });
    expect(script.cachedDataRejected).toBe(false);
    const dir = tempProject({});
    mkdirSync(join(dir, 'cli'));
    copyFileSync(CLI, join(dir, 'cli', 'anf-lint.js'));
    copyFileSync(bundle, join(dir, 'cli', 'anf-lint-bundle.js'));
    expect(run(['--version'], { cwd: dir, cli: join(dir, 'cli', 'anf-lint.js') }).stdout).toMatch(/^anf-lint \d/);
  });

  it("start-up: the language server's built code cache is accepted for its bundle (scripts/serverBundle.mjs)", () => {
    const bundle = join(dirname(CLI), '..', 'server', 'server-bundle.js');
    const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), {
      filename: bundle,
      cachedData: readFileSync(`${bundle}.cache`),
    });
    expect(script.cachedDataRejected).toBe(false);
    // The loader editors start is the CLI's, named after its bundle.
    expect(readFileSync(join(dirname(bundle), 'server.js'), 'utf8')).toBe(readFileSync(CLI, 'utf8'));
  });

  it('a build without its WebAssembly reads Terraform as unread, with a note, not as an internal error', () => {
    const dir = tempProject({ 'main.tf': 'resource "azurerm_netapp_account" "a" {\n  name = "a"\n}\n' });
    mkdirSync(join(dir, 'cli'));
    copyFileSync(CLI, join(dir, 'cli', 'anf-lint.js'));
    copyFileSync(join(dirname(CLI), 'anf-lint-bundle.js'), join(dir, 'cli', 'anf-lint-bundle.js'));
    copyFileSync(join(dirname(CLI), 'web-tree-sitter.js'), join(dir, 'cli', 'web-tree-sitter.js'));
    const result = run(['--format', 'json', 'main.tf'], { cwd: dir, cli: join(dir, 'cli', 'anf-lint.js') });
    expect(result.stderr).toContain('Terraform/Bicep reader not loaded');
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)[0].diagnostics.map((d: { code: string }) => d.code)).toEqual(['ANF400']);
  });
});
