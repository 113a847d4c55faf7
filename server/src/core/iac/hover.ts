import { plainFinding, type Finding } from '../diagnostics';
import type { Span } from '../text/sourceText';
import type { IacEstate, IacValue } from './estate';
import { argumentOrigin } from './instance';
import { knownModuleSymbol, knownModuleTitle } from './knownModules';

/** Field names as people read them in hovers, per estate key. */
const LABELS: Record<string, string> = {
  serviceLevel: 'service level',
  size: 'pool size',
  qos: 'QoS type',
  customThroughputMiBps: 'pool throughput',
  coolAccess: 'cool access',
  quota: 'quota',
  protocols: 'protocols',
  throughputMiBps: 'assigned throughput',
  largeVolume: 'large volume',
  networkFeatures: 'network features',
  zones: 'zones',
  kerberos: 'Kerberos',
  creationToken: 'export path',
  name: 'name',
  pool: 'pool',
};

/**
 * Hover on a value anf-lint could not evaluate (a variable without a default here, a function, a
 * module output): it says so, and that no finding or figure uses a guess for it.
 */
export function unknownValueHover(estate: IacEstate, offset: number): { markdown: string; span: Span } | undefined {
  const found = valueAt(estate, offset);
  if (!found || found.value.value !== undefined || found.borrowed) return undefined;
  const { key, value: v } = found;
  const what = LABELS[key] ?? key;
  const reads =
    estate.language === 'terraform'
      ? 'literals, arithmetic, `var` values (the `default`, or `terraform.tfvars` and `*.auto.tfvars` of the folder), `locals` and references to resources of the module'
      : 'literals, arithmetic, `param` defaults, `var`s, `parameters()`/`variables()` and references to resources here';
  // Commands in scripts and Trident resources say why themselves (`IacValue.unknown`).
  if (
    v.unknown !== undefined &&
    (estate.language === 'az-cli' || estate.language === 'az-powershell' || estate.language === 'trident')
  ) {
    return {
      markdown: `**${what}: unknown**\n\n${capitalize(v.unknown)}. Findings and figures that need the ${what} are left out rather than guessed.`,
      span: v.span,
    };
  }
  return {
    markdown: `**${what}: unknown**\n\nanf-lint cannot evaluate \`${v.raw.length > 60 ? `${v.raw.slice(0, 60)}…` : v.raw}\` (it reads ${reads}).${v.origin ? ` ${capitalize(v.origin)}.` : ''} Findings and figures that need the ${what} are left out rather than guessed.`,
    span: v.span,
  };
}

/**
 * Hover on a Terraform `module` block's first line or `source` (a Bicep `module` declaration's):
 * what anf-lint read through it, or why nothing (docs/iac.md).
 */
