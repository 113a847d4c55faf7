import { armSubnet, armVnetSubnets, type IacSubnet } from './subnets';
import { VOLUME_RESOURCE } from '../facts';
import type { SourceText, Span } from '../text/sourceText';
import type { ParseProblem } from '../diagnostics';
import {
  annotationFor,
  requirementsFor,
  noParser,
  MAX_DEPTH,
  MAX_LOOP_INSTANCES,
  spanOf,
  syntaxProblems,
  unaryValue,
  UNKNOWN,
  type Value,
} from './common';
import type { IacAccount, IacEstate, IacModuleCall, IacPool, IacRef, IacSlip, IacValue, IacVolume } from './estate';
import { placeInstance, relativeUri } from './instance';
import {
  armGroupVolumes,
  armPool,
  armVolume,
  common,
  decimalSlip,
  deployedOnlyIf,
  elementsAt,
  lastSegment,
  objectAt,
  poolFromId,
  segment,
  str,
  type Element,
  type Field,
  type Meta,
  type Obj,
} from './fields';
import { readKnownModule } from './knownModules';
import { borrowTree, parseKeptTree, parseTree, returnTree } from './treeSitter';
import { BoundedMemo } from './boundedMemo';
import { lazyTree, type LazyNode as Node } from './lazyTree';
import { callFunction, deepEqual, memberOf, NOT_A_FUNCTION } from './templateFunctions';
import { Budget, firstUnknown, isUnknown, Unknown } from './values';
import { EVALUATION_STOPPED_CODE } from './arm';
import type { ParameterFile, ParameterValue } from './parameters';

/**
 * Bicep: `resource x 'Microsoft.NetApp/...@<api>' = {...}`, nested child resources and `parent:`,
 * with `param` defaults and `var`s, parsed with tree-sitter's Bicep grammar. Loops mark a resource
 * as repeated; anything anf-lint cannot evaluate (functions, outputs of modules) stays unknown.
 */

interface Decl {
  readonly node: Node;
  readonly symbol: string;
  readonly type: string;
  readonly api?: IacValue<string>;
  readonly body?: Node;
  readonly repeated: boolean;
  readonly parent?: Decl;
  /** `[for ... in ...: ...]`: the loop (resource loops: one instance per element where decidable). */
  readonly loop?: Node;
  /** `if (cond)` on the resource, or a loop's filter: the parenthesized condition. */
  readonly condition?: Node;
  /** `existing`: named here, deployed elsewhere. */
  readonly existing: boolean;
}

/** `key` (the document's URI): keep the tree and parse the next version incrementally (as readTerraform). */
export function readBicep(source: SourceText, problems: ParseProblem[], key?: string): IacEstate | undefined {
  const text = source.text;
  // A file that can give no account, pool, volume, module call or subnet delegated to Azure NetApp
  // Files (most files of a repository) is not parsed: anf-lint reads nothing in it, so its syntax
  // is Bicep's to check (issue 29). A module call reads its callee only when the callee may make
  // resources, too. `mayGiveDelegatedSubnet` says why a virtual network without the word is skipped.
  if (!mayMakeResources(text) && !mayGiveDelegatedSubnet(text))
    return { language: 'bicep', accounts: [], pools: [], volumes: [], slips: [] };
  // The parser's WebAssembly stack is small: brackets nested thousands deep overflow it ("memory
  // access out of bounds", issue 32). No real template nests past a few dozen.
  const deepAt = nestedPast(text, MAX_BICEP_NESTING);
  if (deepAt !== undefined) {
    problems.push({
      code: EVALUATION_STOPPED_CODE,
      severity: 'info',
      span: { start: deepAt, end: deepAt + 1 },
      message: `anf-lint did not read this file: its brackets nest more than ${MAX_BICEP_NESTING} deep here. This is a bound on anf-lint's work, not a problem of the file.`,
    });
    return undefined;
  }
  const tree = key === undefined ? borrowTree('bicep', source, text) : parseKeptTree('bicep', key, text);
  if (!tree) return noParser(problems, 'Bicep');
  for (const p of syntaxProblems(tree.rootNode, 'Bicep', { grammar: 'bicep', text })) problems.push(p);
  try {
    const reader = new BicepReader(source, lazyTree(tree, text), new Map(), new Budget(), problems);
    reader.localArgsUnread = true;
    const estate = reader.estate();
    const calls = reader.calls().map((c) => c.call);
    return calls.length > 0 ? { ...estate, calls } : estate;
  } finally {
    if (key === undefined) returnTree(tree); // the tree lives in WebAssembly memory until deleted; a kept one is deleted when replaced
  }
}

/** Brackets nested deeper than this are not parsed (see readBicep). */
const MAX_BICEP_NESTING = 256; // not a fact: a bound on the parser's stack

/** Where `(`, `[` or `{` first nests past `limit` outside strings and comments, if anywhere. */
function nestedPast(text: string, limit: number): number | undefined {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i); // codes, not one-character strings: this reads every character of the file
    if (c === QUOTE) {
      // A string (also '''multi-line'''): skip to its end; \' escapes a quote.
      const triple = text.startsWith("'''", i);
      const end = triple ? text.indexOf("'''", i + 3) : indexOfUnescapedQuote(text, i + 1);
      if (end < 0) return undefined;
      i = triple ? end + 2 : end;
    } else if (c === SLASH && text.charCodeAt(i + 1) === SLASH) {
      const end = text.indexOf('\n', i);
      if (end < 0) return undefined;
      i = end;
    } else if (c === SLASH && text.charCodeAt(i + 1) === STAR) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      i = end + 1;
    } else if (c === OPEN_PAREN || c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > limit) return i;
    } else if (c === CLOSE_PAREN || c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      depth = Math.max(0, depth - 1);
    }
  }
  return undefined;
}

const [QUOTE, SLASH, STAR, BACKSLASH, NEWLINE] = ["'", '/', '*', '\\', '\n'].map((c) => c.charCodeAt(0));
const [OPEN_PAREN, OPEN_BRACKET, OPEN_BRACE] = ['(', '[', '{'].map((c) => c.charCodeAt(0));
const [CLOSE_PAREN, CLOSE_BRACKET, CLOSE_BRACE] = [')', ']', '}'].map((c) => c.charCodeAt(0));

function indexOfUnescapedQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i;
    else if (c === NEWLINE) return i; // a line break ends a single-quoted string
  }
  return -1;
}

/** Where one instance of a declaration stands: its symbol with the loop's suffix, spans, name. */
function declaredAt(
  d: Decl,
  instance: { suffix: string; repeated: boolean },
  name: IacValue<string> | undefined,
): Meta {
  const symbol = `${d.symbol}${instance.suffix}`;
  return {
    symbol,
    address: symbol,
    span: spanOf(d.node),
    headSpan: { start: d.node.startIndex, end: (d.body ?? d.node).startIndex },
    repeated: instance.repeated,
    ...(name ? { name } : {}),
  };
}

class BicepReader {
  private readonly params = new Map<string, Node>();
  private readonly vars = new Map<string, Node>();
  private readonly decls: Decl[] = [];
  private readonly bySymbol = new Map<string, Decl>();
  private readonly modules: Node[] = [];
  readonly slips: IacSlip[] = [];

  /** Every `param` declared (with a default or not), for undeclared names in parameter files. */
  readonly declared = new Set<string>();
  /** Why a param without a default and without a value passed has none. */
  private readonly missingHint: string;

  /**
   * `overrides`: a module's params as its caller sets them (`params: { ... }`), evaluated in the
   * caller, or the root's params as its parameters file sets them.
   */
  constructor(
    readonly source: SourceText,
    root: Node,
    private readonly overrides: ReadonlyMap<string, Value> = new Map(),
    readonly budget: Budget = new Budget(),
    readonly problems: ParseProblem[] = [],
    missingHint?: string,
    /** Values for params with no default and none passed: an example parameters file's (read only when nothing else gives one). */
    private readonly fallbacks: ReadonlyMap<string, Value> = new Map(),
  ) {
    this.missingHint = missingHint ?? 'no default and no parameters file names it';
    for (const n of root.namedChildren) {
      if (n.type === 'module_declaration') this.modules.push(n);
      else if (n.type === 'parameter_declaration') {
        const id = n.namedChildren[0];
        const def = n.namedChildren
          .slice(1)
          .find((c) => c.type !== 'type' && c.type !== 'decorators' && c.type !== 'comment');
        if (id) this.declared.add(id.text);
        if (id && def) this.params.set(id.text, def);
      } else if (n.type === 'variable_declaration') {
        // `var name string = ...` (typed variables): the value is the last expression.
        const id = n.namedChildren[0];
        const value = n.namedChildren
          .slice(1)
          .filter((c) => c.type !== 'type' && c.type !== 'decorators' && c.type !== 'comment')
          .pop();
        if (id && value) this.vars.set(id.text, value);
      } else if (n.type === 'resource_declaration') this.collect(n, undefined);
    }
  }

