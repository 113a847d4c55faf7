import type { SourceText, Span } from '../text/sourceText';
import {
  FROM_WORKLOAD_TAG,
  workloadFromName,
  workloadKindOf,
  type IacAccount,
  type IacRef,
  type IacEstate,
  type IacExportRule,
  type IacLanguage,
  type IacPool,
  type IacSize,
  type IacValue,
  type IacVolume,
  type IacWorkload,
  type SizeUnit,
} from './estate';
import { annotationFor, requirementsFor } from './common';
import { commandSubnet, subnetLinkOfWords, type IacSubnet } from './subnets';

/**
 * The estate as command lines write it (`az netappfiles ... create|update`, Az PowerShell
 * `New-AzNetAppFiles*`): each reader turns a command's arguments into named values with their
 * positions, and this module turns those into accounts, pools and volumes. A later `update` of a
 * resource the same text creates changes that resource; an `update` of one it does not create
 * stands for the resource with the values it sets.
 */

/** One argument's value: evaluated (a string, a number, a flag, a list) or unknown with the reason. */
export interface ArgValue {
  readonly value?: string | number | boolean | readonly string[];
  /** Why `value` is undefined ("`$POOL_SIZE` is not set in this script: ..."). */
  readonly unknown?: string;
  /** The value as written in the command (the word, or the words of a list). */
  readonly span: Span;
  /** The argument's name (`--size`, `-PoolSize`). */
  readonly keySpan: Span;
  readonly raw: string;
  /** The literal's text without quotes, when the value is written right here. */
  readonly editSpan?: Span;
  /** Where the variables it uses got their values ("`$POOL_SIZE` = 4, from line 3"). */
  readonly origin?: string;
}

/** The values the estate model reads, by the names the readers map their arguments to. */
export type ArgKey =
  | 'name'
  | 'account'
  | 'pool'
  | 'serviceLevel'
  | 'size'
  | 'qos'
  | 'customThroughput'
  | 'coolAccess'
  | 'quota'
  | 'throughput'
  | 'protocols'
  | 'creationToken'
  | 'networkFeatures'
  | 'zones'
  | 'largeVolume'
  | 'kerberos'
  | 'workloadTag'
  // The delegated subnet: a volume's `--vnet` and `--subnet`; a subnet command's own values (subnets.ts).
  | 'vnet'
  | 'subnet'
  | 'addressPrefixes'
  | 'delegations'
  | 'nsg'
  | 'serviceEndpoints';

export interface ResourceCommand {
  /** `subnet`: `az network vnet subnet create|update` (subnets.ts). */
  readonly resource: 'account' | 'pool' | 'volume' | 'subnet';
  readonly verb: 'create' | 'update';
  /** The whole command. */
  readonly span: Span;
  /** The command's name words (`az netappfiles volume create`, `New-AzNetAppFilesVolume`). */
  readonly headSpan: Span;
  /** `az netappfiles volume create`, as messages name it. */
  readonly title: string;
  readonly args: ReadonlyMap<ArgKey, ArgValue>;
  readonly exportRules: readonly IacExportRule[];
  /** The unit `size` (pool) and `quota` (volume) are written in. */
  readonly sizeUnit: SizeUnit;
  readonly quotaUnit: SizeUnit;
}

interface Building {
  command: ResourceCommand;
  args: Map<ArgKey, ArgValue>;
  exportRules: IacExportRule[];
  span: Span;
}