export function moduleCallHover(estate: IacEstate, offset: number): { markdown: string; span: Span } | undefined {
  const call = estate.calls?.find(
    (c) =>
      (offset >= c.headSpan.start && offset <= c.headSpan.end) ||
      (c.sourceSpan && offset >= c.sourceSpan.start && offset <= c.sourceSpan.end),
  );
  if (!call) return undefined;
  const span =
    call.sourceSpan && offset >= call.sourceSpan.start && offset <= call.sourceSpan.end
      ? call.sourceSpan
      : call.headSpan;
  const title = `**module ${call.name}**${call.source !== undefined ? ` · \`${call.source}\`` : ''}`;
  const known = call.local ? undefined : knownModuleTitle(estate.language, call);
  if (known) {
    const symbol = knownModuleSymbol(estate.language, call);
    const ours = (r: { symbol: string }) => r.symbol === symbol || r.symbol.startsWith(`${symbol}.`);
    const made = [
      plural(estate.accounts.filter(ours).length, 'NetApp account'),
      plural(estate.pools.filter(ours).length, 'capacity pool'),
      plural(estate.volumes.filter(ours).length, 'volume'),
    ].filter((x) => x !== undefined);
    if (made.length === 0) {
      return {
        span,
        markdown: `${title}\n\nA registry module anf-lint knows: ${known}. This version is not one anf-lint checked and the call writes an input those versions do not declare, so it is not read (its meaning may have changed). The NetApp resources it makes are unknown, never guessed.`,
      };
    }
    return {
      span,
      markdown: `${title}\n\nA registry module anf-lint knows: ${known}. Read from this call's arguments, in the units the module takes: ${made.join(', ')}${call.repeated ? ' (repeated: a loop, `count` or `for_each`, how many is unknown)' : ''}. Findings land on the values written here; values written through parameters or variables without a value stay unknown.`,
    };
  }
  if (!call.local && call.unread !== undefined) {
    return {
      span,
      markdown: `**deployment ${call.name}** · \`templateLink\`\n\nanf-lint does not read this linked template: ${call.unread}. The NetApp resources it deploys are unknown, never guessed. A \`relativePath\` or \`uri(deployment().properties.templateLink.uri, 'path')\` naming a file of the repository is read (docs/iac.md).`,
    };
  }
  if (!call.local) {
    return {
      span,
      markdown: `${title}\n\nNot a local path (a registry, git or URL module, or a computed one): its code is not in this repository, so anf-lint does not read it. The NetApp resources it makes are unknown, never guessed.`,
    };
  }
  const prefix = `module.${call.name}.`;
  const keyed = `module.${call.name}["`;
  // A Bicep `[for ...]` loop over an array anf-lint knows: one instance per element (`module.name[0].`).
  const indexed = new RegExp(`^module\\.${call.name.replace(/[^\w]/g, '\\$&')}\\[(\\d+)\\]\\.`);
  const ours = (symbol: string) => symbol.startsWith(prefix) || symbol.startsWith(keyed) || indexed.test(symbol);
  const count = (list: readonly { symbol: string }[]) => list.filter((r) => ours(r.symbol)).length;
  // `for_each` over keys anf-lint knows: one instance per key (`module.name["key"].`).
  const keys = new Set(
    [...estate.accounts, ...estate.pools, ...estate.volumes].flatMap((r) =>
      r.symbol.startsWith(keyed) ? [r.symbol.slice(keyed.length, r.symbol.indexOf('"].', keyed.length))] : [],
    ),
  );
  const elements = new Set(
    [...estate.accounts, ...estate.pools, ...estate.volumes].flatMap((r) => indexed.exec(r.symbol)?.[1] ?? []),
  );
  const made = [
    plural(count(estate.accounts), 'NetApp account'),
    plural(count(estate.pools), 'capacity pool'),
    plural(count(estate.volumes), 'volume'),
  ].filter((x) => x !== undefined);
  if (made.length === 0) {
    return {
      span,
      markdown: `${title}\n\nanf-lint read no NetApp account, capacity pool or volume through this module: it declares none, or none of its files is in this workspace.`,
    };
  }
  return {
    span,
    markdown: `${title}\n\nRead with this block's arguments: ${made.join(', ')}${keys.size > 0 ? `, for its ${keys.size} \`for_each\` keys` : elements.size > 0 ? `, for the ${elements.size} elements of its \`[for ...]\` loop` : call.repeated ? (estate.language === 'bicep' ? ' (repeated: a `[for ...]` loop over an array anf-lint cannot read, how many is unknown)' : ' (repeated: `count` or `for_each`, how many is unknown)') : ''}. A finding on a value this block sets is reported on its argument, one on a default it leaves on this line; what the module writes itself is judged in its own files.`,
  };
}

function plural(n: number, noun: string): string | undefined {
  return n === 0 ? undefined : `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/**
 * Where a value written through variables or locals got them (Terraform): "`var.quota` = 4096, from
 * terraform.tfvars line 3", for the hover of a known value; undefined for a literal.
 */
export function valueOriginNote(estate: IacEstate, offset: number): string | undefined {
  const found = valueAt(estate, offset);
  const origin =
    !found || found.value.value === undefined || !found.value.origin
      ? undefined
      : `${capitalize(LABELS[found.key] ?? found.key)}: ${found.value.origin}.`;
  // A resource whose deployment hangs on a condition anf-lint could not evaluate says so (IacResource.deployedIf).
  const conditional = [...estate.volumes, ...estate.pools, ...estate.accounts].find(
    (r) => r.deployedIf !== undefined && offset >= r.span.start && offset <= r.span.end,
  );
  const note = conditional ? `${capitalize(conditional.deployedIf!)}.` : undefined;
  return origin && note ? `${origin}\n\n${note}` : (origin ?? note);
}

