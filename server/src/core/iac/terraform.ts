import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import {
  armPool,
  armVolume,
  bool,
  common,
  deployedOnlyIf,
  kerberosFlavor,
  num,
  opt,
  ref,
  requirementsOpt,
  size,
  poolFromId,
  specWorkload,
  str,
  strList,
  workloadOpt,
  type Field,
  type Meta,
  type Obj,
} from './fields';
import type {
  IacAccount,
  IacEstate,
  IacExportRule,
  IacModuleCall,
  IacPool,
  IacRef,
  IacSlip,
  IacValue,
  IacVolume,
} from './estate';
import { isKnownModuleSource, readKnownModule, type KnownModuleEstate } from './knownModules';
import {
  annotationFor,
  requirementsFor,
  jsonSyntaxProblems,
  noParser,
  MAX_DEPTH,
  MAX_LOOP_INSTANCES,
  spanOf,
  syntaxProblems,
  UNKNOWN,
  type Value,
} from './common';
import { Budget, evaluate, type EvalScope } from './hcl/eval';
import {
  failure,
  firstUnknown,
  isObject,
  isSet,
  isUnknown,
  unknown,
  Unknown,
  type TfObject,
  type TfValue,
} from './hcl/values';
import {
  borrowTree,
  hasSharedTree,
  lightNode,
  type LightNode,
  parseKeptTree,
  parseTree,
  returnTree,
  type Node as TreeNode,
  type TreeCursor,
} from './treeSitter';
import { BlockReuse } from './reuse';
import { hasModuleWord, localCallsFromText } from './terraformLocalCalls';
import { BoundedMemo } from './boundedMemo';
import {
  subnetLinkOf,
  terraformNsgAssociation,
  terraformSubnet,
  terraformVnetSubnets,
  type IacNsgAssociation,
  type IacSubnet,
} from './subnets';
import { baseName } from '../fileKind';
import { placeInstance, relativeUri } from './instance';
import { EVALUATION_STOPPED_CODE } from './arm';
import { getNodeValue, parseTree as parseJson, type ParseError as JsonParseError } from 'jsonc-parser';
import type { Mutable } from '../mutable';

/**
 * Terraform: `azurerm_netapp_account`, `azurerm_netapp_pool`, `azurerm_netapp_volume` and
 * `azapi_resource` with a `Microsoft.NetApp/...` type, parsed with tree-sitter's HCL grammar.
 * Values are evaluated where that is certain: literals, arithmetic on literals, `var.x` with a
 * default in this file, `local.x`, references to another resource's attribute in this file, and
 * `jsonencode(...)`. Everything else stays unknown.
 */

/**
 * A tree-sitter node as the reader sees it: a `LightNode` (treeSitter.ts), which remembers what it
 * was asked. web-tree-sitter makes new objects and calls into WebAssembly on every `type`,
 * `namedChildren` and `endIndex`; the reader asks each node several times (unwrapping an
 * expression, its value, its literal, its origin), and a block read again after an edit that broke
 * the syntax above it (every resource block when error recovery swallows the variables) spent most
 * of its time there. A `LightNode` reads its named children in one call, once, and `release()` lets
 * go of them (a block read is not held until the file is read).
 */
type Node = LightNode;

function memo(node: TreeNode | undefined | null, text: string): Node | undefined {
  return node ? lightNode(node, text) : undefined;
}

interface Block {
  readonly node: Node;
  readonly type: string;
  readonly labels: readonly string[];
  readonly body: Node | undefined;
  /** Lets go of the node wrappers made for the block so far (made again if asked). */
  release?(): void;
}

/** An expression declared somewhere in a module: a variable's value, a local, a resource. */
interface Declared {
  /** The expression; absent for a value read from JSON (`terraform.tfvars.json`), which has `value`. */
  readonly node?: Node;
  readonly uri: string;
  readonly source: SourceText;
  /** For messages and hovers: "its default in variables.tf line 4", "terraform.tfvars line 2". */
  readonly from: string;
  /**
   * A `module` block's argument: its value, evaluated where the caller writes it (`node` belongs to
   * the caller's text and scope, so it is never evaluated again in the module's).
   */
  readonly value?: Value;
}

/**
 * What a file's references can reach: its own declarations when read alone, every `.tf` file of
 * the folder plus `terraform.tfvars` and `*.auto.tfvars` when read as a module (module.ts).
 */
interface Scope {
  readonly variables: Map<string, Declared>;
  /** Declared with neither a default nor a .tfvars value: unknown, and the hover says why. */
  readonly unset: Set<string>;
  readonly locals: Map<string, Declared>;
  readonly resources: Map<string, { readonly block: Block; readonly uri: string; readonly source: SourceText }>;
  /** `module` blocks by name: `module.x.out` reads the called module's `output "out"` (moduleOutputs). */
  readonly modules: Map<string, { readonly block: Block; readonly uri: string; readonly source: SourceText }>;
}

/**
 * `keep` keeps the tree for the next version of the same document (`uri`), which is then parsed
 * incrementally (treeSitter.ts `parseKeptTree`) and reuses what its unchanged resource blocks read
 * (reuse.ts); without it the tree is parsed whole and deleted after reading.
 */
export function readTerraform(
  source: SourceText,
  problems: ParseProblem[],
  uri = '',
  keep = false,
): IacEstate | undefined {
  // A file that can give nothing the reader reads (most files of a repository) is not parsed: its
  // syntax matters to anf-lint only where its folder is read with NetApp resources, and that
  // reading reports it (readTerraformModule). Terraform itself checks the rest.
  if (!mayHoldResources(source.text)) {
    const nothing: IacEstate = { language: 'terraform', accounts: [], pools: [], volumes: [], slips: [] };
    if (!hasModuleWord(source.text)) return nothing;
    // Only calls of local modules (a stack's `main.tf`): what the module step needs is in the text.
    const calls = localCallsFromText(source.text);
    if (calls) return { ...nothing, calls };
  }
  const tree = keep ? parseKeptTree('terraform', uri, source.text) : borrowTree('terraform', source, source.text);
  if (!tree) return noParser(problems, 'Terraform');
  const root = tree.rootNode;
  for (const p of syntaxProblems(root, 'Terraform', { grammar: 'terraform', text: source.text })) problems.push(p);
  startReading();
  try {
    const top = treeBlocks(tree, root, source.text);
    const scope = emptyScope();
    declare(scope, top, uri, source);
    const reader = new Reader(source, uri, top, scope, false);
    // The next version of the same document reuses what unchanged resource blocks read (reuse.ts).
    // Its context: what a resource block may read outside itself when the file is read alone, the
    // variables and locals blocks, with their lines (a value's origin names "its default in
    // main.tf line 4"). A module read (readTerraformModule) reads more and never reuses.
    const resources = top.filter((b) => b.type === 'resource' && b.labels.length >= 2);
    const context = top
      .filter((b) => b.type === 'variable' || b.type === 'locals')
      .map(
        (b) => `${source.positionAt(b.node.startIndex).line}:${source.text.slice(b.node.startIndex, b.node.endIndex)}`,
      )
      .join('\u0000');
    const reuse = keep
      ? new BlockReuse(
          uri,
          source,
          resources.map((b) => ({ symbol: `${b.labels[0]}.${b.labels[1]}`, span: spanOf(b.node) })),
          context,
        )
      : undefined;
    const estate = reader.estate(undefined, reuse);
    reuse?.commit();
    const deep = deepValue();
    if (deep) problems.push(tooDeepProblem(deep.span));
    const calls = reader.calls().map((c) => c.call);
    return calls.length > 0 ? { ...estate, calls } : estate;
  } finally {
    attributeCache = new Map();
    if (!keep) returnTree(tree); // the tree lives in WebAssembly memory until deleted; a kept one is deleted when replaced
  }
}

/**
 * Whether a `.tf` file's reading alone can give a NetApp or azapi resource, a subnet, virtual
 * network or NSG association (subnets.ts): whether it names their types (`azurerm_netapp_*`, not
 * any `netapp`, which a local module's path often holds; a registry NetApp module is a `module`
 * block, which `localCallsFromText` leaves to the parser). Most files of a real repository
 * (issue 29: one module in fifteen holds NetApp resources) name none of these types; those
 * without a `module` block (`hasModuleWord`), or with only calls of local modules
 * (`localCallsFromText`), are not parsed alone. Decided on the text, conservatively: the words
 * anywhere (a comment, a string), in any case, and any `\u` escape (a label written with
 * escapes), mean the file is read. Such a file's estate has no `unresolved`: it is read only for a
 * file with resources (terraformModules.ts `moduleNeeded`).
 */
function mayHoldResources(text: string): boolean {
  return /azurerm_netapp|azapi|azurerm_subnet|azurerm_virtual_network|\\u/i.test(text);
}

/**
 * A `.tfvars.json` file: its JSON syntax (values are read by the files that use them). A `.tfvars`
 * file is not parsed alone: its syntax is reported where its folder is read with NetApp resources
 * (readTerraformModule), the only place its values reach anf-lint's figures.
 */
export function checkTfvars(source: SourceText, problems: ParseProblem[], uri = ''): void {
  if (isJsonTfvars(uri)) jsonVariables(source, problems);
}

/** One file of a Terraform module (a folder): a `.tf` file or a `.tfvars` file. */
export interface TerraformModuleFile {
  readonly uri: string;
  readonly source: SourceText;
  readonly kind: 'terraform' | 'terraform-vars';
}

/**
 * The `.tf` and `.tfvars` files of another folder, for a `module` block whose `source` is that
 * folder. `purpose` 'outputs': for `module.x.out` (the files are wanted even when the folder holds
 * no NetApp resource: a naming module).
 */
export type ModuleFolders = (folder: string, purpose?: 'outputs') => readonly TerraformModuleFile[] | undefined;

/** `./modules/anf`, `../anf`: Terraform reads a source starting with `./` or `../` as a folder. */
const LOCAL_SOURCE = /^\.\.?\//;
/** A `source` written as a plain string (no template, no escape) with a local path. */
const PLAIN_LOCAL_SOURCE = /^"\.\.?\/[^"\\$%\n]*"$/;

/** The folder (URI, ending in `/`) a local `source` names, relative to the calling file; undefined for a registry or git source. */
export function localModuleFolder(callerUri: string, source: string | undefined): string | undefined {
  if (source === undefined || !LOCAL_SOURCE.test(source)) return undefined;
  // Resolved relative to the caller's folder: one `new URL` per folder and source, not per call
  // and instance (3,000 files: 46 ms of URL parsing).
  const key = `${callerUri.slice(0, callerUri.lastIndexOf('/') + 1)}\u0000${source}`;
  return moduleFolders.get(key, () => {
    const plain = plainFolder(callerUri, source);
    if (plain !== undefined) return plain;
    try {
      return new URL(`${source.replace(/\/+$/, '')}/`, callerUri).href;
    } catch {
      return undefined;
    }
  });
}
const moduleFolders = new BoundedMemo<string | undefined>(10_000); // not a fact: memory bound of a memo (a language server lives long)

