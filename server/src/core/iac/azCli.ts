import type { SourceText, Span } from '../text/sourceText';
import { commandBaseName, commandIndex, forEachPipeline, type ShellWord } from '../text/shell';
import { AZ_CLI_UNITS } from '../facts';
import type { IacExportRule, IacValue } from './estate';
import { bool, exportRule, exportRuleOf, str, type ArgKey, type ArgValue, type ResourceCommand } from './commands';
import { ShellVariables } from './shellValues';

/**
 * `az netappfiles account|pool|volume create|update` commands in shell text (scripts, Markdown
 * blocks, CI pipeline steps), read through the one shell tokenizer (text/shell.ts) with the
 * script's variables put in (shellValues.ts). Units as the az CLI takes them (its netappfiles
 * command module): `--size` in TiB (the CLI multiplies by 2^40), `--usage-threshold` in GiB
 * (multiplied by 2^30), `--throughput-mibps` in MiB/s.
 */

/** A stretch of text that is shell: a whole script, a Markdown block, a pipeline step's script. */
export interface ShellRegion {
  readonly from: number;
  readonly to: number;
  /** Markdown `console` blocks: `$ ` prompts before commands. */
  readonly stripPrompt?: boolean;
  /** Variables the surroundings set (a CI step's `env:`), applied before the region is read. */
  readonly env?: readonly { name: string; value?: string; line: number; unknown?: string }[];
  /** Azure Pipelines variables a script names `$(name)`. */
  readonly macros?: readonly { name: string; value?: string; line: number; unknown?: string }[];
}

type Resource = ResourceCommand['resource'];

const NAME_FLAGS: Record<Resource, readonly string[]> = {
  account: ['-n', '--name', '-a', '--account-name'],
  pool: ['-n', '-p', '--name', '--pool-name'],
  volume: ['-n', '-v', '--name', '--volume-name'],
  subnet: ['-n', '--name'],
};

const SHARED: Record<string, ArgKey> = {
  '--service-level': 'serviceLevel',
  '--cool-access': 'coolAccess',
  '--tags': 'workloadTag',
};

const FLAGS: Record<Resource, Record<string, ArgKey>> = {
  account: { '--tags': 'workloadTag' },
  pool: {
    ...SHARED,
    '-a': 'account',
    '--account-name': 'account',
    '--size': 'size',
    '--size-in-bytes': 'size',
    '--qos-type': 'qos',
    '--custom-throughput-mibps': 'customThroughput',
    '--custom-throughput': 'customThroughput',
  },
  volume: {
    ...SHARED,
    '-a': 'account',
    '--account-name': 'account',
    '-p': 'pool',
    '--pool-name': 'pool',
    '--usage-threshold': 'quota',
    '--throughput-mibps': 'throughput',
    '--protocol-types': 'protocols',
    '--file-path': 'creationToken',
    '--creation-token': 'creationToken',
    '--network-features': 'networkFeatures',
    '--zones': 'zones',
    '--is-large-volume': 'largeVolume',
    '--kerberos-enabled': 'kerberos',
    '--vnet': 'vnet',
    '--subnet': 'subnet',
    '--subnet-id': 'subnet',
  },
  subnet: {
    '--vnet-name': 'vnet',
    '--address-prefixes': 'addressPrefixes',
    '--address-prefix': 'addressPrefixes',
    '--delegations': 'delegations',
    '--network-security-group': 'nsg',
    '--nsg': 'nsg',
    '--service-endpoints': 'serviceEndpoints',
  },
};

/** The export-rule flags the CLI reads as booleans. */
const RULE_BOOLEAN_FLAGS = [
  '--unix-read-only',
  '--unix-read-write',
  '--has-root-access',
  '--cifs',
  '--kerberos5-r',
  '--kerberos5-rw',
  '--kerberos5i-r',
  '--kerberos5i-rw',
  '--kerberos5p-r',
  '--kerberos5p-rw',
];
/** Flags the CLI reads as booleans: written alone they mean true. */
const BOOLEAN_FLAGS = new Set(['--cool-access', '--is-large-volume', '--kerberos-enabled', ...RULE_BOOLEAN_FLAGS]);
/** Flags that take several words (`--protocol-types NFSv3 NFSv4.1`, `--zones 1`, `--tags a=b c=d`). */
const LIST_FLAGS = new Set([
  '--protocol-types',
  '--zones',
  '--tags',
  '--address-prefixes',
  '--address-prefix',
  '--delegations',
  '--service-endpoints',
]);
/** The export-policy arguments kept for backwards compatibility: they make one rule. */
const RULE_FLAGS = new Set(['--rule-index', '--allowed-clients', ...RULE_BOOLEAN_FLAGS]);
const BOOLEAN_WORD = /^(?:true|false|yes|no|0|1)$/i;

