import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import {
  configSchema,
  detectFileKind,
  isLintable,
  lintFile,
  resolveConfig,
  SourceText,
  visibleDiagnostics,
  Workspace,
} from '../server/src/core';

/**
 * examples/ is a small infrastructure repo, some of it right and some wrong. Each file promises its
 * findings in comments: `# expect: ANF204 ANF213` (or `; expect:` / `<!-- expect: -->`) says which
 * rule codes the next non-comment line (with its `\` continuations) produces. Every other line must
 * produce nothing. This test holds the examples to their word.
 */
const EXAMPLES = join(__dirname, '..', 'examples');
const EXPECT = /^\s*(?:#|;|\/\/|<!--)\s*expect:\s*([A-Z0-9 ,]+?)\s*(?:-->)?\s*$/;
const COMMENT_OR_BLANK = /^\s*(?:#|;|\/\/|<!--|$)/;

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function promisedCodes(text: string): Map<number, string[]> {
  const source = new SourceText(text);
  const promised = new Map<number, string[]>();
  for (let line = 0; line < source.lineCount; line++) {
    const match = EXPECT.exec(source.lineText(line));
    if (!match) continue;
    let target = line + 1;
    while (
      target < source.lineCount &&
      COMMENT_OR_BLANK.test(source.lineText(target)) &&
      !EXPECT.test(source.lineText(target))
    )
      target++;
    const codes = match[1]!.split(/[\s,]+/).filter(Boolean);
    let last = target;
    while (last + 1 < source.lineCount && /\\\s*$/.test(source.lineText(last))) last++;
    for (let l = target; l <= last; l++) promised.set(l, [...(promised.get(l) ?? []), ...(l === target ? codes : [])]);
  }
  return promised;
}

describe('examples/ produce exactly the diagnostics their comments promise', () => {
  const configPath = join(EXAMPLES, '.anf-lint.yaml');
  const config = resolveConfig(configSchema.parse(parseYaml(readFileSync(configPath, 'utf8')) ?? {}));
  const workspace = new Workspace(config);
  const files = walk(EXAMPLES)
    .filter((path) => isLintable(detectFileKind(path, readFileSync(path, 'utf8'))))
    .sort();
  for (const path of files) workspace.set(pathToFileURL(path).href, readFileSync(path, 'utf8'));

  it('has files of every kind the issue names', () => {
    const kinds = new Set(files.map((f) => detectFileKind(f, readFileSync(f, 'utf8'))));
    for (const kind of ['manifest-yaml', 'fstab', 'shell', 'sysctl'])
      expect(kinds, `examples/ has no ${kind} file`).toContain(kind);
  });

  it.each(files.map((f) => [relative(EXAMPLES, f), f] as const))('%s', (_name, path) => {
    const uri = pathToFileURL(path).href;
    const text = readFileSync(path, 'utf8');
    const promised = promisedCodes(text);
    const actual = new Map<number, string[]>();
    for (const d of visibleDiagnostics(lintFile(workspace, uri, config))) {
      actual.set(d.range.start.line, [...(actual.get(d.range.start.line) ?? []), d.code]);
    }
    const render = (map: Map<number, string[]>) =>
      [...map.entries()]
        .filter(([, codes]) => codes.length > 0)
        .sort(([a], [b]) => a - b)
        .map(([line, codes]) => `line ${line + 1}: ${[...codes].sort().join(' ')}`)
        .join('\n');
    expect(render(actual)).toBe(render(promised));
  });
});
