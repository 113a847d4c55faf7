import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { TRIDENT_ANF } from '../../server/src/core/facts';
import { quantityBytes } from '../../server/src/core/iac/trident';

/** Trident's azure-netapp-files backends, the StorageClasses that select them and the claims Trident creates volumes for. */
const config = resolveConfig(configSchema.parse({}));
const FIXTURES = join(__dirname, '..', 'fixtures', 'iac', 'sources', 'trident');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');
const GiB = 1024 ** 3;

function findings(path: string, text: string) {
  const uri = `file:///repo/${path}`;
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config)).map((d) => `${d.range.start.line + 1} ${d.code}`);
}

describe('a TridentBackendConfig with virtual pools, its StorageClasses and claims', () => {
  const text = fixture('backend-anf.yaml');
  const file = parseFile('file:///repo/k8s/backend-anf.yaml', text);

  it('each claim of an ANF class is a volume in the virtual pool its selector picks, with that pool level', () => {
    expect(file.kind).toBe('kubernetes');
    expect(file.iac?.language).toBe('trident');
    expect(file.iac!.pools.map((p) => [p.symbol, p.serviceLevel?.value])).toEqual([
      ['backend-anf/gold', 'Ultra'],
      ['backend-anf/bronze', 'Standard'],
    ]);
    expect(
      file.iac!.volumes.map((v) => [v.name?.value, v.pool?.symbol, v.serviceLevel?.value, v.protocols?.value]),
    ).toEqual([
      ['training-data', 'backend-anf/gold', 'Ultra', ['NFSv4.1']],
      ['notebooks', 'backend-anf/bronze', 'Standard', ['NFSv3']], // the virtual pool's own nfsMountOptions
    ]);
    expect(file.iac!.volumes[0]!.exportRules[0]?.allowedClients?.value).toBe('10.10.0.0/16');
  });

  it("a claim below Trident's minimum gets the minimum, and says so", () => {
    const notebooks = file.iac!.volumes[1]!.quota!;
    expect(TRIDENT_ANF.minVolumeGiB.value).toBe(50);
    expect(notebooks.value).toBe(50 * GiB);
    expect(notebooks.origin).toBe('Trident creates at least 50 GiB: the claim asks for 10Gi');
    // Never rewritten in place: a Kubernetes quantity is not bytes.
    expect(notebooks.editSpan).toBeUndefined();
  });

  it('the backend nfsMountOptions are mount options the mount rules check', () => {
    // Read by the mount readers (options-only mounts): the backend's and the virtual pool's.
    expect(file.mounts.filter((m) => m.optionsOnly).map((m) => m.options.map((o) => o.name))).toEqual([
      ['nfsvers', 'hard', 'rsize', 'wsize'],
      ['nfsvers', 'hard'],
    ]);
  });

  it('a claim that states its throughput (# anf: throughput=) gets ANF116, and the key is not an unknown annotation', () => {
    expect(findings('k8s/backend-anf.yaml', text)).toEqual(['55 ANF116']);
  });
});

describe('a tridentctl backend file', () => {
  it('JSON: the backend is a pool of its service level', () => {
    const file = parseFile('file:///repo/trident/backend.json', fixture('backend.json'));
    expect(file.kind).toBe('json-options');
    expect(file.iac!.pools.map((p) => [p.symbol, p.serviceLevel?.value])).toEqual([['anf-analytics', 'Premium']]);
    expect(file.iac!.volumes).toEqual([]);
  });
});

describe('storage that is not Azure NetApp Files stays out of the estate', () => {
  it('an ontap-nas backend, its class and its claim', () => {
    const file = parseFile('file:///repo/k8s/ontap.yaml', fixture('ontap-nas-backend.yaml'));
    expect(file.iac).toBeUndefined();
    expect(findings('k8s/ontap.yaml', fixture('ontap-nas-backend.yaml'))).toEqual([]);
  });

  it('Azure Files, Blob NFS and another filer', () => {
    const file = parseFile('file:///repo/k8s/other.yaml', fixture('other-storage.yaml'));
    expect(file.iac).toBeUndefined();
    expect(findings('k8s/other.yaml', fixture('other-storage.yaml'))).toEqual([]);
  });

  it('a claim whose class is not in the file is not read (its storage is unknown here)', () => {
    const claimOnly = fixture('backend-anf.yaml')
      .split('---')
      .filter((doc) => doc.includes('PersistentVolumeClaim'))
      .join('---');
    expect(parseFile('file:///repo/k8s/claims.yaml', claimOnly).iac).toBeUndefined();
  });
});

describe('Kubernetes quantities', () => {
  it('binary and decimal suffixes', () => {
    expect(quantityBytes('100Gi')).toBe(100 * GiB);
    expect(quantityBytes('1Ti')).toBe(1024 * GiB);
    expect(quantityBytes('500G')).toBe(500e9);
    expect(quantityBytes('1.5Ti')).toBe(1.5 * 1024 * GiB);
    expect(quantityBytes('53687091200')).toBe(50 * GiB);
    expect(quantityBytes('100 gigs')).toBeUndefined();
  });
});

describe('Trident resources in a Markdown runbook', () => {
  it('reads the yaml blocks (indented under list items) as documents; the backend elsewhere leaves the level unknown, with the reason', () => {
    const text = readFileSync(join(FIXTURES, '..', 'aks-dynamic-volumes.md'), 'utf8');
    const file = parseFile('file:///repo/docs/aks-dynamic-volumes.md', text);
    expect(file.iac?.language).toBe('trident');
    const claim = file.iac!.volumes[0]!;
    expect(claim).toMatchObject({ name: { value: 'reporting-data' }, quota: { value: 500 * GiB } });
    expect(claim.serviceLevel?.value).toBeUndefined();
    expect(claim.serviceLevel?.unknown).toMatch(
      /StorageClass `anf-reporting` selects no azure-netapp-files backend pool written in this file/,
    );
    expect(text.slice(claim.quota!.span.start, claim.quota!.span.end)).toBe('500Gi');
    expect(findings('docs/aks-dynamic-volumes.md', text)).toEqual([]);
  });
});