/** Whether a text can hold an az netappfiles command at all (a cheap look before reading it). */
export function mayHoldAzCommands(text: string): boolean {
  return text.includes('netappfiles');
}

/** The resource commands of the shell regions of `source`, in order; one variable scope across them. */
export function azCommands(source: SourceText, regions: readonly ShellRegion[]): ResourceCommand[] {
  const text = source.text;
  const variables = new ShellVariables(source);
  const commands: ResourceCommand[] = [];
  for (const region of regions) {
    for (const e of region.env ?? []) variables.preset(e.name, e.value, e.line, e.unknown);
    for (const m of region.macros ?? []) variables.presetMacro(m.name, m.value, m.line, m.unknown);
    forEachPipeline(text, region.from, region.to, region.stripPrompt ? { stripPrompt: true } : {}, (pipeline) => {
      for (const command of pipeline) {
        const words = command.words;
        const at = commandIndex(words);
        const first = words[0]?.value;
        const assigning =
          first === 'export' || first === 'readonly' || first === 'local' || first === 'declare' || first === 'typeset';
        if (at === words.length || assigning) {
          for (const word of words.slice(assigning ? 1 : 0))
            if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.raw)) variables.assign(word);
          continue;
        }
        const name = words[at]!.value;
        if (name === 'for' && words[at + 1])
          variables.setByRun(words[at + 1]!.value, 'a `for` loop', words[at + 1]!.span.start);
        // `let "x=$RANDOM*2"`: shell arithmetic on values only the run knows.
        if (name === 'let')
          for (const w of words.slice(at + 1)) {
            const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(w.value);
            if (m) variables.setByRun(m[1]!, '`let`', w.span.start);
          }
        if (name === 'read')
          for (const w of words.slice(at + 1))
            if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(w.value)) variables.setByRun(w.value, '`read`', w.span.start);
        if (commandBaseName(name) !== 'az') continue;
        // `az network vnet subnet create|update`: the delegated subnet (subnets.ts), read as a command of its own.
        const subnet =
          words[at + 1]?.value === 'network' && words[at + 2]?.value === 'vnet' && words[at + 3]?.value === 'subnet';
        if (words[at + 1]?.value !== 'netappfiles' && !subnet) continue;
        const found = azCommand(subnet ? [words[at]!, ...words.slice(at + 2)] : words.slice(at), variables);
        if (found) commands.push(found);
      }
    });
  }
  return commands;
}

