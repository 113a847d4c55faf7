import { Edit, Language, Parser, type Node, type Tree, type TreeCursor } from 'web-tree-sitter';
import { changedRegion } from '../text/changedRegion';

/**
 * The tree-sitter runtime (web-tree-sitter) and the Terraform (HCL) and Bicep grammars, compiled
 * to WebAssembly, both built here: Terraform's from `@tree-sitter-grammars/tree-sitter-hcl` with a
 * scanner fix, Bicep's from `tree-sitter-bicep` with grammar and scanner fixes
 * (server/grammars/README.md). WebAssembly is instantiated asynchronously, so the CLI and the language
 * server call `initIacParsers` before they parse; the core then parses synchronously. The
 * core never reads files: the adapters hand it the .wasm bytes (server/src/iacWasm.ts).
 */
export type IacGrammar = 'terraform' | 'bicep';

export interface IacWasm {
  /** web-tree-sitter.wasm, the runtime. */
  readonly runtime: Uint8Array;
  readonly terraform: Uint8Array;
  readonly bicep: Uint8Array;
}

const ALL_GRAMMARS: readonly IacGrammar[] = ['terraform', 'bicep'];
let runtime: Promise<void> | undefined;
const languages: Partial<Record<IacGrammar, Language>> = {};
const loadingGrammars: Partial<Record<IacGrammar, Promise<void>>> = {};
const parsers: Partial<Record<IacGrammar, Parser>> = {};

/**
 * Instantiates the runtime and the grammars asked for (both by default), each once; a later call
 * adds grammars. Instantiating costs tens of milliseconds, which a CLI run that reads no
 * infrastructure code (or only Terraform) need not pay: it asks for the grammars of the files it
 * reads (`grammarOf`).
 */
export function initIacParsers(
  wasm: IacWasm | (() => IacWasm),
  grammars: readonly IacGrammar[] = ALL_GRAMMARS,
): Promise<void> {
  let bytes: IacWasm | undefined;
  const wasmBytes = (): IacWasm => (bytes ??= typeof wasm === 'function' ? wasm() : wasm);
  const started = (runtime ??= startRuntime(wasmBytes().runtime));
  const loads = grammars.map(
    (grammar) =>
      (loadingGrammars[grammar] ??= started.then(async () => {
        languages[grammar] = await Language.load(wasmBytes()[grammar]);
      })),
  );
  return Promise.all(loads).then(() => undefined);
}

function startRuntime(wasmBinary: Uint8Array): Promise<void> {
  // Emscripten fills in the object it is given as its module: the runtime's exported functions.
  const module: Record<string, unknown> = { wasmBinary };
  return Parser.init(module as never).then(() => {
    cursorCalls = cursorCallsOf(module);
    nodeCalls = nodeCallsOf(module);
  });
}

/** Whether a grammar (without one: every grammar) is loaded. */
export function iacParsersReady(grammar?: IacGrammar): boolean {
  return grammar ? languages[grammar] !== undefined : ALL_GRAMMARS.every((g) => languages[g] !== undefined);
}

/** The grammar a file of this kind is read with, if any. */
export function grammarOf(kind: string): IacGrammar | undefined {
  if (kind === 'terraform' || kind === 'terraform-vars') return 'terraform';
  if (kind === 'bicep') return 'bicep';
  return undefined;
}

/** Parses `text` with a grammar; undefined when the parsers were not loaded. */
export function parseTree(grammar: IacGrammar, text: string): Tree | undefined {
  return parserFor(grammar)?.parse(text) ?? undefined;
}

/**
 * Trees shared by the readers of one run (issue 29). A CLI run parses each Terraform and Bicep file
 * when it reads it alone (`readIac`), then again for every reading that follows its modules
 * (a Terraform folder read with the modules it calls, a Bicep file with its local modules): most
 * files of a repository were parsed two or three times, and parsing is most of the run. A reader
 * borrows the tree of a text (`borrowTree`, keyed by the SourceText object, so an edited document
 * never meets the tree of its last version) and gives it back (`returnTree`); trees no reader holds
 * stay until the kept text passes MAX_SHARED_TEXT, least recently used first. Trees live in
 * WebAssembly memory (about 35 times their text), which never shrinks: the bound is on that memory.
 * A text larger than the bound is parsed, read and deleted as before. Off until `shareTrees` turns
 * it on (the CLI does: one run, then exit); a process that lives on (the language server) keeps no
 * trees it did not ask for.
 */
