import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTree } from '../../../server/src/core/iac/treeSitter';
import { Budget, evaluate, type EvalScope, type HclNode } from '../../../server/src/core/iac/hcl/eval';
import { firstUnknown, isUnknown, Unknown, type TfValue } from '../../../server/src/core/iac/hcl/values';

/**
 * The Terraform evaluator on its own: an expression written as `x = <expr>`, a scope of variables
 * and locals, and the value Terraform would compute (or the reason it cannot be known).
 */
const VARS: Record<string, TfValue> = {
  size: 4,
  env: 'prod',
  sites: ['site1', 'site2'],
  volumes: { data: { size: 1024, tier: 'Premium' }, log: { size: 512, tier: 'Ultra' } },
  empty: null,
};

function scopeOf(vars: Record<string, TfValue> = VARS, extra: Record<string, TfValue> = {}): EvalScope {
  return {
    reference(parts) {
      const [root, name] = parts;
      if (root === 'var') return name! in vars ? vars[name!]! : new Unknown(`\`var.${name}\` has no value`);
      const key = parts.join('.');
      if (key in extra) return extra[key]!;
      return new Unknown(`\`${key}\` is not known`);
    },
    readFile: (path) =>
      path === 'sizes.json'
        ? '{"data": 2048}'
        : path === 'sizes.yaml'
          ? 'data: 4096\nlog: [1, 2]\n'
          : new Unknown(`no file ${path}`),
  };
}

function ev(expr: string, scope: EvalScope = scopeOf(), budget?: Budget): TfValue {
  const tree = parseTree('terraform', `x = ${expr}\n`)!;
  try {
    const attr = tree.rootNode.namedChildren[0]!.namedChildren[0]!;
    const value = attr.namedChildren[1]! as unknown as HclNode;
    return evaluate(value, scope, budget);
  } finally {
    tree.delete();
  }
}

function reason(v: TfValue): string {
  const u = firstUnknown(v);
  return u ? u.reason : `known: ${JSON.stringify(v)}`;
}

describe('literals and operators', () => {
  it.each([
    ['1', 1],
    ['1.5e3', 1500],
    ['1.5e-1', 0.15],
    ['2 * (1 + 2)', 6],
    ['"a\\tb\\u0041"', 'a\tbA'],
    ['true', true],
    ['null', null],
    ['1 + 2 * 3', 7],
    ['(1 + 2) * 3', 9],
    ['10 % 4', 2],
    ['-var.size', -4],
    ['!false', true],
    ['var.size >= 4 && var.size < 5', true],
    ['var.size == 4 || var.nope', true],
    ['"4" == 4', false],
    ['[1, "a"] == [1, "a"]', true],
    ['var.env == "prod" ? 8 : 2', 8],
    ['"$${literal}"', '${literal}'],
    ['var.size + "2"', 6],
  ])('%s', (expr, expected) => {
    expect(ev(expr)).toEqual(expected);
  });

  it('unknown operands make unknown results, with the reason', () => {
    expect(reason(ev('var.missing * 1024'))).toBe('`var.missing` has no value');
    expect(reason(ev('var.missing == "prod" ? 1 : 2'))).toContain('the condition `var.missing == "prod"` is unknown');
    expect(ev('false && var.missing')).toBe(false);
  });

  it('type errors are errors, not guesses', () => {
    const v = ev('"abc" * 2');
    expect(isUnknown(v) && v.error).toBe(true);
    expect(isUnknown(ev('1 / 0'))).toBe(true);
  });
});

describe('templates and heredocs', () => {
  it('interpolates and keeps the type of a lone interpolation', () => {
    expect(ev('"${var.env}-${var.size}"')).toBe('prod-4');
    expect(ev('"${var.size}"')).toBe(4);
  });
  it('%{ if } and %{ for } directives, with strip markers', () => {
    expect(ev('"a%{ if var.env == "prod" }P%{ else }D%{ endif }z"')).toBe('aPz');
    expect(ev('"%{ for s in var.sites }${s},%{ endfor }"')).toBe('site1,site2,');
    expect(ev('"x %{ if true }y%{ endif } ${~ 1 ~} z"')).toBe('x y1z');
  });
  it('heredocs, flush ones lose their common indentation', () => {
    expect(ev('<<EOT\nhello ${var.env}\nEOT')).toBe('hello prod\n');
    expect(ev('<<-EOT\n    a\n      b\n    EOT')).toBe('a\n  b\n');
  });
  it('an unknown interpolation makes the string unknown', () => {
    expect(reason(ev('"${var.missing}-x"'))).toBe('`var.missing` has no value');
  });
});

