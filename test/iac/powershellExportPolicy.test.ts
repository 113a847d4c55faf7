import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** Az PowerShell `-ExportPolicy`: the helper objects of Az.NetAppFiles and hashtables (issue 28 §1). */
const PATH = join(__dirname, '..', 'fixtures', 'iac', 'sources', 'anf-export-policy.ps1');
const TEXT = readFileSync(PATH, 'utf8');
const config = resolveConfig(configSchema.parse({}));

describe('PowerShell export policies', () => {
  it('reads New-AzNetAppFilesExportPolicyRuleObject rules through $(...) and New-AzNetAppFilesExportPolicyObject, and hashtables', () => {
    const estate = parseFile('file:///repo/anf-export-policy.ps1', TEXT).iac!;
    const [artifacts, cache] = estate.volumes;
    expect(artifacts!.exportRules).toMatchObject([
      { allowedClients: { value: '0.0.0.0/0' }, nfsv3: { value: true }, rootAccess: { value: true } },
    ]);
    expect(cache!.exportRules).toMatchObject([
      { allowedClients: { value: '10.20.0.0/16' }, nfsv3: { value: false }, nfsv41: { value: true } },
    ]);
    expect(artifacts!.subnet).toMatchObject({ vnet: 'vnet-build', name: 'snet-anf' });
  });

  it('judges them: root open to everyone, a rule for a protocol the volume does not serve', () => {
    const uri = 'file:///repo/anf-export-policy.ps1';
    const ws = new Workspace(config);
    ws.set(uri, TEXT);
    const found = visibleDiagnostics(lintFile(ws, uri, config)).map((d) => `${d.range.start.line + 1} ${d.code}`);
    expect(found).toEqual(expect.arrayContaining(['6 ANF403']));
    expect(found.some((f) => f.endsWith('ANF402'))).toBe(true);
  });
});
