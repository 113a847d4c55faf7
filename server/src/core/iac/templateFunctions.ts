import { firstUnknown, isPlainObject, isUnknown, propertyOf, Unknown } from './values';

/**
 * The functions ARM template expressions and Bicep share (same names, same meaning), on values
 * already evaluated. Names are lower case (ARM's are case-insensitive). A function whose answer
 * depends on the deployment (`uniqueString`, `utcNow`, `resourceGroup()`) gives an unknown with
 * the reason; one anf-lint does not evaluate gives an unknown saying so.
 * References: "ARM template functions" and "Bicep functions" (learn.microsoft.com).
 */

/** Functions whose value Azure computes at deployment: unknown, with this reason. */
const DEPLOYMENT_TIME: Record<string, string> = {
  uniquestring: '`uniqueString()` is a hash Azure computes from deployment values',
  guid: '`guid()` is a hash Azure computes from deployment values',
  newguid: '`newGuid()` is a new value at every deployment',
  utcnow: '`utcNow()` is the time of the deployment',
  reference: '`reference()` reads a deployed resource',
  listkeys: '`listKeys()` reads a deployed resource',
  list: '`list()` reads a deployed resource',
  environment: '`environment()` is the cloud the deployment runs in',
  managementgroup: '`managementGroup()` is known only at deployment',
  tenant: '`tenant()` is known only at deployment',
  pickzones: '`pickZones()` asks Azure which zones a region has',
  getsecret: '`getSecret()` reads a Key Vault secret',
  externalinput: '`externalInput()` is given at deployment',
  readenvironmentvariable: '`readEnvironmentVariable()` reads the environment of the deploying machine',
};

/** `resourceGroup()`, `subscription()`, `deployment()`: objects whose properties Azure fills at deployment. */
function scopeObject(what: string, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((k) => [k, new Unknown(`\`${what}().${k}\` is known only at deployment`)]));
}

export const NOT_A_FUNCTION = Symbol('not a function');

/** The value of `name(args)`, an `Unknown` with a reason, or NOT_A_FUNCTION when the name is not one of these. */
export function callFunction(name: string, args: readonly unknown[]): unknown {
  const deployment = DEPLOYMENT_TIME[name];
  if (deployment) return new Unknown(deployment);
  if (name === 'resourcegroup')
    return scopeObject('resourceGroup', ['id', 'name', 'location', 'type', 'tags', 'managedBy', 'properties']);
  if (name === 'subscription') return scopeObject('subscription', ['id', 'subscriptionId', 'tenantId', 'displayName']);
  if (name === 'deployment') return scopeObject('deployment', ['name', 'location', 'properties']);
  // Functions that need every argument known.
  const needs = ALL_KNOWN[name];
  if (needs) {
    for (const a of args) {
      const u = firstUnknown(a);
      if (u) return u;
    }
    return needs(args);
  }
  const partial = PARTIAL[name];
  if (partial) return partial(args);
  return NOT_A_FUNCTION;
}

const fail = (what: string) => new Unknown(what);

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** `string()` as ARM and Bicep write values: strings as they are, others as JSON. */
export function stringOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null) return 'null';
  return JSON.stringify(v);
}

/** Equality as the template languages compare values: deep for arrays and objects. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], propertyOf(b, k)));
  }
  return false;
}

/** ARM `union`/Bicep `union`: objects merged (nested objects merged too), arrays joined without duplicates. */
function union(args: readonly unknown[]): unknown {
  if (args.length === 0) return fail('`union()` needs arguments');
  if (args.every(Array.isArray)) {
    const out: unknown[] = [];
    for (const a of args as unknown[][]) for (const x of a) if (!out.some((y) => deepEqual(x, y))) out.push(x);
    return out;
  }
  if (args.every(isPlainObject)) {
    const merge = (into: Record<string, unknown>, from: Record<string, unknown>): Record<string, unknown> => {
      const out = { ...into };
      for (const [k, v] of Object.entries(from))
        out[k] = isPlainObject(out[k]) && isPlainObject(v) ? merge(out[k] as Record<string, unknown>, v) : v;
      return out;
    };
    return (args as Record<string, unknown>[]).reduce((acc, o) => merge(acc, o), {});
  }
  const u = args.find(isUnknown);
  return u ?? fail('`union()` takes arrays or objects, not a mix');
}

