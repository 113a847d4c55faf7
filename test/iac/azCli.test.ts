import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, parseFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { arithmetic } from '../../server/src/core/iac/shellValues';
import { computeHover } from '../../server/src/core/features/hover';

/** `az netappfiles ... create|update` commands in scripts, Markdown and CI pipelines, read into the estate. */
const config = resolveConfig(configSchema.parse({}));
const FIXTURES = join(__dirname, '..', 'fixtures', 'iac', 'sources');
const fixture = (path: string) => readFileSync(join(FIXTURES, path), 'utf8');

function findings(path: string, text = fixture(path)) {
  const uri = `file:///repo/${path}`;
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config)).map((d) => `${d.range.start.line + 1} ${d.code}`);
}

describe('az netappfiles commands in a shell script', () => {
  const text = fixture('deploy-anf.sh');
  const file = parseFile('file:///repo/deploy-anf.sh', text);

  it('reads the account, the pool in TiB and the volumes in GiB, with the variables put in', () => {
    expect(file.kind).toBe('shell');
    expect(file.iac?.language).toBe('az-cli');
    const pool = file.iac!.pools[0]!;
    expect(pool).toMatchObject({ symbol: 'anf-eda-prod/pool-premium', address: 'az netappfiles pool create, line 15' });
    expect(pool.size).toMatchObject({
      value: 4,
      unit: 'TiB',
      raw: '"${POOL_SIZE}"',
      origin: '`$POOL_SIZE` = 4, from line 9',
    });
    // Written through a variable: a fix never edits the command's `$POOL_SIZE`.
    expect(pool.size?.editSpan).toBeUndefined();
    const manifestPool = file.manifest!.accounts[0]!.pools[0]!;
    expect(manifestPool.size?.value.bytes).toBe(4 * 1024 ** 4);
    expect(manifestPool.qos?.value).toBe('manual');
    expect(
      manifestPool.volumes.map((v) => [v.name?.value, v.quota?.value.bytes, v.throughput?.value.bytesPerSecond]),
    ).toEqual([
      ['eda-tools', 1024 * 1024 ** 3, 300 * 1024 ** 2], // `$((1 * 1024))` GiB
      ['eda-scratch', 3072 * 1024 ** 3, 400 * 1024 ** 2], // the later `volume update` changes the quota
    ]);
  });

  it('reads the backwards-compatible export-policy flags as one rule, its protocols from --protocol-types', () => {
    const scratch = file.iac!.volumes.find((v) => v.name?.value === 'eda-scratch')!;
    expect(scratch.exportRules).toHaveLength(1);
    expect(scratch.exportRules[0]).toMatchObject({
      allowedClients: { value: '10.20.0.0/16' },
      nfsv41: { value: true },
      nfsv3: { value: false },
      rootAccess: { value: false },
    });
    // A literal is editable in place.
    const quotaText = text.slice(scratch.quota!.editSpan!.start, scratch.quota!.editSpan!.end);
    expect(quotaText).toBe('3072');
  });

  it('the manual QoS pool is overcommitted: ANF114 on the pool size', () => {
    expect(findings('deploy-anf.sh')).toContain('21 ANF114');
  });

  it('a variable set outside the script is unknown, with the reason', () => {
    // Set on the create command, with no update after it.
    const unknown = text
      .replace('--usage-threshold 2048', '--usage-threshold "${SCRATCH_GIB}"')
      .replace(/\n# The scratch volume[^\n]*\naz netappfiles volume update[^\n]*\n/, '\n');
    const volume = parseFile('file:///repo/deploy-anf.sh', unknown).iac!.volumes[1]!;
    expect(volume.quota?.value).toBeUndefined();
    expect(volume.quota?.unknown).toMatch(/`\$SCRATCH_GIB` is not set in this script/);
    // Unknown, so the pool's totals are not judged (no guess, no 0).
    expect(findings('deploy-anf.sh', unknown)).not.toContain('21 ANF114');
    // The hover says why.
    const workspace = new Workspace(config);
    workspace.set('file:///repo/deploy-anf.sh', unknown);
    const hover = computeHover(
      workspace,
      'file:///repo/deploy-anf.sh',
      unknown.indexOf('"${SCRATCH_GIB}"') + 2,
      config,
    );
    expect(hover?.markdown).toMatch(/^\*\*quota: unknown\*\*\n\n`\$SCRATCH_GIB` is not set in this script/);
  });

  it('a value computed by a command is unknown, and says so', () => {
    const computed =
      'SIZE=$(jq .size sizing.json)\naz netappfiles pool create -g rg -a acc -n p --service-level Premium --size "$SIZE"\n';
    const pool = parseFile('file:///repo/x.sh', computed).iac!.pools[0]!;
    expect(pool.size?.value).toBeUndefined();
    expect(pool.size?.unknown).toMatch(/`\$SIZE` \(set on line 1\).*computed by a command/);
  });

  it('short flags, --flag=value, bare boolean flags, defaults `${X:-4}` and `sudo`', () => {
    const script = [
      'sudo az netappfiles pool create -g rg -a acc -p p1 --service-level=Ultra --size "${POOL_TIB:-8}" --cool-access',
      'az netappfiles volume create -g rg -a acc -p p1 -v v1 --usage-threshold 100 --file-path v1 --vnet n --subnet s --is-large-volume false --zones 1',
    ].join('\n');
    const iac = parseFile('file:///repo/x.sh', script).iac!;
    expect(iac.pools[0]).toMatchObject({
      serviceLevel: { value: 'Ultra' },
      size: { value: 8 },
      coolAccess: { value: true },
    });
    expect(iac.volumes[0]).toMatchObject({
      name: { value: 'v1' },
      pool: { name: { value: 'p1' } },
      largeVolume: { value: false },
      zones: { value: ['1'] },
    });
  });

  it('an unknown pool name links the volume that names the same unknown value; `let` and script arguments are unknown', () => {
    const script = [
      'Cluster=$1',
      'let "suffix=$RANDOM*2"',
      'Pool="${Cluster}pool"',
      'az netappfiles pool create -g rg -a acc --name $Pool --service-level premium --size 4',
      'az netappfiles volume create -g rg -a acc --pool-name $Pool --name data --usage-threshold 5120 --file-path data --vnet n --subnet s',
      'az netappfiles volume create -g rg -a acc --pool-name other --name "v$suffix" --usage-threshold 100 --file-path v --vnet n --subnet s',
    ].join('\n');
    const file = parseFile('file:///repo/hpc.sh', script);
    const volume = file.iac!.volumes[0]!;
    expect(file.iac!.volumes[1]!.name?.unknown).toMatch(/`\$suffix` is set by `let` \(line 2\)/);
    expect(volume.pool?.symbol).toBe(file.iac!.pools[0]!.symbol);
    expect(file.iac!.pools[0]!.name?.unknown).toMatch(/`\$1` is an argument the script is called with/);
    // 5 TiB of quota in the 4 TiB pool: known although the pool's name is not.
    expect(findings('hpc.sh', script)).toContain('4 ANF112');
  });

  it('--size-in-bytes takes bytes', () => {
    const pool = parseFile(
      'file:///repo/x.sh',
      'az netappfiles pool create -g rg -a acc -n p --service-level Premium --size-in-bytes 549755813888\n',
    ).manifest!.accounts[0]!.pools[0]!;
    expect(pool.size?.value.bytes).toBe(512 * 1024 ** 3);
  });

  it('a script without az netappfiles commands has no estate', () => {
    const file = parseFile(
      'file:///repo/mount.sh',
      'mount -t nfs -o vers=3,hard 10.0.0.4:/vol1 /mnt/vol1\naz group create -n rg -l westeurope\n',
    );
    expect(file.iac).toBeUndefined();
    expect(file.manifest).toBeUndefined();
  });

  it('show/list/delete commands are not resources', () => {
    const file = parseFile(
      'file:///repo/x.sh',
      'az netappfiles volume show -g rg -a acc -p p -n v\naz netappfiles pool delete -g rg -a acc -n p\n',
    );
    expect(file.iac).toBeUndefined();
  });
});

describe('az netappfiles commands in Markdown', () => {
  const file = parseFile('file:///repo/hana-volumes.md', fixture('hana-volumes.md'));

  it('reads azurecli, console ($ prompts) and bash blocks, with variables set in an earlier block', () => {
    expect(file.kind).toBe('markdown');
    expect(file.iac!.pools.map((p) => [p.name?.value, p.size?.value])).toEqual([['pool-ultra', 4]]);
    expect(file.iac!.volumes.map((v) => v.name?.value)).toEqual(['HN1-data-mnt00001', 'HN1-log-mnt00001']);
    const log = file.iac!.volumes[1]!;
    expect(log.quota?.unknown).toMatch(/`\$LOG_SIZE_GIB` is not set/);
    // The mount command of the last block is still read.
    expect(file.mounts.map((m) => m.source)).toContain('10.1.1.4:/HN1-data-mnt00001');
  });

  it('the HANA data volume is too small for its KPI: ANF408 on the quota', () => {
    expect(findings('hana-volumes.md')).toContain('23 ANF408');
  });
});

describe('az netappfiles commands in CI pipelines', () => {
  it('GitHub Actions: run steps with env from the workflow, the job and the step', () => {
    const path = '.github/workflows/anf-provision.yml';
    const file = parseFile(`file:///repo/${path}`, fixture(path));
    expect(file.kind).toBe('ci-pipeline');
    const pool = file.iac!.pools[0]!;
    expect(pool).toMatchObject({
      name: { value: 'pool-standard' },
      size: { value: 8, origin: '`$POOL_TIB` = 8, from line 15' },
    });
    // `${{ vars.ANF_ACCOUNT }}` is known only when the workflow runs.
    expect(pool.account?.name?.unknown).toMatch(/pipeline expression `\$\{\{ vars.ANF_ACCOUNT \}\}`/);
    expect(findings(path)).toContain('23 ANF112');
  });

  it('Azure Pipelines: AzureCLI@2 inlineScript, `$(name)` from the pipeline variables', () => {
    const file = parseFile('file:///repo/azure-pipelines.yml', fixture('azure-pipelines.yml'));
    expect(file.kind).toBe('ci-pipeline');
    expect(file.iac!.pools[0]!.name).toMatchObject({
      value: 'pool-db',
      origin: '`$(poolName)` = pool-db, from line 8',
    });
    expect(findings('azure-pipelines.yml')).toContain('19 ANF112');
  });

  it('a workflow without ANF commands keeps its old kind', () => {
    const text = 'name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test\n';
    expect(parseFile('file:///repo/.github/workflows/ci.yml', text).kind).toBe('unknown');
  });
});

describe('shell arithmetic', () => {
  it('evaluates integers with + - * / and parentheses, and nothing else', () => {
    expect(arithmetic('4 * 1024')).toBe(4096);
    expect(arithmetic('(2 + 2) * 1024 / 2')).toBe(2048);
    expect(arithmetic('4 ** 2')).toBeUndefined();
    expect(arithmetic('x + 1')).toBeUndefined();
    expect(arithmetic('1 / 0')).toBeUndefined();
  });
});
