import { findNodeAtLocation, type Node as JsonNode } from 'jsonc-parser';
import type { Span } from '../../text/sourceText';
import { callFunction, memberOf, NOT_A_FUNCTION } from '../templateFunctions';
import { type Budget, firstUnknown, isUnknown, Unknown } from '../values';
import { classifyArmString, type ArmExpr } from './expressions';
import { ARM_TEMPLATE_LIMITS } from '../../facts';

/**
 * Evaluates ARM template JSON: expressions, `parameters()` (a parameters file's value, else the
 * `defaultValue`), `variables()` (with `copy` in variables), `copyIndex()` in `copy` loops, and the
 * shared functions (templateFunctions.ts). Knows nothing of ANF: arm.ts maps what it gives.
 */

/** A parameter's value given from outside the template: a parameters file, a nested deployment's `parameters`. */
export interface GivenParameter {
  readonly value: unknown;
  /** Where it comes from, for messages: "main.parameters.json line 5", "the example file x (nothing else sets it)". */
  readonly from?: string;
  /** An example parameters file's value: used only when the parameter has no default and nothing else sets it. */
  readonly fallback?: boolean;
}

/** An undeclared parameter a template uses (`parameters('x')` with no `x` in `parameters`). */
export interface UndeclaredUse {
  readonly name: string;
  readonly span: Span;
}

export interface ArmScope {
  parameter(name: string): unknown;
  variable(name: string): unknown;
  copyIndex(loop: string | undefined): unknown;
  readonly budget: Budget;
  /** The parameters a value used, with where their values came from (for `origin`). */
  trace?: Map<string, string | undefined>;
  /** The JSON node being evaluated (where an undeclared parameter is reported). */
  at?: Span;
}

/**
 * The JSON value of a node: strings evaluated as expressions, objects with `copy` expanded.
 * Iterative over arrays and objects: a template's nesting is input, not a bound of our stack.
 */
export function evaluateNode(root: JsonNode, scope: ArmScope): unknown {
  type Frame = { out: unknown[] | Record<string, unknown>; children: JsonNode[]; keys?: string[]; i: number };
  const open = (n: JsonNode): { frame: Frame } | { value: unknown } => {
    if (n.type === 'array') return { frame: { out: [], children: n.children ?? [], i: 0 } };
    if (n.type === 'object') {
      const props = (n.children ?? []).filter((p) => p.children?.[0] && p.children[1]);
      const copy = props.find((p) => String(p.children![0]!.value) === 'copy' && p.children![1]!.type === 'array');
      if (copy && isPropertyCopy(copy.children![1]!)) return { value: expandPropertyCopy(n, scope) };
      return {
        frame: {
          out: {},
          children: props.map((p) => p.children![1]!),
          keys: props.map((p) => String(p.children![0]!.value)),
          i: 0,
        },
      };
    }
    if (!scope.budget.step()) return { value: scope.budget.unknown() };
    if (n.type === 'string') return { value: evaluateString(String(n.value), n, scope) };
    return {
      value: n.type === 'number' || n.type === 'boolean' || n.type === 'null' ? (n.value as unknown) : undefined,
    };
  };
  const put = (f: Frame, v: unknown): void => {
    if (Array.isArray(f.out)) f.out.push(v);
    else f.out[f.keys![f.i]!] = v;
    f.i++;
  };
  const first = open(root);
  if ('value' in first) return first.value;
  const frames: Frame[] = [first.frame];
  for (;;) {
    const f = frames[frames.length - 1]!;
    if (f.i >= f.children.length) {
      frames.pop();
      if (frames.length === 0) return f.out;
      put(frames[frames.length - 1]!, f.out);
      continue;
    }
    const opened = open(f.children[f.i]!);
    if ('value' in opened) put(f, opened.value);
    else if (frames.length > MAX_JSON_DEPTH)
      put(f, new Unknown(`the value is nested more than ${MAX_JSON_DEPTH} deep`));
    else frames.push(opened.frame);
  }
}

const MAX_JSON_DEPTH = 256; // not a fact: bound on nesting read

