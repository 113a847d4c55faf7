import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { directTreeCopy, type Node, parseTree } from '../../server/src/core/iac/treeSitter';
import { copiedNodeCount, type LazyNode, lazyTree } from '../../server/src/core/iac/lazyTree';
import { readBicep } from '../../server/src/core/iac/bicep';
import { SourceText } from '../../server/src/core/text/sourceText';
import type { ParseProblem } from '../../server/src/core/diagnostics';

/**
 * Issues 29 and 32: the Bicep reader reads a JavaScript copy of the syntax tree made as it is read
 * (`lazyTree`): it must answer as web-tree-sitter's nodes do, and a reading must copy what it reads,
 * not the whole file (a 10 MiB file, or a large document re-read after each typing pause, copied
 * every node while the reading's budget stops after 1,000 resources). Work is counted in nodes copied.
 */

const ROOT = join(__dirname, '..', '..');

function bicepFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) out.push(...bicepFiles(path));
    else if (name.endsWith('.bicep') || name.endsWith('.bicepparam')) out.push(path);
  }
  return out;
}

function shapeOfNode(n: Node): unknown {
  return {
    type: n.type,
    start: n.startIndex,
    end: n.endIndex,
    text: n.text,
    children: n.namedChildren.flatMap((c) => (c ? [shapeOfNode(c)] : [])),
  };
}

function shapeOfCopy(n: LazyNode): unknown {
  return {
    type: n.type,
    start: n.startIndex,
    end: n.endIndex,
    text: n.text,
    children: n.namedChildren.map(shapeOfCopy),
  };
}

const FIELDS = [
  'left',
  'right',
  'function',
  'arguments',
  'object',
  'property',
  'index',
  'condition',
  'consequence',
  'alternative',
  'operator',
  'name',
  'type',
];

function fieldsOf(n: Node | LazyNode, path = ''): unknown[] {
  const out: unknown[] = [];
  for (const f of FIELDS) {
    const c = n.childForFieldName(f);
    if (c) out.push([path, f, c.type, c.startIndex, c.endIndex]);
  }
  (n.namedChildren as (Node | LazyNode | null)[]).forEach((c, i) => {
    if (c) out.push(...fieldsOf(c, `${path}/${i}`));
  });
  return out;
}

const EDA_BICEP = readFileSync(join(ROOT, 'examples/eda/bicep/main.bicep'), 'utf8');

describe('lazyTree: the copy answers as web-tree-sitter does', () => {
  const texts: Record<string, string> = {
    'a syntax error': `${EDA_BICEP.slice(0, 600)}\nresource broken 'x@1' = {\n  name: \n${EDA_BICEP.slice(600)}`,
    'non-ASCII text':
      "// Speicher für das EDA-Team — 日本語 🚀\nparam name string = 'vol-ü'\nvar x = name == 'a' ? 1 + 2 : max(3, 4)[0]\n",
    'an empty file': '',
    'a large object': `var big = {\n${Array.from({ length: 50 }, (_, i) => `  k${i}: [ ${i}, 'v${i}', { n: ${i} * 1024 } ]`).join('\n')}\n}\n`,
  };
  for (const path of [...bicepFiles(join(ROOT, 'examples')), ...bicepFiles(join(ROOT, 'test/fixtures'))])
    texts[relative(ROOT, path)] = readFileSync(path, 'utf8');

  for (const [name, text] of Object.entries(texts)) {
    it(`${name}: types, ranges, text, named children and fields`, () => {
      const tree = parseTree('bicep', text)!;
      try {
        const copy = lazyTree(tree, text);
        expect(shapeOfCopy(copy)).toEqual(shapeOfNode(tree.rootNode));
        expect(fieldsOf(copy)).toEqual(fieldsOf(tree.rootNode));
        const copied = copiedNodeCount();
        expect(lazyTree(tree, text)).toBe(copy); // one copy per tree
        shapeOfCopy(copy);
        expect(copiedNodeCount()).toBe(copied); // each node copied once
      } finally {
        tree.delete();
      }
    });
  }

  it('copies nesting deeper than a recursive walk could follow (iteratively)', () => {
    const text = `var x = ${'['.repeat(200)}1${']'.repeat(200)}\n`;
    const tree = parseTree('bicep', text)!;
    try {
      let depth = 0;
      for (let n: LazyNode | undefined = lazyTree(tree, text); n; n = n.namedChildren.at(-1)) depth++;
      expect(depth).toBeGreaterThan(200);
    } finally {
      tree.delete();
    }
  });

  it('refuses to read a node whose tree was deleted (no read of freed memory)', () => {
    const text = EDA_BICEP;
    const tree = parseTree('bicep', text)!;
    const copy = lazyTree(tree, text);
    tree.delete();
    expect(() => copy.namedChildren).toThrow(/after its syntax tree was deleted/);
  });
});

