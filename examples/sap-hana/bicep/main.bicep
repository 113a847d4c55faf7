// Bicep version of ../hana.anf.yaml: the same estate as Microsoft.NetApp resources.
// Workloads come from `// anf: workload=<kind>` annotations or SAP naming; what a volume must
// deliver (the manifest's requirements) is left out here; `// anf: throughput=<rate> capacity=<size>` would add it.

param location string = 'westeurope'
param subnetId string

var gib = 1024 * 1024 * 1024
var tib = 1024 * gib
var api = '2025-06-01'

resource prod 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: 'sap-prod'
  location: location
}

resource prd 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: prod
  name: 'hana-prd'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    size: 10 * tib
    qosType: 'Manual'
  }
}

resource prd_data 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: prd
  name: 'hana-prd-data'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: 'hana-prd-data'
    subnetId: subnetId
    usageThreshold: 4096 * gib
    protocolTypes: [ 'NFSv4.1' ]
    throughputMibps: 704
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.1.0/24'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

resource prd_log 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: prd
  name: 'hana-prd-log'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: 'hana-prd-log'
    subnetId: subnetId
    usageThreshold: 512 * gib
    protocolTypes: [ 'NFSv4.1' ]
    throughputMibps: 256
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.1.0/24'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

resource prd_shared 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: prd
  name: 'hana-prd-shared'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: 'hana-prd-shared'
    subnetId: subnetId
    usageThreshold: 1024 * gib
    protocolTypes: [ 'NFSv4.1' ]
    throughputMibps: 64
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.1.0/24'
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
resource prd_backup 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: prd
  name: 'hana-prd-backup'
  location: location
  properties: {
    serviceLevel: 'Ultra'
    creationToken: 'hana-prd-backup'
    subnetId: subnetId
    usageThreshold: 4608 * gib
    protocolTypes: [ 'NFSv4.1' ]
    throughputMibps: 256
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.1.0/24'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

resource nonprod 'Microsoft.NetApp/netAppAccounts@2025-06-01' = {
  name: 'sap-nonprod'
  location: location
}

resource qas 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: nonprod
  name: 'hana-qas'
  location: location
  properties: {
    serviceLevel: 'Premium'
    // expect: ANF114
    size: 6 * tib // budget 6 x 64 = 384 MiB/s; 516 MiB/s assigned
    qosType: 'Manual'
  }
}

resource qas_data 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: qas
  name: 'hana-qas-data'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'hana-qas-data'
    subnetId: subnetId
    usageThreshold: 3072 * gib
    // expect: ANF119
    protocolTypes: [ 'NFSv3' ] // HANA data is supported on NFSv4.1 only
    // expect: ANF408
    throughputMibps: 250
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.2.0/24'
          nfsv3: true
          nfsv41: false
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

resource qas_log 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: qas
  name: 'hana-qas-log'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'hana-qas-log'
    subnetId: subnetId
    usageThreshold: 1024 * gib
    protocolTypes: [ 'NFSv4.1' ]
    throughputMibps: 250
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.2.0/24'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

resource qas_shared 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: qas
  name: 'hana-qas-shared'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'hana-qas-shared'
    subnetId: subnetId
    usageThreshold: 1024 * gib
    protocolTypes: [ 'NFSv3' ]
    throughputMibps: 16
    // expect: ANF120
    kerberosEnabled: true
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.2.0/24'
          nfsv3: true
          nfsv41: false
          unixReadWrite: true
          hasRootAccess: false
          kerberos5pReadWrite: true
        }
      ]
    }
  }
}

resource dev 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-06-01' = {
  parent: nonprod
  name: 'hana-dev'
  location: location
  properties: {
    serviceLevel: 'Premium'
    size: 4 * tib
    coolAccess: true
  }
}

resource dev_data 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: dev
  name: 'hana-dev-data'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'hana-dev-data'
    subnetId: subnetId
    // expect: ANF408
    usageThreshold: 2048 * gib
    protocolTypes: [ 'NFSv4.1' ]
    // expect: ANF121 ANF122
    coolAccess: true
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.3.0/24'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}

resource dev_log 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  parent: dev
  name: 'hana-dev-log'
  location: location
  properties: {
    serviceLevel: 'Premium'
    creationToken: 'hana-dev-log'
    subnetId: subnetId
    // expect: ANF408
    usageThreshold: 1024 * gib // 64 MiB/s
    protocolTypes: [ 'NFSv4.1' ]
    exportPolicy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.20.3.0/24'
          nfsv3: false
          nfsv41: true
          unixReadWrite: true
          hasRootAccess: false
        }
      ]
    }
  }
}
