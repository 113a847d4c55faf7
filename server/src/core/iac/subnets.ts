import { DELEGATED_SUBNET } from '../facts';
import type { Span } from '../text/sourceText';
import type { IacAttachment, IacNsgAssociation, IacSubnet, IacSubnetLink, IacValue, IacVolume } from './estate';
import { subnetLinkOf, subnetLinkOfWords } from './subnetLinks';
export { subnetLinkOf, subnetLinkOfWords };
import { IPV4, parseIpv4Cidr } from './ipv4';
import { declared, elementsAt, objectAt, str, strList, type Field, type Meta, type Obj } from './fields';

/**
 * Subnets as infrastructure code declares them, for the checks of the subnet delegated to Azure
 * NetApp Files (ANF414-ANF416): Terraform `azurerm_subnet`, the inline `subnet` blocks of
 * `azurerm_virtual_network`, `azurerm_subnet_network_security_group_association`; ARM and Bicep
 * `Microsoft.Network/virtualNetworks/subnets` and the `subnets` array of `virtualNetworks`; `az
 * network vnet subnet create|update`. A volume names its subnet by `subnet_id` / `subnetId` /
 * `--subnet`: a reference to the subnet resource, or an ID (`.../virtualNetworks/<vnet>/subnets/<name>`).
 */

export type { IacAttachment, IacNsgAssociation, IacSubnet, IacSubnetLink } from './estate';

// ---------------------------------------------------------------------------------------------
// Reading

function listOf(one: Field | undefined, many: Field | undefined): IacValue<readonly string[]> | undefined {
  return strList(many) ?? strList(one);
}

function attachment(f: Field | undefined): IacAttachment | undefined {
  // `null` or an empty string: no NSG.
  if (!f || f.value === null || f.value === '') return undefined;
  return { span: f.span, raw: f.raw };
}

function base(meta: Meta) {
  return { kind: 'subnet' as const, ...declared(meta) };
}

/** Terraform `delegation { service_delegation { name = "..." } }` blocks. */
function terraformDelegations(obj: Obj): IacValue<string>[] {
  return obj
    .blocks('delegation')
    .flatMap((d) =>
      d.blocks('service_delegation').flatMap((s) => (str(s.field('name')) ? [str(s.field('name'))!] : [])),
    );
}

/** `azurerm_subnet`. */
export function terraformSubnet(meta: Meta, obj: Obj): IacSubnet {
  const vnet = str(obj.field('virtual_network_name'));
  const prefixes = listOf(obj.field('address_prefix'), obj.field('address_prefixes'));
  const endpoints = strList(obj.field('service_endpoints'));
  return {
    ...base(meta),
    ...(vnet ? { vnetName: vnet } : {}),
    ...(prefixes ? { prefixes } : {}),
    delegations: terraformDelegations(obj),
    ...(endpoints ? { serviceEndpoints: endpoints } : {}),
  };
}

/** The inline `subnet` blocks of `azurerm_virtual_network` (azurerm 4.x: `address_prefixes`, `security_group`, `delegation`, `service_endpoints`). */
export function terraformVnetSubnets(meta: Meta, obj: Obj): IacSubnet[] {
  return obj.blocks('subnet').map((block, i) => {
    const name = str(block.field('name'));
    const prefixes = listOf(block.field('address_prefix'), block.field('address_prefixes'));
    const nsg = attachment(block.field('security_group'));
    const endpoints = strList(block.field('service_endpoints'));
    const symbol = `${meta.symbol}.subnet[${i}]`;
    return {
      kind: 'subnet' as const,
      symbol,
      address: `${meta.address ?? meta.symbol}.subnet[${i}]`,
      span: block.span,
      headSpan: { start: block.span.start, end: Math.min(block.span.end, block.span.start + 6) },
      repeated: meta.repeated,
      ...(name ? { name } : {}),
      ...(meta.name ? { vnetName: meta.name } : {}),
      ...(prefixes ? { prefixes } : {}),
      delegations: terraformDelegations(block),
      ...(nsg ? { nsg } : {}),
      ...(endpoints ? { serviceEndpoints: endpoints } : {}),
    };
  });
}