function azCommand(words: readonly ShellWord[], variables: ShellVariables): ResourceCommand | undefined {
  const resource = words[2]?.value;
  const verb = words[3]?.value;
  if (
    (resource !== 'account' && resource !== 'pool' && resource !== 'volume' && resource !== 'subnet') ||
    (verb !== 'create' && verb !== 'update')
  )
    return undefined;
  const args = new Map<ArgKey, ArgValue>();
  const ruleArgs = new Map<string, ArgValue>();
  let rulesJson: ArgValue | undefined;
  const names = NAME_FLAGS[resource];
  const flags = FLAGS[resource];
  for (let i = 4; i < words.length; i++) {
    const word = words[i]!;
    if (!word.value.startsWith('-')) continue;
    const eq = word.value.startsWith('--') ? word.value.indexOf('=') : -1;
    const flag = eq > 0 ? word.value.slice(0, eq) : word.value;
    const key: ArgKey | undefined = names.includes(flag) ? 'name' : flags[flag];
    const wanted = key !== undefined || RULE_FLAGS.has(flag) || flag === '--rules' || flag === '--export-policy-rules';
    const keySpan: Span = eq > 0 ? { start: word.span.start, end: word.span.start + eq } : word.span;
    let valueWords: ShellWord[] = [];
    if (eq > 0)
      valueWords = [
        {
          ...word,
          raw: word.raw.slice(word.raw.indexOf('=') + 1),
          value: word.value.slice(eq + 1),
          span: { start: word.span.start + word.raw.indexOf('=') + 1, end: word.span.end },
        },
      ];
    else {
      let j = i + 1;
      while (j < words.length && !words[j]!.value.startsWith('-') && (valueWords.length === 0 || LIST_FLAGS.has(flag)))
        valueWords.push(words[j++]!);
      // A boolean flag alone means true; `--cool-access true` takes its word.
      if (
        BOOLEAN_FLAGS.has(flag) &&
        valueWords.length === 1 &&
        !BOOLEAN_WORD.test(valueWords[0]!.value) &&
        !valueWords[0]!.templated
      )
        valueWords = [];
      i = j - 1;
    }
    if (!wanted) continue;
    const value =
      BOOLEAN_FLAGS.has(flag) && valueWords.length === 0
        ? bareFlag(word, keySpan)
        : argOf(valueWords, keySpan, variables, LIST_FLAGS.has(flag));
    if (!value) continue;
    if (flag === '--rules' || flag === '--export-policy-rules') rulesJson = value;
    else if (RULE_FLAGS.has(flag)) ruleArgs.set(flag, value);
    else if (key === 'workloadTag') {
      const tag = workloadTag(value);
      if (tag) args.set(key, tag);
    } else if (key) args.set(key, value);
  }
  const head = { start: words[0]!.span.start, end: words[3]!.span.end };
  const span = { start: head.start, end: words[words.length - 1]!.span.end };
  // `volume create` without `--usage-threshold`: the CLI sends its documented default (never on an
  // `update`, which leaves what it omits as it was). Not editable: nothing is written to edit.
  if (resource === 'volume' && verb === 'create' && !args.has('quota'))
    args.set('quota', {
      value: AZ_CLI_UNITS.volumeQuotaDefaultGiB.value,
      span: head,
      keySpan: head,
      raw: '--usage-threshold (omitted)',
      origin: `\`--usage-threshold\` is not written: the az CLI's default, ${AZ_CLI_UNITS.volumeQuotaDefaultGiB.value} GiB`,
    });
  // `--size-in-bytes` (newer CLIs, besides `--size` in TiB) takes bytes.
  const sizeInBytes = words.some((w) => w.value === '--size-in-bytes' || w.value.startsWith('--size-in-bytes='));
  const exportRules =
    resource === 'volume'
      ? [
          ...(rulesJson ? jsonRules(rulesJson) : []),
          ...(ruleArgs.size > 0 ? [flagRule(ruleArgs, args.get('protocols'))] : []),
        ]
      : [];
  return {
    resource,
    verb,
    span,
    headSpan: head,
    title: resource === 'subnet' ? `az network vnet subnet ${verb}` : `az netappfiles ${resource} ${verb}`,
    args,
    exportRules,
    sizeUnit: sizeInBytes ? 'B' : AZ_CLI_UNITS.poolSizeUnit.value,
    quotaUnit: AZ_CLI_UNITS.volumeQuotaUnit.value,
  };
}

function bareFlag(word: ShellWord, keySpan: Span): ArgValue {
  return { value: true, span: word.span, keySpan, raw: word.raw };
}

/** The words of one argument: one value, or a list (`--protocol-types NFSv3 NFSv4.1`). */
function argOf(
  words: readonly ShellWord[],
  keySpan: Span,
  variables: ShellVariables,
  isList: boolean,
): ArgValue | undefined {
  if (words.length === 0) return undefined;
  const span = { start: words[0]!.span.start, end: words[words.length - 1]!.span.end };
  const raw = words.map((w) => w.raw).join(' ');
  const values: string[] = [];
  const origins: string[] = [];
  for (const w of words) {
    const v = variables.evaluate(w);
    if (v.value === undefined)
      return { span, keySpan, raw, unknown: v.unknown ?? `\`${w.raw}\` is computed when the script runs` };
    if (v.origin) origins.push(v.origin);
    values.push(v.value);
  }
  const one = words.length === 1 ? words[0]! : undefined;
  const editSpan = one && !one.templated ? literalSpan(one) : undefined;
  // `--protocol-types "NFSv3 NFSv4.1"` from a variable splits into words as the shell does unquoted.
  const value = isList
    ? values.flatMap((v, k) =>
        words[k]!.raw.startsWith('"') || words[k]!.raw.startsWith("'") ? [v] : v.split(/\s+/).filter((x) => x !== ''),
      )
    : values[0]!;
  return {
    value,
    span,
    keySpan,
    raw,
    ...(editSpan ? { editSpan } : {}),
    ...(origins.length > 0 ? { origin: origins.join('; ') } : {}),
  };
}