function format(args: readonly unknown[]): unknown {
  const template = text(args[0]);
  if (template === undefined) return fail('`format()` needs a format string');
  let out = '';
  const re = /\{\{|\}\}|\{(\d+)(?::([^}]*))?\}/g;
  let last = 0;
  for (let m = re.exec(template); m; m = re.exec(template)) {
    out += template.slice(last, m.index);
    last = m.index + m[0].length;
    if (m[0] === '{{') out += '{';
    else if (m[0] === '}}') out += '}';
    else {
      const value = args[Number(m[1]) + 1];
      if (value === undefined) return fail(`\`format()\` has no argument {${m[1]}}`);
      // .NET format specifiers (`{0:N2}`, `{0:D3}`): only zero-padding of integers is read.
      const spec = m[2];
      if (spec !== undefined) {
        const pad = /^D(\d+)$/i.exec(spec);
        if (!pad || typeof value !== 'number')
          return fail(`\`format()\` with the format specifier \`{${m[1]}:${spec}}\` is not evaluated by anf-lint`);
        out += String(Math.trunc(value)).padStart(Number(pad[1]), '0');
      } else out += stringOf(value);
    }
  }
  return out + template.slice(last);
}

function concat(args: readonly unknown[]): unknown {
  if (args.length > 0 && args.every(Array.isArray)) return (args as unknown[][]).flat(1);
  if (args.some((a) => isPlainObject(a) || Array.isArray(a))) return fail('`concat()` of arrays and strings together');
  return args.map(stringOf).join('');
}

function minMax(args: readonly unknown[], pick: (a: number, b: number) => number, name: string): unknown {
  const list = args.length === 1 && Array.isArray(args[0]) ? (args[0] as unknown[]) : args;
  const numbers = list.map(num);
  if (numbers.length === 0 || numbers.some((n) => n === undefined)) return fail(`\`${name}()\` needs numbers`);
  return (numbers as number[]).reduce(pick);
}

function arith(args: readonly unknown[], name: string, op: (a: number, b: number) => number | undefined): unknown {
  const [a, b] = args.map(num);
  if (a === undefined || b === undefined || args.length !== 2) return fail(`\`${name}()\` needs two numbers`);
  const r = op(a, b);
  return r === undefined ? fail(`\`${name}()\` divides by 0`) : r;
}

function toInt(v: unknown): unknown {
  if (typeof v === 'number') return Math.trunc(v);
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v.trim());
  return fail(`\`int()\` of ${JSON.stringify(v)} is not a whole number`);
}

function toBool(v: unknown): unknown {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string' && /^(true|false)$/i.test(v.trim())) return v.trim().toLowerCase() === 'true';
  return fail(`\`bool()\` of ${JSON.stringify(v)}`);
}

function length(v: unknown): unknown {
  if (typeof v === 'string' || Array.isArray(v)) return v.length;
  if (isPlainObject(v)) return Object.keys(v).length;
  return fail('`length()` needs a string, an array or an object');
}

function contains(container: unknown, item: unknown): unknown {
  if (isUnknown(container)) return container;
  if (isUnknown(item)) return item;
  if (typeof container === 'string')
    return typeof item === 'string' || typeof item === 'number'
      ? container.includes(String(item))
      : fail('`contains()` of a string needs a string');
  if (Array.isArray(container)) {
    if (container.some((x) => deepEqual(x, item))) return true;
    const u = firstUnknown(container);
    return u ?? false;
  }
  if (isPlainObject(container))
    return typeof item === 'string'
      ? propertyOf(container, item) !== undefined
      : fail('`contains()` of an object needs a key');
  return fail('`contains()` needs a string, an array or an object');
}