describe('collections, access and splats', () => {
  it('index and attribute access on lists, maps, objects', () => {
    expect(ev('var.sites[1]')).toBe('site2');
    expect(ev('var.volumes["log"].size')).toBe(512);
    expect(ev('var.volumes.data.tier')).toBe('Premium');
    expect(ev('[10, 20].1')).toBe(20);
    expect(ev('{ a = 1, "b-c" = 2 }["b-c"]')).toBe(2);
  });
  it('a missing key or index is an error with the reason', () => {
    expect(reason(ev('var.volumes["tools"]'))).toContain('no key "tools"');
    expect(reason(ev('var.sites[5]'))).toContain('out of range');
  });
  it('splats', () => {
    expect(ev('[{ a = 1 }, { a = 2 }][*].a')).toEqual([1, 2]);
    expect(ev('[{ a = { b = 1 } }, { a = { b = 2 } }].*.a')).toEqual([{ b: 1 }, { b: 2 }]);
    expect(ev('var.empty[*]')).toEqual([]);
    expect(ev('{ a = 1 }[*].a')).toEqual([1]);
  });
  it('an unknown inside a collection leaves the rest known', () => {
    expect(ev('{ a = 1, b = var.missing }.a')).toBe(1);
    expect(reason(ev('[1, var.missing][1]'))).toBe('`var.missing` has no value');
  });
});

describe('for expressions', () => {
  it('list and object forms, with if and grouping', () => {
    expect(ev('[for s in var.sites : upper(s)]')).toEqual(['SITE1', 'SITE2']);
    expect(ev('[for i, s in var.sites : "${i}:${s}"]')).toEqual(['0:site1', '1:site2']);
    expect(ev('{ for k, v in var.volumes : k => v.size if v.size > 600 }')).toEqual({ data: 1024 });
    expect(ev('{ for v in ["a", "b", "a"] : v => 1... }')).toEqual({ a: [1, 1], b: [1] });
    expect(reason(ev('{ for v in ["a", "a"] : v => 1 }'))).toContain('twice');
  });
  it('an unknown source makes the whole result unknown', () => {
    expect(reason(ev('[for s in var.missing : s]'))).toBe('`var.missing` has no value');
  });
});

describe('functions', () => {
  it.each([
    ['lookup(var.volumes, "log", null).size', 512],
    ['lookup({}, "x", 7)', 7],
    ['merge({ a = 1 }, { b = 2 }, { a = 3 })', { a: 3, b: 2 }],
    ['concat([1], [2, 3])', [1, 2, 3]],
    ['element(var.sites, 3)', 'site2'],
    ['length(var.volumes)', 2],
    ['keys(var.volumes)', ['data', 'log']],
    ['values({ b = 2, a = 1 })', [1, 2]],
    ['contains(var.sites, "site2")', true],
    ['format("%s-%03d", "vol", 7)', 'vol-007'],
    ['join("-", ["a", "b"])', 'a-b'],
    ['split(",", "a,b")', ['a', 'b']],
    ['replace("a-b-c", "-", "_")', 'a_b_c'],
    ['replace("hana01", "/[0-9]+/", "")', 'hana'],
    ['lower("AbC")', 'abc'],
    ['upper("abc")', 'ABC'],
    ['tonumber("42")', 42],
    ['tostring(42)', '42'],
    ['tolist(toset(["b", "a", "b"]))', ['a', 'b']],
    ['tomap({ a = 1 })', { a: 1 }],
    ['min(3, 1, 2)', 1],
    ['max(3, 1, 2)', 3],
    ['ceil(1.2)', 2],
    ['floor(1.8)', 1],
    ['flatten([[1, [2]], 3])', [1, 2, 3]],
    ['distinct([1, 1, 2])', [1, 2]],
    ['zipmap(["a", "b"], [1, 2])', { a: 1, b: 2 }],
    ['cidrsubnet("10.0.0.0/16", 8, 2)', '10.0.2.0/24'],
    ['cidrsubnet("10.1.0.0/16", 12, 1)', '10.1.0.16/28'],
    ['jsondecode("{\\"a\\": [1, 2]}").a[1]', 2],
    ['yamldecode(file("sizes.yaml")).log', [1, 2]],
    ['jsondecode(file("sizes.json")).data', 2048],
    ['max([4, 9]...)', 9],
    ['try(var.volumes.tools.size, 100)', 100],
    ['try(var.volumes.data.size, 100)', 1024],
    ['can(var.volumes.tools)', false],
    ['coalesce("", null, "x")', 'x'],
    ['range(3)', [0, 1, 2]],
  ])('%s', (expr, expected) => {
    expect(ev(expr)).toEqual(expected);
  });

  it('try, can and coalesce keep an unknown unknown (Terraform cannot decide either)', () => {
    expect(reason(ev('try(var.missing, 100)'))).toBe('`var.missing` has no value');
    expect(reason(ev('can(var.missing)'))).toBe('`var.missing` has no value');
    expect(reason(ev('coalesce(var.missing, "x")'))).toBe('`var.missing` has no value');
    expect(ev('coalesce("y", var.missing)')).toBe('y');
  });

  it('a function anf-lint does not evaluate says so; a file outside the reach says why', () => {
    expect(reason(ev('timestamp()'))).toBe('anf-lint does not evaluate the function `timestamp`');
    expect(reason(ev('file("../../etc/passwd")'))).toBe('no file ../../etc/passwd');
  });
});

