import { callFunction, type FunctionContext } from './functions';
import {
  asBool,
  asNumber,
  asString,
  equal,
  failure,
  firstUnknown,
  isObject,
  isSet,
  isUnknown,
  makeSet,
  numberText,
  show,
  typeName,
  unknown,
  Unknown,
  type TfObject,
  type TfValue,
} from './values';

/**
 * The Terraform expression evaluator: a tree-sitter HCL expression (the Terraform dialect of
 * `@tree-sitter-grammars/tree-sitter-hcl`) and a scope give a value of values.ts. It knows the
 * language (literals, templates with `%{ if }`/`%{ for }` directives, heredocs, operators,
 * conditionals, index and attribute access, splats, `for` expressions, function calls) and nothing
 * of Azure NetApp Files: what `var.x`, `local.x`, `each.value` or `azurerm_netapp_pool.p` stand for
 * is the scope's answer (the mapping in terraform.ts builds it from a module's files).
 *
 * It never throws: an expression it cannot evaluate is an `Unknown` with the reason, and bad
 * input (an unknown node, a type error) is an `Unknown` too. Work is bounded by a `Budget`
 * (evaluation steps and nesting depth) shared by a whole reading.
 * Reference: developer.hashicorp.com/terraform/language/expressions.
 */

/** The part of a tree-sitter node the evaluator reads (terraform.ts wraps nodes to cache these). */
export interface HclNode {
  readonly id: number;
  readonly type: string;
  readonly text: string;
  readonly startIndex: number;
  readonly endIndex: number;
  readonly namedChildren: readonly HclNode[];
}

/**
 * What references mean. `parts` is the reference's root and the names that identify the object
 * (`['var', 'x']`, `['local', 'x']`, `['each']`, `['count']`, `['module', 'm']`,
 * `['data', 'type', 'name']`, `['path', 'module']`, `['azurerm_netapp_pool', 'p']`); the evaluator
 * applies the rest of the traversal (`.name`, `["k"]`, `[0]`) to the value returned.
 */
export interface EvalScope extends FunctionContext {
  reference(parts: readonly string[]): TfValue;
}

/** Bounds on the work of one reading (issue 32): steps over every expression, and nesting depth. */
export class Budget {
  steps = 0;
  /** Set when an expression nested deeper than `maxNesting`: its value was left unknown (ANF422 says where). */
  tooDeep = false;
  constructor(
    readonly maxSteps = MAX_EVAL_STEPS,
    readonly maxNesting = MAX_NESTING,
  ) {}

  get exhausted(): boolean {
    return this.steps > this.maxSteps;
  }
}

/** Evaluation steps (nodes evaluated) one reading may take before what is left stays unknown. */
export const MAX_EVAL_STEPS = 2_000_000; // not a fact: bound on work per reading (about a second)
/** How deep expressions may nest (`((((...))))`, a chain of 2,000 `+`); deeper is unknown, never a stack overflow. */
export const MAX_NESTING = 200; // not a fact: bound on recursion; real code nests a few levels

/** References that name an object by one more name (`var.x`), two (`data.t.n`) or none (`each`). */
const NAMES_AFTER: Record<string, number> = {
  var: 1,
  local: 1,
  module: 1,
  path: 1,
  terraform: 1,
  data: 2,
  each: 0,
  count: 0,
  self: 0,
};

type Env = ReadonlyMap<string, TfValue> | undefined;

export function evaluate(node: HclNode, scope: EvalScope, budget: Budget = new Budget()): TfValue {
  return new Evaluation(scope, budget).eval(node, undefined, 0);
}

class Evaluation {
  constructor(
    private readonly scope: EvalScope,
    private readonly budget: Budget,
  ) {}

