param location string = resourceGroup().location
param subnetId string
param prefix string = 'anf'
param volumeNames array = ['data', 'logs']
param quotaGiB int = 1024

var gib = 1024 * 1024 * 1024

resource account 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: '${prefix}-account'
  location: location
}

resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: account
  name: '${prefix}-pool'
  location: location
  properties: {
    serviceLevel: 'Premium'
    size: 4 * 1024 * gib
  }
}

// anf: workload=hpc
resource volumes 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for name in volumeNames: {
  parent: pool
  name: '${prefix}-${name}'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: '${prefix}-${name}'
    subnetId: subnetId
    usageThreshold: quotaGiB * gib
    protocolTypes: [ 'NFSv3' ]
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.10.0.0/16'
          nfsv3: true
          nfsv41: false
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}]

output volumeIds array = [for (name, index) in volumeNames: volumes[index].id]
