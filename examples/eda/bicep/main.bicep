// Bicep version of ../eda.anf.yaml: the same estate as Microsoft.NetApp resources.
// Workloads come from `// anf: workload=<kind>` annotations or SAP naming; what a volume must
// deliver (the manifest's requirements) is left out here; `// anf: throughput=<rate> capacity=<size>` would add it.

param location string = 'eastus'
param subnetId string

var gib = 1024 * 1024 * 1024
var tib = 1024 * gib
var api = '2025-06-01'

resource eda 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: 'eda-prod'
  location: location
}

resource premium 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: eda
  name: 'eda-premium'
  location: location
  properties: {
    serviceLevel: 'Premium'
    // expect: ANF112
    size: 8 * tib // the quotas below add up to 12 TiB
  }
}

// anf: workload=eda-tools
resource tools 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: premium
  name: 'eda-tools'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'eda-tools'
    subnetId: subnetId
    usageThreshold: 4096 * gib
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
}

// anf: workload=eda-tools
resource libs 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: premium
  name: 'eda-libs'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'eda-libs'
    subnetId: subnetId
    usageThreshold: 2048 * gib
    // expect: ANF119
    protocolTypes: [ 'NFSv4.1' ] // copied from a security template; no Kerberos here
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.10.0.0/16'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

// anf: workload=general
resource home 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: premium
  name: 'eda-home'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'eda-home'
    subnetId: subnetId
    usageThreshold: 6144 * gib
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
}

resource ultra 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: eda
  name: 'eda-ultra'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    size: 20 * tib
  }
}

// anf: workload=eda-scratch
resource proj 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: ultra
  name: 'eda-proj'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: 'eda-proj'
    subnetId: subnetId
    usageThreshold: 10240 * gib
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
}

// anf: workload=eda-scratch
resource scratch 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: ultra
  name: 'eda-scratch'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: 'eda-scratch'
    subnetId: subnetId
    usageThreshold: 7451 * gib // the manifest's 8 TB: 7,451 GiB
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
}

resource archive 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: eda
  name: 'eda-archive'
  location: location
  properties: {
    serviceLevel: 'Standard'
    size: 50 * tib
    coolAccess: true
  }
}

// anf: workload=general
resource archive_volume 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: archive
  name: 'eda-archive'
  location: location
  properties: {
    serviceLevel: 'Standard'
    creationToken: 'eda-archive'
    subnetId: subnetId
    usageThreshold: 40960 * gib
    protocolTypes: [ 'NFSv3' ]
    coolAccess: true
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
}

resource flex 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: eda
  name: 'eda-flex'
  location: location
  properties: {
    serviceLevel: 'Flexible'
    size: 4 * tib
    qosType: 'Manual'
    customThroughputMibps: 1024
  }
}

// anf: workload=hpc
resource results 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: flex
  name: 'eda-results'
  location: location
  properties: {
    serviceLevel: 'Flexible'
    creationToken: 'eda-results'
    subnetId: subnetId
    usageThreshold: 4096 * gib
    protocolTypes: [ 'NFSv3' ]
    throughputMibps: 1024
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
}