const MAX_SHARED_TEXT = 2 * 1024 * 1024; // not a fact: memory bound (about 70 MiB of trees)

interface SharedTree {
  readonly grammar: IacGrammar;
  readonly tree: Tree;
  readonly size: number;
  borrowed: number;
}

const shared = new Map<object, SharedTree>();
const sharedByTree = new Map<Tree, { key?: object; entry?: SharedTree }>();
let sharedText = 0;
let sharing = false;

/** Turns the sharing of trees between readings on (the CLI) or off (deleting the trees kept). */
export function shareTrees(on: boolean): void {
  sharing = on;
  if (!on) forgetSharedTrees();
}

/**
 * The tree of `text` (the text of `key`, a SourceText), parsed once while it is shared. Give it back
 * with `returnTree` when the reading ends; never delete it. Undefined when the parsers were not loaded.
 */
export function borrowTree(grammar: IacGrammar, key: object, text: string): Tree | undefined {
  const known = shared.get(key);
  if (known && known.grammar === grammar) {
    known.borrowed++;
    // Most recently used last: eviction starts at the front.
    shared.delete(key);
    shared.set(key, known);
    return known.tree;
  }
  const tree = parseTree(grammar, text);
  if (!tree) return undefined;
  if (!sharing || known || text.length > MAX_SHARED_TEXT) {
    sharedByTree.set(tree, {});
    return tree;
  }
  const entry: SharedTree = { grammar, tree, size: text.length, borrowed: 1 };
  shared.set(key, entry);
  sharedByTree.set(tree, { key, entry });
  sharedText += entry.size;
  return tree;
}

/** Gives back a tree `borrowTree` lent; trees past the bound that no reader holds are deleted. */
export function returnTree(tree: Tree): void {
  const owner = sharedByTree.get(tree);
  if (!owner) return;
  if (!owner.entry) {
    sharedByTree.delete(tree);
    tree.delete();
    return;
  }
  owner.entry.borrowed--;
  if (sharedText <= MAX_SHARED_TEXT) return;
  for (const [key, entry] of shared) {
    if (sharedText <= MAX_SHARED_TEXT) break;
    if (entry.borrowed > 0) continue;
    shared.delete(key);
    sharedByTree.delete(entry.tree);
    sharedText -= entry.size;
    entry.tree.delete();
  }
}

/** Whether the tree of this text is shared (a reading that borrows it will not parse). */
export function hasSharedTree(key: object): boolean {
  return shared.has(key);
}

/** Deletes every shared tree no reader holds (tests; a long-lived process between runs). */
export function forgetSharedTrees(): void {
  for (const [key, entry] of shared) {
    if (entry.borrowed > 0) continue;
    shared.delete(key);
    sharedByTree.delete(entry.tree);
    sharedText -= entry.size;
    entry.tree.delete();
  }
}

/**
 * A syntax tree copied into JavaScript objects (issue 29). Each property of a web-tree-sitter `Node`
 * is a call into WebAssembly with the node marshalled into its memory, and every `namedChildren`
 * makes new Node objects: the Bicep reader, which reads a module's tree again for each instance
 * (and each caller), spent most of a run there. `plainTree` copies a tree once with a tree cursor
 * (type, range, named children and field children, nothing else; `CursorCalls`, `copyTree`), iteratively, so any nesting the
 * parser accepted is copied; the copy is kept with its tree (`WeakMap`), so the readings that share
 * the tree share the copy. It offers the part of the Node interface the Bicep reader uses.
 */
