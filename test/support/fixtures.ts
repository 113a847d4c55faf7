import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  applyEdits,
  configSchema,
  lintFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type Diagnostic,
} from '../../server/src/core';

/**
 * Rule fixtures, in the style of Bicep's baselines: a folder of real-looking input files, the
 * diagnostics they must produce (`expected.txt`), and the text after the fixes (`fixed/`).
 *
 *   test/fixtures/rules/ANF204-soft-mount/
 *     etc/fstab                  input (paths matter: they decide the file kind)
 *     .anf-lint.yaml             optional configuration
 *     expected.txt               one line per diagnostic of this rule: file:line:col-line:col severity CODE message
 *     fixed/etc/fstab            optional: the input after applying each diagnostic's first fix
 *
 * UPDATE_FIXTURES=1 rewrites expected.txt and fixed/ from the current output: review the diff.
 */
export const FIXTURE_ROOT = join(__dirname, '..', 'fixtures', 'rules');
const UPDATE = process.env.UPDATE_FIXTURES === '1';
const RESERVED = new Set(['expected.txt', 'fixed', '.anf-lint.yaml']);

export interface FixtureResult {
  readonly code: string;
  readonly expected: string;
  readonly actual: string;
  readonly fixed: { readonly path: string; readonly expected: string | undefined; readonly actual: string }[];
  /** Every visible diagnostic of the fixture's files, of any rule (for checks across rules). */
  readonly diagnostics: readonly Diagnostic[];
}

function walk(dir: string, base = dir): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (dir === base && RESERVED.has(entry)) return [];
    return statSync(path).isDirectory() ? walk(path, base) : [relative(base, path)];
  });
}

export function fixtureDirectories(): string[] {
  if (!existsSync(FIXTURE_ROOT)) return [];
  return readdirSync(FIXTURE_ROOT)
    .filter((d) => /^ANF\d{3}-/.test(d))
    .sort();
}

export function formatDiagnostic(path: string, d: Diagnostic): string {
  const { start, end } = d.range;
  return `${path}:${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1} ${d.severity} ${d.code} ${d.message}`;
}

/** Lints a fixture folder and returns what it produced next to what it promised. */
export function runFixture(directory: string): FixtureResult {
  const dir = join(FIXTURE_ROOT, directory);
  const code = directory.slice(0, 6);
  const configPath = join(dir, '.anf-lint.yaml');
  const config = resolveConfig(
    existsSync(configPath) ? configSchema.parse(parseYaml(readFileSync(configPath, 'utf8')) ?? {}) : {},
  );
  const workspace = new Workspace(config);
  const inputs = walk(dir).sort();
  const uriOf = (path: string) => `file:///fixture/${path}`;
  for (const path of inputs) workspace.set(uriOf(path), readFileSync(join(dir, path), 'utf8'));

  const lines: string[] = [];
  const fixed: FixtureResult['fixed'] = [];
  const all: Diagnostic[] = [];
  for (const path of inputs) {
    const visible = visibleDiagnostics(lintFile(workspace, uriOf(path), config));
    all.push(...visible);
    const diagnostics = visible.filter((d) => d.code === code);
    lines.push(...diagnostics.map((d) => formatDiagnostic(path, d)));
    const edits = diagnostics.flatMap((d) => d.fixes[0]?.edits ?? []).filter((e) => e.uri === uriOf(path));
    const fixedPath = join(dir, 'fixed', path);
    if (edits.length > 0 || existsSync(fixedPath)) {
      const actual = applyEdits(workspace.file(uriOf(path))!.source.text, edits).text;
      if (UPDATE) {
        mkdirSync(dirname(fixedPath), { recursive: true });
        writeFileSync(fixedPath, actual);
      }
      fixed.push({ path, expected: existsSync(fixedPath) ? readFileSync(fixedPath, 'utf8') : undefined, actual });
    }
  }
  const actual = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  const expectedPath = join(dir, 'expected.txt');
  if (UPDATE) writeFileSync(expectedPath, actual);
  return {
    code,
    expected: existsSync(expectedPath) ? readFileSync(expectedPath, 'utf8') : '(expected.txt missing)',
    actual,
    fixed,
    diagnostics: all,
  };
}
