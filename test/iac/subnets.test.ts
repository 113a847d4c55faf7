import { describe, expect, it } from 'vitest';
import { parseFile } from '../../server/src/core';
import {
  delegatedToNetApp,
  largestPrefix,
  linksTo,
  prefixLength,
  subnetLinkOfWords,
  usableAddresses,
} from '../../server/src/core/iac/subnets';
import { persistsToFstab } from '../../server/src/core/mounts/persistence';

/** The subnet delegated to Azure NetApp Files, read from each source (issue 28 §3), and the links from volumes to it. */

describe('reading subnets', () => {
  it('reads a Terraform azurerm_subnet: prefixes, the delegation whatever its case, service endpoints', () => {
    const file = parseFile(
      'file:///repo/net.tf',
      `resource "azurerm_subnet" "anf" {
  name                 = "snet-anf"
  virtual_network_name = "vnet-a"
  address_prefixes     = ["10.0.4.0/28", "10.0.5.0/27"]
  service_endpoints    = ["Microsoft.Storage"]
  delegation {
    name = "d"
    service_delegation {
      name = "Microsoft.Netapp/volumes"
    }
  }
}
`,
    );
    const subnet = file.iac!.subnets![0]!;
    expect(subnet).toMatchObject({
      symbol: 'azurerm_subnet.anf',
      name: { value: 'snet-anf' },
      vnetName: { value: 'vnet-a' },
    });
    expect(delegatedToNetApp(subnet)?.value).toBe('Microsoft.Netapp/volumes');
    expect(largestPrefix(subnet)?.length).toBe(27);
    expect(subnet.serviceEndpoints?.value).toEqual(['Microsoft.Storage']);
  });

  it('links a Terraform volume to its subnet by reference, and reads an NSG association', () => {
    const file = parseFile(
      'file:///repo/main.tf',
      `resource "azurerm_subnet" "anf" {
  name             = "snet-anf"
  address_prefixes = ["10.0.4.0/26"]
}
resource "azurerm_subnet_network_security_group_association" "a" {
  subnet_id                 = azurerm_subnet.anf.id
  network_security_group_id = "x"
}
resource "azurerm_netapp_volume" "v" {
  name      = "v"
  subnet_id = azurerm_subnet.anf.id
}
`,
    );
    const subnet = file.iac!.subnets![0]!;
    expect(file.iac!.volumes[0]!.subnet).toMatchObject({ symbol: 'azurerm_subnet.anf' });
    expect(linksTo(file.iac!.volumes[0]!.subnet!, subnet, true)).toBe(true);
    // By symbol only within the same module folder or file.
    expect(linksTo(file.iac!.volumes[0]!.subnet!, subnet, false)).toBe(false);
    expect(file.iac!.nsgAssociations![0]!.subnet.symbol).toBe('azurerm_subnet.anf');
  });

  it('reads a Bicep subnet declared as a child of its virtual network, with the network name', () => {
    const file = parseFile(
      'file:///repo/main.bicep',
      `resource vnet 'Microsoft.Network/virtualNetworks@2023-09-01' = {
  name: 'vnet-b'
  location: 'eastus'
  resource anf 'subnets' = {
    name: 'snet-b'
    properties: {
      addressPrefixes: [
        '10.1.0.0/26'
      ]
      delegations: [
        {
          name: 'n'
          properties: {
            serviceName: 'Microsoft.NetApp/volumes'
          }
        }
      ]
    }
  }
}
resource account 'Microsoft.NetApp/netAppAccounts@2023-11-01' = {
  name: 'a'
  location: 'eastus'
}
`,
    );
    const subnet = file.iac!.subnets![0]!;
    expect(subnet).toMatchObject({ name: { value: 'snet-b' }, vnetName: { value: 'vnet-b' } });
    expect(largestPrefix(subnet)?.length).toBe(26);
    expect(delegatedToNetApp(subnet)).toBeDefined();
  });

  it('links a Bicep volume whose subnetId is written with resourceId() to the subnet it names', () => {
    const file = parseFile(
      'file:///repo/main.bicep',
      `param vnetName string = 'vnet-d'

resource vnet 'Microsoft.Network/virtualNetworks@2023-09-01' = {
  name: vnetName
  location: 'eastus'
  properties: {
    addressSpace: { addressPrefixes: ['10.3.0.0/16'] }
    subnets: [
      {
        name: 'snet-d'
        properties: {
          addressPrefix: '10.3.4.0/26'
          delegations: [{ name: 'anf', properties: { serviceName: 'Microsoft.NetApp/volumes' } }]
        }
      }
    ]
  }
}

resource volume 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2024-07-01' = {
  name: 'acct/pool/data'
  location: 'eastus'
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'data'
    usageThreshold: 1099511627776
    subnetId: resourceId('Microsoft.Network/virtualNetworks/subnets', vnetName, 'snet-d')
  }
}
`,
    );
    const subnet = file.iac!.subnets![0]!;
    const volume = file.iac!.volumes[0]!;
    expect(volume.subnet).toMatchObject({ name: 'snet-d', vnet: 'vnet-d' });
    expect(linksTo(volume.subnet!, subnet, false)).toBe(true);
  });

  it('reads az network vnet subnet create and links az netappfiles volume create --vnet --subnet to it', () => {
    const file = parseFile(
      'file:///repo/anf.sh',
      `#!/bin/bash
az network vnet subnet create -g rg --vnet-name vnet-c -n snet-c --address-prefixes 10.2.0.0/28 --delegations Microsoft.NetApp/volumes --network-security-group nsg-c
az netappfiles volume create -g rg -a acc -p pool -n vol --usage-threshold 100 --file-path vol --vnet vnet-c --subnet snet-c --network-features Basic
`,
    );
    const subnet = file.iac!.subnets![0]!;
    expect(subnet).toMatchObject({ name: { value: 'snet-c' }, vnetName: { value: 'vnet-c' }, nsg: { raw: 'nsg-c' } });
    expect(largestPrefix(subnet)?.length).toBe(28);
    const volume = file.iac!.volumes[0]!;
    expect(volume.subnet).toMatchObject({ name: 'snet-c', vnet: 'vnet-c' });
    expect(linksTo(volume.subnet!, subnet, false)).toBe(true);
  });
});