  eval(n: HclNode, env: Env, depth: number): TfValue {
    if (++this.budget.steps > this.budget.maxSteps)
      return unknown(
        `not evaluated: the reading passed ${this.budget.maxSteps.toLocaleString('en-US')} evaluation steps`,
      );
    if (depth > this.budget.maxNesting) {
      this.budget.tooDeep = true;
      return unknown(`not evaluated: the expression nests more than ${this.budget.maxNesting} levels deep`);
    }
    const d = depth + 1;
    switch (n.type) {
      case 'expression':
        return this.expression(n, env, d);
      case 'literal_value':
      case 'collection_value':
      case 'operation':
      case 'template_expr':
      case 'for_expr':
        return n.namedChildren.length === 1
          ? this.eval(n.namedChildren[0]!, env, d)
          : failure(`\`${n.text.slice(0, 40)}\` is not an expression anf-lint can read`);
      case 'numeric_lit': {
        const v = Number(n.text);
        return Number.isFinite(v) ? v : failure(`\`${n.text}\` is not a number`);
      }
      case 'bool_lit':
        return n.text === 'true';
      case 'null_lit':
        return null;
      case 'string_lit':
      case 'quoted_template':
      case 'heredoc_template':
        return this.template(n, env, d);
      case 'tuple': {
        const out: TfValue[] = [];
        for (const item of n.namedChildren) if (item.type === 'expression') out.push(this.eval(item, env, d));
        return out;
      }
      case 'object':
        return this.object(n, env, d);
      case 'binary_operation':
        return this.binary(n, env, d);
      case 'unary_operation':
        return this.unary(n, env, d);
      case 'conditional': {
        const [c, a, b] = n.namedChildren;
        if (!c || !a || !b) return failure('an incomplete conditional');
        const cond = asBool(this.eval(c, env, d));
        if (isUnknown(cond))
          return cond.error ? cond : unknown(`the condition \`${c.text.slice(0, 60)}\` is unknown: ${cond.reason}`);
        return this.eval(cond ? a : b, env, d);
      }
      case 'function_call':
        return this.call(n, env, d);
      case 'for_tuple_expr':
      case 'for_object_expr':
        return this.forExpr(n, env, d);
      case 'variable_expr':
        return this.root(n.text, [], env);
      default:
        return failure(`\`${n.text.slice(0, 40)}\` is not an expression anf-lint can read`);
    }
  }

  /** A primary expression followed by traversals (`.name`, `[0]`, `[*].name`), or a parenthesised expression. */
  private expression(n: HclNode, env: Env, depth: number): TfValue {
    const parts = n.namedChildren;
    if (parts.length === 0) return failure('an empty expression');
    let at = 1;
    let value: TfValue;
    const first = parts[0]!;
    if (first.type === 'variable_expr') {
      // The root and the names that identify the object (`var.x`, `data.t.n`, `azurerm_x.y`).
      const root = first.text;
      const bound = lookupEnv(env, root);
      if (bound !== undefined) value = bound;
      else {
        const wanted = root in NAMES_AFTER ? NAMES_AFTER[root]! : 1;
        const names: string[] = [];
        while (names.length < wanted && parts[at]?.type === 'get_attr')
          names.push(parts[at++]!.namedChildren[0]?.text ?? '');
        if (names.length < wanted) return failure(`\`${n.text.slice(0, 60)}\` is not a complete reference`);
        value = this.root(root, names, env);
      }
    } else value = this.eval(first, env, depth);
    return this.traverse(value, parts, at, env, depth, n);
  }

  private root(root: string, names: readonly string[], env: Env): TfValue {
    const bound = names.length === 0 ? lookupEnv(env, root) : undefined;
    if (bound !== undefined) return bound;
    return this.scope.reference([root, ...names]);
  }

  private traverse(
    start: TfValue,
    parts: readonly HclNode[],
    from: number,
    env: Env,
    depth: number,
    whole: HclNode,
  ): TfValue {
    let value = start;
    for (let i = from; i < parts.length; i++) {
      const step = parts[i]!;
      if (step.type === 'splat') {
        const splat = step.namedChildren[0];
        if (!splat) return failure('an incomplete splat');
        if (isUnknown(value)) return value;
        // `[*]` of null is an empty list, of a single value a list of it (Terraform's splat rules).
        const items: TfValue[] = value === null ? [] : Array.isArray(value) ? value : [value];
        const inner = splat.namedChildren;
        const out = items.map((item) => this.traverse(item, inner, 0, env, depth, whole));
        value = out;
        continue;
      }
      value = this.step(value, step, env, depth, whole);
    }
    return value;
  }

