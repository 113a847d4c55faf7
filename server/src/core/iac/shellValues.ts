import type { SourceText } from '../text/sourceText';
import type { ShellWord } from '../text/shell';

/**
 * What a shell script's variables hold where a command uses them: assignments (`POOL_SIZE=4`,
 * `export NAME="anf-${ENV}"`, `SIZE=$((4 * 1024))`) read in the order they run, so a command sees
 * the last value set above it. A value anf-lint cannot know (set outside the script, computed by a
 * command, set by a loop or `read`) is kept as unknown with the reason, in words a user can act on.
 */
export interface ShellValue {
  readonly value?: string;
  readonly unknown?: string;
  /** "`$POOL_SIZE` = 4, from line 3", for every variable the value used. */
  readonly origin?: string;
}

interface Variable {
  readonly value?: string;
  readonly unknown?: string;
  readonly line: number;
}

const MAX_ORIGINS = 3; // not a fact: how many variables a hover names
// Sticky: matched where the `$` stands, without slicing the text (a long word has many).
const PIPELINE_VARIABLE = /\$\(([A-Za-z_][A-Za-z0-9_.]*)\)/y;
const BRACED = /\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])(?:(:?[-=+?])([^}]*))?\}/y;
const PLAIN = /\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#])/y;

export class ShellVariables {
  private readonly vars = new Map<string, Variable>();
  /** Azure Pipelines variables, which it puts into a script's `$(name)` before the script runs. */
  private readonly macros = new Map<string, Variable>();

  constructor(private readonly source: SourceText) {}

  /** A variable set outside the script text (a CI step's `env:`), with where it is written. */
  preset(name: string, value: string | undefined, line: number, unknown?: string): void {
    this.vars.set(name, {
      ...(value !== undefined
        ? { value }
        : { unknown: unknown ?? `\`$${name}\` is computed where it is set (line ${line})` }),
      line,
    });
  }

  /** A pipeline variable a script uses as `$(name)` (Azure Pipelines macro syntax). */
  presetMacro(name: string, value: string | undefined, line: number, unknown?: string): void {
    this.macros.set(name, {
      ...(value !== undefined
        ? { value }
        : { unknown: unknown ?? `\`$(${name})\` is computed where it is set (line ${line})` }),
      line,
    });
  }

  /** `NAME=value` (a word of an assignment command). */
  assign(word: ShellWord): void {
    const eq = word.raw.indexOf('=');
    const name = word.raw.slice(0, eq);
    const at = word.value.indexOf('=');
    const valueWord: ShellWord = { ...word, value: word.value.slice(at + 1) };
    const line = this.source.positionAt(word.span.start).line + 1;
    const evaluated = this.evaluate(valueWord);
    if (evaluated.value !== undefined) this.vars.set(name, { value: evaluated.value, line });
    else this.vars.set(name, { unknown: this.reasonAt(name, line, evaluated.unknown), line });
  }

  /** `for NAME in ...`, `read NAME`: set, but to values only the run knows. */
  setByRun(name: string, how: string, offset: number): void {
    const line = this.source.positionAt(offset).line + 1;
    this.vars.set(name, {
      unknown: `\`$${name}\` is set by ${how} (line ${line}): anf-lint does not run the script`,
      line,
    });
  }

  private reasonAt(name: string, line: number, inner: string | undefined): string {
    return inner && inner.startsWith(`\`$${name}\``)
      ? inner
      : `\`$${name}\` (set on line ${line}) ${inner ? `uses a value anf-lint cannot know: ${inner}` : 'is computed when the script runs'}`;
  }

  /** A word's value with the variables it uses put in, or why it cannot be known. */
  evaluate(word: Pick<ShellWord, 'value' | 'templated'>): ShellValue {
    if (!word.templated) return { value: word.value };
    return this.expand(word.value);
  }

