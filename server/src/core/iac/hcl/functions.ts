import { parse as parseYaml } from 'yaml';
import { IPV4, parseIpv4Cidr } from '../ipv4';
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
  type Unknown,
  type TfObject,
  type TfValue,
} from './values';

/**
 * Terraform's built-in functions that decide what infrastructure code deploys (sizes, names, maps
 * of volumes), on the values of values.ts. A function anf-lint does not implement gives an unknown
 * that says so, never a guess. Reference: developer.hashicorp.com/terraform/language/functions.
 *
 * `try`, `can` and `coalesce` are Terraform's way to say "this or that"; they decide only where
 * Terraform could: a value that is only unknown (not an error) keeps the result unknown.
 */

export interface FunctionContext {
  /** The text of a file of the repository, by a path relative to the module's folder; an Unknown saying why not. */
  readonly readFile?: (path: string) => string | Unknown;
}

type Fn = (args: TfValue[], ctx: FunctionContext) => TfValue;

const FUNCTIONS: Record<string, Fn> = {
  try: (args) => {
    for (const a of args) {
      const u = firstUnknown(a);
      if (!u) return a;
      if (!u.error) return unknown(u.reason);
    }
    return failure('no argument of `try` could be evaluated');
  },
  can: (args) => {
    if (args.length !== 1) return failure('`can` takes one argument');
    const u = firstUnknown(args[0]!);
    if (!u) return true;
    return u.error ? false : unknown(u.reason);
  },
  coalesce: (args) => {
    for (const a of args) {
      if (isUnknown(a)) return a.error ? a : unknown(a.reason);
      if (a === null || a === '') continue;
      return a;
    }
    return failure('no argument of `coalesce` is set');
  },
  coalescelist: (args) => {
    for (const a of args) {
      if (isUnknown(a)) return a;
      if (Array.isArray(a) && a.length > 0) return a;
    }
    return failure('every argument of `coalescelist` is empty');
  },
  lookup: (args) => {
    const [map, key, fallback] = args;
    if (!isObject(map ?? null)) return typed('lookup', 'a map', map);
    const k = asString(key ?? null);
    if (isUnknown(k)) return k;
    if (Object.hasOwn(map as TfObject, k)) return (map as TfObject)[k]!;
    return args.length >= 3 ? fallback! : failure(`the map has no key "${k}" and \`lookup\` was given no default`);
  },
  merge: (args) => {
    const out: TfObject = {};
    for (const a of args) {
      if (a === null) continue;
      if (!isObject(a)) return typed('merge', 'maps or objects', a);
      Object.assign(out, a);
    }
    return out;
  },
  concat: (args) => {
    const out: TfValue[] = [];
    for (const a of args) {
      if (!Array.isArray(a)) return typed('concat', 'lists', a);
      out.push(...a);
    }
    return out;
  },
  element: (args) => {
    const [list, index] = args;
    if (!Array.isArray(list)) return typed('element', 'a list', list);
    const i = asNumber(index ?? null);
    if (isUnknown(i)) return i;
    if (list.length === 0) return failure('`element` of an empty list');
    return list[((Math.floor(i) % list.length) + list.length) % list.length]!;
  },
  length: (args) => {
    const [v] = args;
    if (typeof v === 'string') return [...v].length;
    if (Array.isArray(v)) return v.length;
    if (isObject(v ?? null)) return Object.keys(v as TfObject).length;
    return typed('length', 'a string, list or map', v);
  },
  keys: (args) =>
    isObject(args[0] ?? null) ? Object.keys(args[0] as TfObject).sort() : typed('keys', 'a map', args[0]),
  values: (args) => {
    const m = args[0] ?? null;
    if (!isObject(m)) return typed('values', 'a map', m);
    return Object.keys(m)
      .sort()
      .map((k) => m[k]!);
  },
  contains: (args) => {
    const [list, v] = args;
    if (!Array.isArray(list)) return typed('contains', 'a list or set', list);
    const u = firstUnknown(v ?? null) ?? firstUnknown(list);
    if (list.some((x) => !isUnknown(x) && equal(x, v ?? null))) return true;
    return u ? unknown(u.reason) : false;
  },
  format: (args) => format(args),
  join: (args) => {
    const [sep, ...lists] = args;
    const s = asString(sep ?? null);
    if (isUnknown(s)) return s;
    const parts: string[] = [];
    for (const l of lists) {
      if (!Array.isArray(l)) return typed('join', 'lists', l);
      for (const x of l) {
        const t = asString(x);
        if (isUnknown(t)) return t;
        parts.push(t);
      }
    }
    return parts.join(s);
  },
  split: (args) => strings(args, 2, ([sep, s]) => (s === '' ? [''] : s!.split(sep!))),
  replace: (args) =>
    strings(args, 3, ([s, find, by]) => {
      const regex = /^\/(.*)\/$/s.exec(find!);
      if (regex) {
        try {
          return s!.replace(new RegExp(regex[1]!, 'g'), by!.replace(/\$\{(\d+)\}/g, '$$$1'));
        } catch {
          return failure(`\`replace\`: ${find} is not a regular expression anf-lint can read`);
        }
      }
      return s!.split(find!).join(by!);
    }),
  lower: (args) => strings(args, 1, ([s]) => s!.toLowerCase()),
  upper: (args) => strings(args, 1, ([s]) => s!.toUpperCase()),
  trimspace: (args) => strings(args, 1, ([s]) => s!.trim()),
  substr: (args) => {
    const s = asString(args[0] ?? null);
    const off = asNumber(args[1] ?? null);
    const len = asNumber(args[2] ?? null);
    if (isUnknown(s)) return s;
    if (isUnknown(off)) return off;
    if (isUnknown(len)) return len;
    const chars = [...s];
    const start = off < 0 ? chars.length + off : off;
    return chars.slice(start, len < 0 ? undefined : start + len).join('');
  },
  tonumber: (args) => (args[0] === null ? null : asNumber(args[0] ?? null)),
  tostring: (args) => (args[0] === null ? null : asString(args[0] ?? null)),
  tobool: (args) => (args[0] === null ? null : asBool(args[0] ?? null)),
  tolist: (args) => (Array.isArray(args[0]) ? [...args[0]] : typed('tolist', 'a list, set or tuple', args[0])),
  toset: (args) => (Array.isArray(args[0]) ? makeSet(args[0]) : typed('toset', 'a list, set or tuple', args[0])),
  tomap: (args) => (isObject(args[0] ?? null) ? args[0]! : typed('tomap', 'a map or object', args[0])),
  min: (args) => numbers(args, (ns) => Math.min(...ns)),
  max: (args) => numbers(args, (ns) => Math.max(...ns)),
  ceil: (args) => numbers(args, ([n]) => Math.ceil(n!)),
  floor: (args) => numbers(args, ([n]) => Math.floor(n!)),
  abs: (args) => numbers(args, ([n]) => Math.abs(n!)),
  pow: (args) => numbers(args, ([a, b]) => a! ** b!),
  flatten: (args) => {
    if (!Array.isArray(args[0])) return typed('flatten', 'a list', args[0]);
    const out: TfValue[] = [];
    const stack: TfValue[] = [...args[0]].reverse();
    while (stack.length > 0) {
      const x = stack.pop()!;
      if (Array.isArray(x)) for (let i = x.length - 1; i >= 0; i--) stack.push(x[i]!);
      else out.push(x);
    }
    return out;
  },
  distinct: (args) => {
    if (!Array.isArray(args[0])) return typed('distinct', 'a list', args[0]);
    const out: TfValue[] = [];
    for (const x of args[0]) if (!out.some((y) => equal(x, y))) out.push(x);
    return out;
  },
  zipmap: (args) => {
    const [ks, vs] = args;
    if (!Array.isArray(ks) || !Array.isArray(vs)) return typed('zipmap', 'two lists', Array.isArray(ks) ? vs : ks);
    if (ks.length !== vs.length) return failure('`zipmap`: the lists have different lengths');
    const out: TfObject = {};
    for (let i = 0; i < ks.length; i++) {
      const k = asString(ks[i]!);
      if (isUnknown(k)) return k;
      out[k] = vs[i]!;
    }
    return out;
  },
  range: (args) =>
    numbers(args, (ns) => {
      const [start, end, step] =
        ns.length === 1 ? [0, ns[0]!, 1] : [ns[0]!, ns[1]!, ns[2] ?? (ns[1]! >= ns[0]! ? 1 : -1)];
      if (step === 0) return failure('`range` with a step of 0');
      const out: number[] = [];
      for (let x = start; step > 0 ? x < end : x > end; x += step) {
        out.push(x);
        if (out.length > 1024) return failure('`range` of more than 1,024 numbers'); // not a fact: Terraform's own limit is 1,024
      }
      return out;
    }),
  cidrsubnet: (args) => cidrsubnet(args),
  jsondecode: (args) =>
    strings(args, 1, ([s]) => {
      try {
        return fromJs(JSON.parse(s!));
      } catch {
        return failure('`jsondecode` of text that is not JSON');
      }
    }),
  jsonencode: (args) => {
    const u = firstUnknown(args[0] ?? null);
    return u ? u : JSON.stringify(args[0] ?? null);
  },
  yamldecode: (args) =>
    strings(args, 1, ([s]) => {
      try {
        return fromJs(parseYaml(s!, { maxAliasCount: 100 }) as unknown);
      } catch {
        return failure('`yamldecode` of text that is not YAML');
      }
    }),
  file: (args, ctx) =>
    strings(args, 1, ([path]) => {
      if (!ctx.readFile) return unknown(`\`file("${path}")\`: anf-lint reads no file here`);
      return ctx.readFile(path!);
    }),
  // A file anf-lint cannot see may still exist: unknown, never false.
  fileexists: (args, ctx) =>
    strings(args, 1, ([path]) => {
      if (!ctx.readFile) return unknown(`\`fileexists("${path}")\`: anf-lint reads no file here`);
      const text = ctx.readFile(path!);
      return isUnknown(text) ? text : true;
    }),
  templatefile: (args, ctx) => {
    const path = asString(args[0] ?? null);
    if (isUnknown(path)) return path;
    const vars = args[1] ?? {};
    if (!isObject(vars)) return typed('templatefile', 'an object of variables', vars);
    if (!ctx.readFile) return unknown(`\`templatefile("${path}")\`: anf-lint reads no file here`);
    const text = ctx.readFile(path);
    if (isUnknown(text)) return text;
    return renderTemplate(text, vars, path);
  },
  abspath: (args) => strings(args, 1, ([p]) => p!),
  startswith: (args) => strings(args, 2, ([s, p]) => s!.startsWith(p!)),
  endswith: (args) => strings(args, 2, ([s, p]) => s!.endsWith(p!)),
  setunion: (args) =>
    args.every(Array.isArray)
      ? makeSet(args.flatMap((a) => a as TfValue[]))
      : typed(
          'setunion',
          'sets',
          args.find((a) => !Array.isArray(a)),
        ),
  compact: (args) =>
    Array.isArray(args[0]) ? args[0].filter((x) => x !== null && x !== '') : typed('compact', 'a list', args[0]),
  reverse: (args) => (Array.isArray(args[0]) ? [...args[0]].reverse() : typed('reverse', 'a list', args[0])),
  slice: (args) => {
    const [list, a, b] = args;
    if (!Array.isArray(list)) return typed('slice', 'a list', list);
    const from = asNumber(a ?? null);
    const to = asNumber(b ?? null);
    if (isUnknown(from)) return from;
    if (isUnknown(to)) return to;
    if (from < 0 || to > list.length || from > to) return failure('`slice`: index out of range');
    return list.slice(from, to);
  },
  one: (args) => {
    const [list] = args;
    if (!Array.isArray(list)) return typed('one', 'a list or set', list);
    if (list.length > 1) return failure('`one` of a list with more than one element');
    return list[0] ?? null;
  },
  sum: (args) => {
    if (!Array.isArray(args[0])) return typed('sum', 'a list of numbers', args[0]);
    return numbers(args[0], (ns) => ns.reduce((a, b) => a + b, 0));
  },
  index: (args) => {
    const [list, v] = args;
    if (!Array.isArray(list)) return typed('index', 'a list', list);
    const i = list.findIndex((x) => equal(x, v ?? null));
    return i >= 0 ? i : failure('`index`: the value is not in the list');
  },
};

