import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  configSchema,
  detectFileKind,
  isLintable,
  lintFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type Diagnostic,
} from '../../server/src/core';
import { ALL_RULES } from '../../server/src/core/registry';
import { fixtureDirectories, runFixture } from '../support/fixtures';

/**
 * Each fix carries its applicability; each rule lists the applicabilities its fixes can have
 * (`fixes: ['safe']`…), which its page, `anf-lint rules` and SARIF show. Over every rule fixture and
 * the examples, no rule may make a fix its declaration does not list.
 */
const EXAMPLES = join(__dirname, '..', '..', 'examples');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function exampleDiagnostics(): Diagnostic[] {
  const config = resolveConfig(
    configSchema.parse(parseYaml(readFileSync(join(EXAMPLES, '.anf-lint.yaml'), 'utf8')) ?? {}),
  );
  const workspace = new Workspace(config);
  const files = walk(EXAMPLES).filter((path) => isLintable(detectFileKind(path, readFileSync(path, 'utf8'))));
  for (const path of files) workspace.set(pathToFileURL(path).href, readFileSync(path, 'utf8'));
  return files.flatMap((path) => visibleDiagnostics(lintFile(workspace, pathToFileURL(path).href, config)));
}

/** `ANF240 makes a safe fix ("Remove `nfs` from the options") but declares fixes: [unsafe]`, one per rule and applicability. */
function undeclared(diagnostics: readonly Diagnostic[]): string[] {
  const problems = new Map<string, string>();
  for (const d of diagnostics) {
    const rule = ALL_RULES.find((r) => r.code === d.code);
    if (!rule) continue;
    for (const fix of d.fixes) {
      if (rule.fixes.includes(fix.applicability)) continue;
      problems.set(
        `${d.code} ${fix.applicability}`,
        `${d.code} makes a ${fix.applicability} fix ("${fix.title}") but declares fixes: [${rule.fixes.join(', ')}]`,
      );
    }
  }
  return [...problems.values()].sort();
}

describe('each rule declares the applicabilities of the fixes it makes', () => {
  it('over every rule fixture', () => {
    const diagnostics = fixtureDirectories().flatMap((directory) => runFixture(directory).diagnostics);
    expect(
      diagnostics.some((d) => d.fixes.length > 0),
      'the fixtures produce fixes at all',
    ).toBe(true);
    expect(undeclared(diagnostics)).toEqual([]);
  });

  it('over the examples', () => {
    const diagnostics = exampleDiagnostics();
    expect(
      diagnostics.some((d) => d.fixes.length > 0),
      'the examples produce fixes at all',
    ).toBe(true);
    expect(undeclared(diagnostics)).toEqual([]);
  });

  it('declares each applicability once, safe first', () => {
    for (const rule of ALL_RULES)
      expect([...new Set(rule.fixes)].sort(), `${rule.code} fixes`).toEqual([...rule.fixes]);
  });

  it('catches a rule whose fix its declaration does not list', () => {
    const rule = ALL_RULES.find((r) => r.fixes.length === 1 && r.fixes[0] === 'unsafe')!;
    const fake = {
      code: rule.code,
      fixes: [{ title: 'made up', edits: [], applicability: 'safe' }],
    } as unknown as Diagnostic;
    expect(undeclared([fake])).toEqual([`${rule.code} makes a safe fix ("made up") but declares fixes: [unsafe]`]);
  });
});
