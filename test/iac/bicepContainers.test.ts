import { describe, expect, it } from 'vitest';
import { readBicep } from '../../server/src/core/iac/bicep';
import { SourceText } from '../../server/src/core/text/sourceText';

/**
 * Issue 29: the Bicep reader gives a resource's `properties`, `exportPolicy` and `rules` (objects
 * and arrays that hold fields) without evaluating them whole (`Obj.object`, `Obj.elements`). What
 * they hold must be what `field(key).object` and `.items` gave: in a loop, the element's own
 * object where the property names it (`v.policy`), through vars and params, and each rule where
 * it is written.
 */

const TEXT = `param pool string = 'p1'
var shared = {
  ruleIndex: 1
  allowedClients: '10.0.0.0/24'
  nfsv3: true
  nfsv41: false
}
var volumes = [
  {
    name: 'a'
    policy: {
      rules: [
        {
          ruleIndex: 1
          allowedClients: '10.1.0.0/24'
          nfsv3: false
          nfsv41: true
          hasRootAccess: false
        }
      ]
    }
  }
  {
    name: 'b'
    policy: {
      rules: [ shared ]
    }
  }
]
var common = {
  serviceLevel: 'Premium'
  usageThreshold: 107374182400
  creationToken: 'fixed'
}

resource looped 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for v in volumes: {
  name: 'acct/\${pool}/\${v.name}'
  properties: {
    serviceLevel: 'Premium'
    creationToken: v.name
    usageThreshold: 107374182400
    exportPolicy: v.policy
  }
}]

resource byVar 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = {
  name: 'acct/\${pool}/c'
  properties: common
}
`;

describe('Bicep objects and arrays read without evaluating them whole', () => {
  const source = new SourceText(TEXT);
  const estate = readBicep(source, [])!;
  const at = (span: { start: number; end: number }) => TEXT.slice(span.start, span.end);

  it("reads a loop element's export policy from the element, each rule where it is written", () => {
    const [a, b] = estate.volumes;
    expect(a?.creationToken?.value).toBe('a');
    expect(a?.exportRules.map((r) => [r.allowedClients?.value, r.nfsv3?.value, r.nfsv41?.value])).toEqual([
      ['10.1.0.0/24', false, true],
    ]);
    expect(at(a!.exportRules[0]!.span)).toMatch(/^\{\s+ruleIndex: 1\s+allowedClients: '10\.1\.0\.0\/24'/);
    // `rules: [ shared ]`: the element is the name; its fields are the var's.
    expect(b?.exportRules.map((r) => [r.allowedClients?.value, r.nfsv3?.value])).toEqual([['10.0.0.0/24', true]]);
    expect(at(b!.exportRules[0]!.span)).toBe('shared');
  });

  it('reads `properties` named by a var', () => {
    const c = estate.volumes[2];
    expect(c?.creationToken?.value).toBe('fixed');
    expect(c?.serviceLevel?.value).toBe('Premium');
  });

  it('reads a loop whose array names the loop variable itself, without recursing for ever', () => {
    // `[for x in [x]: ...]`: the element is the name the item is bound to (a reader failure before).
    const looped = `param x object = {}
resource vols 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for x in [x]: {
  name: 'a/b/c'
  properties: x
}]
resource more 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-06-01' = [for y in [y]: {
  name: 'a/b/d'
  properties: {
    usageThreshold: y
    exportPolicy: y
  }
}]
`;
    const read = readBicep(new SourceText(looped), []);
    expect(read?.volumes.map((v) => v.name?.value)).toEqual(['c', 'd']);
  });
});