  /**
   * The `module` declarations: `module x './anf.bicep' = { params: {...} }` (also in a loop or behind `if`).
   * A local module in a `[for ...]` loop over an array anf-lint can evaluate gives one call per
   * element (`key` unset, `index` its position), the loop's item (and index) bound in its `params`.
   */
  calls(): { call: IacModuleCall; args: Map<string, Field> }[] {
    if (this.readCalls) return this.readCalls;
    if (this.localArgsUnread) {
      // The reading of a file alone uses the params a module declaration passes only for a
      // registry module it knows (readKnownModule): when every call is local, they are not
      // evaluated (issue 29). Otherwise all are, from the same point of the budget, as before.
      const mark = this.budget.mark();
      const calls = this.readCallsOnce(true);
      if (calls.every((c) => c.call.local)) return (this.readCalls = calls);
      this.budget.rewind(mark);
    }
    return (this.readCalls = this.readCallsOnce(false));
  }

  /**
   * Set by `readBicep` (a file read alone): the `args` of a call of a local module are left empty
   * (`calls`), and the budget is not read after `calls`.
   */
  localArgsUnread = false;

  private readCallsOnce(skipLocalArgs: boolean): { call: IacModuleCall; args: Map<string, Field> }[] {
    const argsOf = (call: IacModuleCall, body: Node | undefined): Map<string, Field> =>
      skipLocalArgs && call.local ? new Map() : this.args(body);
    return this.modules.flatMap((n) => {
      const id = n.namedChildren[0];
      const path = n.namedChildren.find((c) => c.type === 'string');
      if (!id || !path) return [];
      const written = this.string(path, 0);
      const source = written.ok && typeof written.value === 'string' ? written.value : undefined;
      const loopNode = n.namedChildren.find((c) => c.type === 'for_statement');
      let body = n.namedChildren.find(
        (c) => c.type === 'object' || c.type === 'for_statement' || c.type === 'if_statement',
      );
      const repeated = body?.type === 'for_statement';
      if (body && body.type !== 'object')
        body = body.namedChildren.find((c) => c.type === 'object') ?? lastObject(body);
      const call: IacModuleCall = {
        name: id.text,
        ...(source !== undefined ? { source } : {}),
        local: source !== undefined && isLocalBicepModule(source),
        span: spanOf(n),
        headSpan: { start: n.startIndex, end: body ? body.startIndex : n.endIndex },
        sourceSpan: spanOf(path),
        repeated,
      };
      const each = loopNode && call.local ? this.instances(loopNode, call, body, argsOf) : undefined;
      return each ?? [{ call, args: argsOf(call, body) }];
    });
  }

  private readCalls: { call: IacModuleCall; args: Map<string, Field> }[] | undefined;

  /** A declaration's `params: {...}`, read with the loop bindings in force. */
  private args(body: Node | undefined): Map<string, Field> {
    const args = new Map<string, Field>();
    const params = body?.namedChildren.find(
      (p) => p.type === 'object_property' && p.namedChildren[0]?.text === 'params',
    )?.namedChildren[1];
    const paramsObject = params ? this.deref(params, 0) : undefined;
    for (const p of paramsObject?.type === 'object' ? paramsObject.namedChildren : []) {
      if (p.type !== 'object_property') continue;
      const [key, value] = p.namedChildren;
      if (!key || !value) continue;
      args.set(key.type === 'string' ? key.text.slice(1, -1) : key.text, this.field(value, spanOf(key)));
    }
    return args;
  }

