import type { SourceText, Span } from '../text/sourceText';
import { bool, exportRuleOf, type ArgKey, type ArgValue, type ResourceCommand } from './commands';
import type { IacExportRule } from './estate';

/**
 * Az PowerShell `New-AzNetAppFiles{Account,Pool,Volume}` and `Update-AzNetAppFiles*` commands,
 * with the script's variables, splatted hashtables (`@params`), arrays and numbers with PowerShell's
 * binary multipliers (`4TB` = 4 x 2^40) put in. A small reader of the PowerShell language
 * specification's constructs these scripts use (about_Quoting_Rules, about_Parsing,
 * about_Splatting, about_Hash_Tables, about_Numeric_Literals): '...' and "..." strings (with
 * `$var` in the latter), here-strings, backtick escapes and line continuations, `#` and `<# #>`
 * comments, `$x = ...` assignments, hashtables, `@(...)` and comma arrays, `[type]` casts, and
 * + - * / between numbers. Anything else a value holds (a command's output, a method call) is
 * unknown, with the reason. Parameters are matched case-insensitively, by a unique prefix too.
 * Units as the Az.NetAppFiles reference gives them: `-PoolSize` and `-UsageThreshold` in bytes.
 */

type PsValue =
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'list'; readonly items: readonly PsNode[] }
  | {
      readonly kind: 'hashtable';
      readonly entries: ReadonlyMap<string, { readonly keySpan: Span; readonly node: PsNode }>;
    }
  | { readonly kind: 'unknown'; readonly reason: string };

interface PsNode {
  readonly value: PsValue;
  readonly span: Span;
  /** The literal's text without quotes, when written right here. */
  readonly editSpan?: Span;
  readonly origin?: string;
}

interface Variable {
  readonly node: PsNode;
  readonly line: number;
}

/** about_Numeric_Literals: the multiplier suffixes are binary (1kb = 1024). */
const MULTIPLIERS: Record<string, number> = { kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3, tb: 1024 ** 4, pb: 1024 ** 5 };
/** How far a name, a number or a key is looked for from where it starts. */
const LOOKAHEAD = 200; // not a fact: longer than any name these scripts write
const MAX_STEPS = 1_000_000; // not a fact: a bound on statements read per region
const SHOWN_LENGTH = 40; // not a fact: how much of an expression a message quotes
const NUMBER = /^(\d+(?:\.\d+)?(?:e[+-]?\d+)?|0x[0-9a-f]+)(l|d|u|ul|y|uy|s|us|n)?(kb|mb|gb|tb|pb)?$/i;
const CMDLET = /^(New|Update)-AzNetAppFiles(Account|Pool|Volume)$/i;

/** Parameters per resource, by their names in lower case; aliases the reference lists too. */
const PARAMETERS: Record<ResourceCommand['resource'], Record<string, ArgKey>> = {
  account: { name: 'name', accountname: 'name', tag: 'workloadTag' },
  pool: {
    name: 'name',
    poolname: 'name',
    accountname: 'account',
    servicelevel: 'serviceLevel',
    poolsize: 'size',
    qostype: 'qos',
    coolaccess: 'coolAccess',
    customthroughputmibps: 'customThroughput',
    tag: 'workloadTag',
  },
  volume: {
    name: 'name',
    volumename: 'name',
    accountname: 'account',
    poolname: 'pool',
    servicelevel: 'serviceLevel',
    usagethreshold: 'quota',
    throughputmibps: 'throughput',
    protocoltype: 'protocols',
    creationtoken: 'creationToken',
    networkfeature: 'networkFeatures',
    zone: 'zones',
    islargevolume: 'largeVolume',
    kerberosenabled: 'kerberos',
    coolaccess: 'coolAccess',
    tag: 'workloadTag',
    // `-SubnetId`: the delegated subnet's resource ID (subnets.ts links it by the names it carries).
    subnetid: 'subnet',
  },
  subnet: {},
};
/** Every parameter name of the cmdlets we read (for prefix matching), besides the ones mapped above. */
const OTHER_PARAMETERS = [
  'resourcegroupname',
  'location',
  'exportpolicy',
  'snapshotpolicyid',
  'securitystyle',
  'encryptiontype',
  'volumetype',
  'snapshotid',
  'backupid',
  'unixpermission',
  'snapshotdirectoryvisible',
  'smbencryption',
  'ldapenabled',
  'coolnessperiod',
  'encryptionkeysource',
  'asjob',
  'defaultprofile',
  'whatif',
  'confirm',
  'parentobject',
  'inputobject',
  'resourceid',
];

