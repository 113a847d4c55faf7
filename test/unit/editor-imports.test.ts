/**
 * Layering of the editor features (issue 12): the feature modules in server/src/core/features
 * import no circle of one another (type imports included: a type shared by two providers lives in
 * its own module), and the VS Code client takes nothing but types from the server, so no server
 * code runs in the extension bundle (what the client needs at run time, the server sends).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const FEATURES = join(ROOT, 'server', 'src', 'core', 'features');
const CLIENT = join(ROOT, 'client', 'src');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? tsFiles(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** `import ... from './x'` and `export ... from './x'`, with whether the whole statement is type-only. */
function imports(file: string): { target: string; typeOnly: boolean }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gms)].map((m) => ({
    target: `${resolve(dirname(file), m[3]!)}.ts`,
    typeOnly: Boolean(m[2]),
  }));
}

describe('editor layering', () => {
  it('the feature modules import no circle', () => {
    const files = tsFiles(FEATURES);
    const graph = new Map(
      files.map((f) => [
        f,
        imports(f)
          .map((i) => i.target)
          .filter((t) => files.includes(t)),
      ]),
    );
    const cycles: string[] = [];
    const visit = (node: string, stack: string[]) => {
      const at = stack.indexOf(node);
      if (at >= 0) {
        cycles.push([...stack.slice(at), node].map((f) => relative(FEATURES, f)).join(' -> '));
        return;
      }
      for (const next of graph.get(node) ?? []) visit(next, [...stack, node]);
    };
    for (const file of files) visit(file, []);
    expect(files.length).toBeGreaterThan(5);
    expect(cycles).toEqual([]);
  });

  it('the client imports only types from the server', () => {
    const files = tsFiles(CLIENT);
    const runtime = files.flatMap((f) =>
      imports(f)
        .filter((i) => !i.typeOnly && i.target.includes(`${join('server', 'src')}`))
        .map((i) => `${relative(ROOT, f)} -> ${relative(ROOT, i.target)}`),
    );
    expect(files.length).toBeGreaterThan(3);
    expect(runtime).toEqual([]);
  });
});