/** Every node of the copy with its fields, in order (copying all of it): two copies are equal when these are. */
function dumpOfCopy(n: LazyNode): unknown {
  const children = n.namedChildren;
  const fields = (n as unknown as { fields?: [string, LazyNode][] }).fields ?? [];
  return [
    n.type,
    n.startIndex,
    n.endIndex,
    fields.map(([f, c]) => [f, c.type, c.startIndex, c.endIndex, children.indexOf(c)]),
    children.map(dumpOfCopy),
  ];
}

/** The `.tf`, `.tfvars`, `.bicep` and `.bicepparam` files under a folder of this repository. */
function iacFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) out.push(...iacFiles(path));
    else if (/\.(tf|tfvars|bicep|bicepparam)$/.test(name)) out.push(path);
  }
  return out;
}

describe('lazyTree calling the runtime directly (treeSitter.ts walkFrom)', () => {
  afterEach(() => directTreeCopy(true));

  /** The copy made with the runtime's cursor functions and the one made with web-tree-sitter's TreeCursor. */
  function bothCopies(grammar: 'terraform' | 'bicep', text: string): [unknown, unknown] {
    const copies: unknown[] = [];
    for (const direct of [true, false]) {
      directTreeCopy(direct);
      const tree = parseTree(grammar, text)!;
      try {
        copies.push(dumpOfCopy(lazyTree(tree, text)));
      } finally {
        tree.delete();
      }
    }
    return copies as [unknown, unknown];
  }

  it('copies every Terraform and Bicep file of examples/ and test/fixtures/, and broken variants, as the TreeCursor does', () => {
    const files = [...iacFiles(join(ROOT, 'examples')), ...iacFiles(join(ROOT, 'test/fixtures'))];
    expect(files.length).toBeGreaterThan(50);
    let size = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      const grammar = /\.bicep(param)?$/.test(file) ? 'bicep' : 'terraform';
      // The file, and the file broken at three places (error recovery: ERROR and MISSING nodes).
      const variants = [text];
      for (const at of [0.25, 0.5, 0.75]) {
        const i = Math.floor(text.length * at);
        variants.push(`${text.slice(0, i)}${grammar === 'bicep' ? "'{" : '"${'}${text.slice(i)}`);
      }
      for (const variant of variants) {
        const [direct, cursor] = bothCopies(grammar, variant);
        expect(direct, relative(ROOT, file)).toEqual(cursor);
        size += JSON.stringify(direct).length;
      }
    }
    expect(size).toBeGreaterThan(100_000);
  });

  it('reads two trees in turns, each node as it is asked for, with other walks and parses in between', () => {
    const other = `${EDA_BICEP}\nvar extra = [for i in range(0, 3): { n: i * 2, s: 'x\${i}' }]\n`;
    const expected = [EDA_BICEP, other].map((text) => {
      const tree = parseTree('bicep', text)!;
      try {
        return dumpOfCopy(lazyTree(tree, text));
      } finally {
        tree.delete();
      }
    });
    const trees = [EDA_BICEP, other].map((text) => parseTree('bicep', text)!);
    try {
      const copies = trees.map((tree, i) => lazyTree(tree, i === 0 ? EDA_BICEP : other));
      // Breadth first in both trees at once: each step copies one node's children of one tree.
      const queues: LazyNode[][] = copies.map((c) => [c]);
      let step = 0;
      while (queues.some((q) => q.length > 0)) {
        const queue = queues[step % 2]!;
        const node = queue.shift();
        if (node) queue.push(...node.namedChildren);
        if (step++ % 7 === 0) parseTree('terraform', `x = ${step}\n`)!.delete(); // the runtime is called in between
      }
      expect(copies.map(dumpOfCopy)).toEqual(expected);
    } finally {
      for (const tree of trees) tree.delete();
    }
  });

  it('reads a node kept as a handle after the memory of the runtime grew (it replaces its view of the memory)', () => {
    const text = volumes(20);
    const tree = parseTree('bicep', text)!;
    try {
      const copy = lazyTree(tree, text);
      expect(copy.namedChildren.length).toBeGreaterThan(20); // the statements, their bodies as handles
      const big = parseTree('bicep', 'var x = [1]\n'.repeat(100_000))!; // grows the memory
      big.delete();
      const again = parseTree('bicep', text)!;
      try {
        expect(dumpOfCopy(copy)).toEqual(dumpOfCopy(lazyTree(again, text)));
      } finally {
        again.delete();
      }
    } finally {
      tree.delete();
    }
  });
});