export function mayHoldPowerShellCommands(text: string): boolean {
  return /-AzNetAppFiles/i.test(text);
}

/** A stretch of PowerShell: a whole script, a Markdown block, a pipeline step. */
export interface PsRegion {
  readonly from: number;
  readonly to: number;
}

export function powerShellCommands(source: SourceText, regions: readonly PsRegion[]): ResourceCommand[] {
  const reader = new PsReader(source);
  for (const region of regions) reader.read(region.from, region.to);
  return reader.commands;
}

class PsReader {
  readonly commands: ResourceCommand[] = [];
  private readonly vars = new Map<string, Variable>();
  private readonly text: string;
  private to = 0;

  constructor(private readonly source: SourceText) {
    this.text = source.text;
  }

  read(from: number, to: number): void {
    this.to = to;
    let i = from;
    let guard = 0;
    while (i < to && guard++ < MAX_STEPS) {
      i = this.skip(i, true);
      if (i >= to) break;
      const ch = this.text[i]!;
      if (ch === ';' || ch === '{' || ch === '}' || ch === '|' || ch === '(' || ch === ')') {
        i++;
        continue;
      }
      const next = this.statement(i);
      i = Math.max(next, i + 1);
    }
  }

  /** Skips blanks, backtick line continuations and comments; newlines too when `lines`. */
  private skip(i: number, lines: boolean): number {
    const t = this.text;
    while (i < this.to) {
      const ch = t[i]!;
      if (ch === ' ' || ch === '\t' || ch === '\r' || (lines && ch === '\n')) i++;
      else if (ch === '`' && (t[i + 1] === '\n' || (t[i + 1] === '\r' && t[i + 2] === '\n')))
        i += t[i + 1] === '\n' ? 2 : 3;
      else if (ch === '<' && t[i + 1] === '#') {
        const end = t.indexOf('#>', i + 2);
        i = end < 0 || end >= this.to ? this.to : end + 2;
      } else if (ch === '#') {
        while (i < this.to && t[i] !== '\n') i++;
      } else break;
    }
    return i;
  }

  private lineOf(offset: number): number {
    return this.source.positionAt(offset).line + 1;
  }

