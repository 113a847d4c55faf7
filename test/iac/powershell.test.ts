import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/** Az PowerShell `New-AzNetAppFiles*` / `Update-AzNetAppFiles*` commands read into the estate. */
const config = resolveConfig(configSchema.parse({}));
const FIXTURES = join(__dirname, '..', 'fixtures', 'iac', 'sources');
const TiB = 1024 ** 4;
const GiB = 1024 ** 3;

function findings(path: string, text: string) {
  const uri = `file:///repo/${path}`;
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config)).map((d) => `${d.range.start.line + 1} ${d.code}`);
}

describe('Az PowerShell in a .ps1 script', () => {
  const text = readFileSync(join(FIXTURES, 'New-AnfSapVolumes.ps1'), 'utf8');
  const file = parseFile('file:///repo/New-AnfSapVolumes.ps1', text);

  it('reads variables with binary multipliers, splatted hashtables and backtick continuations', () => {
    expect(file.kind).toBe('powershell');
    expect(file.iac?.language).toBe('az-powershell');
    expect(file.iac!.accounts.map((a) => a.name?.value)).toEqual(['anf-sap-pr1']);
    const pool = file.manifest!.accounts[0]!.pools[0]!;
    expect(pool.size?.value.bytes).toBe(4 * TiB);
    expect(file.iac!.pools[0]!.size?.origin).toBe('`$poolSize` = 4TB, from line 14');
    expect(
      pool.volumes.map((v) => [
        v.name?.value,
        v.quota?.value.bytes,
        v.throughput?.value.bytesPerSecond,
        v.protocols.map((p) => p.value),
      ]),
    ).toEqual([
      ['PR1-data-mnt00001', 2 * TiB, 250 * 1024 ** 2, ['NFSv4.1']], // from `@dataVolume`
      ['PR1-log-mnt00001', 512 * GiB, 150 * 1024 ** 2, ['NFSv4.1']], // `(512 * 1GB)`
    ]);
    // The splatted quota's span is its hashtable entry: a hover and a finding point there.
    const quota = file.iac!.volumes[0]!.quota!;
    expect(text.slice(quota.keySpan.start, quota.keySpan.end)).toBe('UsageThreshold');
    expect(text.slice(quota.span.start, quota.span.end)).toBe('2TB');
  });

  it('the manual QoS pool is overcommitted (ANF114) and the HANA volumes miss their KPIs (ANF408)', () => {
    expect(findings('New-AnfSapVolumes.ps1', text)).toEqual(['21 ANF114', '33 ANF408', '41 ANF408']);
  });

  it('a parameter or an environment variable is unknown, with the reason', () => {
    const script = [
      'param([long] $Size)',
      'New-AzNetAppFilesPool -ResourceGroupName rg -AccountName acc -Name p1 -ServiceLevel Standard -PoolSize $Size',
      'New-AzNetAppFilesVolume -AccountName acc -PoolName p1 -Name v1 -UsageThreshold $env:QUOTA -CreationToken v1 -ServiceLevel Standard -SubnetId x',
    ].join('\n');
    const iac = parseFile('file:///repo/x.ps1', script).iac!;
    expect(iac.pools[0]!.size?.unknown).toMatch(/`\$Size` is not set in this script/);
    expect(iac.volumes[0]!.quota?.unknown).toMatch(/`\$env:QUOTA` is an environment variable/);
  });

  it('case-insensitive names, unique prefixes, -Param:value, switches, comments and Update-', () => {
    const script = [
      '<# a block',
      '   comment #>',
      'new-aznetappfilespool -accountname acc -name p1 -servicelevel Ultra -PoolSize 8TB -CoolAccess # trailing comment',
      'New-AzNetAppFilesVolume -AccountName acc -PoolName p1 -Name v1 -Usage 100GB -CreationToken "v1" -ServiceLevel Ultra -IsLargeVolume:$false -Zone 1 -SubnetId x',
      'Update-AzNetAppFilesVolume -AccountName acc -PoolName p1 -Name v1 -UsageThreshold 200GB; Update-AzNetAppFilesPool -AccountName acc -Name p1 -PoolSize 10TB',
    ].join('\n');
    const iac = parseFile('file:///repo/x.ps1', script).iac!;
    expect(iac.pools).toHaveLength(1);
    expect(iac.pools[0]).toMatchObject({
      serviceLevel: { value: 'Ultra' },
      size: { value: 10 * TiB },
      coolAccess: { value: true },
    });
    expect(iac.volumes).toHaveLength(1);
    expect(iac.volumes[0]).toMatchObject({
      quota: { value: 200 * GiB },
      largeVolume: { value: false },
      zones: { value: ['1'] },
      creationToken: { value: 'v1' },
    });
  });

  it('PowerShell blocks in Markdown are read; other text is not', () => {
    const md = [
      '# Create the pool',
      '',
      '```azurepowershell-interactive',
      'New-AzNetAppFilesPool -ResourceGroupName rg -Location eastus -AccountName acc -Name p1 -ServiceLevel Premium -PoolSize 4398046511104',
      '```',
      '',
      'Run `New-AzNetAppFilesPool -PoolSize 1TB` in prose: not a command.',
      '',
    ].join('\n');
    const iac = parseFile('file:///repo/README.md', md).iac!;
    expect(iac.pools.map((p) => p.size?.value)).toEqual([4 * TiB]);
  });

  it('pipeline steps: GitHub Actions `shell: pwsh` and AzurePowerShell@5 `Inline`', () => {
    const workflow = [
      'name: anf',
      'on: workflow_dispatch',
      'jobs:',
      '  pools:',
      '    runs-on: windows-latest',
      '    steps:',
      '      - shell: pwsh',
      '        run: |',
      '          $size = 2TB',
      '          New-AzNetAppFilesPool -ResourceGroupName rg -Location eastus -AccountName acc -Name p1 -ServiceLevel Premium -PoolSize $size',
      '      - run: echo "not PowerShell: New-AzNetAppFilesPool -PoolSize 9TB"',
      '        shell: bash',
      '',
    ].join('\n');
    const gh = parseFile('file:///repo/.github/workflows/anf.yml', workflow);
    expect(gh.kind).toBe('ci-pipeline');
    expect(gh.iac!.pools.map((p) => p.size?.value)).toEqual([2 * TiB]);
    const azdo = [
      'steps:',
      '  - task: AzurePowerShell@5',
      '    inputs:',
      '      ScriptType: InlineScript',
      '      Inline: |',
      '        New-AzNetAppFilesPool -AccountName acc -Name p2 -ServiceLevel Standard -PoolSize 4TB',
      '',
    ].join('\n');
    const file = parseFile('file:///repo/azure-pipelines.yml', azdo);
    expect(file.iac!.pools.map((p) => [p.name?.value, p.size?.value])).toEqual([['p2', 4 * TiB]]);
  });

  it('a script without ANF cmdlets has no estate', () => {
    expect(
      parseFile('file:///repo/x.ps1', 'Get-AzNetAppFilesVolume -ResourceGroupName rg\nWrite-Host "done"\n').iac,
    ).toBeUndefined();
  });
});