/** `count` volumes, one per resource declaration, as bench/scale.mjs writes the 10 MiB file. */
function volumes(count: number): string {
  const head = [
    'param subnetId string',
    'var gib = 1024 * 1024 * 1024',
    "resource account 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {",
    "  name: 'estate'",
    "  location: 'eastus'",
    '}',
    "resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {",
    '  parent: account',
    "  name: 'pool'",
    "  location: 'eastus'",
    "  properties: { serviceLevel: 'Premium', size: 4 * 1024 * gib }",
    '}',
  ];
  const body = Array.from({ length: count }, (_, i) =>
    [
      `resource vol${i} 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {`,
      '  parent: pool',
      `  name: 'vol-${i}'`,
      "  location: 'eastus'",
      '  properties: {',
      "    serviceLevel: 'Premium'",
      `    creationToken: 'vol-${i}'`,
      '    subnetId: subnetId',
      `    usageThreshold: ${1 + (i % 200)} * gib`,
      "    protocolTypes: [ 'NFSv3' ]",
      '  }',
      '}',
    ].join('\n'),
  );
  return `${[...head, ...body].join('\n')}\n`;
}

/** Nodes copied by one reading (and the problems it noted). */
function copiedBy(read: () => unknown): number {
  const before = copiedNodeCount();
  read();
  return copiedNodeCount() - before;
}

describe('lazyTree: a reading copies what it reads', () => {
  it('a file read whole copies each node once; a resource past the budget costs its head only', () => {
    // 1,000 resources are read (the work budget); past them only each declaration's head is copied.
    const small = copiedBy(() => readBicep(new SourceText(volumes(900)), []));
    const large = copiedBy(() => readBicep(new SourceText(volumes(4900)), []));
    const read = small / 900;
    const past = (large - copiedBy(() => readBicep(new SourceText(volumes(1900)), []))) / 3000;
    expect(read).toBeGreaterThan(20); // a volume read: its properties and their values
    expect(past).toBeLessThan(8); // past the budget: symbol, type, body (a handle)
  });

  it('a large document re-read after an edit (the language server) copies the head of each declaration, not every node', () => {
    const problems: ParseProblem[] = [];
    const key = 'file:///lazy-tree-test/main.bicep';
    const text = volumes(4900);
    readBicep(new SourceText(text), problems, key);
    const at = text.indexOf("name: 'vol-2500'");
    const edited = `${text.slice(0, at)}name: 'vol-2500x'${text.slice(at + "name: 'vol-2500'".length)}`;
    const nodes = (text.match(/\n/g) ?? []).length * 5; // about five named nodes a line
    const reread = copiedBy(() => readBicep(new SourceText(edited), problems, key));
    expect(reread).toBeLessThan(nodes / 4);
  });
});