/** The estate a text's resource commands describe, in the order the commands run. */
export function estateFromCommands(
  language: IacLanguage,
  source: SourceText,
  commands: readonly ResourceCommand[],
): IacEstate {
  const built: Building[] = [];
  const keyOf = (c: { resource: string; args: ReadonlyMap<ArgKey, ArgValue> }): string | undefined => {
    const name = (k: ArgKey) => {
      const v = c.args.get(k)?.value;
      return typeof v === 'string' ? v : undefined;
    };
    const own = name('name');
    if (own === undefined) return undefined;
    // The resource path as ARM writes it: `account/pool/volume`.
    if (c.resource === 'account') return own;
    if (c.resource === 'subnet') return `${name('vnet') ?? '?'}/${own}`;
    if (c.resource === 'pool') return `${name('account') ?? '?'}/${own}`;
    return `${name('account') ?? '?'}/${name('pool') ?? '?'}/${own}`;
  };
  const byKey = new Map<string, Building>();
  for (const command of commands) {
    const key = keyOf(command);
    const earlier =
      key !== undefined && command.verb === 'update' ? byKey.get(`${command.resource}|${key}`) : undefined;
    if (earlier) {
      // An update changes the values it names; the others stay as created.
      for (const [k, v] of command.args) earlier.args.set(k, v);
      if (command.exportRules.length > 0) earlier.exportRules = [...command.exportRules];
      continue;
    }
    const building: Building = {
      command,
      args: new Map(command.args),
      exportRules: [...command.exportRules],
      span: command.span,
    };
    built.push(building);
    if (key !== undefined) byKey.set(`${command.resource}|${key}`, building);
  }
  const accounts: IacAccount[] = [];
  const pools: IacPool[] = [];
  const volumes: IacVolume[] = [];
  const subnets: IacSubnet[] = [];
  // A name anf-lint cannot know (`--name $AnfPool`, `$AnfPool` from the script's arguments) is
  // still the same name where the same unknown value is written again: a volume's `--pool-name
  // $AnfPool` is that pool. The unknown value's text and reason (which names where the variable
  // was set) say it is the same value.
  const poolSymbols = new Map<string, string>();
  const symbolOf = (b: Building) =>
    keyOf({ resource: b.command.resource, args: b.args }) ??
    `${b.command.title}@${source.positionAt(b.command.span.start).line + 1}`;
  for (const b of built) {
    const id = b.command.resource === 'pool' ? identity(b.args.get('name')) : undefined;
    if (id !== undefined && !poolSymbols.has(id)) poolSymbols.set(id, symbolOf(b));
  }
  for (const b of built) {
    const c = b.command;
    const line = source.positionAt(c.span.start).line + 1;
    const address = `${c.title}, line ${line}`;
    const name = str(b.args.get('name'));
    const symbol = symbolOf(b);
    const common = { symbol, span: c.span, headSpan: c.headSpan, repeated: false, address, ...(name ? { name } : {}) };
    const parent = (k: ArgKey) => {
      const v = str(b.args.get(k));
      return v ? { name: v } : undefined;
    };
    const account = parent('account');
    if (c.resource === 'account') {
      accounts.push({ kind: 'account', ...common });
      continue;
    }
    if (c.resource === 'subnet') {
      subnets.push(
        commandSubnet(common, {
          vnet: str(b.args.get('vnet')),
          prefixes: list(b.args.get('addressPrefixes')),
          delegations: list(b.args.get('delegations')),
          nsg: b.args.get('nsg'),
          serviceEndpoints: list(b.args.get('serviceEndpoints')),
        }),
      );
      continue;
    }
    if (c.resource === 'pool') {
      pools.push({
        kind: 'pool',
        ...common,
        ...opt('account', account),
        ...opt('serviceLevel', str(b.args.get('serviceLevel'))),
        ...opt('size', size(b.args.get('size'), c.sizeUnit)),
        ...opt('qos', str(b.args.get('qos'))),
        ...opt('customThroughputMiBps', num(b.args.get('customThroughput'))),
        ...opt('coolAccess', bool(b.args.get('coolAccess'))),
      });
      continue;
    }
    const creationToken = str(b.args.get('creationToken'));
    const workload = workloadOf(source, c, b.args, name, creationToken);
    const subnet = subnetLinkOfWords(str(b.args.get('subnet')), str(b.args.get('vnet')));
    const requirements = requirementsFor(source, c.span);
    volumes.push({
      kind: 'volume',
      ...common,
      ...opt('account', account),
      ...opt('pool', poolRef(parent('pool'), poolSymbols.get(identity(b.args.get('pool')) ?? ''))),
      ...opt('serviceLevel', str(b.args.get('serviceLevel'))),
      ...opt('quota', size(b.args.get('quota'), c.quotaUnit)),
      ...opt('protocols', list(b.args.get('protocols'))),
      ...opt('throughputMiBps', num(b.args.get('throughput'))),
      ...opt('largeVolume', bool(b.args.get('largeVolume'))),
      ...opt('networkFeatures', str(b.args.get('networkFeatures'))),
      ...opt('zones', list(b.args.get('zones'))),
      ...opt('kerberos', bool(b.args.get('kerberos'))),
      ...opt('creationToken', creationToken),
      exportRules: b.exportRules,
      ...opt('coolAccess', bool(b.args.get('coolAccess'))),
      mountTargets: [],
      ...opt('workload', workload),
      ...opt('requirements', requirements),
      ...opt('subnet', subnet),
    });
  }
  return { language, accounts, pools, volumes, slips: [], ...(subnets.length > 0 ? { subnets } : {}) };
}