  private step(value: TfValue, step: HclNode, env: Env, depth: number, whole: HclNode): TfValue {
    if (isUnknown(value)) return value;
    if (step.type === 'get_attr') return attribute(value, step.namedChildren[0]?.text ?? '', whole);
    if (step.type === 'index') {
      const idx = step.namedChildren[0];
      if (!idx) return failure('an empty index');
      if (idx.type === 'legacy_index') return index(value, Number(idx.text.replace(/^\./, '')), whole);
      const keyNode = idx.namedChildren[0];
      const key = keyNode ? this.eval(keyNode, env, depth) : failure('an empty index');
      if (isUnknown(key)) return key;
      return index(value, key, whole);
    }
    return failure(`\`${step.text.slice(0, 40)}\` is not a traversal anf-lint can read`);
  }

  private object(n: HclNode, env: Env, depth: number): TfValue {
    const out: TfObject = {};
    for (const elem of n.namedChildren) {
      if (elem.type !== 'object_elem') continue;
      const [k, v] = elem.namedChildren;
      if (!k || !v) continue;
      const key = objectKey(k) ?? asString(this.eval(k, env, depth));
      if (isUnknown(key)) return key.error ? key : unknown(`a key of the object is unknown: ${key.reason}`);
      out[key] = this.eval(v, env, depth);
    }
    return out;
  }

  /**
   * The operands of an operation: the grammar writes `var.size * 2` as the children `var`, `.size`,
   * `2`: a primary and the traversals after it make one operand.
   */
  private operands(n: HclNode): HclNode[][] {
    const groups: HclNode[][] = [];
    for (const c of n.namedChildren) {
      if (c.type === 'comment') continue;
      if ((c.type === 'get_attr' || c.type === 'index' || c.type === 'splat') && groups.length > 0)
        groups[groups.length - 1]!.push(c);
      else groups.push([c]);
    }
    return groups;
  }

  private operand(group: readonly HclNode[], env: Env, depth: number, whole: HclNode): TfValue {
    const first = group[0]!;
    if (group.length === 1 && first.type !== 'variable_expr') return this.eval(first, env, depth);
    if (first.type === 'variable_expr') return this.expression({ ...shape(whole), namedChildren: group }, env, depth);
    return this.traverse(this.eval(first, env, depth), group, 1, env, depth, whole);
  }

  private unary(n: HclNode, env: Env, depth: number): TfValue {
    const group = this.operands(n)[0];
    if (!group) return failure('an incomplete operation');
    const op = n.text.trimStart().charAt(0);
    const v = this.operand(group, env, depth, n);
    if (op === '-') {
      const x = asNumber(v);
      return isUnknown(x) ? x : -x;
    }
    const b = asBool(v);
    return isUnknown(b) ? b : !b;
  }

  private binary(n: HclNode, env: Env, depth: number): TfValue {
    const [left, right] = this.operands(n);
    if (!left || !right) return failure('an incomplete operation');
    const op = n.text
      .slice(left[left.length - 1]!.endIndex - n.startIndex, right[0]!.startIndex - n.startIndex)
      .replace(/[()\s]/g, ''); // parentheses lie outside their expression's node
    const a = this.operand(left, env, depth, n);
    if (op === '&&' || op === '||') {
      const x = asBool(a);
      // Decidable whatever the other side is.
      if (x === false && op === '&&') return false;
      if (x === true && op === '||') return true;
      const y = asBool(this.operand(right, env, depth, n));
      if (isUnknown(x)) return x;
      return y;
    }
    const b = this.operand(right, env, depth, n);
    if (op === '==' || op === '!=') {
      const u = firstUnknown(a) ?? firstUnknown(b);
      if (u) return u;
      return op === '==' ? equal(a, b) : !equal(a, b);
    }
    const x = asNumber(a);
    if (isUnknown(x)) return x;
    const y = asNumber(b);
    if (isUnknown(y)) return y;
    switch (op) {
      case '+':
        return x + y;
      case '-':
        return x - y;
      case '*':
        return x * y;
      case '/':
        return y === 0 ? failure(`\`${n.text.slice(0, 40)}\` divides by zero`) : x / y;
      case '%':
        return y === 0 ? failure(`\`${n.text.slice(0, 40)}\` divides by zero`) : x % y;
      case '<':
        return x < y;
      case '>':
        return x > y;
      case '<=':
        return x <= y;
      case '>=':
        return x >= y;
      default:
        return failure(`the operator \`${op}\` is not one anf-lint knows`);
    }
  }

