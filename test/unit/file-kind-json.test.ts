import { describe, expect, it } from 'vitest';
import { detectFileKind } from '../../server/src/core';

/** JSON files are told apart by content: the estate (ARM, az output) before NFS option strings. */
describe('file kinds of JSON files', () => {
  const arm =
    '{\n  "$schema": "https://schema.management.azure.com/schemas/2019-04-01/deploymentTemplate.json#",\n  "resources": [{ "type": "Microsoft.NetApp/netAppAccounts", "name": "anf" }]\n}\n';
  const azOutput =
    '[{ "type": "Microsoft.NetApp/netAppAccounts/capacityPools/volumes", "usageThreshold": 107374182400, "creationToken": "tools" }]\n';
  const trident =
    '{ "version": 1, "storageDriverName": "azure-netapp-files", "nfsMountOptions": "vers=3,nconnect=8" }\n';

  it('an ARM template that deploys NetApp resources is an arm-template', () => {
    expect(detectFileKind('infra/azuredeploy.json', arm)).toBe('arm-template');
  });

  it('az netappfiles output (NetApp types, no deployment schema) is az-netappfiles-json', () => {
    expect(detectFileKind('inventory/volumes.json', azOutput)).toBe('az-netappfiles-json');
  });

  it('other JSON with an NFS option string is json-options, and the rest is unknown', () => {
    expect(detectFileKind('trident/backend.json', trident)).toBe('json-options');
    expect(detectFileKind('package.json', '{ "name": "x" }')).toBe('unknown');
    expect(detectFileKind('infra/azuredeploy.json')).toBe('unknown');
  });
});