/**
 * The value written at `offset` (exactly at `exact`, for a finding); `borrowed`: a pool of another
 * file, as a volume here names it. A value of a called module written in the module alone sits on
 * an empty span (iac/terraform.ts `placeInstance`): nothing to hover there. Several values of a
 * resource at exactly one span (a module's argument, `volumes = var.volumes`, that gives a
 * volume's name, quota and protocols) say where they came from only as far as they agree: a
 * finding does not say which of them it is about.
 */
function valueAt(
  estate: IacEstate,
  offset: number,
  exact?: Span,
): { key: string; value: IacValue<unknown>; borrowed: boolean } | undefined {
  // A volume's own values first: a pool of another file is placed on the volume's `pool_name`.
  for (const resource of resourcesAt(estate, offset)) {
    const borrowed = 'declaredIn' in resource && resource.declaredIn !== undefined;
    let found: { key: string; value: IacValue<unknown>; borrowed: boolean } | undefined;
    for (const [key, value] of Object.entries(resource)) {
      const v = value as IacValue<unknown> | undefined;
      if (!v || typeof v !== 'object' || !('raw' in v) || !('span' in v)) continue;
      if (
        exact
          ? v.span.start !== exact.start || v.span.end !== exact.end
          : offset < v.span.start || offset > v.span.end || v.span.start === v.span.end
      )
        continue;
      if (borrowed && key !== 'name') continue;
      if (!exact) return { key: borrowed ? 'pool' : key, value: v, borrowed };
      found = found
        ? { ...found, value: agreedOrigin(found.value, v) }
        : { key: borrowed ? 'pool' : key, value: v, borrowed };
    }
    if (found) return found;
  }
  // A Bicep module instance from a loop over a literal array: its values from the item sit on that
  // element, outside the declaration (bicep.ts); only an exact match there, one instance's alone.
  if (!exact) return undefined;
  for (const resource of [...estate.volumes, ...estate.pools]) {
    if (!resource.symbol.startsWith('module.') || ('declaredIn' in resource && resource.declaredIn !== undefined))
      continue;
    let found: { key: string; value: IacValue<unknown>; borrowed: boolean } | undefined;
    for (const [key, value] of Object.entries(resource)) {
      const v = value as IacValue<unknown> | undefined;
      if (
        v &&
        typeof v === 'object' &&
        'raw' in v &&
        'span' in v &&
        v.span.start === exact.start &&
        v.span.end === exact.end &&
        v.span.start !== v.span.end
      )
        found = found ? { ...found, value: agreedOrigin(found.value, v) } : { key, value: v, borrowed: false };
    }
    if (found) return found;
  }
  return undefined;
}

type Resource = IacEstate['volumes'][number] | IacEstate['pools'][number];

/**
 * The volumes and pools of an estate by where they start, built once per estate: each finding of a
 * 10 MiB file with tens of thousands of resources looked its value up by scanning them all (issue 32).
 * `reach[i]`: the furthest end of the spans up to `i`, so a lookup stops at the first span that
 * cannot hold the offset.
 */
interface SpanIndex {
  readonly count: number;
  /** Indexes into `[...volumes, ...pools]`, by span start. */
  readonly order: readonly number[];
  readonly reach: readonly number[];
  readonly all: readonly Resource[];
}

const SPAN_INDEXES = new WeakMap<IacEstate, SpanIndex>();

function spanIndex(estate: IacEstate): SpanIndex {
  const count = estate.volumes.length + estate.pools.length;
  const known = SPAN_INDEXES.get(estate);
  if (known && known.count === count) return known;
  const all: Resource[] = [...estate.volumes, ...estate.pools];
  const order = all.map((_, i) => i).sort((a, b) => all[a]!.span.start - all[b]!.span.start || a - b);
  const reach: number[] = [];
  for (const i of order) reach.push(Math.max(reach[reach.length - 1] ?? -Infinity, all[i]!.span.end));
  const index = { count, order, reach, all };
  SPAN_INDEXES.set(estate, index);
  return index;
}