  expand(text: string): ShellValue {
    const origins: string[] = [];
    let unknown: string | undefined;
    const substitute = (name: string, operator: string | undefined, word: string | undefined): string => {
      if (/^[0-9@*#]$/.test(name)) {
        unknown ??= `\`$${name}\` is an argument the script is called with`;
        return '';
      }
      const v = this.vars.get(name);
      const set = v?.value !== undefined && (v.value !== '' || operator === undefined || !operator.startsWith(':'));
      if (operator !== undefined && (operator.endsWith('-') || operator.endsWith('=')) && !set && !v?.unknown) {
        // `${NAME:-default}`: the default when the variable is not set here.
        const inner = this.expand(word ?? '');
        if (inner.value === undefined) unknown ??= inner.unknown;
        if (!v)
          origins.push(
            `\`$${name}\` is not set in this script: its default ${JSON.stringify(inner.value ?? word ?? '')} is used`,
          );
        return inner.value ?? '';
      }
      if (v?.value !== undefined) {
        if (origins.length < MAX_ORIGINS) origins.push(`\`$${name}\` = ${v.value}, from line ${v.line}`);
        return v.value;
      }
      unknown ??=
        v?.unknown ??
        `\`$${name}\` is not set in this script: it comes from the environment or whatever runs the script`;
      return '';
    };
    let result = '';
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '`' || (ch === '$' && text[i + 1] === '(' && text[i + 2] !== '(')) {
        PIPELINE_VARIABLE.lastIndex = i;
        const pipeline = PIPELINE_VARIABLE.exec(text);
        const macro = pipeline ? this.macros.get(pipeline[1]!) : undefined;
        if (pipeline && macro?.value !== undefined) {
          if (origins.length < MAX_ORIGINS)
            origins.push(`\`$(${pipeline[1]})\` = ${macro.value}, from line ${macro.line}`);
          result += macro.value;
          i += pipeline[0].length;
          continue;
        }
        if (macro?.unknown) return { unknown: macro.unknown };
        // Azure Pipelines writes its variables `$(name)` and puts them in before the script runs.
        unknown ??= pipeline
          ? `\`$(${pipeline[1]})\` is a pipeline variable, set when the pipeline runs`
          : `\`${text.slice(i, Math.min(text.length, i + 40))}\` is computed by a command when the script runs`;
        return { unknown };
      }
      if (ch === '$' && text.startsWith('$((', i)) {
        const close = text.indexOf('))', i);
        if (close < 0) return { unknown: `\`${text.slice(i)}\` is not a complete arithmetic expansion` };
        const inner = this.expandArithmeticNames(text.slice(i + 3, close), origins);
        if (inner.unknown) return { unknown: inner.unknown };
        const n = arithmetic(inner.value!);
        if (n === undefined)
          return { unknown: `\`${text.slice(i, close + 2)}\` is arithmetic anf-lint does not evaluate` };
        result += String(n);
        i = close + 2;
        continue;
      }
      if (ch === '$') {
        BRACED.lastIndex = i;
        const braced = BRACED.exec(text);
        PLAIN.lastIndex = i;
        const plain = braced ? undefined : PLAIN.exec(text);
        const m = braced ?? plain;
        if (m) {
          result += substitute(m[1]!, braced?.[2], braced?.[3]);
          i += m[0].length;
          continue;
        }
        if (text[i + 1] === '{')
          return {
            unknown: `\`${text.slice(i, text.indexOf('}', i) + 1 || text.length)}\` is an expansion anf-lint does not evaluate`,
          };
      }
      result += ch;
      i++;
    }
    if (unknown !== undefined) return { unknown };
    return { value: result, ...(origins.length > 0 ? { origin: origins.join('; ') } : {}) };
  }

  /** Names inside `$(( ))` may go without `$`. */
  private expandArithmeticNames(expression: string, origins: string[]): ShellValue {
    const withDollars = expression.replace(
      /(^|[^$\w])([A-Za-z_][A-Za-z0-9_]*)/g,
      (_, before: string, name: string) => `${before}$${name}`,
    );
    const inner = this.expand(withDollars);
    if (inner.origin) origins.push(inner.origin);
    return inner;
  }
}

/** `4 * 1024`, `(2 + 2) * 1024`: integers with + - * / and parentheses; undefined for anything else. */
export function arithmetic(expression: string): number | undefined {
  const tokens = expression.match(/\d+|[-+*/()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const primary = (): number | undefined => {
    const t = tokens[at++];
    if (t === undefined) return undefined;
    if (/^\d+$/.test(t)) return Number(t);
    if (t === '-') {
      const v = primary();
      return v === undefined ? undefined : -v;
    }
    if (t === '(') {
      const v = sum();
      return tokens[at++] === ')' ? v : undefined;
    }
    return undefined;
  };
  const product = (): number | undefined => {
    let v = primary();
    while (v !== undefined && (peek() === '*' || peek() === '/')) {
      const op = tokens[at++];
      const r = primary();
      if (r === undefined || (op === '/' && r === 0)) return undefined;
      v = op === '*' ? v * r : Math.trunc(v / r);
    }
    return v;
  };
  const sum = (): number | undefined => {
    let v = product();
    while (v !== undefined && (peek() === '+' || peek() === '-')) {
      const op = tokens[at++];
      const r = product();
      if (r === undefined) return undefined;
      v = op === '+' ? v + r : v - r;
    }
    return v;
  };
  const value = sum();
  return at === tokens.length && value !== undefined && Number.isSafeInteger(value) ? value : undefined;
}
