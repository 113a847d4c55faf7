import type { Span } from '../text/sourceText';
import type { IacSubnetLink, IacValue } from './estate';

/** What a link is read from: a field of a resource body (fields.ts `Field` has this shape). */
interface LinkSource {
  readonly symbol?: string;
  readonly raw: string;
  readonly span: Span;
  readonly value?: unknown;
}

/** The subnet an ID names (`/subscriptions/.../virtualNetworks/vnet/subnets/anf`), case-insensitive as ARM IDs are. */
const SUBNET_ID = /\/virtualNetworks\/([^/]+)\/subnets\/([^/]+)\/?$/i;

const BICEP_INLINE_SUBNET = /^([A-Za-z_]\w*)\.properties\.subnets\[(\d+)\]\.id$/;
const BICEP_NESTED_SUBNET = /^[A-Za-z_]\w*::([A-Za-z_]\w*)\.id$/;

/** A volume's `subnet_id` / `subnetId`, or an NSG association's `subnet_id`. */
export function subnetLinkOf(f: LinkSource | undefined): IacSubnetLink | undefined {
  if (!f) return undefined;
  if (f.symbol) return { symbol: f.symbol, span: f.span, raw: f.raw };
  // Bicep: `vnet.properties.subnets[1].id` (an inline subnet, by position) and `vnet::anf.id` (a nested subnet resource).
  const inline = BICEP_INLINE_SUBNET.exec(f.raw.trim());
  if (inline) return { symbol: `${inline[1]}.subnets[${inline[2]}]`, span: f.span, raw: f.raw };
  const nested = BICEP_NESTED_SUBNET.exec(f.raw.trim());
  if (nested) return { symbol: nested[1]!, span: f.span, raw: f.raw };
  const m = typeof f.value === 'string' ? SUBNET_ID.exec(f.value) : null;
  return m && !m[1]!.includes('{') && !m[2]!.includes('{')
    ? { vnet: m[1]!, name: m[2]!, span: f.span, raw: f.raw }
    : undefined;
}

/** The same from a command's flags (`az netappfiles volume create --vnet v --subnet s`, or `--subnet <id>`). */
export function subnetLinkOfWords(
  subnet: IacValue<string> | undefined,
  vnet: IacValue<string> | undefined,
): IacSubnetLink | undefined {
  if (!subnet || subnet.value === undefined) return undefined;
  const m = SUBNET_ID.exec(subnet.value);
  if (m) return { vnet: m[1]!, name: m[2]!, span: subnet.span, raw: subnet.raw };
  if (subnet.value.includes('/')) return undefined;
  return {
    name: subnet.value,
    ...(vnet?.value !== undefined && !vnet.value.includes('/') ? { vnet: vnet.value } : {}),
    span: subnet.span,
    raw: subnet.raw,
  };
}