  /**
   * `[for v in volumes: {...}]`, `[for (v, i) in volumes: ...]`, `[for i in range(0, 3): ...]`: one
   * call per element when the array is a literal (inline, or a var or param default that is one) or
   * a `range` of literals, and a filter `if` evaluates for every element. Undefined otherwise: the
   * declaration is read once, as repeated, the item's values unknown.
   */
  private instances(
    loop: Node,
    call: IacModuleCall,
    body: Node | undefined,
    argsOf: (call: IacModuleCall, body: Node | undefined) => Map<string, Field>,
  ): { call: IacModuleCall; args: Map<string, Field> }[] | undefined {
    const [head, arrayNode, filterOrBody] = loop.namedChildren.filter((c) => c.type !== 'comment');
    if (!head || !arrayNode) return undefined;
    const item =
      head.type === 'identifier'
        ? head.text
        : head.type === 'for_loop_parameters'
          ? head.namedChildren.find((c) => c.type === 'loop_variable')?.text
          : undefined;
    const index =
      head.type === 'for_loop_parameters'
        ? head.namedChildren.find((c) => c.type === 'loop_enumerator')?.text
        : undefined;
    if (!item) return undefined;
    // `scope: resourceGroup(v.rg)`: each element deploys into its own resource group, where the same
    // names are different resources; anf-lint's estate has no resource groups, so the loop is read once.
    const scope = body?.namedChildren.find((p) => p.type === 'object_property' && p.namedChildren[0]?.text === 'scope')
      ?.namedChildren[1];
    if (scope && usesName(scope, [item, ...(index ? [index] : [])], 0)) return undefined;
    const elements = this.loopElements(arrayNode);
    if (!elements || elements.length > MAX_LOOP_INSTANCES) return undefined;
    const condition =
      filterOrBody?.type === 'if_statement'
        ? filterOrBody.namedChildren.find((c) => c.type === 'parenthesized_expression')
        : undefined;
    if (filterOrBody?.type === 'if_statement' && !condition) return undefined;
    const arrayName = arrayNode.type === 'identifier' ? arrayNode.text : undefined;
    const out: { call: IacModuleCall; args: Map<string, Field> }[] = [];
    try {
      for (const [i, element] of elements.entries()) {
        const where = `${arrayName ? `\`${arrayName}[${i}]\`` : `element ${i} of the loop's array`}, instance \`${call.name}[${i}]\``;
        this.locals.set(item, { ...element, where });
        if (index) this.locals.set(index, { value: { ok: true, value: i }, where: `${i}` });
        if (condition) {
          const keep = this.eval(condition, 0);
          if (!keep.ok || typeof keep.value !== 'boolean') return undefined;
          if (!keep.value) continue;
        }
        const instance = { ...call, index: i, repeated: false };
        out.push({ call: instance, args: argsOf(instance, body) });
      }
    } finally {
      this.locals.clear();
    }
    return out;
  }

  /** The elements a loop goes over, when written as literals here: array items (nodes) or `range` numbers. */
  private loopElements(n: Node): { node?: Node; value: Value }[] | undefined {
    const target = this.deref(n, 0);
    if (target.type === 'array')
      return target.namedChildren.filter((c) => c.type !== 'comment').map((c) => ({ node: c, value: this.eval(c, 0) }));
    if (target.type === 'call_expression' && target.childForFieldName('function')?.text === 'range') {
      const args = target.childForFieldName('arguments')?.namedChildren ?? [];
      if (args.length !== 2) return undefined;
      const [start, count] = args.map((a) => this.eval(a, 0));
      if (!start?.ok || !count?.ok || !Number.isInteger(start.value) || !Number.isInteger(count.value))
        return undefined;
      const from = start.value as number;
      const length = count.value as number;
      if (length < 0 || length > MAX_LOOP_INSTANCES) return undefined;
      return Array.from({ length }, (_, k) => ({ value: { ok: true, value: from + k } }));
    }
    // An array anf-lint evaluates otherwise (a parameters file's value, `items(obj)`, `filter(...)`).
    const v = this.eval(n, 0);
    if (v.ok && Array.isArray(v.value)) return (v.value as unknown[]).map((value) => ({ value: { ok: true, value } }));
    return undefined;
  }

  /** Inside `calls()`: the loop's item and index for the instance being read. */
  private readonly locals = new Locals();

  /** The params an expression uses, directly or through `var`s (a module's caller may set them). */
  private paramsOf(n: Node): string[] | undefined {
    // A param without a default is not in `params`; the caller may still set it (`overrides`).
    if (this.params.size === 0 && this.overrides.size === 0 && this.locals.size === 0) return undefined;
    const found = new Set<string>();
    const seen = new Set<string>();
    const visit = (x: Node, depth: number): void => {
      if (depth > MAX_DEPTH) return;
      if (x.type === 'identifier') {
        const local = this.locals.get(x.text);
        if (local) {
          if (local.node) visit(local.node, depth + 1);
          return;
        }
        if (this.params.has(x.text) || this.overrides.has(x.text)) found.add(x.text);
        else if (this.vars.has(x.text) && !seen.has(x.text)) {
          seen.add(x.text);
          visit(this.vars.get(x.text)!, depth + 1);
        }
        return;
      }
      // `pool.name`: a member of a resource, not a param.
      if (x.type === 'member_expression') {
        const object = x.childForFieldName('object');
        if (object) visit(object, depth + 1);
        return;
      }
      for (const c of x.namedChildren) visit(c, depth + 1);
    };
    visit(n, 0);
    return found.size > 0 ? [...found] : undefined;
  }

  private collect(n: Node, parent: Decl | undefined): void {
    const id = n.namedChildren[0];
    const typeNode = n.namedChildren.find((c) => c.type === 'string');
    if (!id || !typeNode) return;
    const typeText = this.string(typeNode, 0);
    const [relative, api] =
      typeText.ok && typeof typeText.value === 'string' ? typeText.value.split('@') : ['', undefined];
    const type =
      parent && relative && !/^microsoft\./i.test(relative) ? `${parent.type}/${relative}` : (relative ?? '');
    const written = n.namedChildren.find(
      (c) => c.type === 'object' || c.type === 'for_statement' || c.type === 'if_statement',
    );
    const loop = written?.type === 'for_statement' ? written : undefined;
    // `[for x in xs: if (c) {...}]`: the filter; `= if (c) {...}`: the condition.
    const guard =
      written?.type === 'if_statement' ? written : loop?.namedChildren.find((c) => c.type === 'if_statement');
    const condition = guard?.namedChildren.find((c) => c.type === 'parenthesized_expression');
    let body = written;
    if (body && body.type !== 'object')
      body = (guard ?? body).namedChildren.find((c) => c.type === 'object') ?? lastObject(guard ?? body);
    const existing = /^\s*existing\b/.test(this.source.text.slice(typeNode.endIndex, (written ?? n).startIndex));
    const decl: Decl = {
      node: n,
      symbol: id.text,
      type,
      ...(api ? { api: { value: api, span: spanOf(typeNode), keySpan: spanOf(typeNode), raw: typeNode.text } } : {}),
      ...(body ? { body } : {}),
      repeated: loop !== undefined,
      ...(parent ? { parent } : {}),
      ...(loop ? { loop } : {}),
      ...(condition ? { condition } : {}),
      existing,
    };
    this.decls.push(decl);
    this.bySymbol.set(decl.symbol, decl);
    // A nested resource is a declaration, written with the keyword: a body without the word has
    // none, and its properties are not copied out of the syntax tree here (issue 32).
    if (!body || !/\bresource\b/.test(this.source.text.slice(body.startIndex, body.endIndex))) return;
    for (const prop of body.namedChildren) {
      const child =
        prop.type === 'object_property'
          ? prop.namedChildren.find((c) => c.type === 'resource_declaration')
          : prop.type === 'resource_declaration'
            ? prop
            : undefined;
      if (child) this.collect(child, decl);
    }
  }

  estate(): IacEstate {
    const accounts: IacAccount[] = [];
    const pools: IacPool[] = [];
    const volumes: IacVolume[] = [];
    const subnets: IacSubnet[] = [];
    /** The instance suffix (`[2]`) each looped declaration is at while its children are read. */
    const current = new Map<Decl, string>();
    // Each declaration's nested child resources, in declaration order (one pass: a scan of every
    // declaration per instance read was quadratic in a file of many resources, issue 32).
    const children = new Map<Decl, Decl[]>();
    for (const d of this.decls) {
      if (!d.parent) continue;
      const list = children.get(d.parent);
      if (list) list.push(d);
      else children.set(d.parent, [d]);
    }
    // A child of a resource deployed only if an unknown condition holds is deployed only then too.
    const read = (d: Decl, parentIf?: string): void => {
      for (const own of this.instancesOf(d)) {
        const deployedIf = own.deployedIf ?? parentIf;
        const instance = { ...own, ...(deployedIf ? { deployedIf } : {}) };
        current.set(d, instance.suffix);
        // `existing`: a parent named here and deployed elsewhere: nothing of its own to read.
        if (!d.existing) this.readInstance(d, instance, current, { accounts, pools, volumes, subnets });
        for (const child of children.get(d) ?? []) read(child, deployedIf);
        current.delete(d);
      }
    };
    for (const d of this.decls) if (!d.parent) read(d);
    if (this.budget.stopped && !this.problems.some((p) => p.code === EVALUATION_STOPPED_CODE)) {
      this.problems.push({
        code: EVALUATION_STOPPED_CODE,
        severity: 'info',
        span: { start: 0, end: 0 },
        message: `anf-lint stopped reading this file after ${this.budget.stopped}: resources and module instances past that point are not read, and values it had not evaluated are unknown. This is a bound on anf-lint's work, not a problem of the file.`,
      });
    }
    // Calls of registry modules anf-lint knows (the Azure Verified Module for ANF): what they deploy.
    for (const { call, args } of this.calls()) {
      const made = readKnownModule({
        language: 'bicep',
        call,
        args,
        annotationOf: (span) => annotationFor(this.source, span),
        requiredOf: (span) => requirementsFor(this.source, span),
      });
      if (!made) continue;
      accounts.push(...made.accounts);
      pools.push(...made.pools);
      volumes.push(...made.volumes);
      this.slips.push(...made.slips);
    }
    return {
      language: 'bicep',
      accounts,
      pools,
      volumes,
      slips: this.slips,
      ...(subnets.length > 0 ? { subnets } : {}),
    };
  }

  /**
   * The instances of a declaration: one, or one per element of a `[for ...]` loop over elements
   * anf-lint can evaluate (the item and index bound while the instance is read); a loop it cannot
   * evaluate is read once, as repeated. A false `if` (or filter) deploys nothing; an unknown one
   * is read as deployed.
   */
  private *instancesOf(d: Decl): Generator<{ suffix: string; repeated: boolean; deployedIf?: string }> {
    let deployedIf: string | undefined;
    const deployed = (): boolean => {
      deployedIf = undefined;
      if (!d.condition) return true;
      const c = this.eval(d.condition, 0);
      // Unknown: read as deployed (a miss is worse), and said so.
      if (!c.ok) deployedIf = deployedOnlyIf(d.condition.text.replace(/^\(|\)$/g, '').trim(), c.reason);
      return !(c.ok && c.value === false);
    };
    if (!d.loop) {
      if (!deployed() || !this.budget.instance()) return;
      yield {
        suffix: '',
        repeated: d.parent !== undefined && (this.repeatedParent.get(d.parent) ?? false),
        ...(deployedIf ? { deployedIf } : {}),
      };
      return;
    }
    const [head, arrayNode] = d.loop.namedChildren.filter((c) => c.type !== 'comment');
    const item =
      head?.type === 'identifier'
        ? head.text
        : head?.type === 'for_loop_parameters'
          ? head.namedChildren.find((c) => c.type === 'loop_variable')?.text
          : undefined;
    const index =
      head?.type === 'for_loop_parameters'
        ? head.namedChildren.find((c) => c.type === 'loop_enumerator')?.text
        : undefined;
    const elements = arrayNode ? this.loopElements(arrayNode) : undefined;
    const names = [item, index].filter((x): x is string => x !== undefined);
    const saved = names.map((n) => [n, this.locals.get(n)] as const);
    const restore = () => {
      for (const [n, v] of saved) {
        if (v) this.locals.set(n, v);
        else this.locals.delete(n);
      }
    };
    try {
      if (!elements || elements.length > MAX_LOOP_INSTANCES || !this.budget.instance(elements.length)) {
        // How many is unknown: read once, the item's values unknown.
        const why = because(
          elements
            ? `the loop has ${elements.length} elements, more than anf-lint reads one by one (${MAX_LOOP_INSTANCES})`
            : `the loop's array \`${arrayNode?.text.slice(0, 40) ?? ''}\` is not known here`,
        );
        if (item) this.locals.set(item, { value: why, where: 'unknown' });
        if (index) this.locals.set(index, { value: why, where: 'unknown' });
        this.repeatedParent.set(d, true);
        yield { suffix: '', repeated: true };
        return;
      }
      const arrayName = arrayNode?.type === 'identifier' ? arrayNode.text : undefined;
      for (const [i, element] of elements.entries()) {
        const where = `${arrayName ? `\`${arrayName}[${i}]\`` : `element ${i} of the loop's array`}, instance \`${d.symbol}[${i}]\``;
        if (item) this.locals.set(item, { ...element, where });
        if (index) this.locals.set(index, { value: { ok: true, value: i }, where: `${i}` });
        if (!deployed()) continue;
        this.repeatedParent.set(d, false);
        yield { suffix: `[${i}]`, repeated: false, ...(deployedIf ? { deployedIf } : {}) };
      }
    } finally {
      restore();
    }
  }

  private readonly repeatedParent = new Map<Decl, boolean>();

  /** The resource a `parent:` names: a declaration (its current instance), or an `existing` one by its name. */
  private parentRef(d: Decl, field: Field | undefined, current: ReadonlyMap<Decl, string>): IacRef | undefined {
    const byDecl = (p: Decl, suffix: string): IacRef => {
      if (p.existing && p.body) {
        const name = lastSegment(str(this.obj(p.body).field('name')));
        if (name) return { name };
      }
      return { symbol: `${p.symbol}${suffix}` };
    };
    if (d.parent) return byDecl(d.parent, current.get(d.parent) ?? '');
    const node = d.body?.namedChildren.find(
      (p) => p.type === 'object_property' && p.namedChildren[0]?.text === 'parent',
    )?.namedChildren[1];
    if (!node) return field?.symbol ? { symbol: field.symbol } : undefined;
    if (node.type === 'identifier' && this.bySymbol.has(node.text)) return byDecl(this.bySymbol.get(node.text)!, '');
    if (node.type === 'subscript_expression') {
      const object = node.childForFieldName('object');
      const index = node.childForFieldName('index');
      const target = object?.type === 'identifier' ? this.bySymbol.get(object.text) : undefined;
      const i = index ? this.eval(index, 0) : UNKNOWN;
      if (target && i.ok && typeof i.value === 'number') return byDecl(target, `[${i.value}]`);
    }
    return undefined;
  }

  private readInstance(
    d: Decl,
    instance: { suffix: string; repeated: boolean; deployedIf?: string },
    current: ReadonlyMap<Decl, string>,
    out: { accounts: IacAccount[]; pools: IacPool[]; volumes: IacVolume[]; subnets: IacSubnet[] },
  ): void {
    const lower = d.type.toLowerCase();
    if (lower === 'microsoft.network/virtualnetworks' || lower === 'microsoft.network/virtualnetworks/subnets')
      return this.readNetwork(d, lower, instance, current, out.subnets);
    if (!lower.startsWith('microsoft.netapp/')) return;
    const obj = d.body ? this.obj(d.body) : undefined;
    const parent = this.parentRef(d, obj?.field('parent'), current);
    const fullName = str(obj?.field('name'));
    const nested = !parent && fullName?.value?.includes('/');
    const annotation = annotationFor(this.source, spanOf(d.node));
    const required = requirementsFor(this.source, spanOf(d.node));
    const tags = obj?.field('tags');
    const meta: Meta = {
      ...declaredAt(d, instance, lastSegment(fullName)),
      ...(instance.deployedIf ? { deployedIf: instance.deployedIf } : {}),
      ...(d.api ? { apiVersion: d.api } : {}),
      ...(annotation ? { annotation } : {}),
      ...(required ? { required } : {}),
      ...(tags ? { tags } : {}),
    };
    const props = objectAt(obj, 'properties');
    if (lower === 'microsoft.netapp/netappaccounts') out.accounts.push({ kind: 'account', ...common(meta) });
    else if (lower === 'microsoft.netapp/netappaccounts/capacitypools') {
      const account = parent ?? (nested ? { name: segment(fullName, 0)! } : undefined);
      const slip = decimalSlip(props?.field('size'), 'The pool size');
      if (slip) this.slips.push(slip);
      out.pools.push(armPool({ ...meta, ...(account ? { account } : {}) }, props));
    } else if (lower === 'microsoft.netapp/netappaccounts/capacitypools/volumes') {
      const pool = parent ?? (nested ? { name: segment(fullName, 1)! } : undefined);
      const slip = decimalSlip(props?.field('usageThreshold'), 'The volume quota (`usageThreshold`)');
      if (slip) this.slips.push(slip);
      const zones = obj?.field('zones');
      out.volumes.push(armVolume({ ...meta, ...(pool ? { pool } : {}) }, props, zones ? { zones } : {}));
    } else if (lower === 'microsoft.netapp/netappaccounts/volumegroups') {
      const account = parent ?? (nested ? { name: segment(fullName, 0)! } : undefined);
      for (const item of elementsAt(props, 'volumes')) {
        const slip = decimalSlip(
          objectAt(item.object, 'properties')?.field('usageThreshold'),
          'The volume quota (`usageThreshold`)',
        );
        if (slip) this.slips.push(slip);
      }
      out.volumes.push(
        ...armGroupVolumes({ ...meta, ...(account ? { account } : {}) }, props, poolFromId, (span) =>
          annotationFor(this.source, span),
        ),
      );
    }
  }

  /** A virtual network (its inline `subnets`) or a subnet resource (subnets.ts). */
  private readNetwork(
    d: Decl,
    lower: string,
    instance: { suffix: string; repeated: boolean },
    current: ReadonlyMap<Decl, string>,
    subnets: IacSubnet[],
  ): void {
    const obj = d.body ? this.obj(d.body) : undefined;
    const fullName = str(obj?.field('name'));
    const meta: Meta = declaredAt(d, instance, lastSegment(fullName));
    const props = objectAt(obj, 'properties');
    if (lower === 'microsoft.network/virtualnetworks') {
      subnets.push(...armVnetSubnets(meta, props));
      return;
    }
    // The virtual network: the parent declaration's name, or the first part of `vnet/subnet`.
    const parent = this.parentRef(d, obj?.field('parent'), current);
    const parentDecl = parent?.symbol ? this.bySymbol.get(parent.symbol.replace(/\[\d+\]$/, '')) : undefined;
    const vnetName =
      parent?.name ??
      (parentDecl?.body ? lastSegment(str(this.obj(parentDecl.body).field('name'))) : undefined) ??
      (fullName?.value?.includes('/') ? segment(fullName, 0) : undefined);
    subnets.push(armSubnet(meta, props, vnetName));
  }

  // ---- fields ----------------------------------------------------------------------------

  private obj(n: Node): Obj {
    const props = new Map<string, Node>();
    const names: string[] = [];
    for (const p of n.namedChildren) {
      if (p.type !== 'object_property') continue;
      const key = p.namedChildren[0];
      const value = p.namedChildren[1];
      if (!key || !value || value.type === 'resource_declaration') continue;
      const name = key.type === 'string' ? key.text.slice(1, -1) : key.text;
      props.set(name.toLowerCase(), p);
      names.push(name);
    }
    return {
      span: spanOf(n),
      keys: () => names,
      field: (key) => {
        const p = props.get(key.toLowerCase());
        return p ? this.field(p.namedChildren[1]!, spanOf(p.namedChildren[0]!)) : undefined;
      },
      blocks: (key) => {
        const p = props.get(key.toLowerCase());
        const f = p ? this.field(p.namedChildren[1]!, spanOf(p.namedChildren[0]!)) : undefined;
        return (f?.items ?? []).flatMap((i) => (i.object ? [i.object] : []));
      },
      object: (key) => {
        const p = props.get(key.toLowerCase());
        return p ? this.objectOf(p.namedChildren[1]!) : undefined;
      },
      elements: (key) => {
        const p = props.get(key.toLowerCase());
        return p ? this.elementsOf(p.namedChildren[1]!) : undefined;
      },
    };
  }

  /**
   * What `field(n).object` is, without evaluating `n` (a resource's `properties`: each field is
   * evaluated as it is read): the loop item's own value where `n` names one, through params and
   * vars.
   */
  private objectOf(n: Node): Obj | undefined {
    const target = this.deref(this.written(n), 0);
    return target.type === 'object' ? this.obj(target) : undefined;
  }

  /** What `field(n).items` gives of each element (where it is written, its object), without evaluating `n`. */
  private elementsOf(n: Node): Element[] | undefined {
    const target = this.deref(this.written(n), 0);
    if (target.type !== 'array') return undefined;
    return target.namedChildren.map((c) => {
      const element = this.written(c);
      const object = this.objectOf(element);
      return { span: spanOf(element), ...(object ? { object } : {}) };
    });
  }

  /** The node `field(n)` reads: in a loop, the element's own property where `n` is one (`v.policy`). */
  private written(n: Node, depth = 0): Node {
    const item = this.locals.size > 0 && depth <= MAX_DEPTH ? this.itemProperty(n, 0) : undefined;
    return item ? this.written(item.value, depth + 1) : n;
  }

  private field(n: Node, keySpan: Span, depth = 0): Field {
    if (this.locals.size > 0) {
      // `quotaGiB: v.quotaGiB` in a loop over literal elements: the value is the element's, written there.
      // (Bounded: `[for x in [x]: ...]` makes the element the item's own name.)
      const item = depth > MAX_DEPTH ? undefined : this.itemProperty(n, 0);
      // The element's own span: a finding there is this instance's alone, so its note may name it.
      if (item)
        return {
          ...this.field(item.value, spanOf(item.key), depth + 1),
          origin: `the loop's \`${item.name}\` is ${item.where}`,
        };
      // On the declaration's own text, shared by every instance: the note cannot name one.
      const used = this.loopNames(n, 0);
      if (used.length > 0)
        return {
          ...this.fieldAlone(n, keySpan),
          origin: `differs per element of the loop (${used.map((u) => `\`${u}\``).join(', ')})`,
        };
    }
    return this.fieldAlone(n, keySpan);
  }

  /** `v.quotaGiB`, `v.sizes.log` with `v` a loop item written as a literal object: that property's key and value. */
  private itemProperty(n: Node, depth: number): { name: string; where: string; key: Node; value: Node } | undefined {
    if (depth > MAX_DEPTH) return undefined;
    if (n.type === 'identifier') {
      const local = this.locals.get(n.text);
      return local?.node ? { name: n.text, where: local.where, key: local.node, value: local.node } : undefined;
    }
    if (n.type !== 'member_expression') return undefined;
    const object = n.childForFieldName('object');
    const property = n.childForFieldName('property');
    const base = object ? this.itemProperty(object, depth + 1) : undefined;
    if (!base || !property) return undefined;
    const target = this.deref(base.value, 0);
    if (target.type !== 'object') return undefined;
    const p = target.namedChildren.find(
      (c) =>
        c.type === 'object_property' &&
        (c.namedChildren[0]?.type === 'string' ? c.namedChildren[0].text.slice(1, -1) : c.namedChildren[0]?.text) ===
          property.text,
    );
    const [key, value] = p?.namedChildren ?? [];
    return key && value ? { ...base, key, value } : undefined;
  }

  /** The loop variables an expression uses. */
  private loopNames(n: Node, depth: number): string[] {
    const found: string[] = []; // in the order first used (a few names: no set needed)
    const visit = (x: Node, d: number): void => {
      if (d > MAX_DEPTH) return;
      if (x.type === 'identifier') {
        if (this.locals.has(x.text) && !found.includes(x.text)) found.push(x.text);
        return;
      }
      for (const c of x.namedChildren) visit(c, d + 1);
    };
    visit(n, depth);
    return found;
  }

  private fieldAlone(n: Node, keySpan: Span): Field {
    const v = this.eval(n, 0);
    const target = this.deref(n, 0);
    const items = target.type === 'array' ? target.namedChildren.map((c) => this.field(c, spanOf(c))) : undefined;
    const factors = decimalFactors(target);
    const edit = literalSpan(n);
    const vars = this.paramsOf(n);
    const unknown = reasonOf(v);
    return {
      value: v.ok ? v.value : undefined,
      span: spanOf(n),
      keySpan,
      raw: n.text,
      ...(unknown ? { unknown } : {}),
      ...(edit ? { editSpan: edit } : {}),
      ...(target.type === 'object' ? { object: this.obj(target) } : {}),
      ...(items ? { items } : {}),
      ...(n.type === 'identifier' && this.bySymbol.has(n.text) ? { symbol: n.text } : {}),
      // `capacityPoolResourceId: pool.id`: the resource `pool` names.
      ...(n.type === 'member_expression' &&
      n.childForFieldName('property')?.text === 'id' &&
      this.bySymbol.has(n.childForFieldName('object')?.text ?? '')
        ? { symbol: n.childForFieldName('object')!.text }
        : {}),
      ...(target === n && factors.length > 0 ? { decimalFactors: factors } : {}),
      ...(vars ? { vars } : {}),
    };
  }

  /** Through params and vars to the expression they stand for. */
  private deref(n: Node, depth: number): Node {
    if (depth > MAX_DEPTH) return n;
    if (n.type === 'parenthesized_expression' && n.namedChildren.length === 1)
      return this.deref(n.namedChildren[0]!, depth + 1);
    if (n.type === 'non_null_assertion' && n.namedChildren[0]) return this.deref(n.namedChildren[0], depth + 1); // `x!` is x
    const local = n.type === 'identifier' ? this.locals.get(n.text) : undefined;
    if (local) return local.node ? this.deref(local.node, depth + 1) : n;
    if (n.type === 'identifier' && !this.overrides.has(n.text)) {
      const target = this.vars.get(n.text) ?? this.params.get(n.text);
      if (target) return this.deref(target, depth + 1);
    }
    return n;
  }

  private string(n: Node, depth: number): Value {
    let text = '';
    for (const c of n.namedChildren) {
      if (c.type === 'string_content') text += c.text;
      else if (c.type === 'escape_sequence') text += unescape(c.text);
      else if (c.type === 'interpolation') {
        const inner = c.namedChildren[0];
        const v = inner ? this.eval(inner, depth + 1) : UNKNOWN;
        if (!v.ok) return v;
        if (typeof v.value !== 'string' && typeof v.value !== 'number' && typeof v.value !== 'boolean')
          return because(`\`${c.text.slice(0, 40)}\` is not a string, a number or a boolean`);
        text += String(v.value);
      } else return UNKNOWN;
    }
    return { ok: true, value: text };
  }

  /**
   * Values already evaluated, by node, while the loop bindings (`locals`) stay as they were: a
   * resource's `properties` are evaluated whole, then each property again as it is read, and each
   * nested object's again (issue 29). A remembered value is given again only where evaluating
   * anew gives it: with room in the budget for the steps it took (taken again), and at a depth
   * where its expression stays within MAX_DEPTH as it did; otherwise the expression is evaluated.
   */
  private readonly evaluated = new Map<Node, Evaluated>();
  /** The deepest `eval` reached and how many times MAX_DEPTH cut it short, for `evaluated`. */
  private deepest = 0;
  private cutShort = 0;

  eval(n: Node, depth: number): Value {
    const known = this.evaluated.get(n);
    if (
      known &&
      known.locals === this.locals.version &&
      depth + known.reach <= MAX_DEPTH &&
      this.budget.takeSteps(known.steps)
    ) {
      if (depth + known.reach > this.deepest) this.deepest = depth + known.reach;
      return known.value;
    }
    const deepestBefore = this.deepest;
    const cutBefore = this.cutShort;
    const stepsBefore = this.budget.stepsTaken;
    const locals = this.locals.version;
    this.deepest = depth;
    const value = this.evalNode(n, depth);
    const reach = this.deepest - depth;
    if (deepestBefore > this.deepest) this.deepest = deepestBefore;
    // Remembered only when the budget did not stop it, MAX_DEPTH did not cut it and no binding changed.
    if (!this.budget.stopped && this.cutShort === cutBefore && this.locals.version === locals)
      this.evaluated.set(n, { value, steps: this.budget.stepsTaken - stepsBefore, reach, locals });
    return value;
  }

  private evalNode(n: Node, depth: number): Value {
    if (depth > MAX_DEPTH) {
      this.cutShort++;
      return because(`the expression is nested more than ${MAX_DEPTH} deep`);
    }
    if (!this.budget.step()) return because(this.budget.unknown().reason);
    switch (n.type) {
      case 'number': {
        const v = Number(n.text);
        return Number.isFinite(v) ? { ok: true, value: v } : UNKNOWN;
      }
      case 'boolean':
        return { ok: true, value: n.text === 'true' };
      case 'string':
        return this.string(n, depth);
      case 'parenthesized_expression':
        return n.namedChildren.length === 1 ? this.eval(n.namedChildren[0]!, depth + 1) : UNKNOWN;
      case 'non_null_assertion': // `x!` is x (the grammar built here; server/grammars/README.md)
        return n.namedChildren[0] ? this.eval(n.namedChildren[0], depth + 1) : UNKNOWN;
      case 'array': {
        const values: unknown[] = [];
        for (const c of n.namedChildren) {
          if (c.type === 'comment') continue;
          const v = this.eval(c, depth + 1);
          if (!v.ok) return v;
          values.push(v.value);
        }
        return { ok: true, value: values };
      }
      case 'object': {
        const result: Record<string, unknown> = {};
        for (const p of n.namedChildren) {
          if (p.type !== 'object_property') continue;
          const [k, value] = p.namedChildren;
          if (!k || !value || value.type === 'resource_declaration') continue;
          const v = this.eval(value, depth + 1);
          if (v.ok) result[k.type === 'string' ? k.text.slice(1, -1) : k.text] = v.value;
        }
        return { ok: true, value: result };
      }
      case 'identifier': {
        const local = this.locals.get(n.text);
        if (local) return local.value;
        const passed = this.vars.has(n.text) ? undefined : this.overrides.get(n.text);
        if (passed) return passed;
        const target = this.vars.get(n.text) ?? this.params.get(n.text);
        if (target) return this.eval(target, depth + 1);
        const fallback = this.declared.has(n.text) ? this.fallbacks.get(n.text) : undefined;
        if (fallback) return fallback;
        if (this.declared.has(n.text)) return because(`parameter \`${n.text}\` has no value: ${this.missingHint}`);
        if (this.bySymbol.has(n.text)) return because(`\`${n.text}\` is a resource`);
        return because(`\`${n.text}\` is not a param or var anf-lint can read here`);
      }
      case 'ternary_expression': {
        const cond = n.childForFieldName('condition');
        const c = cond ? this.eval(cond, depth + 1) : UNKNOWN;
        if (!c.ok || typeof c.value !== 'boolean') return UNKNOWN;
        const branch = n.childForFieldName(c.value ? 'consequence' : 'alternative');
        return branch ? this.eval(branch, depth + 1) : UNKNOWN;
      }
      case 'unary_expression': {
        const operand = n.namedChildren[0];
        return unaryValue(n.text.trimStart().charAt(0), operand ? this.eval(operand, depth + 1) : UNKNOWN);
      }
      case 'binary_expression': {
        const left = n.childForFieldName('left');
        const right = n.childForFieldName('right');
        if (!left || !right) return UNKNOWN;
        const op = this.source.text.slice(left.endIndex, right.startIndex).trim();
        const a = this.eval(left, depth + 1);
        if (op === '??')
          return a.ok && a.value !== null && a.value !== undefined ? a : a.ok ? this.eval(right, depth + 1) : a;
        if (op === '&&' && a.ok && a.value === false) return a;
        if (op === '||' && a.ok && a.value === true) return a;
        const b = this.eval(right, depth + 1);
        if (!a.ok) return a;
        if (!b.ok) return b;
        if (typeof a.value === 'number' && typeof b.value === 'number') {
          if (op === '*') return { ok: true, value: a.value * b.value };
          if (op === '+') return { ok: true, value: a.value + b.value };
          if (op === '-') return { ok: true, value: a.value - b.value };
          if (op === '/' && b.value !== 0) return { ok: true, value: Math.trunc(a.value / b.value) };
        }
        if (typeof a.value === 'number' && typeof b.value === 'number' && op === '%' && b.value !== 0)
          return { ok: true, value: a.value % b.value };
        if (op === '==') return { ok: true, value: deepEqual(a.value, b.value) };
        if (op === '!=') return { ok: true, value: !deepEqual(a.value, b.value) };
        if ((op === '=~' || op === '!~') && typeof a.value === 'string' && typeof b.value === 'string')
          return { ok: true, value: (a.value.toLowerCase() === b.value.toLowerCase()) === (op === '=~') };
        if ((op === '&&' || op === '||') && typeof a.value === 'boolean' && typeof b.value === 'boolean')
          return { ok: true, value: op === '&&' ? a.value && b.value : a.value || b.value };
        if (
          ['<', '<=', '>', '>='].includes(op) &&
          ((typeof a.value === 'number' && typeof b.value === 'number') ||
            (typeof a.value === 'string' && typeof b.value === 'string'))
        ) {
          const x = a.value as number | string;
          const y = b.value as number | string;
          return { ok: true, value: op === '<' ? x < y : op === '<=' ? x <= y : op === '>' ? x > y : x >= y };
        }
        return because(`anf-lint does not evaluate \`${op}\` on these values`);
      }
      case 'call_expression': {
        // `any(x)` only changes x's type for the compiler; `int(x)` converts a number written as a
        // string. Microsoft's Bicep samples write `usageThreshold: any('1.073741824e+11')`, which
        // deploys as that number of bytes (`int()` takes digits only). Others: templateFunctions.ts.
        const fn = n.childForFieldName('function');
        const name =
          fn?.type === 'identifier'
            ? fn.text
            : fn?.type === 'member_expression' && /^(sys|az)$/.test(fn.childForFieldName('object')?.text ?? '')
              ? fn.childForFieldName('property')?.text
              : undefined;
        const args = (n.childForFieldName('arguments')?.namedChildren ?? []).filter((c) => c.type !== 'comment');
        if (!name) return because('a function anf-lint cannot name');
        if (name === 'any' && args.length === 1 && args[0]) {
          const v = this.eval(args[0], depth + 1);
          if (!v.ok) return v;
          return typeof v.value === 'string' && NUMERIC.test(v.value.trim()) ? { ok: true, value: Number(v.value) } : v;
        }
        if (LAMBDA_FUNCTIONS.has(name)) return this.lambdaCall(name, args, depth);
        const values = args.map((a) => toTemplateValue(this.eval(a, depth + 1)));
        const result = callFunction(name.toLowerCase(), values);
        if (result === NOT_A_FUNCTION) return because(`anf-lint does not evaluate \`${name}()\``);
        return fromTemplateValue(result);
      }
      case 'member_expression': {
        // `pool.name`, `acct.properties.x`: the referenced resource's written value.
        const object = n.childForFieldName('object');
        const property = n.childForFieldName('property');
        if (!object || !property) return UNKNOWN;
        if (object.type === 'identifier' && !this.locals.has(object.text)) {
          const decl = this.bySymbol.get(object.text);
          if (decl) {
            if (decl.repeated || !decl.body)
              return because(`\`${object.text}\` is a resource loop: which instance is meant is not known here`);
            const p = decl.body.namedChildren.find(
              (c) => c.type === 'object_property' && c.namedChildren[0]?.text === property.text,
            );
            return p?.namedChildren[1] ? this.eval(p.namedChildren[1], depth + 1) : UNKNOWN;
          }
        }
        const base = this.eval(object, depth + 1);
        if (!base.ok) return base;
        // `v.?name`: the safe-dereference gives null where the property is missing.
        const safe = this.source.text.slice(object.endIndex, property.startIndex).includes('?');
        if (base.value && typeof base.value === 'object' && !Array.isArray(base.value)) {
          const v = (base.value as Record<string, unknown>)[property.text];
          return v !== undefined
            ? { ok: true, value: v }
            : safe
              ? { ok: true, value: null }
              : because(`the object has no property \`${property.text}\``);
        }
        if (base.value === null && safe) return { ok: true, value: null };
        return because(`\`${property.text}\` of a value that has no properties`);
      }
      case 'subscript_expression': {
        const object = n.childForFieldName('object');
        const index = n.childForFieldName('index');
        if (!object || !index) return UNKNOWN;
        const base = this.eval(object, depth + 1);
        const key = this.eval(index, depth + 1);
        if (!base.ok) return base;
        if (!key.ok) return key;
        return fromTemplateValue(memberOf(base.value, key.value));
      }
      default:
        return because(`anf-lint does not evaluate Bicep \`${n.type.replace(/_/g, ' ')}\``);
    }
  }

  /** `filter`, `map`, `reduce`, `sort`... with a lambda (`(x, i) => ...`): evaluated when the array and the lambda's body are. */
  private lambdaCall(name: string, args: readonly Node[], depth: number): Value {
    const lambda = args[args.length - 1];
    const arrayValue = args[0] ? this.eval(args[0], depth + 1) : UNKNOWN;
    if (!arrayValue.ok) return arrayValue;
    if (lambda?.type !== 'lambda_expression' || !Array.isArray(arrayValue.value))
      return because(`\`${name}()\` with a lambda anf-lint cannot read`);
    const [head, body] = lambda.namedChildren;
    if (!head || !body) return because(`\`${name}()\` with a lambda anf-lint cannot read`);
    const params =
      head.type === 'identifier'
        ? [head.text]
        : head.namedChildren.filter((c) => c.type === 'identifier').map((c) => c.text);
    const saved = params.map((p) => [p, this.locals.get(p)] as const);
    const call = (...values: unknown[]): Value => {
      params.forEach((p, i) =>
        this.locals.set(p, { value: { ok: true, value: values[i] }, where: 'a lambda argument' }),
      );
      return this.eval(body, depth + 1);
    };
    try {
      const items = arrayValue.value as unknown[];
      if (name === 'filter' || name === 'map') {
        const out: unknown[] = [];
        for (const [i, x] of items.entries()) {
          const r = call(x, i);
          if (!r.ok) return r;
          if (name === 'map') out.push(r.value);
          else if (r.value === true) out.push(x);
          else if (r.value !== false) return because('`filter()` with a lambda that does not give a boolean');
        }
        return { ok: true, value: out };
      }
      if (name === 'reduce' && args.length === 3 && args[1]) {
        let acc = this.eval(args[1], depth + 1);
        for (const [i, x] of items.entries()) {
          if (!acc.ok) return acc;
          acc = call(acc.value, x, i);
        }
        return acc;
      }
      return because(`anf-lint does not evaluate \`${name}()\``);
    } finally {
      for (const [p, v] of saved) {
        if (v) this.locals.set(p, v);
        else this.locals.delete(p);
      }
    }
  }
}