function empty(v: unknown): unknown {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string' || Array.isArray(v)) return v.length === 0;
  if (isPlainObject(v)) return Object.keys(v).length === 0;
  if (isUnknown(v)) return v;
  return fail('`empty()` needs a string, an array or an object');
}

function firstOrLast(v: unknown, first: boolean): unknown {
  if (typeof v === 'string') return v.length === 0 ? '' : first ? v[0] : v[v.length - 1];
  if (Array.isArray(v)) {
    const x = first ? v[0] : v[v.length - 1];
    return x === undefined ? null : x;
  }
  return fail(`\`${first ? 'first' : 'last'}()\` needs a string or an array`);
}

function range(start: unknown, count: unknown): unknown {
  const s = num(start);
  const c = num(count);
  if (s === undefined || c === undefined || !Number.isInteger(s) || !Number.isInteger(c) || c < 0)
    return fail('`range()` needs whole numbers');
  if (c > 10_000) return fail(`\`range(${s}, ${c})\` is larger than anf-lint reads`); // not a fact: bound on work
  return Array.from({ length: c }, (_, i) => s + i);
}

/** Functions that need every argument known. */
/** `startsWith()`, `indexOf()` and the like: two strings, compared without regard to case. */
function ignoringCase(name: string, compare: (s: string, p: string) => unknown) {
  return ([s, p]: readonly unknown[]) =>
    typeof s === 'string' && typeof p === 'string'
      ? compare(s.toLowerCase(), p.toLowerCase())
      : fail(`\`${name}()\` needs strings`);
}