  /** One statement at `i`: an assignment, an ANF command, or something skipped to its end. */
  private statement(i: number): number {
    const t = this.text;
    const assignment =
      /^\$(?:(?:global|script|local|private):)?([A-Za-z_][A-Za-z0-9_]*)[ \t]*(=|\+=|-=|\*=|\/=)(?!=)/i.exec(
        t.slice(i, Math.min(this.to, i + LOOKAHEAD)),
      );
    if (assignment) {
      const name = assignment[1]!.toLowerCase();
      const start = this.skip(i + assignment[0].length, false);
      const line = this.lineOf(i);
      // `$volume = New-AzNetAppFilesVolume ...`: the command runs; the variable holds its output.
      const rhs = this.bareword(start);
      // `$rule = New-AzNetAppFilesExportPolicyRuleObject -RuleIndex 1 -AllowedClient ... -Nfsv3`,
      // `$policy = New-AzNetAppFilesExportPolicyObject -Rule $rules`: helper objects for `-ExportPolicy`.
      if (EXPORT_HELPER.test(rhs)) {
        const { node, end } = this.helperObject(start, rhs);
        if (assignment[2] === '=') this.vars.set(name, { node, line });
        return end;
      }
      const made = CMDLET.exec(rhs);
      if (made) {
        this.vars.set(name, {
          node: {
            value: { kind: 'unknown', reason: `\`$${assignment[1]}\` holds what \`${rhs}\` returns (line ${line})` },
            span: { start: i, end: start },
          },
          line,
        });
        return this.command(
          start,
          rhs,
          made[1]!.toLowerCase() as 'new' | 'update',
          made[2]!.toLowerCase() as ResourceCommand['resource'],
        );
      }
      const { node, end } = this.expression(start, 'expression');
      if (assignment[2] === '=') this.vars.set(name, { node, line });
      else
        this.vars.set(name, {
          node: {
            ...node,
            value: {
              kind: 'unknown',
              reason: `\`$${assignment[1]}\` is changed with \`${assignment[2]}\` on line ${line}`,
            },
          },
          line,
        });
      return end;
    }
    const word = this.bareword(i);
    const cmdlet = CMDLET.exec(word);
    if (cmdlet)
      return this.command(
        i,
        word,
        cmdlet[1]!.toLowerCase() as 'new' | 'update',
        cmdlet[2]!.toLowerCase() as ResourceCommand['resource'],
      );
    if (/^(?:foreach|for)$/i.test(word)) {
      // `foreach ($v in $list)`: the loop variable holds each item in turn.
      const from = this.skip(i + word.length, false);
      const m = /^\(\s*\$([A-Za-z_][A-Za-z0-9_]*)/.exec(t.slice(from, Math.min(this.to, from + LOOKAHEAD)));
      if (m)
        this.vars.set(m[1]!.toLowerCase(), {
          node: {
            value: { kind: 'unknown', reason: `\`$${m[1]}\` is set by a \`foreach\` loop (line ${this.lineOf(i)})` },
            span: { start: i, end: i },
          },
          line: this.lineOf(i),
        });
    }
    return this.skipStatement(i + Math.max(1, word.length));
  }

  private bareword(i: number): string {
    const m = /^[A-Za-z_][\w.-]*/.exec(this.text.slice(i, Math.min(this.to, i + 100)));
    return m ? m[0] : '';
  }

  /** To the end of a statement we do not read: a newline, `;` or a brace, past strings and parentheses. */
  private skipStatement(i: number): number {
    const t = this.text;
    let depth = 0;
    while (i < this.to) {
      i = this.skip(i, depth > 0);
      const ch = t[i];
      if (ch === undefined || i >= this.to) break;
      if (depth === 0 && (ch === '\n' || ch === ';' || ch === '{' || ch === '}')) return i;
      if (ch === '(') depth++;
      else if (ch === ')') depth = Math.max(0, depth - 1);
      if (ch === "'" || ch === '"') {
        i = this.stringEnd(i);
        continue;
      }
      if (ch === '@' && (t[i + 1] === "'" || t[i + 1] === '"')) {
        i = this.hereStringEnd(i);
        continue;
      }
      i++;
    }
    return i;
  }

  private stringEnd(i: number): number {
    const t = this.text;
    const q = t[i]!;
    let j = i + 1;
    while (j < this.to) {
      if (q === '"' && t[j] === '`') j += 2;
      else if (t[j] === q && t[j + 1] === q) j += 2;
      else if (t[j] === q) return j + 1;
      else j++;
    }
    return this.to;
  }

  private hereStringEnd(i: number): number {
    const q = this.text[i + 1]!;
    const close = this.text.indexOf(`\n${q}@`, i + 2);
    return close < 0 || close >= this.to ? this.to : close + 3;
  }

  // -------------------------------------------------------------------------------------------
  // Commands

  private command(start: number, name: string, verb: 'new' | 'update', resource: ResourceCommand['resource']): number {
    const t = this.text;
    const params = PARAMETERS[resource];
    const known = [...Object.keys(params), ...OTHER_PARAMETERS];
    const args = new Map<ArgKey, ArgValue>();
    let exportPolicy: PsNode | undefined;
    let i = start + name.length;
    let end = i;
    const set = (paramName: string, keySpan: Span, node: PsNode | undefined, flag: boolean) => {
      const lower = paramName.toLowerCase();
      const matches = known.filter((k) => k.startsWith(lower));
      const full = known.includes(lower) ? lower : matches.length === 1 ? matches[0]! : undefined;
      if (full === 'exportpolicy' && resource === 'volume') {
        if (node) exportPolicy = node;
        return;
      }
      const key = full !== undefined ? params[full] : undefined;
      if (!key) return;
      const value: ArgValue = node
        ? argOf(node, keySpan, this.text)
        : { value: flag, span: keySpan, keySpan, raw: t.slice(keySpan.start, keySpan.end) };
      if (key === 'workloadTag') {
        const tag = node?.value.kind === 'hashtable' ? node.value.entries.get('workload') : undefined;
        if (tag) args.set(key, argOf(tag.node, tag.keySpan, this.text));
        return;
      }
      args.set(key, value);
    };
    while (i < this.to) {
      i = this.skip(i, false);
      if (this.endsCommand(i)) break;
      const ch = t[i]!;
      const param = /^-([A-Za-z_][A-Za-z0-9_]*)(:?)/.exec(t.slice(i, Math.min(this.to, i + 100)));
      if (param) {
        const keySpan = { start: i, end: i + 1 + param[1]!.length };
        i += param[0].length;
        if (param[2] === ':') {
          // `-CoolAccess:$false`: the value is joined to the name.
          const { node, end: e } = this.expression(i, 'argument');
          set(param[1]!, keySpan, node, true);
          i = end = e;
          continue;
        }
        const after = this.skip(i, false);
        if (!this.valueAt(after) || isSwitchParameter(param[1]!)) {
          set(param[1]!, keySpan, undefined, true);
          i = end = keySpan.end;
          continue;
        }
        const { node, end: e } = this.expression(after, 'argument');
        set(param[1]!, keySpan, node, false);
        i = end = e;
        continue;
      }
      if (ch === '@' && /^@[A-Za-z_]/.test(t.slice(i, i + 2))) {
        // Splatting: `@params` passes a hashtable's entries as parameters.
        const m = /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(t.slice(i, Math.min(this.to, i + LOOKAHEAD)))!;
        const v = this.vars.get(m[1]!.toLowerCase());
        if (v?.node.value.kind === 'hashtable') {
          for (const [k, entry] of v.node.value.entries) {
            set(k, entry.keySpan, entry.node, false);
          }
        }
        i = end = i + m[0].length;
        continue;
      }
      // A positional argument: read and passed over.
      const { end: e } = this.expression(i, 'argument');
      i = end = Math.max(e, i + 1);
    }
    const headSpan = { start, end: start + name.length };
    this.commands.push({
      resource,
      verb: verb === 'new' ? 'create' : 'update',
      span: { start, end: Math.max(end, headSpan.end) },
      headSpan,
      title: name,
      args,
      exportRules: exportPolicy ? exportRulesOf(exportPolicy, this.text) : [],
      sizeUnit: 'B',
      quotaUnit: 'B',
    });
    return i;
  }

  /** Where a command's arguments end: a line break, `;`, `|`, a closing brace or parenthesis, or the end of what is read. */
  private endsCommand(i: number): boolean {
    const ch = this.text[i];
    return i >= this.to || ch === undefined || ch === '\n' || ch === ';' || ch === '|' || ch === '}' || ch === ')';
  }

  /** Whether a value starts at `i`, after a parameter's name: not the command's end, nor another parameter. */
  private valueAt(i: number): boolean {
    return !this.endsCommand(i) && !(this.text[i] === '-' && /^-[A-Za-z]/.test(this.text.slice(i, i + 2)));
  }

  /**
   * `New-AzNetAppFilesExportPolicyRuleObject` and `New-AzNetAppFilesExportPolicyObject` (Az.NetAppFiles
   * helper cmdlets): their parameters as a hashtable of the same keys an `@{...}` rule or policy
   * uses (`-AllowedClient` is `AllowedClients`, `-Rule` is `Rules`); switches are true, `-X:$false` false.
   */
  private helperObject(start: number, name: string): { node: PsNode; end: number } {
    const t = this.text;
    const entries = new Map<string, { keySpan: Span; node: PsNode }>();
    let i = start + name.length;
    while (i < this.to) {
      i = this.skip(i, false);
      if (this.endsCommand(i)) break;
      const param = /^-([A-Za-z_][A-Za-z0-9_]*)(:?)/.exec(t.slice(i, Math.min(this.to, i + 100)));
      if (!param) {
        i = Math.max(this.expression(i, 'argument').end, i + 1);
        continue;
      }
      const keySpan = { start: i, end: i + 1 + param[1]!.length };
      const key = HELPER_KEYS[param[1]!.toLowerCase()] ?? param[1]!.toLowerCase();
      i += param[0].length;
      const after = this.skip(i, false);
      const valued = param[2] === ':' || (this.valueAt(after) && !HELPER_SWITCHES.has(key));
      if (!valued) {
        entries.set(key, { keySpan, node: { value: { kind: 'bool', value: true }, span: keySpan } });
        i = keySpan.end;
        continue;
      }
      const { node, end } = this.expression(param[2] === ':' ? i : after, 'argument');
      entries.set(key, { keySpan, node });
      i = end;
    }
    return { node: { value: { kind: 'hashtable', entries }, span: { start, end: i } }, end: i };
  }

  // -------------------------------------------------------------------------------------------
  // Values

  /** A value: in argument mode a bare word is a string and `,` makes an array; in expression mode + - * / work on numbers. */
  private expression(i: number, mode: 'argument' | 'expression'): { node: PsNode; end: number } {
    const first = this.operand(i, mode);
    let node = first.node;
    let end = first.end;
    const items: PsNode[] = [node];
    for (;;) {
      const at = this.skip(end, false);
      const op = this.text[at];
      if (op === ',') {
        const next = this.operand(this.skip(at + 1, true), mode);
        items.push(next.node);
        end = next.end;
        continue;
      }
      if (
        mode === 'expression' &&
        (op === '*' || op === '+' || op === '/' || (op === '-' && /^-\s*[\d($[]/.test(this.text.slice(at, at + 3))))
      ) {
        const right = this.operand(this.skip(at + 1, false), mode);
        const span = { start: node.span.start, end: right.node.span.end };
        const a = node.value;
        const b = right.node.value;
        const origin = [node.origin, right.node.origin].filter((o) => o).join('; ');
        if (a.kind === 'number' && b.kind === 'number' && !(op === '/' && b.value === 0)) {
          const value =
            op === '*'
              ? a.value * b.value
              : op === '+'
                ? a.value + b.value
                : op === '-'
                  ? a.value - b.value
                  : a.value / b.value;
          node = { value: { kind: 'number', value }, span, ...(origin ? { origin } : {}) };
        } else if (op === '+' && a.kind === 'string' && b.kind === 'string')
          node = { value: { kind: 'string', value: a.value + b.value }, span, ...(origin ? { origin } : {}) };
        else
          node = {
            value:
              a.kind === 'unknown'
                ? a
                : b.kind === 'unknown'
                  ? b
                  : {
                      kind: 'unknown',
                      reason: `\`${this.text.slice(span.start, span.end)}\` is an expression anf-lint does not evaluate`,
                    },
            span,
          };
        items[items.length - 1] = node;
        end = right.end;
        continue;
      }
      break;
    }
    if (items.length > 1)
      return {
        node: {
          value: { kind: 'list', items },
          span: { start: items[0]!.span.start, end: items[items.length - 1]!.span.end },
        },
        end,
      };
    return { node, end };
  }

  private operand(i: number, mode: 'argument' | 'expression'): { node: PsNode; end: number } {
    const t = this.text;
    const ch = t[i];
    const unknown = (end: number, reason: string) => ({
      node: { value: { kind: 'unknown' as const, reason }, span: { start: i, end } },
      end,
    });
    if (ch === undefined || i >= this.to) return unknown(i, 'no value is written');
    // `[long]4TB`, `[string[]]@(...)`: the cast is passed over.
    if (ch === '[' && mode === 'expression') {
      const close = t.indexOf(']', i);
      const skip = close < 0 ? i + 1 : close + 1 + (t[close + 1] === ']' ? 1 : 0);
      return this.operand(skip, mode);
    }
    if (ch === "'") {
      const end = this.stringEnd(i);
      const inner = t.slice(i + 1, Math.max(i + 1, end - 1));
      return {
        node: {
          value: { kind: 'string', value: inner.replace(/''/g, "'") },
          span: { start: i, end },
          ...(inner.includes("'") ? {} : { editSpan: { start: i + 1, end: end - 1 } }),
        },
        end,
      };
    }
    if (ch === '"') {
      const end = this.stringEnd(i);
      const inner = t.slice(i + 1, Math.max(i + 1, end - 1));
      const expanded = this.expandString(inner);
      const plain = !/[`$"]/.test(inner);
      return {
        node: { ...expanded, span: { start: i, end }, ...(plain ? { editSpan: { start: i + 1, end: end - 1 } } : {}) },
        end,
      };
    }
    if (ch === '@' && (t[i + 1] === "'" || t[i + 1] === '"')) {
      const end = this.hereStringEnd(i);
      const bodyStart = t.indexOf('\n', i) + 1;
      const body = t.slice(bodyStart, Math.max(bodyStart, end - 3));
      return {
        node: {
          value: t[i + 1] === "'" ? { kind: 'string', value: body } : this.expandString(body).value,
          span: { start: i, end },
        },
        end,
      };
    }
    if (ch === '@' && t[i + 1] === '{') return this.hashtable(i);
    if ((ch === '@' || ch === '$') && t[i + 1] === '(') {
      const { items, end } = this.group(i + 2);
      // `$($rule)`, `$($a, $b)`: a subexpression of values only is those values (the reference's
      // `$exportPolicyRules = $($exportPolicyRule)`); one that runs a command is computed when the script runs.
      if (ch === '$' && items.length > 0 && items.every((x) => x.value.kind !== 'unknown'))
        return items.length === 1
          ? { node: { ...items[0]!, span: { start: i, end } }, end }
          : { node: { value: { kind: 'list', items }, span: { start: i, end } }, end };
      if (ch === '$')
        return unknown(end, `\`${t.slice(i, Math.min(end, i + SHOWN_LENGTH))}\` is computed when the script runs`);
      return { node: { value: { kind: 'list', items }, span: { start: i, end } }, end };
    }
    if (ch === '(') {
      const { items, end } = this.group(i + 1);
      if (items.length === 1) return { node: { ...items[0]!, span: { start: i, end } }, end };
      return unknown(end, `\`${t.slice(i, Math.min(end, i + SHOWN_LENGTH))}\` is computed when the script runs`);
    }
    if (ch === '$') {
      const m = /^\$(?:\{([^}]+)\}|((?:env|global|script|local|private):)?([A-Za-z_][A-Za-z0-9_]*))/i.exec(
        t.slice(i, Math.min(this.to, i + LOOKAHEAD)),
      );
      if (!m) return unknown(i + 1, '`$` without a variable name');
      let end = i + m[0].length;
      // `$x.Property`, `$x[0]`, `$x.Method()`: not evaluated.
      if (t[end] === '.' || t[end] === '[') {
        const stop = this.skipStatement(end);
        const m2 = /^[.[][\w.[\]'"]*(?:\(\))?/.exec(t.slice(end, stop));
        end += m2 ? m2[0].length : 0;
        return unknown(end, `\`${t.slice(i, end)}\` is read from an object when the script runs`);
      }
      return { node: this.variable(m[1] ?? m[3]!, m[2], { start: i, end }), end };
    }
    // A number, with PowerShell's binary multipliers.
    const word = /^[^\s,;|(){}]+/.exec(t.slice(i, Math.min(this.to, i + LOOKAHEAD)))?.[0] ?? '';
    const number = NUMBER.exec(word);
    if (number) {
      const base = number[1]!.toLowerCase().startsWith('0x') ? parseInt(number[1]!, 16) : Number(number[1]!);
      const value = base * (number[3] ? MULTIPLIERS[number[3].toLowerCase()]! : 1);
      const span = { start: i, end: i + word.length };
      return {
        node: { value: { kind: 'number', value }, span, ...(number[2] || number[3] ? {} : { editSpan: span }) },
        end: span.end,
      };
    }
    if (mode === 'argument' && word !== '') {
      const span = { start: i, end: i + word.length };
      return { node: { value: { kind: 'string', value: word }, span, editSpan: span }, end: span.end };
    }
    const end = this.skipStatement(i);
    return unknown(end, `\`${t.slice(i, Math.min(end, i + SHOWN_LENGTH)).trim()}\` is computed when the script runs`);
  }

  private variable(name: string, scope: string | undefined, span: Span): PsNode {
    const lower = name.toLowerCase();
    if (scope?.toLowerCase() === 'env:')
      return {
        value: { kind: 'unknown', reason: `\`$env:${name}\` is an environment variable, set when the script runs` },
        span,
      };
    if (lower === 'true' || lower === 'false')
      return { value: { kind: 'bool', value: lower === 'true' }, span, editSpan: span };
    if (lower === 'null') return { value: { kind: 'unknown', reason: '`$null` has no value' }, span };
    const v = this.vars.get(lower);
    if (!v)
      return {
        value: {
          kind: 'unknown',
          reason: `\`$${name}\` is not set in this script: a parameter or a variable set elsewhere`,
        },
        span,
      };
    // As written where it is set (`4TB`), else its value.
    const written = this.text.slice(v.node.span.start, v.node.span.end);
    const shown =
      v.node.value.kind === 'number' && written.length > 0 && written.length <= SHOWN_LENGTH
        ? written
        : v.node.value.kind === 'string' || v.node.value.kind === 'number' || v.node.value.kind === 'bool'
          ? String(v.node.value.value)
          : undefined;
    if (v.node.value.kind === 'unknown')
      return {
        value: { kind: 'unknown', reason: `\`$${name}\` (set on line ${v.line}): ${v.node.value.reason}` },
        span,
      };
    return {
      value: v.node.value,
      span,
      ...(shown !== undefined ? { origin: `\`$${name}\` = ${shown}, from line ${v.line}` } : {}),
    };
  }

  /** "..." text: `$var` and `${var}` put in; `$(...)` unknown. */
  private expandString(inner: string): { value: PsValue; origin?: string } {
    let out = '';
    const origins: string[] = [];
    for (let k = 0; k < inner.length; k++) {
      const c = inner[k]!;
      if (c === '`' && k + 1 < inner.length) {
        const e = inner[++k]!;
        out += e === 'n' ? '\n' : e === 't' ? '\t' : e === '0' ? '\0' : e;
        continue;
      }
      if (c === '"' && inner[k + 1] === '"') {
        out += '"';
        k++;
        continue;
      }
      if (c === '$') {
        if (inner[k + 1] === '(')
          return {
            value: {
              kind: 'unknown',
              reason: `\`"${inner.slice(0, SHOWN_LENGTH)}"\` holds a subexpression computed when the script runs`,
            },
          };
        const m = /^\$(?:\{([^}]+)\}|((?:env|global|script|local|private):)?([A-Za-z_][A-Za-z0-9_]*))/i.exec(
          inner.slice(k),
        );
        if (m) {
          const v = this.variable(m[1] ?? m[3]!, m[2], { start: 0, end: 0 });
          if (v.value.kind === 'unknown') return { value: v.value };
          out +=
            v.value.kind === 'string' || v.value.kind === 'number' || v.value.kind === 'bool'
              ? String(v.value.value)
              : '';
          if (v.origin) origins.push(v.origin);
          k += m[0].length - 1;
          continue;
        }
      }
      out += c;
    }
    return { value: { kind: 'string', value: out }, ...(origins.length > 0 ? { origin: origins.join('; ') } : {}) };
  }

  /** `@{ Key = value; Key2 = value }`, entries separated by newlines or `;`. */
  private hashtable(i: number): { node: PsNode; end: number } {
    const t = this.text;
    const entries = new Map<string, { keySpan: Span; node: PsNode }>();
    let k = i + 2;
    while (k < this.to) {
      k = this.skip(k, true);
      if (t[k] === ';') {
        k++;
        continue;
      }
      if (t[k] === '}' || k >= this.to) {
        k = Math.min(this.to, k + 1);
        break;
      }
      const key = /^(?:'([^']*)'|"([^"]*)"|([A-Za-z_][\w-]*))[ \t]*=/.exec(
        t.slice(k, Math.min(this.to, k + LOOKAHEAD)),
      );
      if (!key) {
        k = this.skipStatement(k + 1);
        continue;
      }
      const name = key[1] ?? key[2] ?? key[3]!;
      const keyStart = k + (key[3] ? 0 : 1);
      const keySpan = { start: keyStart, end: keyStart + name.length };
      const { node, end } = this.expression(this.skip(k + key[0].length, false), 'expression');
      entries.set(name.toLowerCase(), { keySpan, node });
      k = Math.max(end, k + 1);
    }
    return { node: { value: { kind: 'hashtable', entries }, span: { start: i, end: k } }, end: k };
  }

  /** The statements of `( ... )` or `@( ... )`: each a value; to the closing parenthesis. */
  private group(i: number): { items: PsNode[]; end: number } {
    const t = this.text;
    const items: PsNode[] = [];
    let k = i;
    while (k < this.to) {
      k = this.skip(k, true);
      if (t[k] === ')') return { items, end: k + 1 };
      if (t[k] === ';' || t[k] === ',') {
        k++;
        continue;
      }
      if (k >= this.to) break;
      const { node, end } = this.expression(k, 'expression');
      if (node.value.kind === 'list') items.push(...node.value.items);
      else items.push(node);
      k = Math.max(end, k + 1);
    }
    return { items, end: this.to };
  }
}

const EXPORT_HELPER = /^New-AzNetAppFilesExportPolicy(?:Rule)?Object$/i;
/** The helper cmdlets' parameter names that differ from the rule's property names. */
const HELPER_KEYS: Record<string, string> = { allowedclient: 'allowedclients', rule: 'rules' };
/** The rule object's switch parameters (Az.NetAppFiles reference: `[-UnixReadOnly]`, `[-Nfsv3]`, ...). */
const HELPER_SWITCHES = new Set([
  'unixreadonly',
  'unixreadwrite',
  'kerberos5readonly',
  'kerberos5readwrite',
  'kerberos5ireadonly',
  'kerberos5ireadwrite',
  'kerberos5p',
  'kerberos5preadonly',
  'kerberos5preadwrite',
  'cifs',
  'nfsv3',
  'nfsv41',
  'hasrootaccess',
]);

/**
 * The rules of an `-ExportPolicy` value: `@{ Rules = @($rule, ...) }` (hashtables with the rule
 * properties) or `New-AzNetAppFilesExportPolicyObject -Rule $rules` (rule objects), each read like
 * an ARM export rule (`AllowedClients`, `Nfsv3`, `Nfsv41`, `Cifs`, `HasRootAccess`, `Kerberos5*`).
 */
function exportRulesOf(policy: PsNode, text: string): IacExportRule[] {
  if (policy.value.kind !== 'hashtable') return [];
  const rules = policy.value.entries.get('rules')?.node;
  if (!rules) return [];
  const items = rules.value.kind === 'list' ? rules.value.items : [rules];
  return items.flatMap((item): IacExportRule[] => {
    if (item.value.kind !== 'hashtable') return [];
    const entries = item.value.entries;
    const at = (key: string) => {
      const e = entries.get(key);
      return e ? argOf(e.node, e.keySpan, text) : undefined;
    };
    const flag = (key: string) => bool(at(key));
    const flavour = (f: string) =>
      flag(`kerberos${f}readwrite`)?.value ||
      flag(`kerberos${f}readonly`)?.value ||
      (f === '5p' && flag('kerberos5p')?.value);
    const kerberos = flavour('5p') ? 'krb5p' : flavour('5i') ? 'krb5i' : flavour('5') ? 'krb5' : undefined;
    return [exportRuleOf(item.span, at, kerberos)];
  });
}

/** Switch parameters: written alone they are true. */
function isSwitchParameter(name: string): boolean {
  return /^(?:coolaccess|islargevolume|kerberosenabled|snapshotdirectoryvisible|smbencryption|ldapenabled|asjob|whatif|confirm)$/i.test(
    name,
  );
}

function argOf(node: PsNode, keySpan: Span, text: string): ArgValue {
  const raw = text.slice(node.span.start, node.span.end);
  const base = { span: node.span, keySpan, raw, ...(node.origin ? { origin: node.origin } : {}) };
  const v = node.value;
  switch (v.kind) {
    case 'string':
    case 'number':
    case 'bool':
      return { ...base, value: v.value, ...(node.editSpan ? { editSpan: node.editSpan } : {}) };
    case 'list': {
      const items = v.items.map((item) => item.value);
      const unknown = items.find((x) => x.kind === 'unknown');
      if (unknown && unknown.kind === 'unknown') return { ...base, unknown: unknown.reason };
      return {
        ...base,
        value: items.map((x) =>
          x.kind === 'string' || x.kind === 'number' || x.kind === 'bool' ? String(x.value) : '',
        ),
      };
    }
    case 'hashtable':
      return { ...base, unknown: 'a hashtable, not a single value' };
    case 'unknown':
      return { ...base, unknown: v.reason };
  }
}