/** A value `eval` gave, with what it took: budget steps, depth below its node, the bindings in force. */
interface Evaluated {
  readonly value: Value;
  readonly steps: number;
  readonly reach: number;
  readonly locals: number;
}

/** The loop and lambda bindings in force; `version` changes with every change (remembered values are per version). */
class Locals extends Map<string, { node?: Node; value: Value; where: string }> {
  version = 0;

  override set(key: string, value: { node?: Node; value: Value; where: string }): this {
    this.version++;
    return super.set(key, value);
  }

  override delete(key: string): boolean {
    this.version++;
    return super.delete(key);
  }

  override clear(): void {
    this.version++;
    super.clear();
  }
}

const LAMBDA_FUNCTIONS = new Set([
  'filter',
  'map',
  'reduce',
  'sort',
  'toObject',
  'groupBy',
  'mapValues',
  'shallowMerge',
]);

/** An unknown Bicep value with its reason (common.ts's Value carries no reason; this one does, read back by `reasonOf`). */
function because(reason: string): Value {
  return Object.assign({ ok: false as const }, { reason });
}

export function reasonOf(v: Value): string | undefined {
  return v.ok ? undefined : (v as { reason?: string }).reason;
}

function toTemplateValue(v: Value): unknown {
  return v.ok ? v.value : new Unknown(reasonOf(v) ?? 'a value anf-lint cannot evaluate');
}