/** `azurerm_subnet_network_security_group_association`. */
export function terraformNsgAssociation(meta: Meta, obj: Obj): IacNsgAssociation | undefined {
  const subnet = subnetLinkOf(obj.field('subnet_id'));
  return subnet ? { subnet, span: meta.span, headSpan: meta.headSpan, raw: meta.symbol } : undefined;
}

/** ARM property names (Bicep, ARM templates, az output): a subnet's `properties`. */
function armSubnetProperties(props: Obj | undefined) {
  const prefixes = listOf(props?.field('addressPrefix'), props?.field('addressPrefixes'));
  const delegations = elementsAt(props, 'delegations').flatMap((d) => {
    // `{ name, properties: { serviceName } }`; az output flattens it to `{ name, serviceName }`.
    const service = str(objectAt(d.object, 'properties')?.field('serviceName') ?? d.object?.field('serviceName'));
    return service ? [service] : [];
  });
  const nsg = attachment(props?.field('networkSecurityGroup'));
  const endpointsField = props?.field('serviceEndpoints');
  const endpointItems = endpointsField?.items;
  const endpoints: IacValue<readonly string[]> | undefined = endpointsField
    ? endpointItems?.every((e) => typeof e.object?.field('service')?.value === 'string')
      ? {
          value: endpointItems.map((e) => e.object!.field('service')!.value as string),
          span: endpointsField.span,
          keySpan: endpointsField.keySpan,
          raw: endpointsField.raw,
        }
      : {
          span: endpointsField.span,
          keySpan: endpointsField.keySpan,
          raw: endpointsField.raw,
          unknown: endpointsField.unknown ?? 'the service endpoints are not all written as `{ service: ... }`',
        }
    : undefined;
  return {
    ...(prefixes ? { prefixes } : {}),
    delegations,
    ...(nsg ? { nsg } : {}),
    ...(endpoints ? { serviceEndpoints: endpoints } : {}),
  };
}

/** `Microsoft.Network/virtualNetworks/subnets`. */
export function armSubnet(meta: Meta, props: Obj | undefined, vnetName: IacValue<string> | undefined): IacSubnet {
  return { ...base(meta), ...(vnetName ? { vnetName } : {}), ...armSubnetProperties(props) };
}

/** The inline `subnets` array of `Microsoft.Network/virtualNetworks`. */
export function armVnetSubnets(meta: Meta, props: Obj | undefined): IacSubnet[] {
  return elementsAt(props, 'subnets').flatMap((item, i) => {
    const o = item.object;
    if (!o) return [];
    const name = str(o.field('name'));
    const symbol = `${meta.symbol}.subnets[${i}]`;
    return [
      {
        kind: 'subnet' as const,
        symbol,
        address: `${meta.address ?? meta.symbol}.subnets[${i}]`,
        span: item.span,
        headSpan: o.field('name')?.span ?? { start: item.span.start, end: item.span.start + 1 },
        repeated: meta.repeated,
        ...(name ? { name } : {}),
        ...(meta.name ? { vnetName: meta.name } : {}),
        ...armSubnetProperties(objectAt(o, 'properties')),
      },
    ];
  });
}

/**
 * `az network vnet subnet create|update`: `--delegations` (a service name, or several),
 * `--address-prefixes`, `--network-security-group`, `--service-endpoints`.
 */