function workloadOf(
  source: SourceText,
  c: ResourceCommand,
  args: ReadonlyMap<ArgKey, ArgValue>,
  name: IacValue<string> | undefined,
  path: IacValue<string> | undefined,
): IacWorkload | undefined {
  const annotated = annotationFor(source, c.span);
  if (annotated) return annotated;
  const tag = args.get('workloadTag');
  const tagged = workloadKindOf(typeof tag?.value === 'string' ? tag.value : undefined);
  if (tag && tagged) return { kind: tagged, span: tag.span, from: FROM_WORKLOAD_TAG };
  const byName = workloadFromName(name?.value, undefined);
  if (byName && name) return { kind: byName, span: name.span, from: `its name \`${name.value}\`` };
  const byPath = workloadFromName(undefined, path?.value);
  if (byPath && path) return { kind: byPath, span: path.span, from: `its export path \`${path.value}\`` };
  return undefined;
}

/** What makes two values the same: the value, or (unknown) the same text with the same reason. */
function identity(a: ArgValue | undefined): string | undefined {
  if (!a) return undefined;
  if (a.value !== undefined) return `=${String(a.value)}`;
  return a.unknown !== undefined ? `?${a.raw}|${a.unknown}` : undefined;
}

/** By name when known; an unknown name that is the same value as a pool's of this text links by that pool's symbol. */
function poolRef(byName: { name: IacValue<string> } | undefined, symbol: string | undefined): IacRef | undefined {
  if (!byName) return undefined;
  return byName.name.value === undefined && symbol !== undefined ? { symbol, name: byName.name } : byName;
}

function opt<K extends string, V>(key: K, v: V | undefined): { [P in K]?: V } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: V };
}

function base<T>(a: ArgValue, value: T | undefined, fallbackReason: string): IacValue<T> {
  const unknown = value === undefined ? (a.unknown ?? fallbackReason) : undefined;
  return {
    ...(value !== undefined ? { value } : {}),
    span: a.span,
    keySpan: a.keySpan,
    raw: a.raw,
    ...(a.editSpan && value !== undefined ? { editSpan: a.editSpan } : {}),
    ...(a.origin ? { origin: a.origin } : {}),
    ...(unknown !== undefined ? { unknown } : {}),
  };
}

export function str(a: ArgValue | undefined): IacValue<string> | undefined {
  if (!a) return undefined;
  const v = a.value;
  const text =
    typeof v === 'string'
      ? v
      : typeof v === 'number'
        ? String(v)
        : Array.isArray(v) && v.length === 1
          ? v[0]
          : undefined;
  return base(a, text, `\`${a.raw}\` is not a single value`);
}

export function num(a: ArgValue | undefined): IacValue<number> | undefined {
  if (!a) return undefined;
  const v = a.value;
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(?:\.\d+)?\s*$/.test(v) ? Number(v) : undefined;
  return base(a, n, `\`${a.raw}\` is not a number`);
}

export function bool(a: ArgValue | undefined): IacValue<boolean> | undefined {
  if (!a) return undefined;
  const v = a.value;
  const lower = typeof v === 'string' ? v.toLowerCase() : undefined;
  const b =
    typeof v === 'boolean'
      ? v
      : lower === 'true' || lower === 'yes' || lower === '1'
        ? true
        : lower === 'false' || lower === 'no' || lower === '0'
          ? false
          : undefined;
  return base(a, b, `\`${a.raw}\` is not true or false`);
}

/**
 * An export rule of `az netappfiles` output or of a PowerShell `-ExportPolicy` value, its
 * properties read like an ARM export rule's (`at` takes the key lower-case, without dashes);
 * `kerberos` is the strongest flavour the caller found.
 */
export function exportRuleOf(
  span: Span,
  at: (key: string) => ArgValue | undefined,
  kerberos: IacExportRule['kerberos'],
): IacExportRule {
  return exportRule(span, {
    allowedClients: str(at('allowedclients')),
    nfsv3: bool(at('nfsv3')),
    nfsv41: bool(at('nfsv41')),
    cifs: bool(at('cifs')),
    rootAccess: bool(at('hasrootaccess')),
    kerberos,
  });
}

/** An export rule with the properties a command reader found, in the order given; the missing ones left out. */
export function exportRule(
  span: Span,
  found: { readonly [K in keyof Omit<IacExportRule, 'span' | 'protocols'>]: IacExportRule[K] | undefined },
): IacExportRule {
  const rule: Record<string, unknown> = { span };
  for (const [key, value] of Object.entries(found)) if (value !== undefined) rule[key] = value;
  return rule as unknown as IacExportRule;
}

export function list(a: ArgValue | undefined): IacValue<readonly string[]> | undefined {
  if (!a) return undefined;
  const v = a.value;
  const items = Array.isArray(v)
    ? (v as readonly string[])
    : typeof v === 'string'
      ? [v]
      : typeof v === 'number'
        ? [String(v)]
        : undefined;
  return base(a, items, `\`${a.raw}\` is not a list of values`);
}

function size(a: ArgValue | undefined, unit: SizeUnit): IacSize | undefined {
  const n = num(a);
  return n ? { ...n, unit } : undefined;
}