function fromTemplateValue(v: unknown): Value {
  if (isUnknown(v)) return because(v.reason);
  const u = firstUnknown(v);
  return u ? because(u.reason) : { ok: true, value: v };
}

/** A number written as a string: `'107374182400'`, `'1.073741824e+11'`. */
const NUMERIC = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A Bicep module path in this repository: not a registry (`br:`, `br/alias:`) or template spec (`ts:`) reference. */
function isLocalBicepModule(path: string): boolean {
  return !/^(?:br|ts)[:/]/i.test(path) && /\.bicep$/i.test(path);
}

/** How many instances of one module declaration in a `[for ...]` loop are read one by one; more are read once, as repeated. */

/**
 * Whether a Bicep module's instance can give accounts, pools or volumes: its text names a
 * `Microsoft.NetApp` type (in any case, anywhere), or a line starts with `module` (a module
 * declaration: a registry module anf-lint knows, or modules of its own; Bicep puts decorators on
 * lines of their own), or it has a `\u{...}` escape (a type written with escapes). A resource type
 * is a string literal in Bicep, so a file without these declares no NetApp resource.
 */
function mayMakeResources(text: string): boolean {
  return /microsoft\.netapp/i.test(text) || /^\s*module\s/m.test(text) || text.includes('\\u{');
}