export function commandSubnet(
  common: { symbol: string; span: Span; headSpan: Span; repeated: boolean; address: string; name?: IacValue<string> },
  values: {
    vnet: IacValue<string> | undefined;
    prefixes: IacValue<readonly string[]> | undefined;
    delegations: IacValue<readonly string[]> | undefined;
    nsg: { span: Span; raw: string; value?: unknown } | undefined;
    serviceEndpoints: IacValue<readonly string[]> | undefined;
  },
): IacSubnet {
  const d = values.delegations;
  // `--network-security-group ""` detaches it.
  const nsg = values.nsg && values.nsg.value !== '' ? { span: values.nsg.span, raw: values.nsg.raw } : undefined;
  return {
    kind: 'subnet',
    ...common,
    ...(values.vnet ? { vnetName: values.vnet } : {}),
    ...(values.prefixes ? { prefixes: values.prefixes } : {}),
    delegations: d?.value ? d.value.map((value) => ({ ...d, value })) : [],
    ...(nsg ? { nsg } : {}),
    ...(values.serviceEndpoints ? { serviceEndpoints: values.serviceEndpoints } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Judging

/** Whether a subnet is delegated to Azure NetApp Files (the service name compares without case). */
export function delegatedToNetApp(subnet: IacSubnet): IacValue<string> | undefined {
  const wanted = DELEGATED_SUBNET.delegationServiceName.value.toLowerCase();
  return subnet.delegations.find((d) => d.value?.toLowerCase() === wanted);
}

/** The prefix length of an IPv4 CIDR (`10.0.1.0/28` -> 28); undefined for anything else. */
export function prefixLength(cidr: string): number | undefined {
  const parsed = parseIpv4Cidr(cidr.trim());
  return parsed?.valid ? parsed.length : undefined;
}

/** Addresses Azure leaves usable in a subnet of this prefix length (it reserves five in each). */
export function usableAddresses(length: number): number {
  return Math.max(0, 2 ** (IPV4.bits - length) - DELEGATED_SUBNET.azureReservedAddressesPerSubnet.value);
}

/**
 * The subnet's largest IPv4 block (its smallest prefix length) and where it is written, when every
 * prefix is a known IPv4 CIDR; undefined otherwise (an unknown prefix may be the large one).
 */
export function largestPrefix(subnet: IacSubnet): { length: number; value: IacValue<readonly string[]> } | undefined {
  const prefixes = subnet.prefixes;
  if (!prefixes?.value || prefixes.value.length === 0) return undefined;
  const lengths = prefixes.value.map(prefixLength);
  if (lengths.some((l) => l === undefined)) return undefined;
  return { length: Math.min(...(lengths as number[])), value: prefixes };
}

function same(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
}

/** A resource symbol without its instance (`azurerm_subnet.anf["a"]` -> `azurerm_subnet.anf`). */
function bareSymbol(symbol: string): string {
  const bracket = symbol.indexOf('[');
  return bracket < 0 ? symbol : symbol.slice(0, bracket);
}

/**
 * Whether `link` names `subnet`. By symbol: only in the same place (`sameScope`: the same file for
 * Bicep, the same Terraform module folder). By names: the subnet's name, and its virtual network's
 * when both are known.
 */
export function linksTo(link: IacSubnetLink, subnet: IacSubnet, sameScope: boolean): boolean {
  if (link.symbol !== undefined)
    return sameScope && (link.symbol === subnet.symbol || bareSymbol(link.symbol) === bareSymbol(subnet.symbol));
  if (!same(link.name, subnet.name?.value)) return false;
  const vnet = subnet.vnetName?.value;
  return link.vnet === undefined || vnet === undefined || same(link.vnet, vnet);
}

export type NetworkFeaturesKnown = 'Basic' | 'Standard';

/** A volume's network features where the code states them (`Basic_Standard` is on its way to Standard). */
export function networkFeaturesOf(volume: IacVolume): NetworkFeaturesKnown | undefined {
  const v = volume.networkFeatures?.value?.toLowerCase();
  if (v === 'basic' || v === 'standard_basic') return 'Basic';
  if (v === 'standard' || v === 'basic_standard') return 'Standard';
  return undefined;
}
