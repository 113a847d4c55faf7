import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

const ROOT = join(__dirname, '../fixtures/formats');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Lints every file of a fixture folder in one workspace: `path:line code` per finding, and each file's kind. */
function lintFolder(folder: string): { findings: string[]; kinds: Record<string, string> } {
  const ws = new Workspace();
  const files = filesUnder(join(ROOT, folder));
  for (const path of files) ws.set(`file://${path}`, readFileSync(path, 'utf8'));
  const config = resolveConfig({});
  const findings: string[] = [];
  const kinds: Record<string, string> = {};
  for (const path of files.sort()) {
    const uri = `file://${path}`;
    kinds[relative(join(ROOT, folder), path)] = ws.file(uri)!.kind;
    for (const d of visibleDiagnostics(lintFile(ws, uri, config))) {
      findings.push(`${relative(join(ROOT, folder), path)}:${d.range.start.line + 1} ${d.code} ${d.message}`);
    }
  }
  return { findings, kinds };
}

describe('dump', () => {
  for (const folder of readdirSync(ROOT)) {
    it(folder, () => {
      const { findings, kinds } = lintFolder(folder);
      console.log(folder, JSON.stringify(kinds, null, 1), '\n' + findings.join('\n'));
      expect(findings).toBeDefined();
    });
  }
});
void parseFile;
