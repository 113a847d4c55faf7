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
  let started: Promise<void>;
  try {
    started = runtime ??= startRuntime(wasmBytes().runtime);
  } catch (error) {
    // The .wasm files could not be read (a build without them): a rejected promise, as for a load that fails later.
    return Promise.reject(error);
  }
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
    runtimeCalls = runtimeCallsOf(module);
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
 * Reading a tree with fewer calls into WebAssembly (issue 29). A web-tree-sitter `Node` or
 * `TreeCursor` writes its words into the runtime's transfer buffer, a `DataView` call per word,
 * before every call into WebAssembly, and reads them back after; every `Node` is a class instance
 * with a position object. Here the runtime's own functions are called directly: `lightNode` reads
 * a node for a reader that walks part of a tree (terraform.ts), `walkFrom` walks the nodes below
 * one with a tree cursor for a reader that copies them (lazyTree.ts, the Bicep reader). Both read
 * the same node words, with the same functions (`RuntimeCalls`). A runtime without those functions
 * (another web-tree-sitter version) is read through web-tree-sitter's classes, with the same
 * answers; the test `is what this runtime offers` fails if an upgrade takes them away.
 */

/**
 * A node read with fewer calls into WebAssembly than a web-tree-sitter `Node`. The same answers as
 * the `Node` it was made from (`id`, `type`, the range, `text`, the named children); `namedChildren`
 * is read once, in one call, and kept; `type` and `endIndex` are read on first use and kept. Like a
 * `Node`, valid while its tree is: never use one after the tree is deleted (`returnTree`). Its
 * children are `LightNode`s.
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
  if (!runtimeCalls) return new NodeOfTree(node, text);
  return new DirectNode(
    contextOf(runtimeCalls, node.tree, text),
    node.id,
    node.startIndex,
    node.startPosition.row,
    node.startPosition.column,
    (node as unknown as { readonly 0: number })[0],
  );
}

/**
 * A walk of the nodes below one with a tree cursor (`walkFrom`), at one node at a time. Nothing else
 * may read the runtime between two calls of a direct walk (another walk, a LightNode's `type` or
 * children, a web-tree-sitter `Node` or `TreeCursor`): its cursor stays in the runtime's transfer
 * buffer from `walkFrom` to `end` (the copy in lazyTree.ts makes only JavaScript objects in between).
 */
export interface TreeWalk {
  /** The current node's type id (an index of `Language.types`). */
  typeId(): number;
  /** Whether nodes of this type are named (asked of the grammar once per type). */
  named(typeId: number): boolean;
  /** The field the current node is in its parent (an index of `Language.fields`; 0: none). */
  fieldId(): number;
  startIndex(): number;
  endIndex(): number;
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  /** The current node, to walk from later while the tree lives. */
  currentNode(): LightNode;
  /** Frees the cursor; the walk is over. */
  end(): void;
}

/**
 * A walk that starts at `node` (a LightNode this module made), which it must not leave upwards.
 * Throws if the node's tree was deleted (reading it would read freed memory).
 */
export function walkFrom(node: LightNode): TreeWalk {
  if (node instanceof DirectNode) return node.walk();
  if (node instanceof NodeOfTree) return node.walk();
  throw new Error('anf-lint walked a node that is not a LightNode of treeSitter.ts');
}

/**
 * The functions of web-tree-sitter's WebAssembly runtime that read a node or move a tree cursor,
 * and what they need: the module's memory (`HEAP32`, replaced when the memory grows) and the
 * transfer buffer's address (`_ts_init`, which only writes two version numbers). A node is five
 * 32-bit words in the transfer buffer (id, start index, start row and column, and a word of
 * context, as web-tree-sitter's marshalNode writes them), a cursor four; each function reads the
 * node or cursor there and writes its answer or the moved cursor back (tree-sitter's
 * lib/binding_web/lib/tree-sitter.c). Each takes the tree's address. Found on the module object
 * Emscripten fills in (`startRuntime`).
 */
interface RuntimeCalls {
  readonly HEAP32: Int32Array;
  readonly _ts_init: () => number;
  readonly _free: (address: number) => void;
  readonly _ts_node_symbol_wasm: (tree: number) => number;
  readonly _ts_node_end_index_wasm: (tree: number) => number;
  readonly _ts_node_named_children_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_new_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_delete_wasm: (tree: number) => void;
  readonly _ts_tree_cursor_goto_first_child_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_goto_next_sibling_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_goto_parent_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_type_id_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_field_id_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_start_index_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_end_index_wasm: (tree: number) => number;
  readonly _ts_tree_cursor_current_node_wasm: (tree: number) => void;
  /** @internal the transfer buffer's address, in 32-bit words */
  transfer: number;
}

const RUNTIME_CALLS = [
  '_ts_init',
  '_free',
  '_ts_node_symbol_wasm',
  '_ts_node_end_index_wasm',
  '_ts_node_named_children_wasm',
  '_ts_tree_cursor_new_wasm',
  '_ts_tree_cursor_delete_wasm',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  '_ts_tree_cursor_current_node_wasm',
] as const;

let runtimeCalls: RuntimeCalls | undefined;

function runtimeCallsOf(module: Record<string, unknown>): RuntimeCalls | undefined {
  // The words are written as this machine orders them; web-tree-sitter writes them little-endian.
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (!littleEndian || !(module.HEAP32 instanceof Int32Array)) return undefined;
  if (!RUNTIME_CALLS.every((name) => typeof module[name] === 'function')) return undefined;
  const calls = module as unknown as RuntimeCalls;
  calls.transfer = calls._ts_init() >> 2;
  return calls;
}