/** Functions whose arguments may be unknown or errors: they decide for themselves. */
const SEES_UNKNOWN: ReadonlySet<string> = new Set([
  'try',
  'can',
  'coalesce',
  'contains',
  'length',
  'concat',
  'merge',
  'tolist',
  'toset',
  'flatten',
  'element',
  'lookup',
  'values',
  'compact',
  'reverse',
  'slice',
  'one',
  'coalescelist',
  'keys',
  'zipmap',
]);

/** Calls a built-in function by name (`provider::` functions and unknown names stay unknown, saying so). */
export function callFunction(name: string, args: TfValue[], ctx: FunctionContext = {}): TfValue {
  const fn = Object.hasOwn(FUNCTIONS, name) ? FUNCTIONS[name] : undefined;
  if (!fn) return unknown(`anf-lint does not evaluate the function \`${name}\``);
  if (!SEES_UNKNOWN.has(name)) {
    for (const a of args) {
      const u = firstUnknown(a);
      if (u) return u;
    }
  } else if (name !== 'try' && name !== 'can' && name !== 'coalesce') {
    // The collection itself must be known (its elements may not be).
    for (const a of args) if (isUnknown(a)) return a;
  }
  try {
    return fn(args, ctx);
  } catch {
    return failure(`\`${name}\` could not be evaluated with these arguments`);
  }
}