const ALL_KNOWN: Record<string, (args: readonly unknown[]) => unknown> = {
  concat,
  format,
  union,
  string: ([v]) => stringOf(v),
  int: ([v]) => toInt(v),
  bool: ([v]) => toBool(v),
  float: ([v]) =>
    typeof v === 'number'
      ? v
      : typeof v === 'string' && Number.isFinite(Number(v))
        ? Number(v)
        : fail('`float()` of a value that is not a number'),
  json: ([v]) => {
    if (typeof v !== 'string') return fail('`json()` needs a string');
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return fail('`json()` of text that is not JSON');
    }
  },
  equals: ([a, b]) => deepEqual(a, b),
  not: ([v]) => (typeof v === 'boolean' ? !v : fail('`not()` needs a boolean')),
  less: ([a, b]) => compare(a, b, (x) => x < 0),
  lessorequals: ([a, b]) => compare(a, b, (x) => x <= 0),
  greater: ([a, b]) => compare(a, b, (x) => x > 0),
  greaterorequals: ([a, b]) => compare(a, b, (x) => x >= 0),
  mul: (args) => arith(args, 'mul', (a, b) => a * b),
  add: (args) => arith(args, 'add', (a, b) => a + b),
  sub: (args) => arith(args, 'sub', (a, b) => a - b),
  div: (args) => arith(args, 'div', (a, b) => (b === 0 ? undefined : Math.trunc(a / b))),
  mod: (args) => arith(args, 'mod', (a, b) => (b === 0 ? undefined : a % b)),
  min: (args) => minMax(args, Math.min, 'min'),
  max: (args) => minMax(args, Math.max, 'max'),
  split: ([s, d]) => {
    if (typeof s !== 'string') return fail('`split()` needs a string');
    const delimiters =
      typeof d === 'string'
        ? [d]
        : Array.isArray(d) && d.every((x) => typeof x === 'string')
          ? (d as string[])
          : undefined;
    if (!delimiters || delimiters.some((x) => x === '')) return fail('`split()` needs delimiters');
    let parts = [s];
    for (const delim of delimiters) parts = parts.flatMap((p) => p.split(delim));
    return parts;
  },
  join: ([a, d]) =>
    Array.isArray(a) && typeof d === 'string'
      ? a.map(stringOf).join(d)
      : fail('`join()` needs an array and a delimiter'),
  tolower: ([s]) => (typeof s === 'string' ? s.toLowerCase() : fail('`toLower()` needs a string')),
  toupper: ([s]) => (typeof s === 'string' ? s.toUpperCase() : fail('`toUpper()` needs a string')),
  trim: ([s]) => (typeof s === 'string' ? s.trim() : fail('`trim()` needs a string')),
  replace: ([s, a, b]) =>
    typeof s === 'string' && typeof a === 'string' && typeof b === 'string' && a !== ''
      ? s.split(a).join(b)
      : fail('`replace()` needs strings'),
  startswith: ignoringCase('startsWith', (s, p) => s.startsWith(p)),
  endswith: ignoringCase('endsWith', (s, p) => s.endsWith(p)),
  indexof: ignoringCase('indexOf', (s, p) => s.indexOf(p)),
  lastindexof: ignoringCase('lastIndexOf', (s, p) => s.lastIndexOf(p)),
  substring: ([s, start, len]) => {
    const from = num(start) ?? 0;
    if (typeof s !== 'string' || from < 0 || from > s.length) return fail('`substring()` out of range');
    const n = len === undefined ? s.length - from : num(len);
    if (n === undefined || n < 0 || from + n > s.length) return fail('`substring()` out of range');
    return s.slice(from, from + n);
  },
  padleft: ([v, n, c]) => {
    const width = num(n);
    const pad = c === undefined ? ' ' : text(c);
    return width !== undefined && pad !== undefined && pad.length === 1
      ? stringOf(v).padStart(width, pad)
      : fail('`padLeft()` needs a width and one character');
  },
  first: ([v]) => firstOrLast(v, true),
  last: ([v]) => firstOrLast(v, false),
  take: ([v, n]) =>
    (typeof v === 'string' || Array.isArray(v)) && num(n) !== undefined
      ? v.slice(0, Math.max(0, num(n)!))
      : fail('`take()` needs a string or an array and a number'),
  skip: ([v, n]) =>
    (typeof v === 'string' || Array.isArray(v)) && num(n) !== undefined
      ? v.slice(Math.max(0, num(n)!))
      : fail('`skip()` needs a string or an array and a number'),
  range: ([s, c]) => range(s, c),
  intersection: (args) => {
    if (args.length > 0 && args.every(Array.isArray))
      return (args[0] as unknown[]).filter((x) => (args as unknown[][]).every((a) => a.some((y) => deepEqual(x, y))));
    if (args.length > 0 && args.every(isPlainObject)) {
      const [head, ...rest] = args as Record<string, unknown>[];
      return Object.fromEntries(
        Object.entries(head!).filter(([k, v]) => rest.every((o) => deepEqual(propertyOf(o, k), v))),
      );
    }
    return fail('`intersection()` takes arrays or objects');
  },
  items: ([o]) =>
    isPlainObject(o)
      ? Object.keys(o)
          .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()))
          .map((key) => ({ key, value: o[key] }))
      : fail('`items()` needs an object'),
  objectkeys: ([o]) => (isPlainObject(o) ? Object.keys(o) : fail('`objectKeys()` needs an object')),
  array: ([v]) => (Array.isArray(v) ? v : [v]),
};

function compare(a: unknown, b: unknown, test: (x: number) => boolean): unknown {
  if (typeof a === 'number' && typeof b === 'number') return test(a - b);
  if (typeof a === 'string' && typeof b === 'string') return test(a < b ? -1 : a > b ? 1 : 0);
  return fail('comparison of values that are not both numbers or both strings');
}

/** Functions whose answer may be known with some arguments unknown. */
/**
 * `resourceId([subscriptionId], [resourceGroupName], type, name1, name2, ...)` as the ID Azure
 * builds, with `{subscriptionId}` and `{resourceGroupName}` where the deployment decides them:
 * the type and names (what a parent is matched by) are known.
 */
