import type { SourceText, Span } from '../text/sourceText';
import type { IacAccount, IacModuleCall, IacPool, IacValue, IacVolume } from './estate';
import type { Field } from './fields';

/**
 * A module's resources as its caller's (Terraform `module` blocks, Bicep `module` declarations
 * with a local path): each value is placed in the caller's text, where the user changes it for
 * that instance. Shared by terraform.ts and bicep.ts.
 */

export interface Placement {
  readonly call: IacModuleCall;
  /** The call's arguments (Terraform: the block's; Bicep: `params`), read in the caller's scope. */
  readonly args: ReadonlyMap<string, Field>;
  /** The module file the resource is written in, and its path from the caller's folder. */
  readonly source: SourceText;
  readonly where: string;
}

/**
 * A module's resource as the caller's: every value is placed in the caller's text, where the user
 * changes it for this instance.
 * - A value that uses a variable the block sets sits on that argument (`log_quota_gib = 1024`), and
 *   says which attribute of the module uses it: a finding on it lands where it is fixed.
 * - A value that uses a variable the block does not set (its default) sits on the block's first
 *   line, and says so: setting the argument is the fix.
 * - A value written in the module alone (a literal, a local of literals) sits on an empty span at
 *   the block's start: the module's own file judges it, once for every caller (withValueOrigin drops
 *   a finding placed there, unless the finding also rests on a value the caller gives: a pool's totals).
 * Symbols become `module.<name>.<symbol>`; nothing is ever edited through an instance.
 */
export function placeInstance<T extends IacAccount | IacPool | IacVolume>(resource: T, at: Placement): T {
  const anchor: Span = { start: at.call.headSpan.start, end: at.call.headSpan.start };
  const instance =
    at.call.key !== undefined ? `["${at.call.key}"]` : at.call.index !== undefined ? `[${at.call.index}]` : '';
  const prefix = `module.${at.call.name}${instance}.`;
  const placeValue = (v: IacValue<unknown>): IacValue<unknown> => {
    const { editSpan: _editSpan, vars, origin, ...rest } = v;
    const line = `${at.where} line ${at.source.positionAt(v.span.start).line + 1}`;
    const used = vars?.find((name) => at.args.has(name));
    if (used !== undefined) {
      const arg = at.args.get(used)!;
      const attribute = at.source.text.slice(v.keySpan.start, v.keySpan.end);
      const note = `set by \`${used}\` of module "${at.call.name}", used ${attribute ? `as \`${attribute}\` ` : ''}in ${line}`;
      return {
        ...rest,
        span: arg.span,
        keySpan: arg.keySpan,
        raw: arg.raw,
        origin: arg.origin ? `${note}; ${arg.origin}` : note,
        ...(arg.vars ? { vars: arg.vars } : {}),
      };
    }
    if (vars && vars.length > 0) {
      const unset = `module "${at.call.name}" does not set ${vars.map((name) => `\`${name}\``).join(', ')}`;
      return {
        ...rest,
        span: at.call.headSpan,
        keySpan: at.call.headSpan,
        origin: origin ? `${origin}; ${unset}` : `${unset} (${line})`,
      };
    }
    return { ...rest, span: anchor, keySpan: anchor, origin: origin ?? `written in ${line}` };
  };
  const place = (value: unknown, key: string): unknown => {
    if (typeof value === 'string')
      return key === 'symbol' || key === 'volumeGroup' || key === 'address' ? `${prefix}${value}` : value;
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map((item: unknown) => place(item, key));
    if ('raw' in value && 'span' in value) return placeValue(value as IacValue<unknown>);
    if ('start' in value && 'end' in value && Object.keys(value).length === 2) return anchor;
    const out: Record<string, unknown> = {};
    for (const [k, child] of Object.entries(value)) out[k] = k === 'value' || k === 'kind' ? child : place(child, k);
    return out;
  };
  const placed = place(resource, '') as T;
  return { ...placed, span: at.call.span, headSpan: anchor, repeated: resource.repeated || at.call.repeated };
}

/**
 * A placed value's origin without the attribute that uses the argument (`, used as \`name\` in
 * modules/anf/main.tf line 26`): what the values one argument sets have in common.
 */
export function argumentOrigin(origin: string): string {
  return origin.replace(USE_CLAUSE, '');
}
/** The clause `placeInstance` writes after `set by ... of module "..."`. */
const USE_CLAUSE = /, used (?:as `[^`]*` )?in .*? line \d+/;

/** `modules/anf/main.tf` from the caller's folder (`../anf/main.tf` upwards), for messages. */
export function relativeUri(fromFolder: string, uri: string): string {
  const from = fromFolder.split('/').slice(0, -1);
  const to = uri.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.length - common;
  let path = `${'../'.repeat(up)}${to.slice(common).join('/')}`;
  try {
    path = decodeURIComponent(path);
  } catch {
    // keep the encoded form
  }
  return path;
}
