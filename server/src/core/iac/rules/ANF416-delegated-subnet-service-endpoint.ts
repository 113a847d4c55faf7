import { defineRule } from '../../rules/rule';
import { delegatedToNetApp } from '../subnets';
import { isIac } from './helpers';
import { subnetName, volumeList, volumesInSubnet } from './subnetHelpers';

export const delegatedSubnetServiceEndpoint = defineRule({
  code: 'ANF416',
  name: 'delegated-subnet-service-endpoint',
  domain: 'iac',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'A service endpoint on a delegated subnet whose volumes use Basic network features',
    what: 'Service endpoints on a subnet delegated to `Microsoft.NetApp/volumes` (Terraform `service_endpoints`, ARM and Bicep `serviceEndpoints`, `az network vnet subnet create|update --service-endpoints`) while a volume of the code in that subnet states Basic network features: an error when every such volume is Basic, a warning when Standard and Basic volumes share the subnet. Nothing is said when no volume in the subnet states its network features.',
    why: '"Delegate a subnet to Azure NetApp Files" (2024-11-27): "If you\'re using Basic network features, you can\'t designate a network security group (NSG) or service endpoint in the delegated subnet. Doing so causes the subnet delegation to fail. To designate an NSG or service endpoint, upgrade to Standard network features." The constraints table of "Guidelines for Azure NetApp Files network planning" lists connectivity to service endpoints as Standard: Yes, Basic: No.',
    instead:
      'Remove the service endpoints from the delegated subnet, or give its volumes Standard network features (`network_features = "Standard"`, `networkFeatures: \'Standard\'`).',
    examples: [
      {
        flagged:
          "resource vnet 'Microsoft.Network/virtualNetworks@2023-09-01' = {\n  name: 'vnet-gis'\n  location: 'uksouth'\n  properties: {\n    addressSpace: {\n      addressPrefixes: [\n        '10.30.0.0/16'\n      ]\n    }\n    subnets: [\n      {\n        name: 'snet-anf'\n        properties: {\n          addressPrefix: '10.30.4.0/26'\n          serviceEndpoints: [\n            {\n              service: 'Microsoft.Storage'\n            }\n          ]\n          delegations: [\n            {\n              name: 'netapp'\n              properties: {\n                serviceName: 'Microsoft.NetApp/volumes'\n              }\n            }\n          ]\n        }\n      }\n    ]\n  }\n}\n\nresource account 'Microsoft.NetApp/netAppAccounts@2023-11-01' = {\n  name: 'anf-gis'\n  location: 'uksouth'\n}\n\nresource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2023-11-01' = {\n  parent: account\n  name: 'standard'\n  location: 'uksouth'\n  properties: {\n    serviceLevel: 'Standard'\n    size: 4398046511104\n  }\n}\n\nresource tiles 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2023-11-01' = {\n  parent: pool\n  name: 'tiles'\n  location: 'uksouth'\n  properties: {\n    creationToken: 'tiles'\n    serviceLevel: 'Standard'\n    usageThreshold: 4398046511104\n    subnetId: vnet.properties.subnets[0].id\n    networkFeatures: 'Basic'\n    protocolTypes: [\n      'NFSv3'\n    ]\n  }\n}",
        better:
          "resource vnet 'Microsoft.Network/virtualNetworks@2023-09-01' = {\n  name: 'vnet-gis'\n  location: 'uksouth'\n  properties: {\n    addressSpace: {\n      addressPrefixes: [\n        '10.30.0.0/16'\n      ]\n    }\n    subnets: [\n      {\n        name: 'snet-anf'\n        properties: {\n          addressPrefix: '10.30.4.0/26'\n          serviceEndpoints: [\n            {\n              service: 'Microsoft.Storage'\n            }\n          ]\n          delegations: [\n            {\n              name: 'netapp'\n              properties: {\n                serviceName: 'Microsoft.NetApp/volumes'\n              }\n            }\n          ]\n        }\n      }\n    ]\n  }\n}\n\nresource account 'Microsoft.NetApp/netAppAccounts@2023-11-01' = {\n  name: 'anf-gis'\n  location: 'uksouth'\n}\n\nresource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2023-11-01' = {\n  parent: account\n  name: 'standard'\n  location: 'uksouth'\n  properties: {\n    serviceLevel: 'Standard'\n    size: 4398046511104\n  }\n}\n\nresource tiles 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2023-11-01' = {\n  parent: pool\n  name: 'tiles'\n  location: 'uksouth'\n  properties: {\n    creationToken: 'tiles'\n    serviceLevel: 'Standard'\n    usageThreshold: 4398046511104\n    subnetId: vnet.properties.subnets[0].id\n    networkFeatures: 'Standard'\n    protocolTypes: [\n      'NFSv3'\n    ]\n  }\n}",
        language: 'bicep',
      },
    ],
    sources: ['DELEGATE_SUBNET', 'NETWORK_PLANNING'],
  },
  appliesTo: isIac,
  check(context) {
    for (const subnet of context.file.iac?.subnets ?? []) {
      const endpoints = subnet.serviceEndpoints;
      if (!endpoints?.value || endpoints.value.length === 0 || !delegatedToNetApp(subnet)) continue;
      const linked = volumesInSubnet(context, context.file, subnet);
      const basic = linked.filter((v) => v.features === 'Basic').map((v) => v.volume);
      const standard = linked.filter((v) => v.features === 'Standard').map((v) => v.volume);
      if (basic.length === 0) continue;
      const list = endpoints.value.map((e) => `\`${e}\``).join(', ');
      if (standard.length === 0) {
        context.report({
          span: endpoints.span,
          message: `Subnet ${subnetName(subnet)}, delegated to Azure NetApp Files, has service endpoints (${list}) while its ${volumeList(basic)} ${basic.length === 1 ? 'uses' : 'use'} Basic network features. "Delegate a subnet to Azure NetApp Files": "If you're using Basic network features, you can't designate a network security group (NSG) or service endpoint in the delegated subnet. Doing so causes the subnet delegation to fail." Remove the endpoints or use Standard network features.`,
        });
        continue;
      }
      context.report({
        span: endpoints.span,
        severity: 'warning',
        message: `Subnet ${subnetName(subnet)}, delegated to Azure NetApp Files, has service endpoints (${list}) and holds ${volumeList(basic)} with Basic network features (beside ${volumeList(standard)} with Standard). "Delegate a subnet to Azure NetApp Files" says a service endpoint cannot be designated in the delegated subnet with Basic network features. Move the Basic ${basic.length === 1 ? 'volume' : 'volumes'} to Standard network features.`,
      });
    }
  },
});
