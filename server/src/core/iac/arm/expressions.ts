/**
 * The ARM template expression language: a JSON string that starts with `[` and ends with `]` is an
 * expression (`[concat(parameters('account'), '/', parameters('pool'))]`); one that starts with
 * `[[` is the literal text without its first `[`. Inside: function calls (names case-insensitive),
 * strings in single quotes (`''` is a quote), integers, `true`/`false`/`null`, property access
 * (`.name`) and indexing (`[0]`, `['key']`).
 * Reference: "Syntax and expressions in ARM templates",
 * https://learn.microsoft.com/azure/azure-resource-manager/templates/template-expressions
 *
 * The parser knows nothing of ANF: it turns text into a tree; evaluate.ts gives it values.
 */

export type ArmExpr =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'call'; readonly name: string; readonly args: readonly ArmExpr[] }
  | { readonly kind: 'member'; readonly object: ArmExpr; readonly property: string }
  | { readonly kind: 'index'; readonly object: ArmExpr; readonly index: ArmExpr };

/** What a JSON string holds: an expression, or literal text (an escaped `[[...]` included). */
export type ArmString =
  | { readonly kind: 'literal'; readonly text: string }
  | { readonly kind: 'expression'; readonly expr: ArmExpr }
  | { readonly kind: 'invalid'; readonly reason: string };

/** Nesting beyond this (calls in calls, indexes in indexes) is not read: a bound on work and stack. */
const MAX_NESTING = 100; // not a fact: bound on recursion depth
/** ARM's own limit on an expression's length ("A template expression can't exceed 24,576 characters."). */
const MAX_EXPRESSION_LENGTH = 24576; // not a fact: a bound on the parser's work per expression

export function classifyArmString(text: string): ArmString {
  if (!text.startsWith('[') || !text.endsWith(']')) return { kind: 'literal', text };
  if (text.startsWith('[[')) return { kind: 'literal', text: text.slice(1) };
  if (text.length > MAX_EXPRESSION_LENGTH + 2)
    return {
      kind: 'invalid',
      reason: `the expression is longer than ARM's limit of ${MAX_EXPRESSION_LENGTH} characters`,
    };
  try {
    return { kind: 'expression', expr: new Parser(text.slice(1, -1)).whole() };
  } catch (error) {
    return {
      kind: 'invalid',
      reason: error instanceof ExpressionError ? error.message : 'the expression could not be read',
    };
  }
}

class ExpressionError extends Error {}

class Parser {
  private at = 0;
  private depth = 0;
  constructor(private readonly text: string) {}

  whole(): ArmExpr {
    const e = this.expression();
    this.blank();
    if (this.at < this.text.length) this.fail(`unexpected \`${this.text.slice(this.at, this.at + 12)}\``);
    return e;
  }

  private fail(what: string): never {
    throw new ExpressionError(`the expression does not parse (${what} at character ${this.at + 1})`);
  }

  private blank(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at++;
  }

  private expression(): ArmExpr {
    if (++this.depth > MAX_NESTING) throw new ExpressionError(`the expression is nested more than ${MAX_NESTING} deep`);
    this.blank();
    let e = this.primary();
    for (;;) {
      this.blank();
      const c = this.text[this.at];
      if (c === '.') {
        this.at++;
        this.blank();
        const name = this.identifier();
        if (!name) this.fail('a property name expected');
        e = { kind: 'member', object: e, property: name };
      } else if (c === '[') {
        this.at++;
        const index = this.expression();
        this.blank();
        if (this.text[this.at] !== ']') this.fail('`]` expected');
        this.at++;
        e = { kind: 'index', object: e, index };
      } else break;
    }
    this.depth--;
    return e;
  }

  private identifier(): string {
    const m = /^[A-Za-z_$][\w$]*/.exec(this.text.slice(this.at, this.at + 200)); // a bound on one identifier's length
    if (!m) return '';
    this.at += m[0].length;
    return m[0];
  }

  private primary(): ArmExpr {
    const c = this.text[this.at];
    if (c === "'") return this.string();
    if (c !== undefined && /[-\d]/.test(c)) {
      const m = /^-?\d+(?:\.\d+)?/.exec(this.text.slice(this.at, this.at + 40)); // a bound on one number's length
      if (!m) this.fail('a number expected');
      this.at += m[0].length;
      return { kind: 'number', value: Number(m[0]) };
    }
    const name = this.identifier();
    if (!name) this.fail(c === undefined ? 'the expression ends early' : `unexpected \`${c}\``);
    this.blank();
    if (this.text[this.at] !== '(') {
      // `true`, `false` and `null` are functions in ARM; written without parentheses, read as their values.
      const lower = name.toLowerCase();
      if (lower === 'true' || lower === 'false' || lower === 'null') return { kind: 'call', name: lower, args: [] };
      this.fail(`\`(\` expected after \`${name}\``);
    }
    this.at++;
    const args: ArmExpr[] = [];
    this.blank();
    if (this.text[this.at] === ')') {
      this.at++;
      return { kind: 'call', name: name.toLowerCase(), args };
    }
    for (;;) {
      args.push(this.expression());
      this.blank();
      const next = this.text[this.at];
      if (next === ',') {
        this.at++;
        continue;
      }
      if (next === ')') {
        this.at++;
        break;
      }
      this.fail('`,` or `)` expected');
    }
    return { kind: 'call', name: name.toLowerCase(), args };
  }

  private string(): ArmExpr {
    this.at++;
    let value = '';
    for (;;) {
      const end = this.text.indexOf("'", this.at);
      if (end < 0) this.fail('a string is not closed');
      value += this.text.slice(this.at, end);
      this.at = end + 1;
      if (this.text[this.at] === "'") {
        value += "'";
        this.at++;
        continue;
      }
      return { kind: 'string', value };
    }
  }
}
