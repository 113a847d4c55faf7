// Lists import cycles among server/src modules (strongly connected components of the import graph)
// and pairs of layers that import each other. `--values` ignores `import type` / `export type`
// lines (what runs at load time). `--check` exits 1 when there is any cycle or pair
// (test/unit/layers.test.ts runs it, so a new one fails the tests and CI).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';
const root = resolve(process.argv.slice(2).find((a) => !a.startsWith('--')) ?? 'server/src');
const valuesOnly = process.argv.includes('--values');
const check = process.argv.includes('--check');
const files = [];
(function walk(d) {
  for (const e of readdirSync(d)) {
    const p = join(d, e);
    if (statSync(p).isDirectory()) walk(p);
    else if (p.endsWith('.ts')) files.push(p);
  }
})(root);
const graph = new Map();
for (const f of files) {
  const text = readFileSync(f, 'utf8');
  const deps = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^;]*?from\s+'(\.[^']+)'/gms)) {
    if (valuesOnly && m[2]) continue;
    const t = resolve(dirname(f), m[3]);
    for (const c of [t + '.ts', join(t, 'index.ts')])
      if (existsSync(c)) {
        deps.push(c);
        break;
      }
  }
  graph.set(f, deps);
}
let index = 0;
const idx = new Map(),
  low = new Map(),
  stack = [],
  on = new Set(),
  sccs = [];
function strong(v) {
  idx.set(v, index);
  low.set(v, index++);
  stack.push(v);
  on.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      strong(w);
      low.set(v, Math.min(low.get(v), low.get(w)));
    } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
  }
  if (low.get(v) === idx.get(v)) {
    const c = [];
    let w;
    do {
      w = stack.pop();
      on.delete(w);
      c.push(w);
    } while (w !== v);
    if (c.length > 1) sccs.push(c);
  }
}
for (const f of files) if (!idx.has(f)) strong(f);
for (const c of sccs)
  console.log(
    `cycle of ${c.length} modules: ${c
      .map((f) => relative(root, f))
      .sort()
      .join(', ')}`,
  );
console.log(`${sccs.length} cycle(s) (${valuesOnly ? 'value imports' : 'all imports'}) among ${files.length} modules`);
// Layer cycles: the same graph with each module replaced by its folder under core/ (core/manifest,
// core/mounts/rules (a domain's rules are a layer above its parser),
// core/workspace, ...; files directly in core/ count as their own layer).
const layerOf = (f) => {
  const r = relative(root, f).split('/');
  return r[0] === 'core' && r.length > 3 && r[2] === 'rules'
    ? `core/${r[1]}/rules`
    : r[0] === 'core' && r.length > 2
      ? `core/${r[1]}`
      : r.length > 2
        ? r[0]
        : r.join('/').replace(/\.ts$/, '');
};
const layers = new Map();
for (const [f, deps] of graph) {
  const a = layerOf(f);
  if (!layers.has(a)) layers.set(a, new Map());
  for (const d of deps) {
    const b = layerOf(d);
    if (a !== b) {
      const m = layers.get(a);
      if (!m.has(b)) m.set(b, `${relative(root, f)} -> ${relative(root, d)}`);
    }
  }
}
let pairs = 0;
for (const [a, m] of layers)
  for (const [b, why] of m)
    if (a < b && layers.get(b)?.has(a)) {
      pairs++;
      console.log(`layers ${a} <-> ${b}: ${why} | ${layers.get(b).get(a)}`);
    }
console.log(`${pairs} pair(s) of layers importing each other`);
if (check && (sccs.length > 0 || pairs > 0)) process.exitCode = 1;
