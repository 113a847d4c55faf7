import type { Tree } from 'web-tree-sitter';
import { type LightNode, lightNode, type TreeWalk, walkFrom } from './treeSitter';

/**
 * A syntax tree copied into JavaScript objects as it is read (issues 29 and 32). Each property of a
 * web-tree-sitter `Node` is a call into WebAssembly, and every `namedChildren` makes new Node
 * objects, so the Bicep reader reads a copy (type, range, named children and field children,
 * nothing else). Copying the whole tree up front (the former `plainTree`) cost more than the
 * parse on a large file, and most of it is never read: the body of a resource past the reading's
 * budget, of a resource that is not a NetApp or network one, of an output. Here a node's children
 * are copied on their first reading, with one tree cursor walk (treeSitter.ts `walkFrom`: the
 * runtime's cursor functions called directly, 3-6 calls a node): a child of at most `SMALL_BYTES`
 * comes with all its descendants (an identifier, a string, a short expression: reading one reads
 * all of it), a larger one keeps a handle to its tree-sitter node and is copied when it is read in
 * turn (the root's statements come with their children: every reading reads those). The copy is kept with its tree (`WeakMap`), so readings that share the tree share what is
 * copied. A node is copied at most once; `copiedNodeCount` counts them (tests).
 *
 * A node must be read while its tree lives: the readers read the copy before they return the tree
 * (bicep.ts), and nothing of it reaches the estate. Reading a node whose tree was deleted throws
 * (a reader failure, ANF003), rather than reading freed memory.
 */
export class LazyNode {
  /** The named children, once copied. */
  private children: LazyNode[] | undefined;
  private fields: [string, LazyNode][] | undefined;

  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly context: Context,
    /** Set until the children are copied. */
    private handle: LightNode | undefined,
  ) {
    if (!handle) this.children = [];
  }

  get text(): string {
    return this.context.text.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): LazyNode[] {
    if (!this.children) this.copyChildren();
    return this.children!;
  }

  /** The first child with this field name (named or not, as web-tree-sitter's), or null. */
  childForFieldName(name: string): LazyNode | null {
    if (!this.children) this.copyChildren();
    if (this.fields) for (const [field, node] of this.fields) if (field === name) return node;
    return null;
  }

  private copyChildren(): void {
    const walk = walkFrom(this.handle!); // throws if the tree was deleted
    try {
      this.children = [];
      this.handle = undefined;
      copyBelow(this, walk, this.context, this.context.root === this ? HEADS : SPLIT);
    } finally {
      walk.end();
    }
  }

  /** @internal */
  add(named: boolean, field: string | undefined, node: LazyNode): void {
    if (named) this.children!.push(node);
    if (field) (this.fields ??= []).push([field, node]);
  }
}

/** Children of at most this many bytes are copied with their parent. */
const SMALL_BYTES = 128; // not a fact: a trade of copies made for nothing against handles kept

interface Context {
  readonly text: string;
  readonly types: readonly string[];
  readonly fields: readonly (string | null)[];
  /** The copy of the tree's root, set once made. */
  root?: LazyNode;
}

let copiedNodes = 0;

/** Nodes copied so far, in every tree (tests count work with it). */
export function copiedNodeCount(): number {
  return copiedNodes;
}

/** How a node's children are copied: all with their descendants; small ones so and large ones as handles; or, for the root, large ones with their own children copied so too. */
const WHOLE = 0;
const SPLIT = 1;
const HEADS = 2;

/**
 * Copies the children of the walk's node into `parent` (iteratively: any nesting the parser
 * accepted): each small child with its descendants, each large one as a handle, except below the
 * root (`HEADS`), whose statements every reading reads the children of (a declaration's name, type
 * and body): those come with their children, copied the same way. The walk ends anywhere below its node.
 */
function copyBelow(parent: LazyNode, walk: TreeWalk, context: Context, mode: number): void {
  if (!walk.gotoFirstChild()) return;
  const parents: LazyNode[] = [parent];
  const modes: number[] = [mode];
  for (;;) {
    const typeId = walk.typeId();
    const named = walk.named(typeId);
    const fieldId = walk.fieldId();
    if (named || fieldId !== 0) {
      const start = walk.startIndex();
      const end = walk.endIndex();
      const top = modes[modes.length - 1]!;
      const below = top === WHOLE || end - start <= SMALL_BYTES ? WHOLE : top === HEADS ? SPLIT : undefined;
      const node = new LazyNode(
        context.types[typeId] || 'ERROR',
        start,
        end,
        context,
        below === undefined ? walk.currentNode() : undefined,
      );
      copiedNodes++;
      parents[parents.length - 1]!.add(named, fieldId !== 0 ? (context.fields[fieldId] ?? undefined) : undefined, node);
      if (below !== undefined && walk.gotoFirstChild()) {
        parents.push(node);
        modes.push(below);
        continue;
      }
    }
    // Up until a sibling follows (or the children of `parent` are done).
    while (!walk.gotoNextSibling()) {
      if (parents.length === 1) return;
      walk.gotoParent();
      parents.pop();
      modes.pop();
    }
  }
}

const lazyTrees = new WeakMap<Tree, LazyNode>();

/** The tree's copy, made as it is read (one per tree; `text` is the text it was parsed from). */
export function lazyTree(tree: Tree, text: string): LazyNode {
  const known = lazyTrees.get(tree);
  if (known) return known;
  const language = tree.language;
  const context: Context = { text, types: language.types, fields: language.fields };
  const root = lightNode(tree.rootNode, text);
  const copy = new LazyNode(root.type, root.startIndex, root.endIndex, context, root);
  context.root = copy;
  lazyTrees.set(tree, copy);
  return copy;
}
