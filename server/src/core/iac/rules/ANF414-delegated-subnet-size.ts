import { DELEGATED_SUBNET } from '../../facts';
import { defineRule } from '../../rules/rule';
import { delegatedToNetApp, largestPrefix, usableAddresses } from '../subnets';
import { isIac } from './helpers';
import { subnetName, volumesInSubnet } from './subnetHelpers';

export const delegatedSubnetSize = defineRule({
  code: 'ANF414',
  name: 'delegated-subnet-size',
  domain: 'iac',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: 'A subnet delegated to Azure NetApp Files is smaller than Microsoft describes or recommends',
    what: `A subnet delegated to \`Microsoft.NetApp/volumes\` (Terraform \`delegation { service_delegation { name = ... } }\`, ARM and Bicep \`delegations[].properties.serviceName\`, \`az network vnet subnet create|update --delegations\`) whose largest IPv4 prefix is smaller than /${DELEGATED_SUBNET.sufficientPrefixLength.value}: a warning. Smaller than /${DELEGATED_SUBNET.recommendedPrefixLength.value} (/${DELEGATED_SUBNET.recommendedSapPrefixLength.value} when a volume of the code in it is a SAP HANA volume): information. Nothing is said when a prefix is unknown (a variable without a value, an IPv6 prefix).`,
    why: `The size of a delegated subnet cannot be changed once it is created, and every volume endpoint takes an address of it. "Delegate a subnet to Azure NetApp Files" (2024-11-27): "A subnet with a /28 network mask provides only 11 usable IP addresses, which might be insufficient for certain use cases." It describes nothing smaller; Azure reserves five addresses in every subnet ("Azure reserves the first four and last IP address for a total of 5 IP addresses within each subnet", Azure Virtual Network FAQ), so a /29 leaves 3. "Guidelines for Azure NetApp Files network planning": "It's also recommended that the size of the delegated subnet be at least /25 for SAP workloads and /26 for other workload scenarios." No page says Azure refuses a /29, so the smallest case is a warning, not an error (anf-lint's judgement).`,
    instead: `Create the delegated subnet at /${DELEGATED_SUBNET.recommendedPrefixLength.value} or larger (/${DELEGATED_SUBNET.recommendedSapPrefixLength.value} for SAP), before volumes are placed in it: it cannot be resized later.`,
    examples: [
      {
        flagged:
          'resource "azurerm_subnet" "anf" {\n  address_prefixes = ["10.1.2.0/29"]\n  delegation {\n    name = "netapp"\n    service_delegation { name = "Microsoft.Netapp/volumes" }\n  }\n}',
        better: 'address_prefixes = ["10.1.2.0/26"]',
        language: 'hcl',
      },
    ],
    sources: ['DELEGATE_SUBNET', 'NETWORK_PLANNING', 'VNET_FAQ'],
  },
  appliesTo: isIac,
  check(context) {
    for (const subnet of context.file.iac?.subnets ?? []) {
      if (!delegatedToNetApp(subnet)) continue;
      const largest = largestPrefix(subnet);
      if (!largest) continue;
      const { length, value } = largest;
      const usable = usableAddresses(length);
      if (length > DELEGATED_SUBNET.sufficientPrefixLength.value) {
        context.report({
          span: value.span,
          message: `Subnet ${subnetName(subnet)} is delegated to Azure NetApp Files with a /${length}: ${usable} usable ${usable === 1 ? 'address' : 'addresses'} (Azure reserves 5 in every subnet). "Delegate a subnet to Azure NetApp Files" describes nothing smaller than /${DELEGATED_SUBNET.sufficientPrefixLength.value} (11 usable addresses) and says even that "might be insufficient"; a delegated subnet cannot be resized once created. Use /${DELEGATED_SUBNET.recommendedPrefixLength.value} or larger.`,
        });
        continue;
      }
      const sap = volumesInSubnet(context, context.file, subnet).some((v) =>
        v.volume.workload?.kind.startsWith('sap-hana'),
      );
      const wanted = sap
        ? DELEGATED_SUBNET.recommendedSapPrefixLength.value
        : DELEGATED_SUBNET.recommendedPrefixLength.value;
      if (length <= wanted) continue;
      context.report({
        span: value.span,
        severity: 'info',
        message: `Subnet ${subnetName(subnet)} is delegated to Azure NetApp Files with a /${length} (${usable} usable addresses). "Guidelines for Azure NetApp Files network planning" recommends at least /${wanted}${sap ? ' for SAP workloads (a SAP HANA volume of this code is in it)' : ` (/${DELEGATED_SUBNET.recommendedSapPrefixLength.value} for SAP)`}, and a delegated subnet cannot be resized once created.`,
      });
    }
  },
});