/**
 * Whether a Bicep file read alone can give a subnet delegated to `Microsoft.NetApp/volumes`, the
 * only subnets anf-lint's checks judge (ANF414-ANF416, `delegatedToNetApp`): it declares a virtual
 * network or subnet (the only network types read, `readInstance`) and names NetApp outside a line
 * of comment, as the delegation's service name must (a literal, a param default or a `format()`
 * of its own text). A value from a parameters file is read with that file (parameterFiles.ts); a
 * module instance gives no subnets. A network module without the word (most of a repository's,
 * also one whose header comment says it has no NetApp resources) is not parsed.
 */
function mayGiveDelegatedSubnet(text: string): boolean {
  return /microsoft\.network\/virtualnetworks/i.test(text) && /netapp/i.test(text.replace(COMMENT_LINE, ''));
}
const COMMENT_LINE = /^[ \t]*\/\/.*$/gm;

/** How deep Bicep modules calling modules are followed. */
const MAX_MODULE_DEPTH = 8; // not a fact: bound on nested module calls

/**
 * A Bicep file with its local modules: each `module` declaration whose path is a `.bicep` file of
 * the workspace (`text(uri)`) adds that file's resources, read with the params the declaration
 * passes (evaluated here) and their defaults otherwise, placed in this file (instance.ts); modules
 * of modules are followed. Undefined when the Bicep parser is not loaded.
 */
