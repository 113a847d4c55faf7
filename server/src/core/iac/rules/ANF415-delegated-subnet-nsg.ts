import { defineRule, type RuleContext } from '../../rules/rule';
import type { Span } from '../../text/sourceText';
import { delegatedToNetApp, type IacSubnet } from '../subnets';
import { isIac } from './helpers';
import { subnetName, subnetsLinked, volumeList, volumesInSubnet } from './subnetHelpers';

export const delegatedSubnetNsg = defineRule({
  code: 'ANF415',
  name: 'delegated-subnet-nsg',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A network security group on a delegated subnet whose volumes use Basic network features',
    what: 'A network security group on a subnet delegated to `Microsoft.NetApp/volumes` (ARM and Bicep `networkSecurityGroup`, a Terraform inline `security_group` or an `azurerm_subnet_network_security_group_association`, `az network vnet subnet create|update --network-security-group`) while a volume of the code in that subnet states Basic network features (`network_features`, `networkFeatures`, `--network-features`): an error when every such volume is Basic, a warning when Standard and Basic volumes share the subnet. Nothing is said when no volume in the subnet states its network features: the default depends on the provider and API version.',
    why: '"Delegate a subnet to Azure NetApp Files" (2024-11-27): "If you\'re using Basic network features, you can\'t designate a network security group (NSG) or service endpoint in the delegated subnet. Doing so causes the subnet delegation to fail." "Guidelines for Azure NetApp Files network planning": "If the subnet has a combination of volumes with the Standard and Basic network features, user-defined routes (UDRs) and network security groups (NSGs) applied on the delegated subnets will only apply to the volumes with the Standard network features."',
    instead:
      'Give the volumes Standard network features (`network_features = "Standard"`), or leave the delegated subnet without an NSG and apply NSGs to the subnets of the clients.',
    examples: [
      {
        flagged:
          'resource "azurerm_subnet" "anf" {\n  name                 = "snet-anf"\n  resource_group_name  = "rg-files"\n  virtual_network_name = "vnet-files"\n  address_prefixes     = ["10.10.4.0/26"]\n  delegation {\n    name = "netapp"\n    service_delegation {\n      name = "Microsoft.NetApp/volumes"\n    }\n  }\n}\n\nresource "azurerm_network_security_group" "anf" {\n  name                = "nsg-anf"\n  location            = "eastus2"\n  resource_group_name = "rg-files"\n}\n\nresource "azurerm_subnet_network_security_group_association" "anf" {\n  subnet_id                 = azurerm_subnet.anf.id\n  network_security_group_id = azurerm_network_security_group.anf.id\n}\n\nresource "azurerm_netapp_volume" "home" {\n  name                = "home"\n  location            = "eastus2"\n  resource_group_name = "rg-files"\n  account_name        = "anf-files"\n  pool_name           = "pool-std"\n  service_level       = "Standard"\n  volume_path         = "home"\n  subnet_id           = azurerm_subnet.anf.id\n  network_features    = "Basic"\n  protocols           = ["NFSv3"]\n  storage_quota_in_gb = 1024\n}',
        better:
          'resource "azurerm_subnet" "anf" {\n  name                 = "snet-anf"\n  resource_group_name  = "rg-files"\n  virtual_network_name = "vnet-files"\n  address_prefixes     = ["10.10.4.0/26"]\n  delegation {\n    name = "netapp"\n    service_delegation {\n      name = "Microsoft.NetApp/volumes"\n    }\n  }\n}\n\nresource "azurerm_network_security_group" "anf" {\n  name                = "nsg-anf"\n  location            = "eastus2"\n  resource_group_name = "rg-files"\n}\n\nresource "azurerm_subnet_network_security_group_association" "anf" {\n  subnet_id                 = azurerm_subnet.anf.id\n  network_security_group_id = azurerm_network_security_group.anf.id\n}\n\nresource "azurerm_netapp_volume" "home" {\n  name                = "home"\n  location            = "eastus2"\n  resource_group_name = "rg-files"\n  account_name        = "anf-files"\n  pool_name           = "pool-std"\n  service_level       = "Standard"\n  volume_path         = "home"\n  subnet_id           = azurerm_subnet.anf.id\n  network_features    = "Standard"\n  protocols           = ["NFSv3"]\n  storage_quota_in_gb = 1024\n}',
        language: 'hcl',
      },
    ],
    sources: ['DELEGATE_SUBNET', 'NETWORK_PLANNING'],
  },
  appliesTo: isIac,
  check(context) {
    const estate = context.file.iac;
    for (const subnet of estate?.subnets ?? [])
      if (subnet.nsg) judge(context, subnet, 'A network security group is set on subnet', subnet.nsg.span);
    for (const association of estate?.nsgAssociations ?? [])
      for (const { subnet, file } of subnetsLinked(context, context.file, association.subnet))
        judge(
          context,
          subnet,
          `\`${association.raw}\` puts a network security group on subnet`,
          association.headSpan,
          file,
        );
  },
});

/** Judges an NSG written at `span` on a delegated `subnet` of `file` by the network features of the volumes in it. */
function judge(context: RuleContext, subnet: IacSubnet, where: string, span: Span, subnetFile = context.file): void {
  if (!delegatedToNetApp(subnet)) return;
  const linked = volumesInSubnet(context, subnetFile, subnet);
  const basic = linked.filter((v) => v.features === 'Basic').map((v) => v.volume);
  const standard = linked.filter((v) => v.features === 'Standard').map((v) => v.volume);
  // Network features unknown (not written, or a value anf-lint cannot evaluate): not judged.
  if (basic.length === 0) return;
  if (standard.length === 0) {
    context.report({
      span,
      message: `${where} ${subnetName(subnet)}, delegated to Azure NetApp Files, whose ${volumeList(basic)} ${basic.length === 1 ? 'uses' : 'use'} Basic network features. "Delegate a subnet to Azure NetApp Files": "If you're using Basic network features, you can't designate a network security group (NSG) or service endpoint in the delegated subnet. Doing so causes the subnet delegation to fail." Use Standard network features, or apply the NSG to the clients' subnets instead.`,
    });
    return;
  }
  context.report({
    span,
    severity: 'warning',
    message: `${where} ${subnetName(subnet)}, delegated to Azure NetApp Files, which holds ${volumeList(standard)} with Standard and ${volumeList(basic)} with Basic network features. "Guidelines for Azure NetApp Files network planning": NSGs "applied on the delegated subnets will only apply to the volumes with the Standard network features", so the Basic ${basic.length === 1 ? 'one is' : 'ones are'} not filtered. Move ${basic.length === 1 ? 'it' : 'them'} to Standard network features.`,
  });
}