export class PlainNode {
  readonly namedChildren: PlainNode[] = [];
  private fields: [string, PlainNode][] | undefined;
  constructor(
    readonly type: string,
    readonly startIndex: number,
    readonly endIndex: number,
    private readonly source: string,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  /** The first child with this field name (named or not, as web-tree-sitter's), or null. */
  childForFieldName(name: string): PlainNode | null {
    if (this.fields) for (const [field, node] of this.fields) if (field === name) return node;
    return null;
  }

  /** @internal */
  addField(name: string, node: PlainNode): void {
    (this.fields ??= []).push([name, node]);
  }
}

const plainTrees = new WeakMap<Tree, PlainNode>();

/** The tree's copy in JavaScript (made once per tree; `text` is the text it was parsed from). */
export function plainTree(tree: Tree, text: string): PlainNode {
  const known = plainTrees.get(tree);
  if (known) return known;
  const root = copyTree(cursorCalls ? walkWithCalls(cursorCalls, tree) : walkWithCursor(tree), tree, text);
  plainTrees.set(tree, root);
  return root;
}

/**
 * The functions of web-tree-sitter's WebAssembly runtime that move a tree cursor and read its node.
 * A `TreeCursor` method writes the cursor's four words into the runtime's transfer buffer, calls
 * one of these and reads the words back (a getter writes them too), each word a `DataView` call:
 * copying a tree that way cost about 30 such calls and 6 calls into WebAssembly per node. These
 * functions read the cursor from the transfer buffer and the moves write it back there, so a walk
 * that makes no other call into the runtime in between can leave it there from the cursor's
 * creation to its deletion (tree-sitter's lib/binding_web/lib/tree-sitter.c). Each takes the
 * tree's address. Found on the module object Emscripten filled in (`startRuntime`); a runtime
 * without them (another web-tree-sitter version) is walked with a `TreeCursor`.
 */
interface CursorCalls {
  readonly _ts_tree_root_node_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_new_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_delete_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_goto_first_child_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_goto_next_sibling_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_goto_parent_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_type_id_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_field_id_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_start_index_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_end_index_wasm: (tree: number) => number;
}

const CURSOR_CALLS: readonly (keyof CursorCalls)[] = [
  '_ts_tree_root_node_wasm',
  '_ts_tree_cursor_new_wasm',
  '_ts_tree_cursor_delete_wasm',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
];

let cursorCalls: CursorCalls | undefined;

function cursorCallsOf(module: Record<string, unknown>): CursorCalls | undefined {
  return CURSOR_CALLS.every((name) => typeof module[name] === 'function') ? (module as never) : undefined;
}

/**
 * Whether `plainTree` and `lightNode` call the runtime directly (false: through web-tree-sitter's
 * classes, as with a runtime that lacks the functions); tests switch it.
 */
export function directTreeCopy(on?: boolean): boolean {
  if (on === false) {
    saved = { cursor: cursorCalls ?? saved.cursor, node: nodeCalls ?? saved.node };
    cursorCalls = undefined;
    nodeCalls = undefined;
  } else if (on === true) {
    cursorCalls ??= saved.cursor;
    nodeCalls ??= saved.node;
  }
  return cursorCalls !== undefined && nodeCalls !== undefined;
}
let saved: { cursor?: CursorCalls; node?: NodeCalls } = {};

/** The tree's address in WebAssembly memory (web-tree-sitter keeps it as the Tree's `[0]`). */
function treeAddress(tree: Tree): number {
  return (tree as unknown as { readonly 0: number })[0];
}

/** A walk of a tree with a tree cursor: what `copyTree` asks at each node. */
interface Walk {
  readonly typeId: () => number;
  readonly named: (typeId: number) => boolean;
  readonly fieldId: () => number;
  readonly startIndex: () => number;
  readonly endIndex: () => number;
  readonly gotoFirstChild: () => boolean;
  readonly gotoNextSibling: () => boolean;
  readonly gotoParent: () => boolean;
  readonly end: () => void;
}

/** The walk with the cursor left in the transfer buffer (CursorCalls): 5 calls per named node. */
function walkWithCalls(calls: CursorCalls, tree: Tree): Walk {
  const address = treeAddress(tree);
  const language = tree.language;
  const named: boolean[] = []; // by type id: named or not is the type's (its symbol's metadata)
  calls._ts_tree_root_node_wasm(address);
  calls._ts_tree_cursor_new_wasm(address);
  return {
    typeId: () => calls._ts_tree_cursor_current_node_type_id_wasm(address),
    named: (typeId) => (named[typeId] ??= language.nodeTypeIsNamed(typeId)),
    fieldId: () => calls._ts_tree_cursor_current_field_id_wasm(address),
    startIndex: () => calls._ts_tree_cursor_start_index_wasm(address),
    endIndex: () => calls._ts_tree_cursor_end_index_wasm(address),
    gotoFirstChild: () => calls._ts_tree_cursor_goto_first_child_wasm(address) === 1,
    gotoNextSibling: () => calls._ts_tree_cursor_goto_next_sibling_wasm(address) === 1,
    gotoParent: () => calls._ts_tree_cursor_goto_parent_wasm(address) === 1,
    end: () => calls._ts_tree_cursor_delete_wasm(address),
  };
}

/** The walk with web-tree-sitter's TreeCursor. */
function walkWithCursor(tree: Tree): Walk {
  const cursor = tree.walk();
  return {
    typeId: () => cursor.nodeTypeId,
    named: () => cursor.nodeIsNamed,
    fieldId: () => cursor.currentFieldId,
    startIndex: () => cursor.startIndex,
    endIndex: () => cursor.endIndex,
    gotoFirstChild: () => cursor.gotoFirstChild(),
    gotoNextSibling: () => cursor.gotoNextSibling(),
    gotoParent: () => cursor.gotoParent(),
    end: () => cursor.delete(),
  };
}

/** Copies the tree the walk is at the root of (and ends the walk). */
function copyTree(walk: Walk, tree: Tree, text: string): PlainNode {
  const types = tree.language.types;
  const fields = tree.language.fields;
  try {
    const root = new PlainNode(types[walk.typeId()] || 'ERROR', walk.startIndex(), walk.endIndex(), text);
    const parents: PlainNode[] = [root];
    let more = walk.gotoFirstChild();
    while (more) {
      const parent = parents[parents.length - 1]!;
      const typeId = walk.typeId();
      const named = walk.named(typeId);
      const fieldId = walk.fieldId();
      let node: PlainNode | undefined;
      if (named || fieldId !== 0) {
        node = new PlainNode(types[typeId] || 'ERROR', walk.startIndex(), walk.endIndex(), text);
        if (named) parent.namedChildren.push(node);
        const field = fieldId !== 0 ? fields[fieldId] : undefined;
        if (field) parent.addField(field, node);
      }
      if (node && walk.gotoFirstChild()) {
        parents.push(node);
        continue;
      }
      // Up until a sibling follows (or the root is reached again).
      while (!walk.gotoNextSibling()) {
        if (parents.length === 1 || !walk.gotoParent()) {
          more = false;
          break;
        }
        parents.pop();
      }
    }
    return root;
  } finally {
    walk.end();
  }
}

/**
 * A node read with fewer calls into WebAssembly than a web-tree-sitter `Node` (issue 29), for a
 * reader that walks part of a tree (a copy of the whole, `plainTree`, would read what it skips).
 * The same answers as the `Node` it was made from (`id`, `type`, the range, `text`, the named
 * children); `namedChildren` is read once, in one call, and kept; `type` and `endIndex` are read
 * on first use and kept. Like a `Node`, valid while its tree is: never use one after the tree is
 * deleted (`returnTree`). Its children are `LightNode`s.
 */
export interface LightNode {
  /** The node's id (web-tree-sitter's `Node.id`: the same node in an edited tree keeps it). */
  readonly id: number;
  readonly type: string;
  readonly startIndex: number;
  readonly endIndex: number;
  /** The text the tree was parsed from, between the node's start and end. */
  readonly text: string;
  readonly namedChildren: readonly LightNode[];
  /** Lets go of the children read so far (read again if asked): a reader bounds its memory by what it still reads. */
  release(): void;
}

/** `node` (of a tree parsed from `text`) as a LightNode. */
export function lightNode(node: Node, text: string): LightNode {
  if (!nodeCalls) return new NodeOfTree(node, text);
  const tree = node.tree;
  return new DirectNode(
    { calls: nodeCalls, tree: treeAddress(tree), types: tree.language.types, text },
    node.id,
    node.startIndex,
    node.startPosition.row,
    node.startPosition.column,
    (node as unknown as { readonly 0: number })[0],
  );
}

/**
 * The runtime's functions that read a node written into its transfer buffer (five 32-bit words:
 * id, start index, start row and column, and a word of context, as web-tree-sitter's marshalNode
 * writes them), and what they need: the module's memory (`HEAP32`, replaced when the memory
 * grows) and the transfer buffer's address (`_ts_init`, which only writes two version numbers).
 */
interface NodeCalls {
  readonly HEAP32: Int32Array;
  readonly _ts_init: () => number;
  readonly _free: (address: number) => void;
  readonly _ts_node_symbol_wasm: (tree: number) => number;
  readonly _ts_node_end_index_wasm: (tree: number) => number;
  readonly _ts_node_named_children_wasm: (tree: number) => void;
  /** @internal the transfer buffer's address, in 32-bit words */
  transfer: number;
}

const NODE_CALLS = [
  '_ts_init',
  '_free',
  '_ts_node_symbol_wasm',
  '_ts_node_end_index_wasm',
  '_ts_node_named_children_wasm',
] as const;

let nodeCalls: NodeCalls | undefined;

function nodeCallsOf(module: Record<string, unknown>): NodeCalls | undefined {
  // The words are written as this machine orders them; web-tree-sitter writes them little-endian.
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (!littleEndian || !(module.HEAP32 instanceof Int32Array)) return undefined;
  if (!NODE_CALLS.every((name) => typeof module[name] === 'function')) return undefined;
  const calls = module as unknown as NodeCalls;
  calls.transfer = calls._ts_init() >> 2;
  return calls;
}

interface NodeContext {
  readonly calls: NodeCalls;
  readonly tree: number;
  readonly types: readonly string[];
  readonly text: string;
}

const SIZE_OF_NODE = 5; // words

/** A LightNode that keeps the five words of its node and writes them into the transfer buffer to read it. */
class DirectNode implements LightNode {
  private kind: string | undefined;
  private end = -1;
  private named: DirectNode[] | undefined;

