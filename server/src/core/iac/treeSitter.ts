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
  const started = (runtime ??= Parser.init({ wasmBinary: wasmBytes().runtime } as never));
  const loads = grammars.map(
    (grammar) =>
      (loadingGrammars[grammar] ??= started.then(async () => {
        languages[grammar] = await Language.load(wasmBytes()[grammar]);
      })),
  );
  return Promise.all(loads).then(() => undefined);
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