/** `"copy": [{ "name": "rules", "count": 3, "input": {...} }]` inside an object: property iteration. */
export function isPropertyCopy(copy: JsonNode): boolean {
  return (
    (copy.children ?? []).length > 0 &&
    (copy.children ?? []).every(
      (c) => c.type === 'object' && findNodeAtLocation(c, ['name']) && findNodeAtLocation(c, ['input']),
    )
  );
}

/** Expands property iteration: each `copy` entry becomes a property holding `count` evaluations of `input`. */
function expandPropertyCopy(n: JsonNode, scope: ArmScope): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of n.children ?? []) {
    const [k, v] = p.children ?? [];
    if (!k || !v) continue;
    const key = String(k.value);
    if (key === 'copy' && v.type === 'array') {
      for (const entry of v.children ?? []) {
        const loop = copyLoop(entry, scope);
        if (!loop) continue;
        out[loop.name] =
          loop.count === undefined
            ? loop.unknown
            : Array.from({ length: loop.count }, (_, i) =>
                evaluateNode(loop.input, withCopyIndex(scope, loop.name, i)),
              );
      }
    } else out[key] = evaluateNode(v, scope);
  }
  return out;
}

export interface CopyLoop {
  readonly name: string;
  readonly input: JsonNode;
  /** How many; undefined when unknown (`unknown` says why). */
  readonly count?: number;
  readonly unknown: Unknown;
}

/** ARM's own limit on a copy loop's count ("Copy count can't exceed 800"). */
export const ARM_COPY_LIMIT = ARM_TEMPLATE_LIMITS.maxCopyCount.value;

/** A property or variable `copy` entry: its name, input and evaluated count. */
export function copyLoop(entry: JsonNode, scope: ArmScope): CopyLoop | undefined {
  const nameNode = findNodeAtLocation(entry, ['name']);
  const input = findNodeAtLocation(entry, ['input']);
  if (!nameNode || !input || typeof nameNode.value !== 'string') return undefined;
  const countNode = findNodeAtLocation(entry, ['count']);
  const count = countNode ? evaluateNode(countNode, scope) : new Unknown('the copy loop has no `count`');
  const known = countOf(count);
  return {
    name: nameNode.value,
    input,
    ...(known.count !== undefined ? { count: known.count } : {}),
    unknown: known.unknown ?? new Unknown(''),
  };
}

/** A copy count: a whole number 0..800, or why not. */
export function countOf(count: unknown): { count?: number; unknown?: Unknown } {
  if (isUnknown(count)) return { unknown: new Unknown(`the copy count is unknown: ${count.reason}`) };
  if (typeof count !== 'number' || !Number.isInteger(count) || count < 0)
    return { unknown: new Unknown(`the copy count ${JSON.stringify(count)} is not a whole number`) };
  if (count > ARM_COPY_LIMIT)
    return { unknown: new Unknown(`the copy count ${count} is over ARM's limit of ${ARM_COPY_LIMIT}`) };
  return { count };
}

/** A scope with `copyIndex(name)` (and `copyIndex()`) bound to `index`. */
export function withCopyIndex(scope: ArmScope, loop: string, index: number): ArmScope {
  return withCopyValue(scope, loop, index);
}

/** A scope whose `copyIndex()` is unknown: a copy loop whose count anf-lint cannot evaluate, read once. */
export function withUnknownCopyIndex(scope: ArmScope, loop: string, why: Unknown): ArmScope {
  return withCopyValue(scope, loop, why);
}

function withCopyValue(scope: ArmScope, loop: string, value: number | Unknown): ArmScope {
  const inner: ArmScope = {
    budget: scope.budget,
    parameter: (n) => scope.parameter(n),
    variable: (n) => scope.variable(n),
    copyIndex: (name) =>
      name === undefined || name.toLowerCase() === loop.toLowerCase() ? value : scope.copyIndex(name),
  };
  // Trace and position are the template scope's: parameters record where they came from there.
  Object.defineProperty(inner, 'trace', { get: () => scope.trace, set: (v: ArmScope['trace']) => (scope.trace = v) });
  Object.defineProperty(inner, 'at', { get: () => scope.at, set: (v: ArmScope['at']) => (scope.at = v) });
  return inner;
}