  constructor(
    private readonly context: NodeContext,
    readonly id: number,
    readonly startIndex: number,
    private readonly row: number,
    private readonly column: number,
    private readonly other: number,
  ) {}

  get type(): string {
    if (this.kind === undefined) {
      this.write();
      this.kind = this.context.types[this.context.calls._ts_node_symbol_wasm(this.context.tree)] || 'ERROR';
    }
    return this.kind;
  }

  get endIndex(): number {
    if (this.end < 0) {
      this.write();
      this.end = this.context.calls._ts_node_end_index_wasm(this.context.tree);
    }
    return this.end;
  }

  get text(): string {
    return this.context.text.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): readonly LightNode[] {
    if (this.named) return this.named;
    const { calls, tree } = this.context;
    this.write();
    calls._ts_node_named_children_wasm(tree);
    const heap = calls.HEAP32; // read after the call, which may have grown the memory
    const count = heap[calls.transfer]!;
    const buffer = heap[calls.transfer + 1]!;
    const named: DirectNode[] = new Array(count);
    if (count > 0) {
      for (let i = 0, at = buffer >> 2; i < count; i++, at += SIZE_OF_NODE) {
        named[i] = new DirectNode(this.context, heap[at]!, heap[at + 1]!, heap[at + 2]!, heap[at + 3]!, heap[at + 4]!);
      }
      calls._free(buffer);
    }
    this.named = named;
    return named;
  }