/** Where a literal word's value stands: the word, or inside its quotes. */
function literalSpan(w: ShellWord): Span | undefined {
  if (w.raw === w.value) return w.span;
  const q = w.raw[0];
  if ((q === '"' || q === "'") && w.raw.length >= 2 && w.raw.endsWith(q) && w.raw.slice(1, -1) === w.value)
    return { start: w.span.start + 1, end: w.span.end - 1 };
  return undefined;
}

function workloadTag(tags: ArgValue): ArgValue | undefined {
  const items = Array.isArray(tags.value) ? (tags.value as string[]) : [];
  const tag = items.find((t) => t.toLowerCase().startsWith('workload='));
  return tag ? { ...tags, value: tag.slice(tag.indexOf('=') + 1) } : undefined;
}

/** The rule the backwards-compatible flags make; its protocols follow `--protocol-types`, as the CLI does. */
function flagRule(ruleArgs: ReadonlyMap<string, ArgValue>, protocols: ArgValue | undefined): IacExportRule {
  const first = [...ruleArgs.values()].reduce((a, b) => (a.span.start <= b.span.start ? a : b));
  const types = Array.isArray(protocols?.value)
    ? (protocols!.value as string[]).map((p) => p.toLowerCase())
    : undefined;
  const protocolFlag = (name: string): IacValue<boolean> | undefined =>
    protocols && types
      ? { value: types.includes(name), span: protocols.span, keySpan: protocols.keySpan, raw: protocols.raw }
      : undefined;
  const flag = (name: string) => bool(ruleArgs.get(name));
  const kerberos =
    flag('--kerberos5p-rw')?.value || flag('--kerberos5p-r')?.value
      ? 'krb5p'
      : flag('--kerberos5i-rw')?.value || flag('--kerberos5i-r')?.value
        ? 'krb5i'
        : flag('--kerberos5-rw')?.value || flag('--kerberos5-r')?.value
          ? 'krb5'
          : undefined;
  return exportRule(first.span, {
    allowedClients: str(ruleArgs.get('--allowed-clients')),
    nfsv3: protocolFlag('nfsv3'),
    nfsv41: protocolFlag('nfsv4.1'),
    cifs: flag('--cifs'),
    rootAccess: flag('--has-root-access'),
    kerberos,
  });
}

/** `--rules '[{"allowed_clients": "10.0.0.0/24", "nfsv41": true, ...}]'`: each object a rule (keys in any of the CLI's spellings). */
function jsonRules(rules: ArgValue): IacExportRule[] {
  if (typeof rules.value !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(rules.value);
  } catch {
    return [];
  }
  const items = Array.isArray(parsed) ? parsed : [parsed];
  return items.flatMap((item) => {
    if (!item || typeof item !== 'object') return [];
    const fields = new Map(
      Object.entries(item as Record<string, unknown>).map(([k, v]) => [k.toLowerCase().replace(/[-_]/g, ''), v]),
    );
    const at = (key: string): ArgValue | undefined =>
      fields.has(key)
        ? {
            value: fields.get(key) as string | boolean | number,
            span: rules.span,
            keySpan: rules.keySpan,
            raw: rules.raw,
          }
        : undefined;
    const b = (key: string) => bool(at(key));
    const flavour = (f: string) => b(`kerberos${f}readwrite`)?.value || b(`kerberos${f}readonly`)?.value;
    const kerberos = flavour('5p') ? 'krb5p' : flavour('5i') ? 'krb5i' : flavour('5') ? 'krb5' : undefined;
    return [exportRuleOf(rules.span, at, kerberos)];
  });
}