describe('subnet arithmetic and links', () => {
  it('reads IPv4 prefix lengths only', () => {
    expect(prefixLength('10.0.0.0/28')).toBe(28);
    expect(prefixLength(' 10.0.0.0/24 ')).toBe(24);
    expect(prefixLength('10.0.0.300/24')).toBeUndefined();
    expect(prefixLength('fd00::/64')).toBeUndefined();
    expect(prefixLength('10.0.0.0/33')).toBeUndefined();
    expect(usableAddresses(28)).toBe(11);
    expect(usableAddresses(29)).toBe(3);
    expect(usableAddresses(32)).toBe(0);
  });

  it('takes a subnet from an ID or a name, never from a placeholder', () => {
    const at = { span: { start: 0, end: 1 }, keySpan: { start: 0, end: 1 }, raw: 'x' };
    expect(
      subnetLinkOfWords(
        { ...at, value: '/subscriptions/s/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/V/subnets/S' },
        undefined,
      ),
    ).toMatchObject({ vnet: 'V', name: 'S' });
    expect(subnetLinkOfWords({ ...at, value: 'snet' }, { ...at, value: 'vnet' })).toMatchObject({
      name: 'snet',
      vnet: 'vnet',
    });
    expect(subnetLinkOfWords({ ...at }, undefined)).toBeUndefined();
  });
});

describe('mounts a configuration manager writes into fstab (ANF221)', () => {
  it('Salt mount.mounted persists by default, not with persist: False', () => {
    const file = parseFile(
      'file:///repo/salt/nfs.sls',
      `/hana/shared:
  mount.mounted:
    - device: 10.20.1.4:/hn1-shared
    - fstype: nfs
    - opts: rw,hard,vers=4.1
/scratch:
  mount.mounted:
    - device: 10.20.1.4:/scratch
    - fstype: nfs
    - opts: rw,hard,vers=3
    - persist: False
`,
    );
    expect(file.mounts.map((m) => [m.mountPoint, persistsToFstab(m)])).toEqual([
      ['/hana/shared', true],
      ['/scratch', false],
    ]);
  });

  it('Puppet mount with ensure => mounted persists', () => {
    const file = parseFile(
      'file:///repo/manifests/nfs.pp',
      `mount { '/data':
  ensure  => mounted,
  device  => '10.20.1.4:/data',
  fstype  => 'nfs',
  options => 'rw,hard,vers=4.1',
}
`,
    );
    expect(file.mounts.map(persistsToFstab)).toEqual([true]);
  });
});