export function evaluateString(text: string, node: JsonNode | undefined, scope: ArmScope): unknown {
  const s = classifyArmString(text);
  if (s.kind === 'literal') return s.text;
  if (s.kind === 'invalid') return new Unknown(s.reason);
  if (node) scope.at = { start: node.offset, end: node.offset + node.length };
  return evaluateExpr(s.expr, scope, 0);
}

export function evaluateExpr(e: ArmExpr, scope: ArmScope, depth: number): unknown {
  if (!scope.budget.step()) return scope.budget.unknown();
  switch (e.kind) {
    case 'string':
    case 'number':
      return e.value;
    case 'member':
      return memberOf(evaluateExpr(e.object, scope, depth + 1), e.property);
    case 'index':
      return memberOf(evaluateExpr(e.object, scope, depth + 1), evaluateExpr(e.index, scope, depth + 1));
    case 'call':
      return call(e, scope, depth);
  }
}

function call(e: Extract<ArmExpr, { kind: 'call' }>, scope: ArmScope, depth: number): unknown {
  const args = () => e.args.map((a) => evaluateExpr(a, scope, depth + 1));
  switch (e.name) {
    case 'parameters':
    case 'variables': {
      const [name] = args();
      if (isUnknown(name)) return name;
      if (typeof name !== 'string') return new Unknown(`\`${e.name}()\` needs a name`);
      return e.name === 'parameters' ? scope.parameter(name) : scope.variable(name);
    }
    case 'copyindex': {
      const values = args();
      const loop = values.find((v) => typeof v === 'string') as string | undefined;
      const offset = values.find((v) => typeof v === 'number') as number | undefined;
      const u = values.find(isUnknown);
      if (u) return u;
      const index = scope.copyIndex(loop);
      return typeof index === 'number' ? index + (offset ?? 0) : index;
    }
    case 'if': {
      // Only the branch taken is evaluated (ARM evaluates both, but an unknown in the other must not make this one unknown).
      const [c, a, b] = e.args;
      if (!c || !a || !b) return new Unknown('`if()` needs three arguments');
      const cond = evaluateExpr(c, scope, depth + 1);
      if (isUnknown(cond)) return new Unknown(`the condition of \`if()\` is unknown: ${cond.reason}`);
      if (typeof cond !== 'boolean') return new Unknown('`if()` needs a boolean condition');
      return evaluateExpr(cond ? a : b, scope, depth + 1);
    }
    default: {
      const result = callFunction(e.name, args());
      return result === NOT_A_FUNCTION ? new Unknown(`anf-lint does not evaluate \`${e.name}()\``) : result;
    }
  }
}

/** A template's parameters and variables: a parameter's given value, else its default; variables evaluated once. */
export class TemplateScope implements ArmScope {
  trace?: Map<string, string | undefined>;
  at?: Span;
  private readonly declared = new Map<string, JsonNode>();
  private readonly variableNodes = new Map<string, JsonNode>();
  private readonly variableCopies = new Map<string, JsonNode>();
  private readonly params = new Map<string, { value: unknown; uses: Map<string, string | undefined> }>();
  private readonly vars = new Map<string, { value: unknown; uses: Map<string, string | undefined> } | 'busy'>();

  constructor(
    template: JsonNode,
    private readonly given: ReadonlyMap<string, GivenParameter>,
    readonly budget: Budget,
    private readonly undeclared: (use: UndeclaredUse) => void,
    /** Where a parameter without a value could get one, for the reason ("no parameters file names it"). */
    private readonly missingHint = 'no default and no parameters file names it',
  ) {
    for (const p of findNodeAtLocation(template, ['parameters'])?.children ?? []) {
      const [k, v] = p.children ?? [];
      if (k && v) this.declared.set(String(k.value).toLowerCase(), v);
    }
    for (const p of findNodeAtLocation(template, ['variables'])?.children ?? []) {
      const [k, v] = p.children ?? [];
      if (!k || !v) continue;
      const key = String(k.value);
      // `"copy": [{ "name": "disks", "count": 3, "input": {...} }]` among the variables: each entry a variable.
      if (key.toLowerCase() === 'copy' && v.type === 'array') {
        for (const entry of v.children ?? []) {
          const name = findNodeAtLocation(entry, ['name']);
          if (name && typeof name.value === 'string') this.variableCopies.set(name.value.toLowerCase(), entry);
        }
      } else this.variableNodes.set(key.toLowerCase(), v);
    }
  }