describe('references through the scope', () => {
  it('resource attributes, instances, each and count', () => {
    const scope = scopeOf(VARS, {
      'azurerm_netapp_pool.p': { name: 'pool1' },
      'azurerm_netapp_pool.q': { a: { name: 'qa' }, b: { name: 'qb' } },
      each: { key: 'log', value: { size: 512 } },
      count: { index: 1 },
      'module.m': { pool_id: 'x' },
    });
    expect(ev('azurerm_netapp_pool.p.name', scope)).toBe('pool1');
    expect(ev('azurerm_netapp_pool.q["b"].name', scope)).toBe('qb');
    expect(ev('"${each.key}-${each.value.size}-${count.index}"', scope)).toBe('log-512-1');
    expect(ev('module.m.pool_id', scope)).toBe('x');
    expect(reason(ev('data.azurerm_subnet.s.id', scope))).toBe('`data.azurerm_subnet.s` is not known');
  });
});

describe('bounds', () => {
  it('a 2,000-deep nested expression is unknown, not a stack overflow', () => {
    const deep = `${'('.repeat(2000)}1${')'.repeat(2000)}`;
    const v = ev(deep);
    expect(isUnknown(v) || v === 1).toBe(true);
    const sum = Array.from({ length: 2000 }, () => '1').join(' + ');
    expect(() => ev(sum)).not.toThrow();
  });
  it('stops after the step budget', () => {
    const budget = new Budget(10);
    expect(reason(ev('[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]', scopeOf(), budget))).toContain('evaluation steps');
  });
});

describe('properties', () => {
  const atom = fc.constantFrom(
    '1',
    '2.5e2',
    '"s"',
    'true',
    'null',
    'var.size',
    'var.missing',
    'var.sites',
    'var.volumes',
    '[1, 2]',
    '{ a = 1 }',
    'each.key',
  );
  const expr: fc.Arbitrary<string> = fc.letrec((tie) => ({
    e: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc
        .tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '==', '!=', '<', '&&', '||'), tie('e'))
        .map(([a, op, b]) => `(${a} ${op} ${b})`),
      fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
      fc
        .tuple(
          fc.constantFrom(
            'length',
            'keys',
            'merge',
            'concat',
            'try',
            'coalesce',
            'lookup',
            'tostring',
            'flatten',
            'format',
            'element',
            'max',
          ),
          fc.array(tie('e'), { maxLength: 3 }),
        )
        .map(([f, args]) => `${f}(${args.join(', ')})`),
      fc.tuple(tie('e'), tie('e')).map(([a, b]) => `(${a})[${b}]`),
      tie('e').map((a) => `[for x in ${a} : x]`),
      tie('e').map((a) => `"p-\${${a}}"`),
    ),
  })).e;

  it('evaluation never throws, and an unknown always has a reason', () => {
    fc.assert(
      fc.property(expr, (e) => {
        const v = ev(e);
        const u = firstUnknown(v);
        if (u) expect(u.reason.length).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