  release(): void {
    this.named = undefined;
  }

  /** Writes the node into the transfer buffer, where the runtime's node functions read it. */
  private write(): void {
    const heap = this.context.calls.HEAP32;
    const at = this.context.calls.transfer;
    heap[at] = this.id;
    heap[at + 1] = this.startIndex;
    heap[at + 2] = this.row;
    heap[at + 3] = this.column;
    heap[at + 4] = this.other;
  }
}

/** A LightNode over a web-tree-sitter Node (a runtime without the functions DirectNode calls). */
class NodeOfTree implements LightNode {
  readonly id: number;
  readonly startIndex: number;
  private kind: string | undefined;
  private end = -1;
  private named: NodeOfTree[] | undefined;

  constructor(
    private readonly node: Node,
    private readonly source: string,
  ) {
    this.id = node.id;
    this.startIndex = node.startIndex;
  }

  get type(): string {
    return (this.kind ??= this.node.type);
  }

  get endIndex(): number {
    if (this.end < 0) this.end = this.node.endIndex;
    return this.end;
  }

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): readonly LightNode[] {
    return (this.named ??= this.node.namedChildren.flatMap((c) => (c ? [new NodeOfTree(c, this.source)] : [])));
  }

  release(): void {
    this.named = undefined;
    // web-tree-sitter's Node keeps the children it made (a field it marks internal).
    const node = this.node as unknown as { _namedChildren?: unknown };
    if (node._namedChildren !== undefined) node._namedChildren = undefined;
  }
}

/**
 * Editing a large file re-parses it on every keystroke. The last trees of each document are kept
 * (by a key the caller chooses, the document's URI), so the next text of the same document is
 * parsed incrementally: the changed range is found by comparing the texts (one edit: the common
 * prefix and suffix), a copy of the last tree is told about it (`Tree.edit`) and tree-sitter
 * re-parses what the edit touched, reusing the rest (`parse(text, oldTree)`). On a 5,000-line .tf
 * a whole parse costs about 100 ms, an incremental one about 1 ms, an edit that breaks the syntax a
 * few ms (error recovery re-reads the blocks around the edit; with tree-sitter-hcl's own scanner it
 * re-read the rest of the file, server/grammars/README.md), and the edit that repairs it usually
 * restores the text before it: the tree before the last one is kept too and reused as it is. Trees live in WebAssembly memory until deleted: a replaced or evicted tree is
 * deleted here, and at most KEPT_DOCUMENTS documents keep two trees each (a tree of a 5,000-line
 * .tf takes about 7 MiB; the two trees of one document share most of it). Only documents being
 * edited are kept (`readIac`'s `edited`): a CLI run or the server's index reads each file once.
 */