export function readBicepModule(
  uri: string,
  source: SourceText,
  text: (uri: string) => SourceText | undefined,
  options: {
    readonly params?: ReadonlyMap<string, Value>;
    readonly fallbacks?: ReadonlyMap<string, Value>;
    readonly missingHint?: string;
    readonly problems?: ParseProblem[];
  } = {},
): IacEstate | undefined {
  const trees = new Map<SourceText, ReturnType<typeof borrowTree>>();
  // Whether each module file may make resources, asked once per file, not once per instance.
  const mayMakeFile = new Map<SourceText, boolean>();
  const mayMake = (s: SourceText): boolean => {
    let may = mayMakeFile.get(s);
    if (may === undefined) mayMakeFile.set(s, (may = mayMakeResources(s.text)));
    return may;
  };
  // One budget for the file and every module instance it reaches (issue 32: loops through modules multiply).
  const budget = new Budget();
  const problems = options.problems ?? [];
  // Problems noted before this reading (a parameters file's) are kept as they are.
  const firstProblem = problems.length;
  try {
    const read = (
      s: SourceText,
      overrides?: ReadonlyMap<string, Value>,
      missingHint?: string,
      fallbacks?: ReadonlyMap<string, Value>,
    ): BicepReader | undefined => {
      // A module file is parsed once, however many instances read it.
      if (!trees.has(s)) trees.set(s, borrowTree('bicep', s, s.text));
      const tree = trees.get(s);
      return tree
        ? new BicepReader(s, lazyTree(tree, s.text), overrides, budget, problems, missingHint, fallbacks)
        : undefined;
    };
    const instance = (
      callerUri: string,
      call: IacModuleCall,
      args: ReadonlyMap<string, Field>,
      stack: readonly string[],
    ): Pick<IacEstate, 'accounts' | 'pools' | 'volumes'> | undefined => {
      const calleeUri = call.local && call.source ? bicepModuleUri(callerUri, call.source) : undefined;
      const callee = calleeUri ? text(calleeUri) : undefined;
      if (!calleeUri || !callee || stack.includes(calleeUri) || stack.length > MAX_MODULE_DEPTH) return undefined;
      if (!budget.instance()) return undefined;
      // A module file that names no NetApp resource type and calls no module gives no account, pool
      // or volume: not read (most modules of a repository; issue 29). Its instance is counted above.
      if (!mayMake(callee)) return { accounts: [], pools: [], volumes: [] };
      const overrides = new Map<string, Value>();
      for (const [name, field] of args)
        overrides.set(
          name,
          field.value === undefined
            ? because(field.unknown ?? `module "${call.name}" passes \`${name}\` as a value anf-lint cannot evaluate`)
            : { ok: true, value: field.value },
        );
      const reader = read(callee, overrides, `no default and module "${call.name}" does not pass it`);
      if (!reader) return undefined;
      const estate = reader.estate();
      const accounts = [...estate.accounts];
      const pools = [...estate.pools];
      const volumes = [...estate.volumes];
      for (const inner of reader.calls()) {
        const sub = instance(calleeUri, inner.call, inner.args, [...stack, calleeUri]);
        if (!sub) continue;
        accounts.push(...sub.accounts);
        pools.push(...sub.pools);
        volumes.push(...sub.volumes);
      }
      const place = {
        call,
        args,
        source: callee,
        where: relativeUri(callerUri.slice(0, callerUri.lastIndexOf('/') + 1), calleeUri),
      };
      return {
        accounts: accounts.map((r) => placeInstance(r, place)),
        pools: pools.map((r) => placeInstance(r, place)),
        volumes: volumes.map((r) => placeInstance(r, place)),
      };
    };
    const root = read(source, options.params, options.missingHint, options.fallbacks);
    if (!root) return undefined;
    const estate = root.estate();
    const calls = root.calls();
    const accounts = [...estate.accounts];
    const pools = [...estate.pools];
    const volumes = [...estate.volumes];
    for (const { call, args } of calls) {
      const made = instance(uri, call, args, [uri]);
      if (!made) continue;
      accounts.push(...made.accounts);
      pools.push(...made.pools);
      volumes.push(...made.volumes);
    }
    if (budget.stopped) {
      // One note, on the root file: a module's reader notes the stop at its own file's start, which
      // says nothing here. Placed on the first module declaration (the loop that multiplied), not at
      // an empty span at the file's start: an empty span on a call's head is a module's finding
      // another file reports (iac/hover.ts `withValueOrigin`), so a file starting with `module` lost it.
      const before = problems.slice(0, firstProblem);
      const others = problems.slice(firstProblem).filter((p) => p.code !== EVALUATION_STOPPED_CODE);
      problems.length = 0;
      problems.push(...before, ...others);
    }
    if (budget.stopped && !problems.some((p) => p.code === EVALUATION_STOPPED_CODE)) {
      problems.push({
        code: EVALUATION_STOPPED_CODE,
        severity: 'info',
        span: calls[0]?.call.headSpan ?? { start: 0, end: 0 },
        message: `anf-lint stopped reading this file${calls.length > 0 ? ' and its modules' : ''} after ${budget.stopped}: resources and module instances past that point are not read, and values it had not evaluated are unknown. This is a bound on anf-lint's work, not a problem of the file.`,
      });
    }
    return { ...estate, accounts, pools, volumes, ...(calls.length > 0 ? { calls: calls.map((c) => c.call) } : {}) };
  } finally {
    for (const tree of trees.values()) if (tree) returnTree(tree);
  }
}