/**
 * Whether `lightNode` and `walkFrom` call the runtime directly (false: through web-tree-sitter's
 * classes, as with a runtime that lacks the functions); tests switch it.
 */
export function directTreeCopy(on?: boolean): boolean {
  if (on === false) {
    savedCalls = runtimeCalls ?? savedCalls;
    runtimeCalls = undefined;
  } else if (on === true) {
    runtimeCalls ??= savedCalls;
  }
  return runtimeCalls !== undefined;
}
let savedCalls: RuntimeCalls | undefined;

/** The tree's address in WebAssembly memory (web-tree-sitter keeps it as the Tree's `[0]`; 0 once deleted). */
function treeAddress(tree: Tree): number {
  return (tree as unknown as { readonly 0: number })[0];
}

/** Whether each node type of a grammar (by id) is named: a type's, its symbol's metadata. */
const namedTypes = new WeakMap<Language, boolean[]>();

function namedTypesOf(language: Language): boolean[] {
  let named = namedTypes.get(language);
  if (!named) namedTypes.set(language, (named = []));
  return named;
}

function typeIsNamed(language: Language, named: boolean[], typeId: number): boolean {
  return (named[typeId] ??= language.nodeTypeIsNamed(typeId));
}

interface NodeContext {
  readonly calls: RuntimeCalls;
  readonly tree: Tree;
  /** The tree's address (`tree[0]` while it lives). */
  readonly address: number;
  readonly language: Language;
  readonly named: boolean[];
  readonly text: string;
}

function contextOf(calls: RuntimeCalls, tree: Tree, text: string): NodeContext {
  const language = tree.language;
  return { calls, tree, address: treeAddress(tree), language, named: namedTypesOf(language), text };
}

function checkLives(tree: Tree): void {
  if (treeAddress(tree) === 0) throw new Error('anf-lint read a node after its syntax tree was deleted');
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
      this.kind = this.context.language.types[this.context.calls._ts_node_symbol_wasm(this.context.address)] || 'ERROR';
    }
    return this.kind;
  }

  get endIndex(): number {
    if (this.end < 0) {
      this.write();
      this.end = this.context.calls._ts_node_end_index_wasm(this.context.address);
    }
    return this.end;
  }

  get text(): string {
    return this.context.text.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): readonly LightNode[] {
    if (this.named) return this.named;
    const { calls, address } = this.context;
    this.write();
    calls._ts_node_named_children_wasm(address);
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

  /** A cursor on this node, left in the transfer buffer (`DirectWalk`). */
  walk(): TreeWalk {
    checkLives(this.context.tree);
    this.write();
    this.context.calls._ts_tree_cursor_new_wasm(this.context.address);
    return new DirectWalk(this.context);
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

/** A walk whose cursor stays in the transfer buffer, where each move reads it and writes it back: one call per question or move. */
class DirectWalk implements TreeWalk {
  private readonly calls: RuntimeCalls;
  private readonly address: number;

  constructor(private readonly context: NodeContext) {
    this.calls = context.calls;
    this.address = context.address;
  }

  typeId(): number {
    return this.calls._ts_tree_cursor_current_node_type_id_wasm(this.address);
  }

  named(typeId: number): boolean {
    return typeIsNamed(this.context.language, this.context.named, typeId);
  }

  fieldId(): number {
    return this.calls._ts_tree_cursor_current_field_id_wasm(this.address);
  }

  startIndex(): number {
    return this.calls._ts_tree_cursor_start_index_wasm(this.address);
  }

  endIndex(): number {
    return this.calls._ts_tree_cursor_end_index_wasm(this.address);
  }

  gotoFirstChild(): boolean {
    return this.calls._ts_tree_cursor_goto_first_child_wasm(this.address) === 1;
  }

  gotoNextSibling(): boolean {
    return this.calls._ts_tree_cursor_goto_next_sibling_wasm(this.address) === 1;
  }

  gotoParent(): boolean {
    return this.calls._ts_tree_cursor_goto_parent_wasm(this.address) === 1;
  }

  currentNode(): LightNode {
    // The node is written where the cursor is: keep the cursor's four words and put them back.
    const calls = this.calls;
    const at = calls.transfer;
    let heap = calls.HEAP32;
    const c0 = heap[at]!;
    const c1 = heap[at + 1]!;
    const c2 = heap[at + 2]!;
    const c3 = heap[at + 3]!;
    calls._ts_tree_cursor_current_node_wasm(this.address);
    heap = calls.HEAP32;
    const node = new DirectNode(this.context, heap[at]!, heap[at + 1]!, heap[at + 2]!, heap[at + 3]!, heap[at + 4]!);
    heap[at] = c0;
    heap[at + 1] = c1;
    heap[at + 2] = c2;
    heap[at + 3] = c3;
    return node;
  }

  end(): void {
    this.calls._ts_tree_cursor_delete_wasm(this.address);
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

  /** A walk with web-tree-sitter's TreeCursor. */
  walk(): TreeWalk {
    const tree = this.node.tree;
    checkLives(tree);
    const cursor = this.node.walk();
    const language = tree.language;
    const named = namedTypesOf(language);
    const source = this.source;
    return {
      typeId: () => cursor.nodeTypeId,
      named: (typeId) => typeIsNamed(language, named, typeId),
      fieldId: () => cursor.currentFieldId,
      startIndex: () => cursor.startIndex,
      endIndex: () => cursor.endIndex,
      gotoFirstChild: () => cursor.gotoFirstChild(),
      gotoNextSibling: () => cursor.gotoNextSibling(),
      gotoParent: () => cursor.gotoParent(),
      currentNode: () => new NodeOfTree(cursor.currentNode, source),
      end: () => cursor.delete(),
    };
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