  private call(n: HclNode, env: Env, depth: number): TfValue {
    const name = n.namedChildren[0]?.text ?? '';
    const argsNode = n.namedChildren.find((c) => c.type === 'function_arguments');
    const argNodes = argsNode?.namedChildren.filter((c) => c.type === 'expression') ?? [];
    const expand = argsNode?.namedChildren.some((c) => c.type === 'ellipsis') ?? false;
    const args = argNodes.map((a) => this.eval(a, env, depth));
    if (expand) {
      const last = args.pop();
      if (isUnknown(last ?? null)) return last!;
      if (!Array.isArray(last)) return failure(`\`...\` expands a list, not ${typeName(last ?? null)}`);
      args.push(...last);
    }
    return callFunction(name.replace(/^core::/, ''), args, this.scope);
  }

  private forExpr(n: HclNode, env: Env, depth: number): TfValue {
    const parts = n.namedChildren;
    const intro = parts.find((p) => p.type === 'for_intro');
    const cond = parts.find((p) => p.type === 'for_cond')?.namedChildren[0];
    const exprs = parts.filter((p) => p.type === 'expression');
    if (!intro) return failure('an incomplete `for` expression');
    const ids = intro.namedChildren.filter((p) => p.type === 'identifier').map((p) => p.text);
    const sourceNode = intro.namedChildren.find((p) => p.type === 'expression');
    if (!sourceNode || ids.length === 0) return failure('an incomplete `for` expression');
    const source = this.eval(sourceNode, env, depth);
    if (isUnknown(source)) return source;
    let pairs: [TfValue, TfValue][];
    if (Array.isArray(source)) pairs = source.map((v, i) => [isSet(source) ? v : i, v]);
    else if (isObject(source))
      pairs = Object.keys(source)
        .sort()
        .map((k) => [k, source[k]!]);
    else return failure(`\`for\` iterates over a list, set, map or object, not ${typeName(source)}`);
    const [keyName, valueName] = ids.length === 2 ? [ids[0]!, ids[1]!] : [undefined, ids[0]!];
    const object = n.type === 'for_object_expr';
    const grouping = object && parts.some((p) => p.type === 'ellipsis');
    const tuple: TfValue[] = [];
    const map: TfObject = {};
    const groups = new Map<string, TfValue[]>();
    for (const [k, v] of pairs) {
      const inner = new Map(env ?? []);
      if (keyName) inner.set(keyName, k);
      inner.set(valueName, v);
      if (cond) {
        const keep = asBool(this.eval(cond, inner, depth));
        if (isUnknown(keep))
          return keep.error ? keep : unknown(`the \`if\` of a \`for\` expression is unknown: ${keep.reason}`);
        if (!keep) continue;
      }
      if (!object) {
        tuple.push(this.eval(exprs[0]!, inner, depth));
        continue;
      }
      const key = asString(this.eval(exprs[0]!, inner, depth));
      if (isUnknown(key)) return key.error ? key : unknown(`a key of a \`for\` expression is unknown: ${key.reason}`);
      const value = exprs[1] ? this.eval(exprs[1], inner, depth) : failure('an incomplete `for` expression');
      if (grouping) {
        const group = groups.get(key);
        if (group) group.push(value);
        else groups.set(key, [value]);
      } else if (Object.hasOwn(map, key))
        return failure(`the \`for\` expression makes the key "${key}" twice (add \`...\` to group)`);
      else map[key] = value;
    }
    if (!object) return isSet(source) ? tuple : tuple;
    if (grouping) for (const [k, v] of groups) map[k] = v;
    return map;
  }