const KEPT_DOCUMENTS = 8; // not a fact: documents whose last trees are kept (the ones being edited)

interface KeptTree {
  readonly text: string;
  readonly tree: Tree;
}

interface KeptTrees {
  readonly last: KeptTree;
  readonly before?: KeptTree;
}

const kept = new Map<string, KeptTrees>();

/**
 * Parses `text` as the next version of the document `key`, reusing its previous trees. The tree
 * belongs to this module: the caller reads it and must not delete it; it stays valid until the
 * second next call with the same key (or its eviction). Undefined when the parsers were not loaded.
 */
export function parseKeptTree(grammar: IacGrammar, key: string, text: string): Tree | undefined {
  const parser = parserFor(grammar);
  if (!parser) return undefined;
  const cacheKey = `${grammar}\u0000${key}`;
  const trees = kept.get(cacheKey);
  kept.delete(cacheKey);
  let next: KeptTrees | undefined;
  if (trees?.last.text === text) next = trees;
  else if (trees?.before?.text === text) next = { last: trees.before, before: trees.last };
  else {
    let tree: Tree | null;
    if (trees) {
      const base = trees.last.tree.copy();
      base.edit(editBetween(trees.last.text, text));
      tree = parser.parse(text, base);
      base.delete();
    } else {
      tree = parser.parse(text);
    }
    trees?.before?.tree.delete();
    if (!tree) {
      if (trees) kept.set(cacheKey, { last: trees.last });
      return undefined;
    }
    next = { last: { text, tree }, ...(trees ? { before: trees.last } : {}) };
  }
  kept.set(cacheKey, next);
  for (const [oldest, entry] of kept) {
    if (kept.size <= KEPT_DOCUMENTS) break;
    deleteTrees(entry);
    kept.delete(oldest);
  }
  return next.last.tree;
}

function deleteTrees(trees: KeptTrees): void {
  trees.last.tree.delete();
  trees.before?.tree.delete();
}

/** Whether a document has a kept tree (its next version would parse incrementally). */
export function hasKeptTree(grammar: IacGrammar, key: string): boolean {
  return kept.has(`${grammar}\u0000${key}`);
}

/** Drops the kept tree of a document (closed or deleted); every kept tree without a key. */
export function forgetKeptTrees(key?: string): void {
  for (const [cacheKey, entry] of kept) {
    if (key !== undefined && cacheKey.slice(cacheKey.indexOf('\u0000') + 1) !== key) continue;
    deleteTrees(entry);
    kept.delete(cacheKey);
  }
}

/** How many trees are kept (for tests: a leak would be a bug). */
export function keptTreeCount(): number {
  let count = 0;
  for (const entry of kept.values()) count += entry.before ? 2 : 1;
  return count;
}

interface Point {
  row: number;
  column: number;
}

/**
 * The one edit that turns `before` into `after`: the common prefix and suffix stay, the middle
 * was replaced. Indices and columns in UTF-16 code units, as web-tree-sitter counts them.
 */
export function editBetween(before: string, after: string): Edit {
  const { start, oldEnd, newEnd } = changedRegion(before, after);
  const startPosition = pointAt(before, 0, start, { row: 0, column: 0 });
  return new Edit({
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition,
    oldEndPosition: pointAt(before, start, oldEnd, startPosition),
    newEndPosition: pointAt(after, start, newEnd, startPosition),
  });
}

/** The point of `text[to]`, counting from `text[from]` at `at`. */
function pointAt(text: string, from: number, to: number, at: Point): Point {
  let { row, column } = at;
  let lineStart = from - column;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  column = to - lineStart;
  return { row, column };
}

function parserFor(grammar: IacGrammar): Parser | undefined {
  const language = languages[grammar];
  if (!language) return undefined;
  let parser = parsers[grammar];
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(language);
    parsers[grammar] = parser;
  }
  return parser;
}

export type { Node, Tree, TreeCursor };
