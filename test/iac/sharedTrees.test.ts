import { afterEach, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  borrowTree,
  directTreeCopy,
  forgetSharedTrees,
  hasSharedTree,
  type LightNode,
  lightNode,
  type Node,
  parseTree,
  returnTree,
  shareTrees,
} from '../../server/src/core/iac/treeSitter';
import { readIac } from '../../server/src/core/iac/read';
import { readBicepModule } from '../../server/src/core/iac/bicep';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Issue 29: the CLI parses each Terraform and Bicep file once per run (trees shared by the readings
 * that need them, `borrowTree`), and the readers read nodes with the runtime's functions called
 * directly (`lightNode`; the Bicep reader's copy, test/iac/lazyTree.test.ts). Both must be invisible:
 * a node answers as web-tree-sitter's does, and a reading with shared trees gives what a reading
 * without them gives.
 */

const ROOT = join(__dirname, '..', '..');
const EDA_BICEP = readFileSync(join(ROOT, 'examples/eda/bicep/main.bicep'), 'utf8');

afterEach(() => shareTrees(false));

/** The `.tf`, `.tfvars` and `.bicep` files under a folder of this repository. */
function iacFiles(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) iacFiles(path, out);
    else if (/\.(tf|tfvars|bicep|bicepparam)$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe('lightNode', () => {
  afterEach(() => directTreeCopy(true));

  function dumpOfNode(n: Node): unknown {
    return [n.id, n.type, n.startIndex, n.endIndex, n.text, n.namedChildren.map((c) => dumpOfNode(c!))];
  }

  function dumpOfLight(n: LightNode): unknown {
    return [n.id, n.type, n.startIndex, n.endIndex, n.text, n.namedChildren.map(dumpOfLight)];
  }

  it('is what this runtime offers: its functions called directly', () => {
    expect(directTreeCopy()).toBe(true);
  });

  it('reads every Terraform and Bicep file of examples/ and test/fixtures/, and broken variants, as web-tree-sitter does', () => {
    const files = [...iacFiles('examples'), ...iacFiles('test/fixtures')];
    for (const direct of [true, false]) {
      directTreeCopy(direct);
      for (const file of files) {
        const text = readFileSync(join(ROOT, file), 'utf8');
        const grammar = file.endsWith('.bicep') || file.endsWith('.bicepparam') ? 'bicep' : 'terraform';
        const i = Math.floor(text.length / 2);
        for (const variant of [text, `${text.slice(0, i)}${grammar === 'bicep' ? "'{" : '"${'}${text.slice(i)}`]) {
          const tree = parseTree(grammar, variant)!;
          try {
            expect(dumpOfLight(lightNode(tree.rootNode, variant)), file).toEqual(dumpOfNode(tree.rootNode));
          } finally {
            tree.delete();
          }
        }
      }
    }
  });

  it('reads a node the way it was asked, in any order, with other trees read in between', () => {
    const text = 'resource "a" "b" {\n  x = [1, "two", { three = 3 }]\n}\n';
    const tree = parseTree('terraform', text)!;
    const other = parseTree('bicep', EDA_BICEP)!;
    try {
      const root = lightNode(tree.rootNode, text);
      const block = root.namedChildren[0]!.namedChildren[0]!;
      lightNode(other.rootNode, EDA_BICEP).namedChildren.map((c) => c.type); // the transfer buffer is overwritten
      expect(block.endIndex).toBe(text.length - 1);
      expect(block.type).toBe('block');
      expect(block.namedChildren.map((c) => c.type)).toEqual([
        'identifier',
        'string_lit',
        'string_lit',
        'block_start',
        'body',
        'block_end',
      ]);
      const children = block.namedChildren;
      expect(block.namedChildren).toBe(children); // read once
      block.release();
      expect(block.namedChildren).not.toBe(children); // read again
      expect(dumpOfLight(block)).toEqual(dumpOfNode(tree.rootNode.namedChildren[0]!.namedChildren[0]!));
      const start = text.indexOf('[1');
      const value = block.namedChildren[4]!.namedChildren[0]!.namedChildren[1]!;
      expect([value.startIndex, value.text]).toEqual([start, '[1, "two", { three = 3 }]']);
    } finally {
      tree.delete();
      other.delete();
    }
  });

  it('reads a tree whose memory grew after it was parsed (the runtime replaces its view of the memory)', () => {
    const text = 'locals {\n  a = 1\n}\n';
    const tree = parseTree('terraform', text)!;
    const root = lightNode(tree.rootNode, text);
    expect(root.type).toBe('config_file'); // read before the memory grows
    const big = parseTree('terraform', 'x = [1]\n'.repeat(100_000))!; // grows the memory
    try {
      expect(dumpOfLight(root)).toEqual(dumpOfNode(tree.rootNode));
    } finally {
      tree.delete();
      big.delete();
    }
  });
});

describe('shared trees', () => {
  it('off (the language server): every borrow parses, every return deletes', () => {
    const source = new SourceText(EDA_BICEP);
    const a = borrowTree('bicep', source, source.text)!;
    const b = borrowTree('bicep', source, source.text)!;
    expect(a).not.toBe(b);
    expect(hasSharedTree(source)).toBe(false);
    returnTree(a);
    returnTree(b);
  });

  it('on (the CLI): one parse per text, kept while borrowed and after, forgotten on demand', () => {
    shareTrees(true);
    const source = new SourceText(EDA_BICEP);
    const a = borrowTree('bicep', source, source.text)!;
    const b = borrowTree('bicep', source, source.text)!;
    expect(b).toBe(a);
    returnTree(a);
    returnTree(b);
    expect(hasSharedTree(source)).toBe(true);
    // Another SourceText of the same text (an edited document's next version) never meets this tree.
    const other = new SourceText(EDA_BICEP);
    const c = borrowTree('bicep', other, other.text)!;
    expect(c).not.toBe(a);
    returnTree(c);
    forgetSharedTrees();
    expect(hasSharedTree(source)).toBe(false);
  });

  it('keeps at most its bound of text, least recently used first, and never a tree a reader holds', () => {
    shareTrees(true);
    const big = `${EDA_BICEP}\n${'// filler line of a large template\n'.repeat(20_000)}`; // about 0.7 MiB
    const sources = [0, 1, 2, 3].map(() => new SourceText(big));
    const held = borrowTree('bicep', sources[0]!, big)!;
    for (const s of sources.slice(1)) returnTree(borrowTree('bicep', s, big)!);
    // Past the bound (2 MiB of text): the oldest unborrowed goes, the borrowed one stays usable.
    expect(hasSharedTree(sources[0]!)).toBe(true);
    expect(hasSharedTree(sources[1]!)).toBe(false);
    expect(held.rootNode.type).toBe('infrastructure');
    returnTree(held);
  });

  it('gives the same estate with and without sharing (a file alone and with its modules)', () => {
    const main = `module m './mod.bicep' = [for i in range(0, 3): {\n  name: 'm\${i}'\n  params: {\n    prefix: 'p\${i}'\n  }\n}]\n`;
    const mod = `param prefix string\n${EDA_BICEP.replace(/name: 'eda-/g, "name: '${prefix}-")}`;
    const read = () => {
      const mainSource = new SourceText(main);
      const modSource = new SourceText(mod);
      const alone = readIac(modSource, 'file:///r/mod.bicep', 'bicep');
      const withModules = readBicepModule('file:///r/main.bicep', mainSource, (uri) =>
        uri === 'file:///r/mod.bicep' ? modSource : undefined,
      );
      return JSON.stringify({ alone, withModules });
    };
    const unshared = read();
    shareTrees(true);
    const shared = read();
    expect(shared).toBe(unshared);
    expect(JSON.parse(shared).withModules.volumes.length).toBeGreaterThan(0);
  });
});