  /**
   * Quoted strings, heredocs, and their interpolations and directives. The grammar leaves some of a
   * template's literal text out of its `template_literal` nodes (spaces and newlines of heredocs):
   * literal text is read from the source between the interpolations and directives.
   */
  private template(n: HclNode, env: Env, depth: number): TfValue {
    const heredoc = n.type === 'heredoc_template';
    const kids = n.namedChildren;
    const active = kids.filter((c) => c.type === 'template_interpolation' || c.type === 'template_directive');
    let from: number;
    let to: number;
    if (heredoc) {
      const ids = kids.filter((c) => c.type === 'heredoc_identifier');
      const open = ids[0];
      const close = ids.length > 1 ? ids[ids.length - 1] : undefined;
      const newline = open ? n.text.indexOf('\n', open.endIndex - n.startIndex) : -1;
      from = newline < 0 ? n.endIndex : n.startIndex + newline + 1;
      to = close ? n.startIndex + n.text.lastIndexOf('\n', close.startIndex - n.startIndex) + 1 : n.endIndex;
      if (to < from) to = from;
    } else {
      const open = kids.find((c) => c.type === 'quoted_template_start');
      const close = kids.find((c) => c.type === 'quoted_template_end');
      from = open ? open.endIndex : n.startIndex;
      to = close ? close.startIndex : n.endIndex;
      // A template that is one interpolation (`"${var.x}"`) is the value itself, not its string.
      if (
        active.length === 1 &&
        active[0]!.type === 'template_interpolation' &&
        active[0]!.startIndex === from &&
        active[0]!.endIndex === to
      ) {
        const inner = active[0]!.namedChildren.find((c) => c.type === 'expression');
        return inner ? this.eval(inner, env, depth) : failure('an empty interpolation');
      }
    }
    const text = this.parts({ top: n, heredoc }, from, to, active, env, depth, false, false);
    if (isUnknown(text)) return text;
    if (heredoc) {
      const start = kids.find((c) => c.type === 'heredoc_start')?.text ?? '';
      return start.includes('-') ? flush(text) : text;
    }
    return text;
  }