/** The volumes, then the pools, whose span holds `offset`, in the estate's order (as a scan finds them). */
function resourcesAt(estate: IacEstate, offset: number): Resource[] {
  const { order, reach, all } = spanIndex(estate);
  // The last resource starting at or before the offset.
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (all[order[middle]!]!.span.start <= offset) low = middle + 1;
    else high = middle;
  }
  const found: number[] = [];
  for (let i = low - 1; i >= 0 && reach[i]! >= offset; i--)
    if (all[order[i]!]!.span.end >= offset) found.push(order[i]!);
  return found.sort((a, b) => a - b).map((i) => all[i]!);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * `value` with the part of its origin `other`'s shares: without the attribute that uses their
 * argument when they are two attributes set by one argument; none when they disagree beyond it.
 */
function agreedOrigin(value: IacValue<unknown>, other: IacValue<unknown>): IacValue<unknown> {
  if (value.origin === other.origin || value.origin === undefined) return value;
  const shared = other.origin !== undefined ? argumentOrigin(value.origin) : undefined;
  const agreed = shared !== undefined && shared === argumentOrigin(other.origin!) ? shared : undefined;
  const { origin: _origin, ...rest } = value;
  return agreed !== undefined ? { ...rest, origin: agreed } : rest;
}

/**
 * A finding placed on a value that came through variables or locals (Terraform) names where they
 * got it, so "quota 40 GiB is below ..." on `var.data_quota_gib` says the 40 is in terraform.tfvars.
 * Undefined: the finding is not this file's to report (Terraform modules, terraformModules.ts):
 * - in a caller, on a value written inside the called module alone (the module's file reports it);
 * - in a called module, on a value that uses a variable (each caller's instance reports it, where
 *   the caller sets it or on its `module` block when it leaves the default).
 * A finding worked out from other values too (`restsOn`: a pool's totals) is judged by all of them:
 * a called module's file, read with its defaults, leaves it to the callers when one of them uses a
 * variable, and a caller reports it, on the `module` block, when one of them is its own (the quotas
 * it passes to a pool written in the module, which the module's file never sees overcommitted).
 */
export function withValueOrigin(estate: IacEstate, finding: Finding): Finding | undefined {
  if (estate.calls && finding.span.start === finding.span.end) {
    const call = estate.calls.find((c) => c.headSpan.start === finding.span.start);
    if (call) {
      // Every value of an instance is placed in the caller: on the argument or `module` block
      // that gives it (a span), or, written in the module alone, on this empty one.
      if (!finding.restsOn?.some((s) => s.start !== s.end)) return undefined;
      return {
        ...plainFinding(finding),
        span: call.headSpan,
        message: `${finding.message} (written in module "${call.name}"${call.source ? ` (${call.source})` : ''}, judged for this call: with the values it passes and the module's defaults)`,
      };
    }
  }
  if (!hasOrigins(estate)) return finding;
  const v = valueAt(estate, finding.span.start, finding.span)?.value;
  if (
    estate.calledBy &&
    (usesVariables(v) || finding.restsOn?.some((s) => usesVariables(valueAt(estate, s.start, s)?.value)))
  )
    return undefined;
  if (!v) return finding;
  if (v.value === undefined || !v.origin) return finding;
  return { ...plainFinding(finding), message: `${finding.message} (${v.origin})` };
}

function usesVariables(value: IacValue<unknown> | undefined): boolean {
  return value?.vars !== undefined && value.vars.length > 0;
}

const ORIGINS = new WeakMap<IacEstate, boolean>();

/** Whether any value of the estate came through a variable or local (once per estate: findings ask per finding). */
function hasOrigins(estate: IacEstate): boolean {
  let has = ORIGINS.get(estate);
  if (has === undefined) {
    has = [...estate.pools, ...estate.volumes].some((r) =>
      Object.values(r).some(
        (v) => v !== null && typeof v === 'object' && 'origin' in v && (v as IacValue<unknown>).origin !== undefined,
      ),
    );
    ORIGINS.set(estate, has);
  }
  return has;
}
