/**
 * Values of the Terraform language as the evaluator (eval.ts) computes them: JSON-like JavaScript
 * values (null, booleans, numbers, strings, arrays for lists, tuples and sets, plain objects for
 * maps and objects), and `Unknown` where a value cannot be known from the repository. An unknown
 * may sit inside a known collection (`{ a = 1, b = var.unset }`: `.a` is still 1), as Terraform's
 * own values do. Nothing here knows about Azure NetApp Files.
 */

/**
 * A value that is not known, with the reason in words a user can act on. `error`: Terraform would
 * refuse the expression (a missing key, a wrong type); `try` and `can` catch those, never a
 * value that is only unknown.
 */
export class Unknown {
  constructor(
    readonly reason: string,
    readonly error = false,
  ) {}
}

export type TfValue = null | boolean | number | string | Unknown | TfValue[] | TfObject;
export interface TfObject {
  [key: string]: TfValue;
}

/** Arrays that are Terraform sets (`toset`, a set-typed `for_each`): no index access, sorted. */
const SETS = new WeakSet<TfValue[]>();

export function makeSet(items: readonly TfValue[]): TfValue[] {
  const out: TfValue[] = [];
  for (const item of items) if (!out.some((x) => equal(x, item))) out.push(item);
  if (out.every((x) => typeof x === 'string')) (out as string[]).sort();
  SETS.add(out);
  return out;
}

export function isSet(v: TfValue): boolean {
  return Array.isArray(v) && SETS.has(v);
}

export function isUnknown(v: TfValue): v is Unknown {
  return v instanceof Unknown;
}

export function isObject(v: TfValue): v is TfObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Unknown);
}

/** The first unknown inside `v` (depth first), or undefined when `v` is wholly known. */
export function firstUnknown(v: TfValue): Unknown | undefined {
  const stack: TfValue[] = [v];
  while (stack.length > 0) {
    const cur = stack.pop()!;
    if (cur instanceof Unknown) return cur;
    if (Array.isArray(cur)) for (let i = cur.length - 1; i >= 0; i--) stack.push(cur[i]!);
    else if (isObject(cur)) stack.push(...Object.values(cur).reverse());
  }
  return undefined;
}

export function unknown(reason: string): Unknown {
  return new Unknown(reason);
}

export function failure(reason: string): Unknown {
  return new Unknown(reason, true);
}

/** Terraform's type name of a value, for messages. */
export function typeName(v: TfValue): string {
  if (v === null) return 'null';
  if (v instanceof Unknown) return 'unknown';
  if (Array.isArray(v)) return isSet(v) ? 'set' : 'list';
  if (typeof v === 'object') return 'object';
  return typeof v;
}

/** Structural equality (Terraform's `==`), for known values. */
export function equal(a: TfValue, b: TfValue): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]!));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => k in b && equal(a[k]!, b[k]!));
  }
  return false;
}

const SHOWN_LENGTH = 60; // not a fact: how much of a value a message quotes

/** How a value reads in a message (short; long values are cut). */
export function show(v: TfValue, limit = SHOWN_LENGTH): string {
  if (v instanceof Unknown) return '(unknown)';
  let text: string;
  try {
    text = JSON.stringify(v, (_k, x: unknown) => (x instanceof Unknown ? '(unknown)' : x)) ?? String(v);
  } catch {
    text = String(v);
  }
  return text.length > limit ? `${text.slice(0, limit - 3)}...` : text;
}

/** Terraform's automatic conversion to string (numbers and bools convert; null and collections do not). */
export function asString(v: TfValue): string | Unknown {
  if (v instanceof Unknown) return v;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return numberText(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return failure(`a string is required here, not ${typeName(v)}`);
}

/** Terraform's automatic conversion to number (a string of a number converts). */
export function asNumber(v: TfValue): number | Unknown {
  if (v instanceof Unknown) return v;
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?\s*$/.test(v)) return Number(v);
  return failure(`a number is required here, not ${typeName(v)} ${show(v, 30)}`);
}

export function asBool(v: TfValue): boolean | Unknown {
  if (v instanceof Unknown) return v;
  if (typeof v === 'boolean') return v;
  if (v === 'true') return true;
  if (v === 'false') return false;
  return failure(`a bool is required here, not ${typeName(v)} ${show(v, 30)}`);
}

/** Numbers as Terraform prints them: integers without a fraction, no exponent for ordinary sizes. */
export function numberText(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e21) return n.toFixed(0); // not a fact: where JavaScript's toFixed switches to exponents
  return String(n);
}