  /** The text of `[from, to)` of a template: its literal gaps and the values of the active parts in it. */
  private parts(
    t: Template,
    from: number,
    to: number,
    active: readonly HclNode[],
    env: Env,
    depth: number,
    stripStart: boolean,
    stripEnd: boolean,
  ): string | Unknown {
    let out = '';
    let cursor = from;
    let stripNext = stripStart;
    const literal = (a: number, b: number, trimEnd: boolean): void => {
      let lit = t.top.text.slice(a - t.top.startIndex, b - t.top.startIndex);
      lit = t.heredoc ? lit.replace(/\$\$\{/g, '${').replace(/%%\{/g, '%{') : unescape(lit);
      if (stripNext) lit = lit.replace(/^\s+/, '');
      if (trimEnd) lit = lit.replace(/\s+$/, '');
      out += lit;
    };
    for (const p of active) {
      if (p.startIndex < cursor || p.endIndex > to) continue;
      literal(cursor, p.startIndex, /^(\$\{|%\{)~/.test(p.text));
      let v: string | Unknown;
      if (p.type === 'template_interpolation') {
        const inner = p.namedChildren.find((c) => c.type === 'expression');
        v = inner ? asString(this.eval(inner, env, depth)) : failure('an empty interpolation');
      } else {
        const d = p.namedChildren[0];
        v = d ? this.directive(t, d, env, depth) : failure('an empty directive');
      }
      if (isUnknown(v)) return v;
      out += v;
      cursor = p.endIndex;
      stripNext = /~\}$/.test(p.text);
    }
    literal(cursor, to, stripEnd);
    return out;
  }

  private directive(t: Template, d: HclNode, env: Env, depth: number): string | Unknown {
    const kids = d.namedChildren;
    const active = kids.filter((c) => c.type === 'template_interpolation' || c.type === 'template_directive');
    const body = (open: HclNode | undefined, close: HclNode | undefined, e: Env): string | Unknown =>
      open && close
        ? this.parts(
            t,
            open.endIndex,
            close.startIndex,
            active,
            e,
            depth,
            /~\}$/.test(open.text),
            /^%\{~/.test(close.text),
          )
        : failure('an incomplete template directive');
    if (d.type === 'template_if') {
      const intro = kids.find((c) => c.type === 'template_if_intro');
      const elseIntro = kids.find((c) => c.type === 'template_else_intro');
      const end = kids.find((c) => c.type === 'template_if_end');
      const condNode = intro?.namedChildren.find((c) => c.type === 'expression');
      if (!condNode) return failure('an incomplete `%{ if }`');
      const cond = asBool(this.eval(condNode, env, depth));
      if (isUnknown(cond)) return cond;
      if (cond) return body(intro, elseIntro ?? end, env);
      return elseIntro ? body(elseIntro, end, env) : '';
    }
    if (d.type === 'template_for') {
      const start = kids.find((c) => c.type === 'template_for_start');
      const end = kids.find((c) => c.type === 'template_for_end');
      const ids = start?.namedChildren.filter((c) => c.type === 'identifier').map((c) => c.text) ?? [];
      const srcNode = start?.namedChildren.find((c) => c.type === 'expression');
      if (!srcNode || ids.length === 0) return failure('an incomplete `%{ for }`');
      const source = this.eval(srcNode, env, depth);
      if (isUnknown(source)) return source;
      const pairs: [TfValue, TfValue][] = Array.isArray(source)
        ? source.map((v, i) => [i, v])
        : isObject(source)
          ? Object.keys(source)
              .sort()
              .map((k) => [k, source[k]!])
          : [];
      let out = '';
      for (const [k, v] of pairs) {
        const inner = new Map(env ?? []);
        if (ids.length === 2) inner.set(ids[0]!, k);
        inner.set(ids[ids.length - 1]!, v);
        const text = body(start, end, inner);
        if (isUnknown(text)) return text;
        out += text;
      }
      return out;
    }
    return failure('a template directive anf-lint cannot read');
  }
}

interface Template {
  readonly top: HclNode;
  readonly heredoc: boolean;
}

/** A node's identity and text, for a made-up node grouping children of it. */
function shape(n: HclNode): Omit<HclNode, 'namedChildren'> {
  return { id: n.id, type: 'expression', text: n.text, startIndex: n.startIndex, endIndex: n.endIndex };
}

function isTemplatePart(c: HclNode): boolean {
  return c.type === 'template_literal' || c.type === 'template_interpolation' || c.type === 'template_directive';
}

function lookupEnv(env: Env, name: string): TfValue | undefined {
  return env?.get(name);
}

/** A bare object key (`{ name = ... }`) is its text; `(var.x)` and strings are evaluated. */
function objectKey(k: HclNode): string | undefined {
  if (k.type !== 'expression') return undefined;
  const kids = k.namedChildren;
  if (kids.length === 1 && kids[0]!.type === 'variable_expr') return kids[0]!.text;
  return undefined;
}

function attribute(value: TfValue, name: string, whole: HclNode): TfValue {
  if (isObject(value)) {
    if (Object.hasOwn(value, name)) return value[name]!;
    return failure(`\`${whole.text.slice(0, 60)}\`: the object has no attribute \`${name}\``);
  }
  if (value === null) return failure(`\`${whole.text.slice(0, 60)}\`: \`.${name}\` of null`);
  return failure(`\`${whole.text.slice(0, 60)}\`: \`.${name}\` of ${typeName(value)}`);
}

function index(value: TfValue, key: TfValue, whole: HclNode): TfValue {
  if (Array.isArray(value)) {
    if (isSet(value)) return failure(`\`${whole.text.slice(0, 60)}\`: a set has no index (use \`tolist\`)`);
    const i = asNumber(key);
    if (isUnknown(i)) return i;
    if (!Number.isInteger(i) || i < 0 || i >= value.length)
      return failure(
        `\`${whole.text.slice(0, 60)}\`: index ${numberText(i)} is out of range (${value.length} elements)`,
      );
    return value[i]!;
  }
  if (isObject(value)) {
    const k = asString(key);
    if (isUnknown(k)) return k;
    if (Object.hasOwn(value, k)) return value[k]!;
    return failure(`\`${whole.text.slice(0, 60)}\`: no key "${k}"`);
  }
  return failure(`\`${whole.text.slice(0, 60)}\`: ${typeName(value)} ${show(value, 20)} has no index`);
}

/** HCL's escapes in quoted strings. */
function unescape(text: string): string {
  if (!text.includes('\\') && !text.includes('$${') && !text.includes('%%{')) return text;
  return text.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)|\$\$\{|%%\{/g, (m: string, e: string | undefined) => {
    if (m === '$${') return '${';
    if (m === '%%{') return '%{';
    switch (e) {
      case 'n':
        return '\n';
      case 'r':
        return '\r';
      case 't':
        return '\t';
      case '"':
        return '"';
      case '\\':
        return '\\';
      default:
        if (e && (e[0] === 'u' || e[0] === 'U')) {
          try {
            return String.fromCodePoint(parseInt(e.slice(1), 16));
          } catch {
            return m;
          }
        }
        return m;
    }
  });
}

/** `<<-EOT`: the lines lose the indentation they all share (Terraform's flush heredoc). */
function flush(text: string): string {
  const lines = text.split('\n');
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^[ \t]*/.exec(l)![0].length);
  const common = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(Math.min(common, /^[ \t]*/.exec(l)![0].length))).join('\n');
}

export { Unknown, firstUnknown, isUnknown, makeSet, unknown, failure };
export type { TfValue, TfObject };