/** Characters a URL keeps as they are in a path (no escape, no `%`, `?`, `#` or `\\`): the plain case. */
const PLAIN_PATH = /^[A-Za-z0-9._~!$&'()*+,;=:@/-]*$/;

/**
 * `new URL(source + '/', callerUri).href` for a `file:` caller and a source of plain characters, by
 * segments: `.` dropped, `..` one folder up (never above the root). Undefined for anything else
 * (URL resolves those; a test compares the two). 1,800 calls of the 3,000-file repository: 26 ms of URL parsing.
 */
function plainFolder(callerUri: string, source: string): string | undefined {
  if (!callerUri.startsWith('file:///') || !PLAIN_PATH.test(callerUri) || !PLAIN_PATH.test(source)) return undefined;
  const path = callerUri.slice('file://'.length);
  // An empty segment, or a Windows drive (URL keeps `C:` however many `..`): URL's own rules.
  if (path.includes('//') || source.includes('//') || /^\/[A-Za-z]:/.test(path)) return undefined;
  const segments = path.split('/');
  segments.pop(); // the caller's own name
  for (const part of source.replace(/\/+$/, '').split('/')) {
    if (part === '.') continue;
    if (part === '..') {
      if (segments.length > 1) segments.pop();
    } else segments.push(part);
  }
  return `file://${segments.join('/')}/`;
}

/** The values a var file sets (`.tfvars` or `.tfvars.json`), later files winning; `note` follows each origin. */
function setVariablesFrom(
  scope: Scope,
  file: TerraformModuleFile,
  parsed: readonly ParsedModuleFile[],
  note: string,
): void {
  const from = (at: number) => `${baseName(file.uri)} line ${file.source.positionAt(at).line + 1}${note}`;
  if (isJsonTfvars(file.uri)) {
    for (const { name, value, at } of jsonVariables(file.source)) {
      scope.variables.set(name, { uri: file.uri, source: file.source, from: from(at), value: { ok: true, value } });
      scope.unset.delete(name);
    }
    return;
  }
  const p = parsed.find((x) => x.file.uri === file.uri);
  for (const [name, attr] of attributes(
    memo(
      p?.root.namedChildren.find((n) => n.type === 'body'),
      file.source.text,
    ),
  )) {
    scope.variables.set(name, {
      node: attr.namedChildren[1]!,
      uri: file.uri,
      source: file.source,
      from: from(attr.startIndex),
    });
    scope.unset.delete(name);
  }
}

/**
 * Reads the `.tf` files `targets` names as parts of one module: `var.x`, `local.x` and resource
 * references resolve across every `.tf` file of `files`, and variables take the values of
 * `terraform.tfvars` and `*.auto.tfvars` (Terraform's order: `terraform.tfvars`, then the
 * `.auto.tfvars` files alphabetically, later files winning) over their defaults. Other `.tfvars`
 * files are only used with `-var-file`, which anf-lint cannot see: they are not read. Each
 * target's estate holds its own resources, with their own positions; a volume whose pool is
 * written in another file gets that pool's settings, placed on its own `pool_name`.
 * `folders`: the files of other folders, for `module` blocks with a local source; the resources
 * of each such module are the caller's too, placed on the `module` block (see `placeInstance`).
 */
export function readTerraformModule(
  files: readonly TerraformModuleFile[],
  targets: ReadonlySet<string>,
  folders?: ModuleFolders,
  keep?: TerraformTrees,
  varFiles?: readonly string[],
  problems?: Map<string, ParseProblem[]>,
  readText?: (uri: string) => string | undefined,
): Map<string, IacEstate> {
  const trees = new ModuleTrees(folders, keep);
  moduleReading.trees = trees;
  moduleReading.stack = [];
  moduleReading.readText = readText;
  moduleReading.rootFolder = [...targets][0] !== undefined ? folderOfUri([...targets][0]!) : undefined;
  const result = new Map<string, IacEstate>();
  startReading();
  try {
    const parsed: ParsedModuleFile[] = [];
    for (const file of files) {
      if (isJsonTfvars(file.uri)) continue;
      const p = trees.parse(file);
      if (!p) return result;
      parsed.push(p);
    }
    // Every file's syntax: a file without resources is not parsed alone (readTerraform), and here
    // its variables, locals and values reach the folder's figures (ANF400).
    if (problems)
      for (const p of parsed) {
        const language = p.file.kind === 'terraform' ? 'Terraform' : 'Terraform variables';
        const found = syntaxProblems(p.root, language, { grammar: 'terraform', text: p.file.source.text });
        if (found.length > 0) problems.set(p.file.uri, found);
      }
    const scope = emptyScope();
    for (const p of parsed) if (p.file.kind === 'terraform') declare(scope, p.blocks, p.file.uri, p.file.source);
    const tfvars = files.filter((f) => f.kind === 'terraform-vars' && tfvarsOrder(f.uri) !== undefined);
    tfvars.sort((a, b) => tfvarsOrder(a.uri)!.localeCompare(tfvarsOrder(b.uri)!));
    for (const file of tfvars) setVariablesFrom(scope, file, parsed, '');
    // Named var files (`.anf-lint.yaml` `terraform.varFiles`), as `-var-file` in that order, after the files Terraform loads itself.
    for (const uri of varFiles ?? []) {
      const file = files.find((f) => f.uri === uri && f.kind === 'terraform-vars');
      if (file) setVariablesFrom(scope, file, parsed, ' (a var file named in .anf-lint.yaml)');
    }
    // Example values (`terraform.tfvars.example`, `*.tfvars.sample`): only for a variable nothing else sets, and every origin says so.
    for (const file of files.filter((f) => f.kind === 'terraform-vars' && isExampleTfvars(f.uri))) {
      const p = parsed.find((x) => x.file.uri === file.uri);
      for (const [name, attr] of attributes(
        memo(
          p?.root.namedChildren.find((n) => n.type === 'body'),
          file.source.text,
        ),
      )) {
        if (!scope.unset.has(name)) continue;
        const line = file.source.positionAt(attr.startIndex).line + 1;
        scope.variables.set(name, {
          node: attr.namedChildren[1]!,
          uri: file.uri,
          source: file.source,
          from: `an EXAMPLE value in ${baseName(file.uri)} line ${line}, which Terraform does not load (copy it to terraform.tfvars, or name the real var file in .anf-lint.yaml)`,
        });
        scope.unset.delete(name);
      }
    }
    const readers = new Map<string, Reader>();
    for (const p of parsed)
      if (p.file.kind === 'terraform')
        readers.set(p.file.uri, new Reader(p.file.source, p.file.uri, p.blocks, scope, true));
    const declaredVariables = new Set(
      parsed.flatMap((p) =>
        p.file.kind === 'terraform'
          ? p.blocks.filter((b) => b.type === 'variable' && b.labels[0]).map((b) => b.labels[0]!)
          : [],
      ),
    );
    for (const uri of targets) {
      const reader = readers.get(uri);
      if (!reader) continue;
      const undeclared = undeclaredVariables(parsed.find((p) => p.file.uri === uri)!, declaredVariables);
      const estate = { ...reader.estate(readers), ...(undeclared.length > 0 ? { undeclared } : {}) };
      const calls = reader.calls();
      if (calls.length === 0) {
        result.set(uri, estate);
        continue;
      }
      const accounts = [...estate.accounts];
      const pools = [...estate.pools];
      const volumes = [...estate.volumes];
      const folder = folderOfUri(uri);
      for (const { call, block } of calls) {
        const made = instanceOf(trees, reader, call, block, [folder]);
        if (!made) continue;
        accounts.push(...made.accounts);
        pools.push(...made.pools);
        volumes.push(...made.volumes);
      }
      result.set(uri, { ...estate, accounts, pools, volumes, calls: calls.map((c) => c.call) });
    }
    if (stoppedAt !== undefined || budget.exhausted) {
      const message = `anf-lint did not read past ${stoppedAt !== undefined ? `${MAX_INSTANCES.toLocaleString('en-US')} module and resource instances` : `${budget.maxSteps.toLocaleString('en-US')} evaluation steps`} in this module${stoppedAt !== undefined ? `: \`${stoppedAt}\` and the loops after it are read once, as repeated` : ': the values left are unknown'}. The rest of the repository is read.`;
      for (const [uri, estate] of result)
        if (estate.calls && estate.calls.length > 0) result.set(uri, { ...estate, stopped: message });
    }
    const deep = deepValue();
    if (deep && problems) problems.set(deep.uri, [...(problems.get(deep.uri) ?? []), tooDeepProblem(deep.span)]);
    return result;
  } finally {
    attributeCache = new Map();
    moduleReading.trees = undefined;
    moduleReading.readText = undefined;
    moduleReading.rootFolder = undefined;
    trees.delete();
  }
}

/** A `var.x` reference anywhere in a text (a comment or a string too: the tree confirms one). */
const VARIABLE_REFERENCE = /\bvar\.([A-Za-z_][A-Za-z0-9_-]*)/g;

/**
 * `var.x` references of a file whose folder declares no `variable "x"`: candidates found in the
 * text, each confirmed in the tree (a reference, not a comment or a plain string).
 */
function undeclaredVariables(file: ParsedModuleFile, declared: ReadonlySet<string>): { span: Span; name: string }[] {
  const found: { span: Span; name: string }[] = [];
  const text = file.file.source.text;
  for (const match of text.matchAll(VARIABLE_REFERENCE)) {
    const name = match[1]!;
    if (declared.has(name)) continue;
    const at = match.index ?? 0;
    const node = file.root.descendantForIndex(at, at + 3);
    if (node?.type !== 'identifier' || node.parent?.type !== 'variable_expr') continue;
    found.push({ span: { start: at, end: at + match[0].length }, name });
    if (found.length >= 50) break; // a cap on findings per file
  }
  return found;
}

interface ParsedModuleFile {
  readonly file: TerraformModuleFile;
  readonly blocks: Block[];
  readonly root: TreeNode;
}

/** How much text the trees kept between module reads may hold (a tree takes about 35 times its text in WebAssembly memory). */
const MAX_KEPT_TEXT = 1024 * 1024; // not a fact: memory bound

/**
 * Trees kept between module reads (terraformModules.ts keeps one per workspace): a file unchanged
 * since the last read (the same SourceText) is not parsed again, whichever folder's reading needs
 * it. Only whole parses are kept; the oldest go after a read when the kept text passes
 * MAX_KEPT_TEXT (never during one: its readers hold the trees' nodes), and a file's tree goes when
 * the file changes (`drop`). Trees live in WebAssembly memory until deleted.
 */
export class TerraformTrees {
  private readonly kept = new Map<
    string,
    {
      readonly source: SourceText;
      readonly tree: { delete(): void };
      readonly root: TreeNode;
      readonly blocks: Block[];
    }
  >();
  private text = 0;

  get(file: TerraformModuleFile): ParsedModuleFile | undefined {
    const known = this.kept.get(file.uri);
    if (!known) return undefined;
    if (known.source !== file.source) {
      this.drop(file.uri);
      return undefined;
    }
    // Most recently used last: `trim` drops from the front.
    this.kept.delete(file.uri);
    this.kept.set(file.uri, known);
    return { file, root: known.root, blocks: known.blocks };
  }

  keep(file: TerraformModuleFile, tree: { delete(): void }, root: TreeNode, blocks: Block[]): void {
    this.drop(file.uri);
    this.kept.set(file.uri, { source: file.source, tree, root, blocks });
    this.text += file.source.text.length;
  }

  drop(uri: string): void {
    const known = this.kept.get(uri);
    if (!known) return;
    known.tree.delete();
    this.text -= known.source.text.length;
    this.kept.delete(uri);
  }

  /** After a read: the least recently used trees go until the kept text is within the bound. */
  trim(): void {
    for (const uri of [...this.kept.keys()]) {
      if (this.text <= MAX_KEPT_TEXT) break;
      this.drop(uri);
    }
  }
}

/** The trees of one module read: each file parsed once, however many `module` blocks call its folder (and kept for the next read, with `keep`). */
class ModuleTrees {
  private readonly parsed = new Map<
    string,
    ParsedModuleFile & { readonly tree?: { delete(): void }; readonly borrowed?: Parameters<typeof returnTree>[0] }
  >();
  constructor(
    readonly folders: ModuleFolders | undefined,
    private readonly keep?: TerraformTrees,
  ) {}

  parse(file: TerraformModuleFile): ParsedModuleFile | undefined {
    const known = this.parsed.get(file.uri);
    if (known) return known;
    const kept = this.keep?.get(file);
    if (kept) {
      this.parsed.set(file.uri, kept);
      return kept;
    }
    // The tree its reading alone left (treeSitter.ts, shared trees): borrowed, not kept here.
    if (hasSharedTree(file.source)) {
      const tree = borrowTree('terraform', file.source, file.source.text);
      if (!tree) return undefined;
      const root = tree.rootNode;
      const blocks = file.kind === 'terraform' ? treeBlocks(tree, root, file.source.text) : [];
      this.parsed.set(file.uri, { file, root, blocks, borrowed: tree });
      return this.parsed.get(file.uri);
    }
    const tree = parseTree('terraform', file.source.text);
    if (!tree) return undefined;
    const root = tree.rootNode;
    const blocks = file.kind === 'terraform' ? topBlocks(root, file.source.text) : [];
    if (this.keep) {
      this.keep.keep(file, tree, root, blocks);
      this.parsed.set(file.uri, { file, root, blocks });
    } else this.parsed.set(file.uri, { file, tree, root, blocks });
    return this.parsed.get(file.uri);
  }

  delete(): void {
    for (const p of this.parsed.values()) {
      p.tree?.delete();
      if (p.borrowed) returnTree(p.borrowed);
    }
    this.parsed.clear();
    this.keep?.trim();
  }
}

/** Arguments of a `module` block that are not the module's variables. */
const MODULE_META_ARGUMENTS: ReadonlySet<string> = new Set([
  'source',
  'version',
  'count',
  'for_each',
  'providers',
  'depends_on',
]);
/** How deep `module` blocks calling modules are followed. */
const MAX_MODULE_DEPTH = 8; // not a fact: bound on nested module calls

type Made = { accounts: IacAccount[]; pools: IacPool[]; volumes: IacVolume[] };

/**
 * The resources a `module` block with a local source makes: the module's `.tf` files read with its
 * variables set by the block's arguments (evaluated in the caller's scope), their defaults
 * otherwise (a child module loads no `.tfvars`), and the module's own `module` blocks followed in
 * turn. Placed in the caller's text (`placeInstance`). Undefined when the folder has no `.tf` file
 * anf-lint knows, or the call goes round in a circle.
 */
function instanceOf(
  trees: ModuleTrees,
  caller: Reader,
  call: IacModuleCall,
  block: Block,
  stack: readonly string[],
): Made | undefined {
  // A call whose folder gives no instance (most calls of a real repository reach no NetApp
  // resource: terraformModules.ts `filesOf`) makes nothing however many times it loops: its
  // `for_each` or `count` is not evaluated, and its instances take none of the reading's budget.
  if (!givesInstances(trees, caller, call, stack)) return undefined;
  // `for_each` over a map or set anf-lint can evaluate: one instance per key, `each` bound in the arguments.
  const forEach = attributes(block.body).get('for_each');
  if (forEach) {
    const expr = forEach.namedChildren[1]!;
    const keys = eachOf(caller.eval(expr, 0));
    if (keys && keys.length <= MAX_LOOP_INSTANCES && takeInstances(keys.length, `module.${call.name}`)) {
      const vars = caller.argument(expr, spanOf(forEach.namedChildren[0]!)).vars;
      const made: Made = { accounts: [], pools: [], volumes: [] };
      for (const [key, value] of keys) {
        const one = instanceOne(
          trees,
          caller.withEach({ key, value, source: expr, ...(vars ? { vars } : {}) }),
          { ...call, key, repeated: false },
          block,
          stack,
        );
        if (one) addMade(made, one);
      }
      return made;
    }
  }
  // `count` anf-lint can evaluate: one instance per index, `count.index` bound in the arguments.
  const count = attributes(block.body).get('count');
  if (count) {
    const n = caller.eval(count.namedChildren[1]!);
    const optional = n.ok ? undefined : caller.optionalCount(count.namedChildren[1]!);
    if (optional && takeInstances(1, `module.${call.name}`)) {
      const one = instanceOne(
        trees,
        caller.withInstance(undefined, 0),
        { ...call, index: 0, repeated: false },
        block,
        stack,
      );
      if (!one) return undefined;
      const mark = <T extends IacAccount | IacPool | IacVolume>(r: T): T =>
        r.deployedIf ? r : { ...r, deployedIf: optional };
      return { accounts: one.accounts.map(mark), pools: one.pools.map(mark), volumes: one.volumes.map(mark) };
    }
    if (
      n.ok &&
      typeof n.value === 'number' &&
      Number.isInteger(n.value) &&
      n.value >= 0 &&
      n.value <= MAX_LOOP_INSTANCES &&
      takeInstances(n.value, `module.${call.name}`)
    ) {
      const made: Made = { accounts: [], pools: [], volumes: [] };
      for (let index = 0; index < n.value; index++) {
        const one = instanceOne(
          trees,
          caller.withInstance(undefined, index),
          { ...call, index, repeated: false },
          block,
          stack,
        );
        if (one) addMade(made, one);
      }
      return made;
    }
  }
  return instanceOne(trees, caller, call, block, stack);
}

/** Adds what one instance of a module made to what its loop made so far. */
function addMade(made: Made, one: Made): void {
  made.accounts.push(...one.accounts);
  made.pools.push(...one.pools);
  made.volumes.push(...one.volumes);
}

/** Objects evaluated without some of their entries (a value anf-lint cannot evaluate is left out). */
const PARTIAL = new WeakSet<object>();

/** The work budget of one reading (a file, or a module with the modules it calls): hcl/eval.ts. */
let budget = new Budget();

/**
 * Module and resource instances one reading expands (issue 32): three modules each calling the
 * next with `for_each` over 64 keys would make 262,144. Past the bound, loops are read once, as
 * repeated, and the rest of the repository is still read.
 */
export const MAX_INSTANCES = 1_000; // not a fact: bound on work per reading (an instance costs a few ms to read and place)
let instancesRead = 0;

/** Whether `n` more instances fit the reading's budget (and counts them when they do). */
/** Where the reading first passed MAX_INSTANCES: the address of the loop it read once instead. */
let stoppedAt: string | undefined;

/** The first value of the reading whose expression nested past the evaluator's bound (hcl/eval.ts MAX_NESTING): ANF422 there. */
const tooDeep: { at?: { readonly uri: string; readonly span: Span } } = {};

/** A fresh work budget and caches for one reading (a file alone, or a module folder with its modules). */
function startReading(): void {
  attributeCache = new Map();
  budget = new Budget();
  instancesRead = 0;
  stoppedAt = undefined;
  tooDeep.at = undefined;
}

function deepValue(): { readonly uri: string; readonly span: Span } | undefined {
  return tooDeep.at;
}

function tooDeepProblem(span: Span): ParseProblem {
  return {
    code: EVALUATION_STOPPED_CODE,
    span,
    severity: 'info',
    message: `anf-lint stopped evaluating this expression: it nests more than ${budget.maxNesting} levels deep, so its value is unknown here (and in every value that uses it). This is a bound on anf-lint's work, not a problem of the file; Terraform evaluates it.`,
  };
}

function takeInstances(n: number, address: string): boolean {
  if (instancesRead + n > MAX_INSTANCES) {
    stoppedAt ??= address;
    return false;
  }
  instancesRead += n;
  return true;
}

/**
 * The evaluator's value as the mapping reads it: known, or unknown with the reason. An object with
 * entries that are unknown keeps its known entries (marked PARTIAL: how many it has is not known);
 * a list with an unknown element is unknown.
 */
function toLegacy(v: TfValue): Value {
  if (v instanceof Unknown) return { ok: false, reason: v.reason };
  const u = firstUnknown(v);
  if (!u) return { ok: true, value: v };
  if (isObject(v)) return { ok: true, value: knownPart(v) };
  return { ok: false, reason: u.reason };
}

function knownPart(o: TfObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let partial = false;
  for (const [k, v] of Object.entries(o)) {
    if (!firstUnknown(v)) out[k] = v;
    else if (isObject(v)) out[k] = knownPart(v);
    else partial = true;
  }
  if (partial) PARTIAL.add(out);
  return out;
}

/** A known value of the mapping (plain JSON-like data) as the evaluator's. */
function fromLegacy(v: unknown): TfValue {
  if (v === undefined) return null;
  return v as TfValue;
}

/**
 * A resource's arguments as an object the evaluator reads lazily (most references want one
 * attribute: `azurerm_netapp_pool.p.name`); an attribute that is not written is computed by the
 * provider and known only after apply.
 */
function lazyObject(attrs: ReadonlyMap<string, Node>, evalNode: (n: Node) => TfValue, address: string): TfValue {
  const cache = new Map<string, TfValue>();
  const get = (key: string): TfValue => {
    let v = cache.get(key);
    if (v === undefined) {
      const attr = attrs.get(key);
      v =
        attr && !MODULE_META_ARGUMENTS.has(key)
          ? evalNode(attr.namedChildren[1]!)
          : unknown(`\`${address}.${key}\` is known only after Terraform creates the resource`);
      cache.set(key, v);
    }
    return v;
  };
  return new Proxy({} as TfObject, {
    get: (_t, key) => (typeof key === 'string' ? get(key) : undefined),
    has: (_t, key) => typeof key === 'string',
    ownKeys: () => [...attrs.keys()].filter((k) => !MODULE_META_ARGUMENTS.has(k)),
    getOwnPropertyDescriptor: (_t, key) =>
      typeof key === 'string' ? { configurable: true, enumerable: true, writable: false, value: get(key) } : undefined,
  });
}

/** How many instances of one `module` block with `for_each` are read one by one; more are read once, as repeated. */

/** `for_each`'s keys and values: a map's entries, or a set's (list's) strings as both. */
function eachOf(v: Value): [string, unknown][] | undefined {
  // A map with an entry anf-lint cannot evaluate has that many instances more than it could read: not expanded.
  if (!v.ok || v.value === null || typeof v.value !== 'object' || PARTIAL.has(v.value)) return undefined;
  if (Array.isArray(v.value))
    return v.value.every((x) => typeof x === 'string') ? (v.value as string[]).map((x) => [x, x]) : undefined;
  // Terraform orders a map's instances by key, lexically.
  return Object.entries(v.value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The folder a `module` block's instances read: a local one, not on the stack of calls, within the depth bound. */
function instanceFolder(caller: Reader, call: IacModuleCall, stack: readonly string[]): string | undefined {
  const folder = call.local ? localModuleFolder(caller.uri, call.source) : undefined;
  return !folder || stack.includes(folder) || stack.length > MAX_MODULE_DEPTH ? undefined : folder;
}

/** Whether an instance of the call can make anything: its folder has a `.tf` file the reading is given (moduleScope). */
function givesInstances(trees: ModuleTrees, caller: Reader, call: IacModuleCall, stack: readonly string[]): boolean {
  const folder = instanceFolder(caller, call, stack);
  return folder !== undefined && (trees.folders?.(folder) ?? []).some((f) => f.kind === 'terraform');
}

function instanceOne(
  trees: ModuleTrees,
  caller: Reader,
  call: IacModuleCall,
  block: Block,
  stack: readonly string[],
): Made | undefined {
  const folder = instanceFolder(caller, call, stack);
  if (!folder) return undefined;
  const module = moduleScope(trees, caller, call.name, block, folder);
  if (!module) return undefined;
  const { parsed, args, readers } = module;
  const callerFolder = folderOfUri(caller.uri);
  const made: Made = { accounts: [], pools: [], volumes: [] };
  for (const p of parsed) {
    const reader = readers.get(p.file.uri)!;
    const estate = reader.estate(readers);
    // A pool of another file of the module is in the instance itself: no borrowed copy.
    const own: Made = {
      accounts: [...estate.accounts],
      pools: estate.pools.filter((x) => !x.declaredIn),
      volumes: [...estate.volumes],
    };
    for (const inner of reader.calls()) {
      const sub = instanceOf(trees, reader, inner.call, inner.block, [...stack, folder]);
      if (!sub) continue;
      own.accounts.push(...sub.accounts);
      own.pools.push(...sub.pools);
      own.volumes.push(...sub.volumes);
    }
    const place = { call, args, source: p.file.source, where: relativeUri(callerFolder, p.file.uri) };
    made.accounts.push(...own.accounts.map((r) => placeInstance(r, place)));
    made.pools.push(...own.pools.map((r) => placeInstance(r, place)));
    made.volumes.push(...own.volumes.map((r) => placeInstance(r, place)));
  }
  return made;
}

/**
 * One instance of a called module: its `.tf` files read with the variables the `module` block's
 * arguments set (evaluated in `caller`'s scope, with the instance's `each`/`count.index`), their
 * defaults otherwise (a child module loads no `.tfvars`). Undefined when the folder has no `.tf`
 * file anf-lint knows.
 */
function moduleScope(
  trees: ModuleTrees,
  caller: Reader,
  name: string,
  block: Block,
  folder: string,
  purpose?: 'outputs',
): { parsed: ParsedModuleFile[]; args: Map<string, Field>; readers: Map<string, Reader> } | undefined {
  const files = (trees.folders?.(folder, purpose) ?? []).filter((f) => f.kind === 'terraform');
  const parsed = files.flatMap((f) => {
    const p = trees.parse(f);
    return p ? [p] : [];
  });
  if (parsed.length === 0) return undefined;
  const scope = emptyScope();
  const callerFolder = folderOfUri(caller.uri);
  for (const p of parsed) declare(scope, p.blocks, p.file.uri, p.file.source, relativeUri(callerFolder, p.file.uri));
  const args = new Map<string, Field>();
  for (const [key, attr] of attributes(block.body)) {
    if (MODULE_META_ARGUMENTS.has(key)) continue;
    const expr = attr.namedChildren[1]!;
    const field = caller.argument(expr, spanOf(attr.namedChildren[0]!));
    args.set(key, field);
    if (!scope.variables.has(key) && !scope.unset.has(key)) continue; // not a variable of the module: Terraform refuses the call
    const line = caller.source.positionAt(attr.startIndex).line + 1;
    scope.variables.set(key, {
      node: expr,
      uri: caller.uri,
      source: caller.source,
      from: `module "${name}" in ${baseName(caller.uri)} line ${line}`,
      value: caller.eval(expr, 0),
    });
    scope.unset.delete(key);
  }
  const readers = new Map<string, Reader>();
  for (const p of parsed) readers.set(p.file.uri, new Reader(p.file.source, p.file.uri, p.blocks, scope, true));
  return { parsed, args, readers };
}

/** The trees of the module reading under way (readTerraformModule); undefined when a file is read alone. */
const moduleReading: {
  trees?: ModuleTrees;
  stack: string[];
  /** The text of a file of the workspace, by URI (`file()`, `templatefile()`, `fileexists()`); undefined when a file is read alone. */
  readText?: (uri: string) => string | undefined;
  /** The root module's folder (`path.root`). */
  rootFolder?: string;
} = { stack: [] };

/**
 * The outputs of one instance of a called module, as an object read when asked
 * (`module.x.out`): each `output "out"` block's `value`, evaluated in the instance's scope.
 */
function moduleOutputs(
  trees: ModuleTrees,
  caller: Reader,
  name: string,
  block: Block,
  folder: string,
  address: string,
): TfValue {
  if (moduleReading.stack.includes(folder) || moduleReading.stack.length > MAX_MODULE_DEPTH)
    return unknown(`\`${address}\` calls modules in a circle (or more than ${MAX_MODULE_DEPTH} deep)`);
  const module = moduleScope(trees, caller, name, block, folder, 'outputs');
  if (!module) return unknown(`\`${address}\`: the module's folder has no .tf file in the workspace`);
  const outputs = new Map<string, { node: Node; reader: Reader }>();
  for (const p of module.parsed)
    for (const b of p.blocks) {
      const value = b.type === 'output' && b.labels[0] ? attributes(b.body).get('value') : undefined;
      if (value) outputs.set(b.labels[0]!, { node: value.namedChildren[1]!, reader: module.readers.get(p.file.uri)! });
    }
  const cache = new Map<string, TfValue>();
  const get = (key: string): TfValue => {
    let v = cache.get(key);
    if (v !== undefined) return v;
    const out = outputs.get(key);
    if (!out) v = failure(`\`${address}\` has no output \`${key}\`: no \`output "${key}"\` block in the module`);
    else {
      moduleReading.stack.push(folder);
      try {
        v = out.reader.evalValue(out.node);
      } finally {
        moduleReading.stack.pop();
      }
      if (isUnknown(v) && !v.error) v = unknown(`\`${address}.${key}\` (the module's output) is unknown: ${v.reason}`);
    }
    cache.set(key, v);
    return v;
  };
  return new Proxy({} as TfObject, {
    get: (_t, key) => (typeof key === 'string' ? get(key) : undefined),
    // Every name answers (a missing output is an error with its reason); the listed keys are the outputs.
    has: (_t, key) => typeof key === 'string',
    ownKeys: () => [...outputs.keys()],
    getOwnPropertyDescriptor: (_t, key) =>
      typeof key === 'string' ? { configurable: true, enumerable: true, writable: false, value: get(key) } : undefined,
  });
}

function folderOfUri(uri: string): string {
  return uri.slice(0, uri.lastIndexOf('/') + 1);
}

/**
 * The sort key of a .tfvars file Terraform loads by itself, or undefined for one it does not:
 * `terraform.tfvars`, then `terraform.tfvars.json`, then the `*.auto.tfvars` and
 * `*.auto.tfvars.json` files in the lexical order of their names, later ones winning.
 */
function tfvarsOrder(uri: string): string | undefined {
  const name = baseName(uri).toLowerCase();
  if (name === 'terraform.tfvars') return '0';
  if (name === 'terraform.tfvars.json') return '1';
  if (name.endsWith('.auto.tfvars') || name.endsWith('.auto.tfvars.json')) return `2${baseName(uri)}`;
  return undefined;
}

/** `terraform.tfvars.example`, `prod.tfvars.sample`: values a repository ships as an example, not loaded by Terraform. */
function isExampleTfvars(uri: string): boolean {
  return /\.tfvars\.(?:example|sample)$/i.test(uri);
}

/** `terraform.tfvars.json`, `*.auto.tfvars.json`: Terraform's JSON syntax for variable values. */
function isJsonTfvars(uri: string): boolean {
  return uri.toLowerCase().endsWith('.tfvars.json');
}

/**
 * The variables a `.tfvars.json` file sets: its top-level properties, their JSON values, and where
 * each is written (the property's offset), read with jsonc-parser (positions kept). `problems`
 * collects its syntax errors (strict JSON: Terraform's JSON syntax has no comments).
 */
function jsonVariables(source: SourceText, problems?: ParseProblem[]): { name: string; value: unknown; at: number }[] {
  const errors: JsonParseError[] = [];
  const root = parseJson(source.text, errors, { allowTrailingComma: false, disallowComments: true });
  if (problems) jsonSyntaxProblems(source, errors, problems);
  if (root?.type !== 'object') return [];
  return (root.children ?? []).flatMap((property) => {
    const [key, value] = property.children ?? [];
    return key && value && typeof key.value === 'string'
      ? [{ name: key.value, value: getNodeValue(value) as unknown, at: property.offset }]
      : [];
  });
}

function emptyScope(): Scope {
  return { variables: new Map(), unset: new Set(), locals: new Map(), resources: new Map(), modules: new Map() };
}

/** `shown`: how messages name the file (its name; a called module's file by its path from the caller). */
function declare(
  scope: Scope,
  blocks: readonly Block[],
  uri: string,
  source: SourceText,
  shown = uri ? baseName(uri) : '',
): void {
  const where = (n: Node) => `${shown ? `${shown} ` : ''}line ${source.positionAt(n.startIndex).line + 1}`;
  for (const b of blocks) {
    if (b.type === 'variable' && b.labels[0]) {
      const def = attributes(b.body).get('default');
      if (def)
        scope.variables.set(b.labels[0], {
          node: def.namedChildren[1]!,
          uri,
          source,
          from: `its default in ${where(def)}`,
        });
      else scope.unset.add(b.labels[0]);
    } else if (b.type === 'locals') {
      for (const [key, attr] of attributes(b.body))
        scope.locals.set(key, { node: attr.namedChildren[1]!, uri, source, from: where(attr) });
    } else if (b.type === 'resource' && b.labels.length >= 2) {
      scope.resources.set(`${b.labels[0]}.${b.labels[1]}`, { block: b, uri, source });
    } else if (b.type === 'module' && b.labels[0]) {
      scope.modules.set(b.labels[0], { block: b, uri, source });
    }
  }
}

function blocksOf(body: Node | undefined | null): Block[] {
  if (!body) return [];
  return body.namedChildren
    .filter((n) => n.type === 'block')
    .map((node) => {
      const named = node.namedChildren;
      const type = named[0]?.type === 'identifier' ? named[0].text : '';
      const labels = named
        .filter((n) => n.type === 'string_lit' || n.type === 'identifier')
        .slice(1)
        .map((n) => (n.type === 'string_lit' ? (stringText(n) ?? '') : n.text));
      return { node, type, labels, body: named.find((n) => n.type === 'body') };
    });
}

/**
 * Each tree's top-level blocks, found once: a file the CLI reads alone and then with its module
 * shares one tree (treeSitter.ts `borrowTree`), and walking its blocks twice cost about 20 ms of a
 * 3,000-file run. A block holds no reading's state: what a reading caches on it (a body's children) it
 * lets go (`release`) or keeps for the next reading of the same tree.
 */
const blocksOfTree = new WeakMap<object, Block[]>();

function treeBlocks(tree: object, root: TreeNode, text: string): Block[] {
  let blocks = blocksOfTree.get(tree);
  if (!blocks) {
    blocks = topBlocks(root, text);
    blocksOfTree.set(tree, blocks);
  }
  return blocks;
}

/**
 * The top-level blocks, as `blocksOf` reads them, with a tree cursor: web-tree-sitter makes an
 * object for every node it hands out, and a 5,000-line file has hundreds of blocks whose bodies
 * are only needed when a block is read again (reuse.ts), so the body is looked up on first use.
 *
 * `root` is the tree's root: the blocks of its `body`, and the whole blocks that error recovery
 * wrapped in a top-level ERROR node. A character typed after a closing brace (`}0`) can make
 * tree-sitter wrap every block above it, the variables and locals included, in one ERROR node;
 * those blocks parsed whole, and reading them keeps the file's variables, locals and resources
 * while the error lasts instead of reading the rest of the file without them (which also read
 * every resource block again on each such keystroke). Only `block` nodes directly inside an
 * ERROR (or an ERROR in it) are taken, never a block's own body.
 */
function topBlocks(root: TreeNode | undefined | null, text: string): Block[] {
  if (!root) return [];
  const blocks: Block[] = [];
  const plain = !root.hasError;
  const cursor = root.walk();
  const visit = (inError: boolean): void => {
    if (!cursor.gotoFirstChild()) return;
    do {
      const kind: string = cursor.nodeType;
      if (kind === 'block') blocks.push(blockAt(cursor, text, plain));
      else if (kind === 'ERROR' || (kind === 'body' && !inError && cursor.currentDepth === 1))
        visit(inError || kind === 'ERROR');
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  };
  try {
    visit(false);
    return blocks;
  } finally {
    cursor.delete();
  }
}

/** The block at the cursor (its type and labels read with the cursor, which is left where it was). */
function blockAt(cursor: TreeCursor, text: string, plain: boolean): Block {
  const node = lightNode(cursor.currentNode, text);
  let first = true;
  let type = '';
  let names: string[] = [];
  const header = plain ? PLAIN_HEADER.exec(text.slice(node.startIndex, lineEndAt(text, node.startIndex))) : null;
  if (header) {
    // In a tree without errors, a first line of only a name, plain labels and `{` is the block's
    // header: its labels are read from the text (the cursor asks WebAssembly for every token).
    type = header[1]!;
    names = [
      type,
      ...(header[2]!.match(PLAIN_LABEL) ?? []).map((label) => (label.startsWith('"') ? label.slice(1, -1) : label)),
    ];
  } else if (cursor.gotoFirstChild()) {
    do {
      if (!cursor.nodeIsNamed) continue;
      const kind: string = cursor.nodeType; // a getter: each call reads the cursor anew
      if (first && kind === 'identifier') type = text.slice(cursor.startIndex, cursor.endIndex);
      first = false;
      if (kind === 'identifier') names.push(text.slice(cursor.startIndex, cursor.endIndex));
      else if (kind === 'string_lit') names.push(cursorStringText(cursor, text) ?? '');
    } while (cursor.gotoNextSibling());
    cursor.gotoParent();
  }
  let found: Node | undefined | null = null;
  return {
    node,
    type,
    labels: names.slice(1),
    get body() {
      if (found === null) found = node.namedChildren.find((n) => n.type === 'body');
      return found;
    },
    release() {
      found = null;
      node.release();
    },
  };
}

/** A block's first line when it holds the whole header: a name, labels (names or strings without escapes or templates), `{`. */
const PLAIN_HEADER = /^([A-Za-z_][\w-]*)((?:[ \t]+(?:"[^"\\$%\n]*"|[A-Za-z_][\w-]*))*)[ \t]*\{/;
const PLAIN_LABEL = /"[^"\\$%\n]*"|[A-Za-z_][\w-]*/g;

/** Sets `key` when `v` is defined: `...opt(key, v)` of an object literal, without making an object. */
function put<T, K extends keyof T>(target: T, key: K, v: T[K] | undefined): void {
  if (v !== undefined) target[key] = v;
}

function lineEndAt(text: string, at: number): number {
  const end = text.indexOf('\n', at);
  return end < 0 ? text.length : end;
}

/** `stringText` at the cursor (a string_lit), leaving the cursor where it was. */
function cursorStringText(cursor: TreeCursor, text: string): string | undefined {
  if (!cursor.gotoFirstChild()) return '';
  let out: string | undefined = '';
  do {
    if (!cursor.nodeIsNamed) continue;
    const kind: string = cursor.nodeType;
    if (kind === 'quoted_template_start' || kind === 'quoted_template_end') continue;
    if (kind === 'template_literal')
      out = out === undefined ? undefined : out + text.slice(cursor.startIndex, cursor.endIndex);
    else out = undefined;
  } while (cursor.gotoNextSibling());
  cursor.gotoParent();
  return out;
}

// web-tree-sitter marshals a node on every property access: memoize by node id, per parse.
let attributeCache = new Map<number, Map<string, Node>>();

/**
 * The top-level block a file read alone is reading (Reader.estate), and what its reading cached
 * for the block's own nodes: let go once the block is read (issue 32: a 10 MiB file of 38,823
 * pools held every block's node wrappers and fields until the whole file was read, 1.4 GiB).
 * Nothing outside a resource block reads its nodes through these caches (another block reads it
 * through `named`, the reader's references), so a cache let go is only made again if asked.
 */
let releasing: { readonly start: number; readonly end: number; readonly bodies: number[] } | undefined;

function attributes(body: Node | undefined): Map<string, Node> {
  if (!body) return new Map();
  const cached = attributeCache.get(body.id);
  if (cached) return cached;
  const map = new Map<string, Node>();
  attributeCache.set(body.id, map);
  if (releasing && body.startIndex >= releasing.start && body.startIndex < releasing.end)
    releasing.bodies.push(body.id);
  for (const n of body?.namedChildren ?? []) {
    if (n.type !== 'attribute') continue;
    const key = n.namedChildren[0];
    const expr = n.namedChildren[1];
    if (key && expr) map.set(key.text, n);
  }
  return map;
}

function stringText(n: Node): string | undefined {
  const parts = n.namedChildren.filter((c) => c.type !== 'quoted_template_start' && c.type !== 'quoted_template_end');
  if (parts.some((c) => c.type !== 'template_literal')) return undefined;
  return parts.map((c) => c.text).join('');
}

/** The resource types the reader reads (`azapi_resource` by its `type` attribute). */
const NETAPP_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'azurerm_netapp_account',
  'azurerm_netapp_pool',
  'azurerm_netapp_volume',
  'azapi_resource',
  'azurerm_netapp_volume_group_sap_hana',
  'azurerm_netapp_volume_group_oracle',
]);

/** The network resources read for the delegated-subnet checks (subnets.ts). */
const SUBNET_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'azurerm_subnet',
  'azurerm_virtual_network',
  'azurerm_subnet_network_security_group_association',
]);

/** `each` of one instance: its key and value, the variables its `for_each` uses, and the `for_each` expression (read in the same scope). */
interface EachBinding {
  readonly key: string;
  readonly value: unknown;
  readonly vars?: readonly string[];
  readonly source?: Node;
}

/** Inside a `dynamic` block's `content`: the iterator's name and this element's key and value. */
interface IteratorBinding {
  readonly name: string;
  readonly key: TfValue;
  readonly value: TfValue;
}

/**
 * A `dynamic` block's elements as Terraform iterates them: a list's index and element, a set's
 * element as both, a map's key and value (in key order). Undefined when anf-lint cannot list them.
 */
function dynamicEntries(v: Value): [TfValue, TfValue][] | undefined {
  if (!v.ok || v.value === null || typeof v.value !== 'object' || PARTIAL.has(v.value)) return undefined;
  if (Array.isArray(v.value)) {
    const list = v.value as TfValue[];
    return list.map((x, i) => [isSet(list) ? x : i, x]);
  }
  return Object.entries(v.value as Record<string, TfValue>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

class Reader {
  /** A reference this file could not resolve alone (a variable, local or resource of another file, a variable a .tfvars file may set). */
  unresolved = false;

  constructor(
    readonly source: SourceText,
    readonly uri: string,
    readonly blocks: readonly Block[],
    private readonly scope: Scope,
    private readonly module: boolean,
    /** Inside a `module` block with `for_each`: this instance's `each.key` and `each.value`, and the variables the `for_each` uses. */
    private readonly each?: EachBinding,
    /** Inside a block with `count`: this instance's `count.index`. */
    private readonly count?: number,
    /** Inside `dynamic` blocks' `content`: their iterators, innermost last. */
    private readonly iterators: readonly IteratorBinding[] = [],
  ) {}

  /** The same file read for one element of a `dynamic` block (fresh caches: values differ per element). */
  private withIterator(binding: IteratorBinding): Reader {
    return new Reader(this.source, this.uri, this.blocks, this.scope, this.module, this.each, this.count, [
      ...this.iterators,
      binding,
    ]);
  }

  /** The same file read for one instance of a `module` block with `for_each` (fresh caches: values differ per instance). */
  withEach(each: EachBinding): Reader {
    return new Reader(this.source, this.uri, this.blocks, this.scope, this.module, each);
  }

  /** The same file read for one instance of a block with `for_each` (`each`) or `count` (`index`). */
  withInstance(each: EachBinding | undefined, index?: number): Reader {
    return new Reader(this.source, this.uri, this.blocks, this.scope, this.module, each, index);
  }

  /** A `module` block's argument, read in this file's scope (module.ts places the module's values on it). */
  argument(expr: Node, keySpan: Span): Field {
    return this.field(expr, keySpan);
  }

  /** The `module` blocks of this file. */
  calls(): { call: IacModuleCall; block: Block }[] {
    if (this.readCalls) return this.readCalls;
    const found: { call: IacModuleCall; block: Block }[] = [];
    for (const b of this.blocks) {
      if (b.type !== 'module' || !b.labels[0]) continue;
      const attrs = attributes(b.body);
      const source = attrs.get('source')?.namedChildren[1];
      const written = source ? this.eval(source, 0) : UNKNOWN;
      const path = written.ok && typeof written.value === 'string' ? written.value : undefined;
      const head = b.node.namedChildren.find((n) => n.type === 'block_start');
      found.push({
        block: b,
        call: {
          name: b.labels[0],
          ...(path !== undefined ? { source: path } : {}),
          local: path !== undefined && LOCAL_SOURCE.test(path),
          span: spanOf(b.node),
          headSpan: { start: b.node.startIndex, end: head ? head.startIndex : b.node.endIndex },
          ...(source ? { sourceSpan: spanOf(source) } : {}),
          repeated: attrs.has('count') || attrs.has('for_each'),
        },
      });
    }
    this.readCalls = found;
    return found;
  }

  private readCalls: { call: IacModuleCall; block: Block }[] | undefined;

  estate(readers?: ReadonlyMap<string, Reader>, reuse?: BlockReuse): IacEstate {
    const accounts: IacAccount[] = [];
    const pools: IacPool[] = [];
    const volumes: IacVolume[] = [];
    const slips: IacSlip[] = [];
    const subnets: IacSubnet[] = [];
    const nsgAssociations: IacNsgAssociation[] = [];
    for (const b of this.blocks) {
      if (b.type === 'module' && b.labels[0]) {
        const made = this.knownModule(b);
        if (made) {
          accounts.push(...made.accounts);
          pools.push(...made.pools);
          volumes.push(...made.volumes);
          slips.push(...made.slips);
        }
        continue;
      }
      if (b.type !== 'resource' || b.labels.length < 2) continue;
      const [type, label] = b.labels as [string, string];
      // Subnets and NSG associations (subnets.ts): read each time, never kept for reuse.
      if (SUBNET_RESOURCE_TYPES.has(type)) {
        this.readingBlock(b, () => this.readNetwork(b, type, `${type}.${label}`, subnets, nsgAssociations));
        continue;
      }
      const reused = reuse?.reuse(`${type}.${label}`);
      if (reused) {
        accounts.push(...reused.accounts);
        pools.push(...reused.pools);
        volumes.push(...reused.volumes);
        if (reused.unresolved) this.unresolved = true;
        continue;
      }
      // Other resources give nothing: not even their fields are read (a module of a real repository has hundreds).
      if (!NETAPP_RESOURCE_TYPES.has(type)) {
        reuse?.store(`${type}.${label}`, { accounts: [], pools: [], volumes: [] });
        continue;
      }
      const before = [accounts.length, pools.length, volumes.length] as const;
      const unresolvedBefore = this.unresolved;
      this.unresolved = false;
      this.readingBlock(b, () => {
        const instances = this.instancesOf(b, `${type}.${label}`);
        if (instances) {
          // One resource per instance, each read with its `count.index` or `each` bound.
          for (const { reader, address, deployedIf } of instances) {
            reader.readResource(b, type, address, address, false, accounts, pools, volumes, deployedIf);
            if (reader.unresolved) this.unresolved = true;
          }
        } else
          this.readResource(
            b,
            type,
            `${type}.${label}`,
            `${type}.${label}`,
            attributes(b.body).has('count') || attributes(b.body).has('for_each'),
            accounts,
            pools,
            volumes,
          );
      });
      reuse?.store(`${type}.${label}`, {
        accounts: accounts.slice(before[0]),
        pools: pools.slice(before[1]),
        volumes: volumes.slice(before[2]),
        unresolved: this.unresolved,
      });
      this.unresolved ||= unresolvedBefore;
    }
    if (readers) pools.push(...this.borrowedPools(volumes, readers));
    return {
      language: 'terraform',
      accounts,
      pools,
      volumes,
      slips,
      ...(subnets.length > 0 ? { subnets } : {}),
      ...(nsgAssociations.length > 0 ? { nsgAssociations } : {}),
      ...(this.unresolved || this.scope.unset.size > 0 ? { unresolved: true } : {}),
    };
  }

  /** `azurerm_subnet`, `azurerm_virtual_network` (its inline `subnet` blocks), an NSG association: read once, a loop as repeated. */
  private readNetwork(
    b: Block,
    type: string,
    symbol: string,
    subnets: IacSubnet[],
    nsgAssociations: IacNsgAssociation[],
  ): void {
    const obj = this.obj(b.body, spanOf(b.node));
    const meta = this.meta(b, symbol, obj);
    if (type === 'azurerm_subnet') subnets.push(terraformSubnet(meta, obj));
    else if (type === 'azurerm_virtual_network') subnets.push(...terraformVnetSubnets(meta, obj));
    else {
      const association = terraformNsgAssociation(meta, obj);
      if (association) nsgAssociations.push(association);
    }
  }

  /**
   * The instances of a resource block with `count` or `for_each` that anf-lint can evaluate: one
   * reader per instance, with its address. Undefined when the block has neither, or its instances
   * are unknown (it is then read once, as repeated); `count = 0` gives none.
   */
  private instancesOf(
    b: Block,
    symbol: string,
  ): { reader: Reader; address: string; deployedIf?: string }[] | undefined {
    const attrs = attributes(b.body);
    const countNode = attrs.get('count')?.namedChildren[1];
    const forEachNode = attrs.get('for_each')?.namedChildren[1];
    if (countNode) {
      const n = this.eval(countNode);
      const optional = n.ok ? undefined : this.optionalCount(countNode);
      if (optional && takeInstances(1, symbol))
        return [{ reader: this.withInstance(undefined, 0), address: `${symbol}[0]`, deployedIf: optional }];
      if (
        !n.ok ||
        typeof n.value !== 'number' ||
        !Number.isInteger(n.value) ||
        n.value < 0 ||
        n.value > MAX_LOOP_INSTANCES ||
        !takeInstances(n.value, symbol)
      )
        return undefined;
      return Array.from({ length: n.value }, (_, i) => ({
        reader: this.withInstance(undefined, i),
        address: `${symbol}[${i}]`,
      }));
    }
    if (forEachNode) {
      const each = eachOf(this.eval(forEachNode));
      if (!each || each.length > MAX_LOOP_INSTANCES || !takeInstances(each.length, symbol)) return undefined;
      const vars = this.varsOf(forEachNode, forEachNode.text);
      return each.map(([key, value]) => ({
        reader: this.withInstance({ key, value, source: forEachNode, ...(vars ? { vars } : {}) }),
        address: `${symbol}["${key}"]`,
      }));
    }
    return undefined;
  }

  /**
   * `count = var.x ? 1 : 0` (either order) whose condition is unknown: the resource is read as
   * deployed once (a miss is worse), with the note saying on what it depends. Undefined for any
   * other count.
   */
  optionalCount(countNode: Node): string | undefined {
    const inner = unwrap(countNode);
    if (inner?.type !== 'conditional') return undefined;
    const [c, a, b] = inner.namedChildren;
    if (!c || !a || !b) return undefined;
    const [x, y] = [this.eval(a), this.eval(b)];
    if (!x.ok || !y.ok || !((x.value === 1 && y.value === 0) || (x.value === 0 && y.value === 1))) return undefined;
    const cond = this.eval(c);
    if (cond.ok) return undefined;
    return deployedOnlyIf(x.value === 1 ? c.text : `!(${c.text})`, cond.reason);
  }

  /** One NetApp resource (or one instance of it) as accounts, pools and volumes. */
  readResource(
    b: Block,
    type: string,
    symbol: string,
    address: string,
    repeated: boolean,
    accounts: IacAccount[],
    pools: IacPool[],
    volumes: IacVolume[],
    deployedIf?: string,
  ): void {
    const obj = this.obj(b.body, spanOf(b.node));
    // meta is this call's own object: set in place, in the order a spread gave the keys.
    const meta: Mutable<Meta> = this.meta(b, symbol, obj);
    meta.address = address;
    meta.repeated = repeated;
    if (deployedIf) meta.deployedIf = deployedIf;
    if (type === 'azurerm_netapp_account') accounts.push({ kind: 'account', ...common(meta) });
    else if (type === 'azurerm_netapp_pool') pools.push(this.pool(meta, obj));
    else if (type === 'azurerm_netapp_volume') volumes.push(this.volume(meta, obj));
    else if (type === 'azapi_resource') this.azapi(b, meta, obj, accounts, pools, volumes);
    else if (type === 'azurerm_netapp_volume_group_sap_hana' || type === 'azurerm_netapp_volume_group_oracle')
      volumes.push(...this.groupVolumes(type, meta, obj));
  }

  /** A `module` block calling a registry module anf-lint knows (knownModules.ts): what it deploys. */
  private knownModule(b: Block): KnownModuleEstate | undefined {
    const attrs = attributes(b.body);
    const source = attrs.get('source')?.namedChildren[1];
    // A plain local path, as most `module` blocks of a repository have: no registry module, and nothing to evaluate.
    if (source && PLAIN_LOCAL_SOURCE.test(this.source.text.slice(source.startIndex, source.endIndex))) return undefined;
    const written = source ? this.eval(source, 0) : UNKNOWN;
    if (!written.ok || typeof written.value !== 'string' || LOCAL_SOURCE.test(written.value)) return undefined;
    const call = this.calls().find((c) => c.block === b)?.call;
    if (!call || !isKnownModuleSource('terraform', call)) return undefined;
    const versionNode = attrs.get('version')?.namedChildren[1];
    const version = versionNode ? this.eval(versionNode, 0) : UNKNOWN;
    const args = new Map<string, Field>();
    for (const [key, attr] of attrs) {
      if (MODULE_META_ARGUMENTS.has(key)) continue;
      args.set(key, this.field(attr.namedChildren[1]!, spanOf(attr.namedChildren[0]!)));
    }
    return readKnownModule({
      language: 'terraform',
      call,
      ...(version.ok && typeof version.value === 'string' ? { version: version.value } : {}),
      args,
      annotationOf: (span) => annotationFor(this.source, span),
      requiredOf: (span) => requirementsFor(this.source, span),
    });
  }

  /** An `azurerm_netapp_pool` or azapi pool block of this file, read as a pool (for a volume in another file). */
  poolOf(symbol: string): IacPool | undefined {
    const b = this.blocks.find((x) => x.type === 'resource' && `${x.labels[0]}.${x.labels[1]}` === symbol);
    if (!b) return undefined;
    const obj = this.obj(b.body, spanOf(b.node));
    const meta = this.meta(b, symbol, obj);
    if (b.labels[0] === 'azurerm_netapp_pool') return this.pool(meta, obj);
    const found: IacPool[] = [];
    if (b.labels[0] === 'azapi_resource') this.azapi(b, meta, obj, [], found, []);
    return found[0];
  }

  /**
   * The pools of other files this file's volumes are in: their settings (service level, QoS, cool
   * access), written where the volume names the pool. Their size and throughput stay with the file
   * that declares them, so the pool's own findings are reported there, once.
   */
  private borrowedPools(volumes: readonly IacVolume[], readers: ReadonlyMap<string, Reader>): IacPool[] {
    const borrowed = new Map<string, IacPool>();
    for (const volume of volumes) {
      const symbol = volume.pool?.symbol;
      const at = volume.pool?.name;
      if (!symbol || !at || borrowed.has(symbol)) continue;
      const declared = this.scope.resources.get(symbol);
      if (!declared || declared.uri === this.uri) continue;
      const pool = readers.get(declared.uri)?.poolOf(symbol);
      if (!pool) continue;
      const where = `${baseName(declared.uri)} line ${declared.source.positionAt(declared.block.node.startIndex).line + 1}`;
      borrowed.set(symbol, borrowPool(pool, at.span, where));
    }
    return [...borrowed.values()];
  }

  private meta(b: Block, symbol: string, obj: Obj): Meta {
    const attrs = attributes(b.body);
    const name = str(obj.field('name'));
    const annotation = annotationFor(this.source, spanOf(b.node));
    const required = requirementsFor(this.source, spanOf(b.node));
    const head = b.node.namedChildren.find((n) => n.type === 'block_start');
    const meta: Mutable<Meta> = {
      symbol,
      span: spanOf(b.node),
      headSpan: { start: b.node.startIndex, end: head ? head.startIndex : b.node.endIndex },
      repeated: attrs.has('count') || attrs.has('for_each'),
    };
    if (name) meta.name = name;
    if (annotation) meta.annotation = annotation;
    if (required) meta.required = required;
    const tags = obj.field('tags');
    if (tags) meta.tags = tags;
    return meta;
  }

  private pool(meta: Meta, obj: Obj): IacPool {
    const account = ref(obj.field('account_name'));
    // By assignment, in the key order (and field reading order) of the spread it replaces: a 10 MiB file has 38,823 pools.
    const pool: Mutable<IacPool> = { kind: 'pool', ...common(meta) };
    if (account) pool.account = account;
    const serviceLevel = str(obj.field('service_level'));
    if (serviceLevel !== undefined) pool.serviceLevel = serviceLevel;
    const sized = size(obj.field('size_in_tb'), 'TiB');
    if (sized !== undefined) pool.size = sized;
    const qos = str(obj.field('qos_type'));
    if (qos !== undefined) pool.qos = qos;
    const customThroughputMiBps = num(obj.field('custom_throughput_mibps'));
    if (customThroughputMiBps !== undefined) pool.customThroughputMiBps = customThroughputMiBps;
    const coolAccess = bool(obj.field('cool_access_enabled'));
    if (coolAccess !== undefined) pool.coolAccess = coolAccess;
    return pool;
  }

  private volume(meta: Meta, obj: Obj): IacVolume {
    const exportRules: IacExportRule[] = obj.blocks('export_policy_rule').map((r) => ({
      span: r.span,
      ...opt('allowedClients', joined(r.field('allowed_clients'))),
      ...opt('protocols', strList(r.field('protocols_enabled') ?? r.field('protocol'))),
      ...opt('rootAccess', bool(r.field('root_access_enabled'))),
      ...opt(
        'kerberos',
        kerberosFlavor((flavor) => [
          r.field(`kerberos_${flavor}_read_write_enabled`),
          r.field(`kerberos_${flavor}_read_only_enabled`),
        ]),
      ),
    }));
    const cool = obj.blocks('cool_access')[0];
    const path = str(obj.field('volume_path'));
    const zone = obj.field('zone');
    const account = ref(obj.field('account_name'));
    const pool = ref(obj.field('pool_name'));
    const subnet = subnetLinkOf(obj.field('subnet_id'));
    // By assignment, in the key order (and field reading order) of the spread it replaces: a 10 MiB file has 14,122 volumes.
    const volume = { kind: 'volume' } as Mutable<IacVolume>;
    if (subnet) volume.subnet = subnet;
    Object.assign(volume, common(meta));
    if (account) volume.account = account;
    if (pool) volume.pool = pool;
    put(volume, 'serviceLevel', str(obj.field('service_level')));
    put(volume, 'quota', size(obj.field('storage_quota_in_gb'), 'GiB'));
    put(volume, 'protocols', strList(obj.field('protocols')));
    put(volume, 'throughputMiBps', num(obj.field('throughput_in_mibps')));
    put(volume, 'largeVolume', bool(obj.field('large_volume_enabled')));
    put(volume, 'networkFeatures', str(obj.field('network_features')));
    put(volume, 'zones', strList(zone));
    put(volume, 'kerberos', bool(obj.field('kerberos_enabled')));
    put(volume, 'creationToken', path);
    volume.exportRules = exportRules;
    if (cool) volume.coolAccess = { value: true, span: cool.span, keySpan: cool.span, raw: 'cool_access' };
    volume.mountTargets = [];
    return Object.assign(volume, workloadOpt(meta, path), requirementsOpt(meta));
  }

  /**
   * An application volume group: each `volume` block is a volume, its workload from its
   * `volume_spec_name`, its pool from `capacity_pool_id` (`azurerm_netapp_pool.p.id`).
   */
  private groupVolumes(type: string, group: Meta, obj: Obj): IacVolume[] {
    const applicationType = type === 'azurerm_netapp_volume_group_oracle' ? 'ORACLE' : 'SAP-HANA';
    const account = ref(obj.field('account_name'));
    // An annotation above the group (or on its first line) holds for every volume without its own.
    const groupAnnotation = annotationFor(this.source, group.headSpan);
    return obj.blocks('volume').map((v, index) => {
      const name = str(v.field('name'));
      const annotation = annotationFor(this.source, v.span);
      const required = requirementsFor(this.source, v.span);
      const spec = specWorkload(applicationType, v.field('volume_spec_name'), 'volume_spec_name');
      const poolField = v.field('capacity_pool_id');
      const tags = v.field('tags');
      const meta: Meta = {
        symbol: `${group.symbol}.volume[${index}]`,
        ...(group.address ? { address: `${group.address}.volume[${index}]` } : {}),
        span: v.span,
        headSpan: { start: v.span.start, end: v.span.start + 'volume'.length },
        repeated: group.repeated,
        ...(name ? { name } : {}),
        ...(annotation ? { annotation } : groupAnnotation ? { annotation: groupAnnotation } : {}),
        ...(required ? { required } : {}),
        ...(tags ? { tags } : {}),
        ...(spec ? { spec } : {}),
      };
      const volume = this.volume(meta, v);
      const exportRules = v.blocks('export_policy_rule').map((r, i) => ({
        ...volume.exportRules[i]!,
        ...opt('nfsv3', bool(r.field('nfsv3_enabled'))),
        ...opt('nfsv41', bool(r.field('nfsv41_enabled'))),
      }));
      const { pool: _pool, account: _account, ...rest } = volume;
      return {
        ...rest,
        ...(account ? { account } : {}),
        ...opt('pool', poolRef(poolField)),
        exportRules,
        volumeGroup: group.symbol,
      };
    });
  }

  /** `azapi_resource` with a Microsoft.NetApp type: the body holds ARM property names. */
  private azapi(b: Block, meta: Meta, obj: Obj, accounts: IacAccount[], pools: IacPool[], volumes: IacVolume[]): void {
    const type = str(obj.field('type'))?.value;
    if (!type) return;
    const [resourceType, api] = type.split('@');
    const lower = (resourceType ?? '').toLowerCase();
    const apiVersion = api
      ? {
          apiVersion: {
            value: api,
            span: obj.field('type')!.span,
            keySpan: obj.field('type')!.keySpan,
            raw: obj.field('type')!.raw,
          },
        }
      : {};
    const body = obj.field('body')?.object;
    const props = body?.field('properties')?.object;
    const parent = obj.field('parent_id');
    const parentRef = parent?.symbol ? { symbol: parent.symbol } : undefined;
    const m: Meta = { ...meta, ...apiVersion };
    if (lower === 'microsoft.netapp/netappaccounts') accounts.push({ kind: 'account', ...common(m) });
    else if (lower === 'microsoft.netapp/netappaccounts/capacitypools')
      pools.push(armPool({ ...m, ...(parentRef ? { account: parentRef } : {}) }, props));
    else if (lower === 'microsoft.netapp/netappaccounts/capacitypools/volumes') {
      const zones = body?.field('zones');
      volumes.push(armVolume({ ...m, ...(parentRef ? { pool: parentRef } : {}) }, props, zones ? { zones } : {}));
    }
    void b;
  }

  // ---- fields ----------------------------------------------------------------------------

  obj(body: Node | undefined, span: Span): Obj {
    const attrs = attributes(body);
    const nested = blocksOf(body);
    return {
      span,
      field: (key) => {
        const attr = attrs.get(key);
        if (!attr) return undefined;
        return this.field(attr.namedChildren[1]!, spanOf(attr.namedChildren[0]!));
      },
      blocks: (key) => this.nestedBlocks(nested, key),
    };
  }

  /** The blocks of one type in a body, in order: those written, and those each `dynamic "type"` block generates. */
  private nestedBlocks(nested: readonly Block[], key: string): Obj[] {
    const found: Obj[] = [];
    for (const n of nested) {
      if (n.type === key) found.push(this.obj(n.body, spanOf(n.node)));
      else if (n.type === 'dynamic' && n.labels[0] === key) found.push(...this.dynamicBlocks(n, key));
    }
    return found;
  }

  /**
   * A `dynamic` block's generated blocks: its `content` once per element of `for_each`, the iterator
   * (`iterator = name`, else the block type) bound to the element. None when anf-lint cannot list
   * the elements or they pass the loop bound. The content's text stands for every generated block,
   * so no fix edits it (no `editSpan`).
   */
  private dynamicBlocks(block: Block, key: string): Obj[] {
    const attrs = attributes(block.body);
    const forEach = attrs.get('for_each')?.namedChildren[1];
    const content = blocksOf(block.body).find((b) => b.type === 'content');
    if (!forEach || !content) return [];
    const entries = dynamicEntries(this.eval(forEach, 0));
    // Not module or resource instances (the work budget's count): the per-loop bound caps them, and
    // their fields are evaluated only when a reader asks, within the evaluation steps' budget.
    if (!entries || entries.length > MAX_LOOP_INSTANCES) return [];
    const iterator = attrs.get('iterator')?.namedChildren[1]?.text.trim();
    const name = iterator && /^[A-Za-z_][\w-]*$/.test(iterator) ? iterator : key;
    return entries.map(([k, value]) =>
      this.withIterator({ name, key: k, value }).obj(content.body, spanOf(content.node)),
    );
  }

  private readonly fields = new Map<string, Field>();
  private readonly values = new Map<number, Value>();
  /** The resource block being read by a file read alone: the keys of `fields` and `values` for its own nodes, let go after it (`releasing`). */
  private region: { readonly start: number; readonly end: number; fields: string[]; values: number[] } | undefined;

  /**
   * Reads one resource block of a file read alone, then lets go of what was cached for its own
   * nodes (issue 32: memory bounded by the block, not the file). A module's reading keeps them:
   * its blocks are read again for each instance.
   */
  private readingBlock(b: Block, read: () => void): void {
    if (this.module) {
      read();
      return;
    }
    const start = b.node.startIndex;
    const end = b.node.endIndex;
    const bodies: number[] = [];
    this.region = { start, end, fields: [], values: [] };
    releasing = { start, end, bodies };
    try {
      read();
    } finally {
      for (const key of this.region.fields) this.fields.delete(key);
      for (const id of this.region.values) this.values.delete(id);
      for (const id of bodies) attributeCache.delete(id);
      b.release?.();
      this.region = undefined;
      releasing = undefined;
    }
  }

  /**
   * `anchor`: the expression is written in another file (a local or variable default reached
   * through a reference): the field is placed on the reference in this file and never edited.
   */
  private field(expr: Node, keySpan: Span, anchor?: Span): Field {
    const key = anchor ? `${expr.id}@${anchor.start}` : String(expr.id);
    const cached = this.fields.get(key);
    if (cached) return cached;
    const made = this.makeField(expr, keySpan, anchor);
    this.fields.set(key, made);
    if (this.region && !anchor && expr.startIndex >= this.region.start && expr.startIndex < this.region.end)
      this.region.fields.push(key);
    return made;
  }

  private makeField(expr: Node, keySpan: Span, anchor?: Span): Field {
    const raw = expr.text;
    if (!anchor && fieldsByTextOn && SAID_BY_TEXT.test(raw)) return this.fieldByText(expr, keySpan, raw);
    const value = this.eval(expr, 0);
    if (budget.tooDeep && !tooDeep.at) tooDeep.at = { uri: this.uri, span: anchor ?? spanOf(expr) };
    const literal = anchor || this.iterators.length > 0 ? undefined : literalOf(expr);
    const object = this.objectOf(expr, 0, anchor);
    const items = this.itemsOf(expr, anchor);
    const symbol = this.symbolOf(expr);
    const origin = this.originOf(expr, raw);
    const vars = this.varsOf(expr, raw);
    return this.assembled(expr, keySpan, anchor, raw, value, literal, object, items, symbol, origin, vars);
  }

  // Built by assignment (a 10 MiB file makes hundreds of thousands), in the key order the JSON report shows.
  private assembled(
    expr: Node,
    keySpan: Span,
    anchor: Span | undefined,
    raw: string,
    value: Value,
    literal: Span | undefined,
    object: Obj | undefined,
    items: Field[] | undefined,
    symbol: string | undefined,
    origin: string | undefined,
    vars: string[] | undefined,
  ): Field {
    const field: Mutable<Field> = { value: value.ok ? value.value : undefined } as Field;
    if (!value.ok) field.unknown = value.reason ?? `\`${raw.slice(0, 60)}\` could not be evaluated`;
    field.span = anchor ?? spanOf(expr);
    field.keySpan = anchor ?? keySpan;
    field.raw = raw;
    if (literal) field.editSpan = literal;
    if (object) field.object = object;
    if (items) field.items = items;
    if (symbol) field.symbol = symbol;
    if (origin) field.origin = origin;
    if (vars) field.vars = vars;
    return field;
  }

  /**
   * What this reader said of expressions written as a reference chain or a plain literal
   * (`SAID_BY_TEXT`), by their text: such an expression's value, the resource it names, and where
   * its variables come from depend on its text and this reader's scope and bindings alone, never on
   * where it is written. A file of thousands of volumes writes `var.location` thousands of times
   * (issue 32: 10 MiB of `.tf`). Kept from the second time a text is read (the first fills the
   * reference caches, so the second costs what every later one would), with the evaluation steps
   * and the unresolved marks it made, which each later use makes again.
   */
  private readonly saidByText = new Map<string, SaidByText | null>();

  /** A field of a `SAID_BY_TEXT` expression: as `makeField` makes it, from what was said of its text where that can be reused. */
  private fieldByText(expr: Node, keySpan: Span, raw: string): Field {
    const said = this.saidByText.get(raw);
    const reuse = said && budget.steps + said.steps <= budget.maxSteps;
    const stepsBefore = budget.steps;
    const unresolvedBefore = this.unresolved;
    this.unresolved = false;
    const value = reuse ? said.value : this.eval(expr, 0);
    if (reuse) budget.steps += said.steps;
    const evalUnresolves = reuse ? said.evalUnresolves : this.unresolved;
    const evalSteps = budget.steps - stepsBefore;
    this.unresolved ||= unresolvedBefore || evalUnresolves;
    if (budget.tooDeep && !tooDeep.at) tooDeep.at = { uri: this.uri, span: spanOf(expr) };
    const literal = this.iterators.length > 0 ? undefined : literalByText(expr.startIndex, raw);
    // Only `var.x` and `local.x` can stand for an object constructor (`referenced`); other texts have none.
    const object = VARIABLE_OR_LOCAL.test(raw) ? this.objectOf(expr, 0) : undefined;
    let symbol: string | undefined;
    let origin: string | undefined;
    let vars: string[] | undefined;
    if (reuse) {
      ({ symbol, origin, vars } = said);
      if (said.symbolUnresolves) this.unresolved = true;
    } else {
      const unresolvedAfterObject = this.unresolved;
      this.unresolved = false;
      symbol = this.symbolOf(expr);
      const symbolUnresolves = this.unresolved;
      this.unresolved ||= unresolvedAfterObject;
      origin = this.originOf(expr, raw);
      vars = this.varsOf(expr, raw);
      // The first reading of a text only marks it seen; a reading that ran out of budget or nesting is not kept.
      if (said === undefined) this.saidByText.set(raw, null);
      else if (!budget.exhausted && !budget.tooDeep)
        this.saidByText.set(raw, { value, steps: evalSteps, evalUnresolves, symbol, symbolUnresolves, origin, vars });
    }
    return this.assembled(expr, keySpan, undefined, raw, value, literal, object, undefined, symbol, origin, vars);
  }

  /** The variables an expression uses, directly or through locals (a module's caller may set them). */
  varsOf(expr: Node, raw: string): string[] | undefined {
    if (!raw.includes('var.') && !raw.includes('local.') && !(this.each && raw.includes('each.'))) return undefined;
    const found = new Set<string>();
    const seen = new Set<string>();
    const visit = (n: Node, depth: number): void => {
      if (depth > MAX_DEPTH) return;
      const chain = n.type === 'expression' ? refHead(n) : undefined;
      if (chain && chain.length >= 2 && chain[0] === 'var') {
        found.add(chain[1]!);
        return;
      }
      if (chain && chain[0] === 'each' && this.each) {
        // `each.value.quota`: the variables of this key's `quota` where the `for_each` object writes it, else all the `for_each` uses.
        const entry = this.each.source ? this.eachEntry(this.each.source, this.each.key, chain.slice(1)) : undefined;
        if (entry) visit(entry, depth + 1);
        else for (const name of this.each.vars ?? []) found.add(name);
        return;
      }
      if (chain && chain.length >= 2 && chain[0] === 'local') {
        const declared = this.scope.locals.get(chain[1]!);
        if (declared?.node && !seen.has(chain[1]!)) {
          seen.add(chain[1]!);
          visit(declared.node, depth + 1);
        }
        return;
      }
      for (const c of n.namedChildren) visit(c, depth + 1);
    };
    visit(expr, 0);
    return found.size > 0 ? [...found] : undefined;
  }

  /**
   * Where a `for_each` object written in the code (directly, or through `local.x`/`var.x`) holds
   * `each.value.<path>` of the instance `key`: the expression of that entry, or undefined when
   * it is not written as an object constructor (a `for` expression, a function, a .tfvars value).
   */
  private eachEntry(source: Node, key: string, path: readonly string[]): Node | undefined {
    if (path[0] !== 'value') return undefined;
    let node: Node | undefined = source;
    for (let hops = 0; node && hops < MAX_DEPTH; hops++) {
      const inner = unwrap(node);
      const target: Declared | undefined = inner ? this.referenced(inner, node) : undefined;
      if (!target?.node || target.value) break;
      node = target.node;
    }
    const names = [key, ...path.slice(1)];
    for (const name of names) {
      const inner: Node | undefined = node ? unwrap(node) : undefined;
      if (inner?.type !== 'object') return undefined;
      node = undefined;
      const elems: readonly Node[] = inner.namedChildren;
      for (const elem of elems) {
        if (elem.type !== 'object_elem') continue;
        const [k, v]: readonly (Node | undefined)[] = elem.namedChildren;
        if (!k || !v) continue;
        const bare = k.namedChildren.length === 1 && k.namedChildren[0]!.type === 'variable_expr';
        const written = bare ? { ok: true, value: k.text } : this.eval(k);
        if (written.ok && written.value === name) node = v;
      }
    }
    return node;
  }

  private itemsOf(expr: Node, anchor?: Span): Field[] | undefined {
    const tuple = unwrap(expr);
    if (tuple?.type !== 'tuple') return undefined;
    return tuple.namedChildren.filter((n) => n.type === 'expression').map((n) => this.field(n, spanOf(n), anchor));
  }

  /** An object constructor (`{ a = 1 }`, also inside `jsonencode(...)` or behind a reference) as an Obj. */
  private objectOf(expr: Node, depth: number, anchor?: Span): Obj | undefined {
    if (depth > MAX_DEPTH) return undefined;
    const inner = unwrap(expr);
    if (!inner) return undefined;
    if (inner.type === 'function_call' && inner.namedChildren[0]?.text === 'jsonencode') {
      const arg = inner.namedChildren.find((n) => n.type === 'function_arguments')?.namedChildren[0];
      return arg ? this.objectOf(arg, depth + 1, anchor) : undefined;
    }
    const target = this.referenced(inner, expr);
    // A module argument's object is read in the caller's scope, not here: unknown.
    if (target?.value) return undefined;
    if (target?.node)
      return this.objectOf(target.node, depth + 1, anchor ?? (target.uri === this.uri ? undefined : spanOf(expr)));
    if (inner.type !== 'object') return undefined;
    const elems = inner.namedChildren.filter((n) => n.type === 'object_elem');
    const byKey = new Map<string, Node>();
    const names: string[] = [];
    for (const elem of elems) {
      const [k, v] = elem.namedChildren;
      if (!k || !v) continue;
      const key = this.eval(k, depth + 1);
      const name = key.ok && typeof key.value === 'string' ? key.value : k.text;
      byKey.set(name.toLowerCase(), elem);
      names.push(name);
    }
    return {
      span: anchor ?? spanOf(inner),
      keys: () => names,
      field: (key) => {
        const elem = byKey.get(key.toLowerCase());
        if (!elem) return undefined;
        return this.field(elem.namedChildren[1]!, spanOf(elem.namedChildren[0]!), anchor);
      },
      blocks: (key) => {
        const f = byKey.get(key.toLowerCase());
        const items = f ? this.itemsOf(f.namedChildren[1]!, anchor) : undefined;
        return (items ?? []).flatMap((i) => (i.object ? [i.object] : []));
      },
    };
  }

  /** For `var.x`/`local.x`: the expression it stands for (in the scope), else undefined. */
  private referenced(inner: Node, expr: Node): Declared | undefined {
    if (inner.type !== 'variable_expr') return undefined;
    const chain = attrChain(expr);
    if (!chain || chain.length !== 2) return undefined;
    return this.lookup(chain[0]!, chain[1]!);
  }

  private lookup(kind: string, name: string): Declared | undefined {
    if (kind !== 'var' && kind !== 'local') return undefined;
    const found = (kind === 'var' ? this.scope.variables : this.scope.locals).get(name);
    if (!found) this.unresolved = true;
    return found;
  }

  /** `azurerm_netapp_pool.p.name` -> `azurerm_netapp_pool.p` (a resource of the scope). */
  private symbolOf(expr: Node): string | undefined {
    const chain = attrChain(expr);
    if (!chain || chain.length < 2) return undefined;
    if (
      chain[0] === 'var' ||
      chain[0] === 'local' ||
      chain[0] === 'data' ||
      chain[0] === 'module' ||
      chain[0] === 'each' ||
      chain[0] === 'count'
    )
      return undefined;
    const symbol = `${chain[0]}.${chain[1]}`;
    if (this.scope.resources.has(symbol)) return symbol;
    this.unresolved = true;
    return undefined;
  }

  /**
   * Where the variables and locals an expression uses got their values ("`var.quota` = 4096 from
   * terraform.tfvars line 3"), for hovers and messages; undefined when it uses none.
   */
  private originOf(expr: Node, raw: string): string | undefined {
    // Most values use no variable: a look at the text spares walking the tree.
    if (!raw.includes('var.') && !raw.includes('local.') && !raw.includes('module.')) return undefined;
    const inner = unwrap(expr);
    if (!inner || inner.type === 'object' || inner.type === 'tuple') return undefined;
    const notes: string[] = [];
    const visit = (n: Node, depth: number): void => {
      if (depth > MAX_DEPTH || notes.length > MAX_ORIGINS) return;
      const head = n.type === 'expression' ? refHead(n) : undefined;
      if (head && head[0] === 'module' && head.length >= 2 && this.scope.modules.has(head[1]!)) {
        const declared = this.scope.modules.get(head[1]!)!;
        const line = declared.source.positionAt(declared.block.node.startIndex).line + 1;
        notes.push(
          `\`${n.text.slice(0, 60)}\`, an output of module "${head[1]}" (${baseName(declared.uri)} line ${line})`,
        );
        return;
      }
      const chain = n.type === 'expression' ? attrChain(n) : undefined;
      if (chain && chain.length >= 2 && (chain[0] === 'var' || chain[0] === 'local')) {
        const name = chain.join('.');
        const declared = (chain[0] === 'var' ? this.scope.variables : this.scope.locals).get(chain[1]!);
        if (declared) {
          const v = this.eval(n, depth + 1);
          const shown =
            v.ok && (typeof v.value === 'number' || typeof v.value === 'boolean')
              ? ` = ${String(v.value)}`
              : v.ok && typeof v.value === 'string'
                ? ` = "${v.value}"`
                : '';
          notes.push(`\`${name}\`${shown}, from ${declared.from}`);
        } else if (chain[0] === 'var' && this.scope.unset.has(chain[1]!)) {
          notes.push(
            this.module
              ? `\`${name}\` has no default and no value in terraform.tfvars or a *.auto.tfvars file of this folder`
              : `\`${name}\` has no default here (a .tfvars file of the module may set it)`,
          );
        } else {
          notes.push(
            this.module
              ? `\`${name}\` is not declared in the .tf files of this folder`
              : `\`${name}\` is declared in another file`,
          );
        }
        return;
      }
      for (const c of n.namedChildren) visit(c, depth + 1);
    };
    visit(expr, 0);
    return notes.length > 0 ? notes.join('; ') : undefined;
  }

  /**
   * The value of an expression, evaluated by the Terraform evaluator (hcl/eval.ts) with this file's
   * scope: `var.x`, `local.x`, resources of the module (with their instances), `each` and
   * `count.index` of the instance being read. Unknown values carry the reason.
   */
  eval(n: Node, _depth = 0): Value {
    const cached = this.values.get(n.id);
    if (cached) return cached;
    const value = toLegacy(evaluate(n, this.evalScope, budget));
    this.values.set(n.id, value);
    if (this.region && n.startIndex >= this.region.start && n.startIndex < this.region.end)
      this.region.values.push(n.id);
    return value;
  }

  /** The evaluator's value of an expression (unknowns and partly known collections kept). */
  evalValue(n: Node): TfValue {
    return evaluate(n, this.evalScope, budget);
  }

  private readonly evalScope: EvalScope = {
    reference: (parts) => this.reference(parts),
    readFile: (path) => this.readFile(path),
  };

  /**
   * `file()`, `templatefile()`, `fileexists()`: a file of the repository by a path relative to
   * this module's folder (`${path.module}/x.yaml`, `${path.root}/x.json`), its text as the
   * workspace holds it (nothing is read from disk here: the evaluation stays pure). Outside the
   * repository, or a file the workspace does not hold: unknown, with the reason.
   */
  private readFile(path: string): string | Unknown {
    if (/^(?:\/|~|[A-Za-z]:[\\/]|\\\\)/.test(path))
      return unknown(`\`${path}\` is an absolute path: anf-lint reads files inside the repository only`);
    const read = moduleReading.readText;
    if (!read) {
      this.unresolved = true;
      return unknown(`\`${path}\` is read when the folder is read as a module`);
    }
    let uri: string;
    try {
      uri = new URL(path, folderOfUri(this.uri)).href;
    } catch {
      return unknown(`\`${path}\` is not a path anf-lint can resolve`);
    }
    const text = read(uri);
    if (text === undefined)
      return unknown(
        `\`${path}\` is not among the files anf-lint read (outside the repository, missing, or not a kind of file anf-lint reads)`,
      );
    return text;
  }
  private readonly named = new Map<string, TfValue>();
  private readonly pending = new Set<string>();

  /** What a reference names: a variable, a local, `each`, `count`, a resource and its instances. */
  private reference(parts: readonly string[]): TfValue {
    const key = parts.join('.');
    const [root, name] = parts;
    for (let i = this.iterators.length - 1; i >= 0; i--) {
      const iterator = this.iterators[i]!;
      if (iterator.name !== root) continue;
      // The evaluator takes one name after an unknown root (`export_policy_rule.value`) and applies the rest.
      if (name === undefined) return { key: iterator.key, value: iterator.value };
      if (name === 'key' || name === 'value') return iterator[name];
      return failure(`\`${key}\`: a \`dynamic\` block's iterator has \`key\` and \`value\` only`);
    }
    if (root === 'each') {
      if (this.each) return { key: this.each.key, value: fromLegacy(this.each.value) };
      return unknown('`each` is known only inside a resource or module block with `for_each`');
    }
    if (root === 'count') {
      if (this.count !== undefined) return { index: this.count };
      return unknown('`count.index` is known only inside a resource or module block with `count`');
    }
    if (root === 'data') return unknown(`\`${key}\` is a data source: Terraform reads it from Azure when it plans`);
    if (root === 'module') {
      const known = this.named.get(key);
      if (known !== undefined) return known;
      const value = this.moduleValue(name!);
      this.named.set(key, value);
      return value;
    }
    if (root === 'path') {
      // Paths relative to this module's folder, which `file()` resolves (path.root: the root module's folder from here).
      if (name === 'root' || name === 'cwd') {
        const rootFolder = moduleReading.rootFolder;
        const here = folderOfUri(this.uri);
        if (!rootFolder || rootFolder === here) return '.';
        const up = relativeUri(here, `${rootFolder}x`).replace(/\/?x$/, '');
        return up === '' ? '.' : up;
      }
      return name === 'module' ? '.' : unknown(`\`${key}\` is not known`);
    }
    if (root === 'terraform')
      return name === 'workspace'
        ? unknown('`terraform.workspace` is chosen when Terraform runs')
        : unknown(`\`${key}\` is not known`);
    if (root === 'self') return unknown('`self` is known only in provisioners');
    const known = this.named.get(key);
    if (known !== undefined) return known;
    if (this.pending.has(key)) return failure(`\`${key}\` refers to itself`);
    this.pending.add(key);
    try {
      const value = root === 'var' || root === 'local' ? this.declaredValue(root, name!) : this.resourceValue(key);
      this.named.set(key, value);
      return value;
    } finally {
      this.pending.delete(key);
    }
  }

  /**
   * `module.x`: the outputs of the module `x` calls (a local source), read in each instance's
   * scope: an object, a list of them with `count`, a map with `for_each`.
   */
  private moduleValue(name: string): TfValue {
    const declared = this.scope.modules.get(name);
    if (!declared) {
      this.unresolved = true;
      return unknown(
        this.module
          ? `\`module.${name}\` is not declared in the .tf files of this folder`
          : `\`module.${name}\` is not declared in this file (another file of the folder may declare it)`,
      );
    }
    const trees = moduleReading.trees;
    if (!trees) {
      // Read alone: the module step reads the folder with the modules it calls.
      this.unresolved = true;
      return unknown(`\`module.${name}\` is a module output: read when the folder is read with the modules it calls`);
    }
    const caller =
      declared.uri === this.uri
        ? this.withInstance(undefined)
        : new Reader(declared.source, declared.uri, [], this.scope, this.module);
    const attrs = attributes(declared.block.body);
    const sourceNode = attrs.get('source')?.namedChildren[1];
    const written = sourceNode ? caller.eval(sourceNode) : UNKNOWN;
    const source = written.ok && typeof written.value === 'string' ? written.value : undefined;
    const folder = localModuleFolder(declared.uri, source);
    if (!folder)
      return unknown(
        source === undefined
          ? `the \`source\` of module "${name}" is unknown`
          : `module "${name}" comes from \`${source}\`: its code (and its outputs) is not in the repository`,
      );
    const countNode = attrs.get('count')?.namedChildren[1];
    const forEachNode = attrs.get('for_each')?.namedChildren[1];
    const instance = (reader: Reader, address: string) =>
      moduleOutputs(trees, reader, name, declared.block, folder, address);
    if (countNode) {
      const n = caller.evalValue(countNode);
      if (isUnknown(n)) return unknown(`how many instances of \`module.${name}\` there are is unknown: ${n.reason}`);
      if (typeof n !== 'number' || !Number.isInteger(n) || n < 0)
        return failure(`\`count\` of \`module.${name}\` is not a whole number`);
      if (n > MAX_LOOP_INSTANCES)
        return unknown(`\`module.${name}\` has ${n} instances; anf-lint reads at most ${MAX_LOOP_INSTANCES}`);
      return Array.from({ length: n }, (_, i) => instance(caller.withInstance(undefined, i), `module.${name}[${i}]`));
    }
    if (forEachNode) {
      const each = eachOf(caller.eval(forEachNode));
      if (!each)
        return unknown(`the instances of \`module.${name}\` are unknown: its \`for_each\` could not be evaluated`);
      if (each.length > MAX_LOOP_INSTANCES)
        return unknown(`\`module.${name}\` has ${each.length} instances; anf-lint reads at most ${MAX_LOOP_INSTANCES}`);
      const out: TfObject = {};
      for (const [key, value] of each)
        out[key] = instance(caller.withInstance({ key, value, source: forEachNode }), `module.${name}["${key}"]`);
      return out;
    }
    return instance(caller, `module.${name}`);
  }

  private declaredValue(kind: 'var' | 'local', name: string): TfValue {
    const declared = this.lookup(kind, name);
    if (declared) {
      if (declared.value)
        return declared.value.ok
          ? fromLegacy(declared.value.value)
          : unknown(declared.value.reason ?? `\`var.${name}\` is unknown in the module's caller`);
      return declared.node
        ? evaluate(declared.node, this.evalScope, budget)
        : unknown(`\`${kind}.${name}\` has no value`);
    }
    if (kind === 'local')
      return unknown(
        this.module
          ? `\`local.${name}\` is not declared in the .tf files of this folder`
          : `\`local.${name}\` is not declared in this file (another file of the folder may declare it)`,
      );
    if (this.scope.unset.has(name)) {
      return unknown(
        this.module
          ? `\`var.${name}\` has no value in this folder: it has no default; set it in terraform.tfvars or a *.auto.tfvars file`
          : `\`var.${name}\` has no default in this file (a .tfvars file of the folder may set it)`,
      );
    }
    return unknown(
      this.module
        ? `\`var.${name}\` is not declared: no \`variable "${name}"\` block in the .tf files of this folder`
        : `\`var.${name}\` is not declared in this file (another file of the folder may declare it)`,
    );
  }

  /**
   * A resource as an object of its arguments (`azurerm_netapp_pool.p.name`), read when asked; with
   * `count` a list and with `for_each` a map of its instances, each read with its `count.index` or
   * `each` bound. An attribute that is not written (`id`) is known only after apply.
   */
  private resourceValue(symbol: string): TfValue {
    const declared = this.scope.resources.get(symbol);
    if (!declared) {
      this.unresolved = true;
      return unknown(
        this.module
          ? `\`${symbol}\` is not declared in the .tf files of this folder`
          : `\`${symbol}\` is not declared in this file (another file of the folder may declare it)`,
      );
    }
    const attrs = attributes(declared.block.body);
    const instance = (reader: Reader, address: string): TfValue =>
      lazyObject(attrs, (node) => reader.evalValue(node), address);
    const countNode = attrs.get('count')?.namedChildren[1];
    const forEachNode = attrs.get('for_each')?.namedChildren[1];
    if (countNode) {
      const n = this.evalValue(countNode);
      if (isUnknown(n)) return unknown(`how many \`${symbol}\` there are is unknown: ${n.reason}`);
      if (typeof n !== 'number' || n < 0) return failure(`\`count\` of \`${symbol}\` is not a number`);
      if (n > MAX_LOOP_INSTANCES)
        return unknown(`\`${symbol}\` has ${n} instances; anf-lint reads at most ${MAX_LOOP_INSTANCES}`);
      return Array.from({ length: n }, (_, i) => instance(this.withInstance(undefined, i), `${symbol}[${i}]`));
    }
    if (forEachNode) {
      const each = eachOf(toLegacy(this.evalValue(forEachNode)));
      if (!each) return unknown(`the instances of \`${symbol}\` are unknown: its \`for_each\` could not be evaluated`);
      if (each.length > MAX_LOOP_INSTANCES)
        return unknown(`\`${symbol}\` has ${each.length} instances; anf-lint reads at most ${MAX_LOOP_INSTANCES}`);
      const out: TfObject = {};
      for (const [key, value] of each) out[key] = instance(this.withInstance({ key, value }), `${symbol}["${key}"]`);
      return out;
    }
    return instance(this, symbol);
  }
}

/** `a.b.c` as ['a', 'b', 'c'] when the expression is only a variable and attribute accesses. */
function attrChain(expr: Node): string[] | undefined {
  const named = expr.type === 'expression' ? expr.namedChildren : [];
  if (named[0]?.type !== 'variable_expr') return undefined;
  const chain = [named[0].text];
  for (const n of named.slice(1)) {
    if (n.type !== 'get_attr') return undefined;
    const id = n.namedChildren[0];
    if (!id) return undefined;
    chain.push(id.text);
  }
  return chain;
}

/**
 * The root and first name of a reference, whatever follows them (`var.sizes["data"]` ->
 * ['var', 'sizes']; `each.value.quota` -> ['each', 'value', 'quota']: the attribute names up to
 * the first index).
 */
function refHead(expr: Node): string[] | undefined {
  const named = expr.type === 'expression' ? expr.namedChildren : [];
  if (named[0]?.type !== 'variable_expr') return undefined;
  const chain = [named[0].text];
  for (const n of named.slice(1)) {
    if (n.type !== 'get_attr') break;
    const id = n.namedChildren[0];
    if (!id) break;
    chain.push(id.text);
  }
  return chain;
}

/** The expression's single inner node (through `expression` / `collection_value` wrappers). */
function unwrap(n: Node): Node | undefined {
  let cur: Node | undefined = n;
  while (
    cur &&
    (cur.type === 'expression' || cur.type === 'collection_value' || cur.type === 'literal_value') &&
    cur.namedChildren.length === 1
  )
    cur = cur.namedChildren[0];
  if (cur?.type === 'expression' && cur.namedChildren[0]?.type === 'variable_expr') return cur.namedChildren[0];
  return cur;
}

/** Where a fix may write: a number's text, or a plain string's text inside its quotes. */
function literalOf(expr: Node): Span | undefined {
  const inner = unwrap(expr);
  if (!inner) return undefined;
  if (inner.type === 'numeric_lit' || inner.type === 'bool_lit') return spanOf(inner);
  if (inner.type === 'string_lit') {
    const parts = inner.namedChildren.filter(
      (c) => c.type !== 'quoted_template_start' && c.type !== 'quoted_template_end',
    );
    if (parts.length === 0) return { start: inner.startIndex + 1, end: inner.startIndex + 1 };
    if (parts.length === 1 && parts[0]!.type === 'template_literal') return spanOf(parts[0]!);
  }
  return undefined;
}

/**
 * Expressions whose field `fieldByText` can make from their text: a reference chain
 * (`var.location`, `azurerm_netapp_pool.p.name`, `each.value.quota`) or a plain literal (a number,
 * `true`, `false`, a string without escapes or templates). Nothing else may be written around them,
 * not even a space, so the text alone says what the tree holds; a string does not start or end
 * with a space inside its quotes either (the tree's literal text leaves those spaces out).
 */
const SAID_BY_TEXT =
  /^(?:[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)+|"(?:[^"\\$%\s](?:[^"\\$%\n]*[^"\\$%\s])?)?"|\d+(?:\.\d+)?|true|false)$/;
let fieldsByTextOn = true;

/** Whether `makeField` reuses what was said of an expression's text (false: every field from its tree); tests switch it. */
export function fieldsByText(on?: boolean): boolean {
  if (on !== undefined) fieldsByTextOn = on;
  return fieldsByTextOn;
}

const VARIABLE_OR_LOCAL = /^(?:var|local)\.[A-Za-z_][\w-]*$/;

/** What `fieldByText` keeps of one expression text (`Reader.saidByText`). */
interface SaidByText {
  readonly value: Value;
  readonly steps: number;
  readonly evalUnresolves: boolean;
  readonly symbol: string | undefined;
  readonly symbolUnresolves: boolean;
  readonly origin: string | undefined;
  readonly vars: string[] | undefined;
}

/** `literalOf` for a `SAID_BY_TEXT` expression at `start`: a number's or a boolean's text, a string's text inside its quotes. */
function literalByText(start: number, raw: string): Span | undefined {
  if (raw.startsWith('"')) return { start: start + 1, end: start + raw.length - 1 };
  if (raw === 'true' || raw === 'false' || /^\d/.test(raw)) return { start, end: start + raw.length };
  return undefined;
}

/** How many origins a hover lists for one expression. */
const MAX_ORIGINS = 4; // not a fact: hover length

/** A pool declared in another file, as the volume that names it sees it: placed on `pool_name`, never edited. */
function borrowPool(pool: IacPool, at: Span, where: string): IacPool {
  const moved = <T>(v: IacValue<T> | undefined): IacValue<T> | undefined => {
    if (!v) return undefined;
    const { editSpan: _editSpan, ...rest } = v;
    return { ...rest, span: at, keySpan: at, origin: `from \`${pool.symbol}\` in ${where}` };
  };
  const { size: _size, customThroughputMiBps: _throughput, ...settings } = pool;
  return {
    ...settings,
    span: at,
    headSpan: at,
    declaredIn: where,
    ...opt('name', moved(pool.name)),
    ...opt('serviceLevel', moved(pool.serviceLevel)),
    ...opt('qos', moved(pool.qos)),
    ...opt('coolAccess', moved(pool.coolAccess)),
    ...opt('apiVersion', moved(pool.apiVersion)),
  };
}

/**
 * A volume group's `capacity_pool_id`: a reference (`azurerm_netapp_pool.p.id`, kept with where it
 * is written for a pool of another file of the module), one instance of a pool with `count` or
 * `for_each` named by a literal index (`azurerm_netapp_pool.p[0].id`, `...p["premium"].id`), or a
 * resource ID written out.
 */
function poolRef(f: Field | undefined): IacRef | undefined {
  if (f?.symbol) return ref(f);
  const indexed = f ? INDEXED_POOL_ID.exec(f.raw) : null;
  if (indexed) {
    const symbol = `azurerm_netapp_pool.${indexed[1]}`;
    return { symbol, address: `${symbol}[${indexed[2]}]` };
  }
  return poolFromId(f);
}
/** `azurerm_netapp_pool.<name>[<number or "key">].id`, as written. */
const INDEXED_POOL_ID = /^\s*azurerm_netapp_pool\.([A-Za-z_][\w-]*)\[\s*(\d+|"[^"\\]*")\s*\]\.id\s*$/;

/** `allowed_clients` is a list in azurerm (a comma-separated string in ARM). */
function joined(f: Field | undefined): IacValue<string> | undefined {
  const list = strList(f);
  if (!list) return undefined;
  const { value, ...rest } = list;
  return value ? { ...rest, value: value.join(',') } : rest;
}

/**
 * The variables a `.tfvars` file sets that `declared` does not name, with where each name is
 * written: its top-level attributes (`.tfvars.json`: its top-level properties). For ANF423 (a
 * value for an undeclared variable).
 */
export function undeclaredTfvarsKeys(
  source: SourceText,
  uri: string,
  declared: ReadonlySet<string>,
): { name: string; span: Span }[] {
  // Every name written as an attribute is declared (the usual file): no top-level key can be
  // undeclared, and the file need not be parsed (it is not parsed alone: checkTfvars). A block
  // comment can stand before a key on its line, where the line test does not look: parsed then.
  if (
    !isJsonTfvars(uri) &&
    !source.text.includes('/*') &&
    [...source.text.matchAll(ATTRIBUTE_LINE)].every((m) => declared.has(m[1]!))
  )
    return [];
  return tfvarsKeys(source, uri).filter((key) => !declared.has(key.name));
}

/**
 * An identifier (HCL's: Unicode letters, `_`, `-`) at a line's start followed by `=`: every
 * top-level attribute of a `.tfvars` file is one (nested keys may be too).
 */
const ATTRIBUTE_LINE = /^[ \t\uFEFF]*([\p{ID_Start}_][\p{ID_Continue}-]*)[ \t]*=(?!=)/gmu;

function tfvarsKeys(source: SourceText, uri: string): { name: string; span: Span }[] {
  if (isJsonTfvars(uri))
    return jsonVariables(source).map(({ name, at }) => {
      const quoted = source.text.indexOf('"', at);
      const start = quoted >= 0 ? quoted : at;
      return { name, span: { start, end: start + JSON.stringify(name).length } };
    });
  const tree = borrowTree('terraform', source, source.text);
  if (!tree) return [];
  try {
    const out: { name: string; span: Span }[] = [];
    for (const [name, attr] of attributes(
      memo(
        tree.rootNode.namedChildren.find((n) => n.type === 'body'),
        source.text,
      ),
    )) {
      const key = attr.namedChildren[0]!;
      out.push({ name, span: spanOf(key) });
    }
    return out;
  } finally {
    attributeCache = new Map();
    returnTree(tree);
  }
}

/** The names of the `variable "x"` blocks of a `.tf` file, read from its text (a block's header is on one line). */
export function declaredVariableNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const m of text.matchAll(/^[ \t]*variable[ \t]+"([^"\n]+)"[ \t]*\{/gm)) names.add(m[1]!);
  for (const m of text.matchAll(/^[ \t]*variable[ \t]+([A-Za-z_][\w-]*)[ \t]*\{/gm)) names.add(m[1]!);
  return names;
}

/** Whether Terraform loads a `.tfvars` file by itself (`terraform.tfvars`, `*.auto.tfvars`, their `.json` forms). */
export function isLoadedTfvars(uri: string): boolean {
  return tfvarsOrder(uri) !== undefined;
}