/** The file a local Bicep module path names, relative to the calling file. */
export function bicepModuleUri(callerUri: string, path: string): string | undefined {
  if (!isLocalBicepModule(path)) return undefined;
  // The same call is resolved by every reading that follows it (each instance, each caller): a
  // URL parse each time was 1% of a Bicep repository's run (issue 29).
  return moduleUris.get(`${callerUri}\u0000${path}`, () => {
    try {
      return new URL(path, callerUri).href;
    } catch {
      return undefined;
    }
  });
}

/** `bicepModuleUri`'s answers, by caller and path. */
const moduleUris = new BoundedMemo<string | undefined>(10_000); // not a fact: a bound on memory in a long-lived process

/** Whether an expression names one of these identifiers (a loop's item or index). */
function usesName(n: Node, names: readonly string[], depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (n.type === 'identifier') return names.includes(n.text);
  if (n.type === 'property_identifier') return false;
  return n.namedChildren.some((c) => usesName(c, names, depth + 1));
}

function lastObject(n: Node): Node | undefined {
  for (let i = n.namedChildren.length - 1; i >= 0; i--) {
    const c = n.namedChildren[i]!;
    if (c.type === 'object') return c;
  }
  return undefined;
}

function unescape(text: string): string {
  return text === "\\'" ? "'" : text === '\\\\' ? '\\' : text === '\\n' ? '\n' : text.slice(1);
}

/** Where a fix may write: a number, a boolean, or a plain string's content. */
function literalSpan(n: Node): Span | undefined {
  if (n.type === 'number' || n.type === 'boolean') return spanOf(n);
  if (n.type === 'string') {
    const parts = n.namedChildren;
    if (parts.length === 0) return { start: n.startIndex + 1, end: n.startIndex + 1 };
    if (parts.length === 1 && parts[0]!.type === 'string_content') return spanOf(parts[0]!);
  }
  return undefined;
}

/** The literal `1000` factors of a product of literals (`100 * 1000 * 1000 * 1000`). */
function decimalFactors(n: Node): Span[] {
  const factors: Node[] = [];
  const walk = (x: Node): boolean => {
    if (x.type === 'number') {
      factors.push(x);
      return true;
    }
    // A parameter or variable may stand in a factor (`quotaGB * 1000 * 1000 * 1000`); only literals are replaced.
    if (x.type === 'identifier') return true;
    if (x.type === 'parenthesized_expression' && x.namedChildren.length === 1) return walk(x.namedChildren[0]!);
    if (x.type !== 'binary_expression') return false;
    const left = x.childForFieldName('left');
    const right = x.childForFieldName('right');
    if (!left || !right) return false;
    if (!x.text.slice(left.endIndex - x.startIndex, right.startIndex - x.startIndex).includes('*')) return false;
    return walk(left) && walk(right);
  };
  if (!walk(n)) return [];
  return factors.filter((f) => f.text === String(VOLUME_RESOURCE.decimalStep.value)).map(spanOf);
}

/**
 * A `.bicepparam` file: `using './main.bicep'` and `param name = <expression>`. The published Bicep
 * grammar reads `param` lines as declarations with a type; here each `param` keyword is read as
 * `var` (same length: positions kept), so `param name = value` parses as a variable, and values
 * may use the file's `var`s and functions as Bicep allows.
 * Reference: "Create parameters files for Bicep deployment" (learn.microsoft.com).
 */
export function readBicepParams(source: SourceText): ParameterFile | undefined {
  const text = source.text.replace(/^([ \t]*)param(?=[ \t])/gm, '$1var  ');
  const tree = parseTree('bicep', text);
  if (!tree) return undefined;
  try {
    const names = new Set<string>();
    for (const m of source.text.matchAll(/^[ \t]*param[ \t]+([A-Za-z_][\w]*)/gm)) names.add(m[1]!);
    const root = lazyTree(tree, text);
    const reader = new BicepReader(source, root);
    const values: ParameterValue[] = [];
    let using: string | undefined;
    for (const n of root.namedChildren) {
      if (n.type === 'using_statement') {
        const path = n.namedChildren.find((c) => c.type === 'string');
        const v = path ? reader.eval(path, 0) : UNKNOWN;
        if (v.ok && typeof v.value === 'string') using = v.value;
        continue;
      }
      if (n.type !== 'variable_declaration') continue;
      const id = n.namedChildren[0];
      if (!id || !names.has(id.text)) continue;
      const value = reader.eval(id, 0);
      values.push({
        name: id.text,
        value: toTemplateValue(value),
        keySpan: spanOf(id),
        line: source.positionAt(id.startIndex).line + 1,
      });
    }
    return { values, ...(using !== undefined ? { using } : {}) };
  } finally {
    tree.delete();
  }
}

/** The `param` names a Bicep file declares (for a parameters file's undeclared keys). */
export function bicepDeclaredParams(source: SourceText): ReadonlySet<string> | undefined {
  const tree = borrowTree('bicep', source, source.text);
  if (!tree) return undefined;
  try {
    return new BicepReader(source, lazyTree(tree, source.text)).declared;
  } finally {
    returnTree(tree);
  }
}

export { because as bicepUnknown, fromTemplateValue as bicepValueOf };
