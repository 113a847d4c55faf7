param location string = 'westeurope'
param prefix string = 'cache'
param subnetId string = ''

module storage './storage.bicep' = [for i in range(0, 2): {
  name: 'storage-${i}'
  params: {
    location: location
    prefix: '${prefix}-${i}'
    subnetId: subnetId
  }
}]

module single './storage.bicep' = {
  name: 'single'
  params: {
    prefix: prefix
    subnetId: subnetId
  }
}