export function isFunction(name: string): boolean {
  return Object.hasOwn(FUNCTIONS, name);
}

function typed(name: string, wanted: string, got: TfValue | undefined): Unknown {
  return failure(`\`${name}\` takes ${wanted}, not ${typeName(got ?? null)}`);
}

/**
 * A template file with plain interpolations (`${name}`, `${name.attr}`, `${name["key"]}` of the
 * variables given): its text. Directives (`%{ if }`, `%{ for }`) and other expressions are unknown
 * (anf-lint evaluates the simple form only); `$${` and `%%{` are the escapes.
 */
function renderTemplate(text: string, vars: TfObject, path: string): TfValue {
  if (/(?<!%)%\{/.test(text))
    return unknown(
      `\`templatefile("${path}")\`: the template uses \`%{ }\` directives, which anf-lint does not evaluate in template files`,
    );
  let out = '';
  let at = 0;
  const pattern = /\$\$\{|%%\{|\$\{\s*([^{}]*?)\s*\}/g;
  for (const m of text.matchAll(pattern)) {
    out += text.slice(at, m.index);
    at = (m.index ?? 0) + m[0].length;
    if (m[0] === '$${') {
      out += '${';
      continue;
    }
    if (m[0] === '%%{') {
      out += '%{';
      continue;
    }
    const expr = m[1] ?? '';
    const steps = /^([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*|\["[^"\\]*"\]|\[\d+\])*)$/.exec(expr);
    if (!steps)
      return unknown(
        `\`templatefile("${path}")\`: \`\${${expr.slice(0, 40)}}\` is not a plain variable, which is all anf-lint evaluates in template files`,
      );
    let value: TfValue = Object.hasOwn(vars, steps[1]!)
      ? vars[steps[1]!]!
      : failure(`\`templatefile("${path}")\`: the template uses \`${steps[1]}\`, which the call does not pass`);
    for (const step of steps[2]!.matchAll(/\.([A-Za-z_][\w-]*)|\["([^"\\]*)"\]|\[(\d+)\]/g)) {
      if (isUnknown(value)) break;
      const key = step[1] ?? step[2];
      if (key !== undefined)
        value = isObject(value) && Object.hasOwn(value, key) ? value[key]! : failure(`\`${expr}\`: no \`${key}\``);
      else
        value = Array.isArray(value)
          ? (value[Number(step[3])] ?? failure(`\`${expr}\`: out of range`))
          : failure(`\`${expr}\`: not a list`);
    }
    const s = asString(value);
    if (isUnknown(s)) return s;
    out += s;
  }
  return out + text.slice(at);
}

function strings(args: TfValue[], count: number, f: (s: (string | undefined)[]) => TfValue): TfValue {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const s = asString(args[i] ?? null);
    if (isUnknown(s)) return s;
    out.push(s);
  }
  return f(out);
}

function numbers(args: TfValue[], f: (ns: number[]) => TfValue): TfValue {
  const out: number[] = [];
  for (const a of args) {
    const n = asNumber(a);
    if (isUnknown(n)) return n;
    out.push(n);
  }
  return f(out);
}

/** JSON or YAML data as Terraform values (dates and other YAML types as strings). */
function fromJs(v: unknown): TfValue {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
  if (Array.isArray(v)) return v.map(fromJs);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    const out: TfObject = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out[k] = fromJs(x);
    return out;
  }
  return String(v);
}

/** `format`: the verbs Terraform documents (%s %d %f %v %q %t %%, width and precision). */
function format(args: TfValue[]): TfValue {
  const spec = asString(args[0] ?? null);
  if (isUnknown(spec)) return spec;
  let next = 1;
  let failed: Unknown | undefined;
  const text = spec.replace(
    /%(-?)(0?)(\d*)(?:\.(\d+))?([sdfvqtbxXoeEgG%])/g,
    (_m, left: string, zero: string, width: string, precision: string | undefined, verb: string) => {
      if (verb === '%') return '%';
      const arg = args[next++];
      if (arg === undefined) {
        failed ??= failure('`format` has fewer arguments than verbs');
        return '';
      }
      let out: string;
      if (verb === 'd') {
        const n = asNumber(arg);
        if (isUnknown(n)) return ((failed ??= n), '');
        out = Math.trunc(n).toString();
      } else if (verb === 'f' || verb === 'e' || verb === 'g') {
        const n = asNumber(arg);
        if (isUnknown(n)) return ((failed ??= n), '');
        out =
          verb === 'e'
            ? n.toExponential(precision ? Number(precision) : 6)
            : n.toFixed(precision ? Number(precision) : 6);
      } else if (verb === 'x' || verb === 'X' || verb === 'o' || verb === 'b') {
        const n = asNumber(arg);
        if (isUnknown(n)) return ((failed ??= n), '');
        out = Math.trunc(n).toString(verb === 'o' ? 8 : verb === 'b' ? 2 : 16);
        if (verb === 'X') out = out.toUpperCase();
      } else if (verb === 'q') {
        const s = asString(arg);
        if (isUnknown(s)) return ((failed ??= s), '');
        out = JSON.stringify(s);
      } else if (verb === 'v' && typeof arg !== 'string' && typeof arg !== 'number' && typeof arg !== 'boolean') {
        out = show(arg, 10_000); // not a fact: bound on a formatted value
      } else {
        const s = asString(arg);
        if (isUnknown(s)) return ((failed ??= s), '');
        out = s;
      }
      const w = width ? Number(width) : 0;
      if (out.length < w) out = left ? out.padEnd(w) : out.padStart(w, zero && verb !== 's' ? '0' : ' ');
      return out;
    },
  );
  return failed ?? text;
}

/** `cidrsubnet(prefix, newbits, netnum)` for IPv4 prefixes. */
function cidrsubnet(args: TfValue[]): TfValue {
  const prefix = asString(args[0] ?? null);
  const bits = asNumber(args[1] ?? null);
  const num = asNumber(args[2] ?? null);
  if (isUnknown(prefix)) return prefix;
  if (isUnknown(bits)) return bits;
  if (isUnknown(num)) return num;
  const cidr = parseIpv4Cidr(prefix);
  if (!cidr) return unknown(`anf-lint evaluates \`cidrsubnet\` of IPv4 prefixes only, not "${prefix}"`);
  const { octets, length } = cidr;
  if (!cidr.valid) return failure(`"${prefix}" is not an IPv4 prefix`);
  const newLength = length + bits;
  if (newLength > IPV4.bits || bits < 0) return failure(`\`cidrsubnet\`: ${bits} more bits do not fit a /${length}`);
  if (num < 0 || num >= 2 ** bits) return failure(`\`cidrsubnet\`: ${num} does not fit in ${bits} bits`);
  const base = octets.reduce((a, o) => a * 256 + o, 0); // not a fact: IPv4 octets
  const network = (base - (base % 2 ** (IPV4.bits - length))) % 2 ** IPV4.bits;
  const address = network + num * 2 ** (IPV4.bits - newLength);
  const parts = [24, 16, 8, 0].map((s) => Math.floor(address / 2 ** s) % 256); // not a fact: IPv4 octets
  return `${parts.join('.')}/${numberText(newLength)}`;
}

export { isSet };