function resourceId(fn: string, args: readonly unknown[]): unknown {
  const typeAt = args.findIndex(
    (a) => typeof a === 'string' && /^[A-Za-z0-9]+(?:\.[A-Za-z0-9]+)+\/[A-Za-z0-9/]+$/.test(a),
  );
  if (typeAt < 0) return firstUnknown(args) ?? new Unknown(`\`${fn}()\` names no resource type anf-lint can read`);
  const before = args.slice(0, typeAt);
  const names = args.slice(typeAt + 1);
  const u = firstUnknown(names);
  if (u) return u;
  const [namespace, ...types] = (args[typeAt] as string).split('/');
  if (types.length !== names.length)
    return new Unknown(`\`${fn}()\` has ${names.length} names for ${types.length} resource types`);
  const known = (v: unknown, placeholder: string) => (typeof v === 'string' ? v : placeholder);
  const sub =
    fn === 'tenantresourceid'
      ? ''
      : `/subscriptions/${known(before.length >= (fn === 'resourceid' ? 2 : 1) ? before[0] : undefined, '{subscriptionId}')}`;
  const rg =
    fn === 'resourceid'
      ? `/resourceGroups/${known(before.length >= 1 ? before[before.length - 1] : undefined, '{resourceGroupName}')}`
      : '';
  return `${sub}${rg}/providers/${namespace}${types.map((t, i) => `/${t}/${String(names[i])}`).join('')}`;
}

const PARTIAL: Record<string, (args: readonly unknown[]) => unknown> = {
  resourceid: (args) => resourceId('resourceid', args),
  subscriptionresourceid: (args) => resourceId('subscriptionresourceid', args),
  tenantresourceid: (args) => resourceId('tenantresourceid', args),
  createarray: (args) => [...args],
  createobject: (args) => {
    if (args.length % 2 !== 0) return fail('`createObject()` needs key and value pairs');
    const out: Record<string, unknown> = {};
    for (let i = 0; i < args.length; i += 2) {
      const key = args[i];
      if (isUnknown(key)) return key;
      if (typeof key !== 'string') return fail('`createObject()` keys are strings');
      out[key] = args[i + 1];
    }
    return out;
  },
  if: ([c, a, b]) =>
    isUnknown(c) ? c : typeof c === 'boolean' ? (c ? a : b) : fail('`if()` needs a boolean condition'),
  and: (args) => logic(args, false),
  or: (args) => logic(args, true),
  coalesce: (args) => {
    for (const a of args) {
      if (isUnknown(a)) return a;
      if (a !== null && a !== undefined) return a;
    }
    return null;
  },
  contains: ([c, i]) => contains(c, i),
  empty: ([v]) => empty(v),
  length: ([v]) => (Array.isArray(v) ? v.length : isUnknown(v) ? v : length(firstUnknown(v) ?? v)),
  null: () => null,
  true: () => true,
  false: () => false,
  // Bicep's `any()` changes a type for the compiler only.
  any: ([v]) => v,
};

/** `and`/`or`: a known deciding operand decides even when another is unknown. */
function logic(args: readonly unknown[], decider: boolean): unknown {
  let unknown: Unknown | undefined;
  for (const a of args) {
    if (a === decider) return decider;
    if (isUnknown(a)) unknown ??= a;
    else if (typeof a !== 'boolean') return fail(`\`${decider ? 'or' : 'and'}()\` needs booleans`);
  }
  return unknown ?? !decider;
}

/** A property of a value (`.name`, `['name']`): case-insensitive as ARM reads objects. */
export function memberOf(base: unknown, key: unknown): unknown {
  if (isUnknown(base)) return base;
  if (isUnknown(key)) return key;
  if (Array.isArray(base)) {
    if (typeof key !== 'number' || !Number.isInteger(key)) return fail('an array is indexed by a whole number');
    return key >= 0 && key < base.length
      ? base[key]
      : fail(`index ${key} is past the end of an array of ${base.length}`);
  }
  if (isPlainObject(base) && typeof key === 'string') {
    const v = propertyOf(base, key);
    return v === undefined ? fail(`the object has no property \`${key}\``) : v;
  }
  return fail(`\`${String(key)}\` of a value that has no properties`);
}