  /** The parameter names the template declares, as written. */
  declaredNames(): Set<string> {
    return new Set(this.declared.keys());
  }

  copyIndex(loop: string | undefined): unknown {
    return new Unknown(loop ? `\`copyIndex('${loop}')\` outside its copy loop` : '`copyIndex()` outside a copy loop');
  }

  parameter(name: string): unknown {
    const key = name.toLowerCase();
    let entry = this.params.get(key);
    if (!entry) {
      const outer = this.trace;
      this.trace = new Map();
      entry = { value: this.computeParameter(name, key), uses: this.trace };
      this.trace = outer;
      this.params.set(key, entry);
    }
    this.record(entry.uses);
    return entry.value;
  }

  private computeParameter(name: string, key: string): unknown {
    const decl = this.declared.get(key);
    if (!decl) {
      if (this.at) this.undeclared({ name, span: this.at });
      return new Unknown(`parameter \`${name}\` is not declared in the template's \`parameters\``);
    }
    const given = this.given.get(key);
    if (given && !given.fallback) {
      this.trace?.set(name, given.from);
      return given.value;
    }
    const def = findNodeAtLocation(decl, ['defaultValue']);
    if (def) return evaluateNode(def, this);
    if (given) {
      this.trace?.set(name, given.from);
      return given.value;
    }
    return new Unknown(`parameter \`${name}\` has no value: ${this.missingHint}`);
  }

  variable(name: string): unknown {
    const key = name.toLowerCase();
    const entry = this.vars.get(key);
    if (entry === 'busy') return new Unknown(`variable \`${name}\` refers to itself`);
    if (entry) {
      this.record(entry.uses);
      return entry.value;
    }
    const node = this.variableNodes.get(key);
    const copy = this.variableCopies.get(key);
    if (!node && !copy) return new Unknown(`variable \`${name}\` is not declared in the template's \`variables\``);
    this.vars.set(key, 'busy');
    const outer = this.trace;
    const at = this.at;
    this.trace = new Map();
    let value: unknown;
    if (node) value = evaluateNode(node, this);
    else {
      const loop = copyLoop(copy!, this);
      value = !loop
        ? new Unknown(`variable \`${name}\`'s copy loop is not read`)
        : loop.count === undefined
          ? loop.unknown
          : Array.from({ length: loop.count }, (_, i) => evaluateNode(loop.input, withCopyIndex(this, loop.name, i)));
    }
    const made = { value, uses: this.trace };
    this.trace = outer;
    this.at = at;
    this.vars.set(key, made);
    this.record(made.uses);
    return value;
  }

  private record(uses: ReadonlyMap<string, string | undefined>): void {
    if (!this.trace) return;
    for (const [k, v] of uses) this.trace.set(k, v);
  }
}

/**
 * The `/`-separated segments of a resource name built with `concat()` or `format()` whose some
 * part is unknown (`format('{0}/{1}', variables('pool'), uniqueString(...))`): the known segments
 * (the parent's names) are known, the others unknown with the reason. Undefined for other names.
 */
export function nameSegments(text: string, scope: ArmScope): unknown[] | undefined {
  const s = classifyArmString(text);
  if (s.kind !== 'expression' || s.expr.kind !== 'call' || (s.expr.name !== 'concat' && s.expr.name !== 'format'))
    return undefined;
  const HOLE = '\u0000';
  const unknowns: Unknown[] = [];
  const args = s.expr.args.map((a) => {
    const v = evaluateExpr(a, scope, 1);
    if (!isUnknown(v)) return v;
    unknowns.push(v);
    return HOLE;
  });
  if (unknowns.length === 0) return undefined;
  const joined = callFunction(s.expr.name, args);
  if (typeof joined !== 'string') return undefined;
  return joined.split('/').map((segment) => (segment.includes(HOLE) ? unknowns[0]! : segment));
}
