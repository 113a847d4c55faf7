import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL_RULES } from '../../server/src/core';
import { renderRuleDoc } from '../../server/src/core/rules/ruleDoc';
import { recommendedMountText } from '../../server/src/core/recommend/mountLine';
import { SERVICE_LEVELS } from '../../server/src/core/facts';
import { baseEnv, CLI, copyInto, GOOD_CONFIG, run, tempProject } from './helpers';

const MANIFEST = readFileSync(join(__dirname, 'fixtures', 'eda.anf.yaml'), 'utf8');

describe('anf-lint size', () => {
  it('prints the advisor table, cheapest feasible first', () => {
    const dir = tempProject({});
    const result = run(['size', '--capacity', '50TiB', '--throughput', '3000MiB/s'], { cwd: dir });
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^Sizing for 50 TiB, 3,000 MiB\/s \(eastus list prices, \d{4}-\d{2}-\d{2}; cheapest first\)$/,
    );
    expect(lines[2]).toMatch(/^Service level +QoS +Volume quota +Pool size +Throughput +Monthly cost +Feasible$/);
    const rows = lines.slice(3).filter((l) => l.trim() !== '' && !l.startsWith('Note: '));
    expect(rows).toHaveLength(SERVICE_LEVELS.length);
    expect(rows[0]).toMatch(/ yes$/);
    expect(lines).toContain(
      'Note: Flexible: a 50 TiB pool is above the default regional capacity quota of 25 TiB per subscription and region (all its pools together): request a higher quota before deploying',
    );
    // --region changes the prices; an unknown region says which prices it used instead.
    const westeurope = run(['size', '--capacity', '50TiB', '--throughput', '3000MiB/s', '--region', 'westeurope'], {
      cwd: dir,
    });
    expect(westeurope.stdout).toMatch(/^Sizing for .* \(westeurope list prices, /);
    expect(westeurope.stdout).not.toBe(result.stdout.replace('eastus', 'westeurope'));
    expect(run(['size', '--capacity', '1TiB', '--region', 'atlantis'], { cwd: dir }).stderr).toContain(
      'no list prices for region "atlantis"',
    );
  });

  it('--format json has the documented shape', () => {
    const dir = tempProject({});
    const result = run(
      [
        'size',
        '--capacity',
        '50TiB',
        '--throughput',
        '3000MiB/s',
        '--workload',
        'eda-tools',
        '--region',
        'westeurope',
        '--format',
        'json',
      ],
      { cwd: dir },
    );
    const json = JSON.parse(result.stdout) as { options: Record<string, unknown>[] };
    expect(json.options).toHaveLength(SERVICE_LEVELS.length);
    for (const option of json.options) {
      expect(Object.keys(option)).toEqual([
        'serviceLevel',
        'qos',
        'volumeCount',
        'quotaGiB',
        'largeVolume',
        'poolSizeTiB',
        'throughputMiBps',
        'monthlyCostUsd',
        'feasible',
        'reason',
        'notes',
      ]);
      expect(option.quotaGiB).toBeGreaterThanOrEqual(50 * 1024);
      expect(option.feasible ? option.reason === null : typeof option.reason === 'string').toBe(true);
    }
    const costs = json.options.filter((o) => o.feasible).map((o) => o.monthlyCostUsd as number);
    expect([...costs].sort((a, b) => a - b)).toEqual(costs);
  });

  it('splits 6,000 MiB/s on 10 TiB over two regular volumes, takes a read share and the cool data share', () => {
    const dir = tempProject({});
    const split = run(['size', '--capacity', '10TiB', '--throughput', '6000MiB/s'], { cwd: dir });
    expect(split.stdout.split('\n')[3]).toMatch(/^Flexible +manual +2 x 5,120 GiB +10 TiB +6,000 MiB\/s .* yes$/);
    expect(split.stdout).toContain('Note: Flexible (2 volumes): spreads the data and the I/O over 2 regular volumes');
    const mix = JSON.parse(
      run(
        [
          'size',
          '--iops',
          '300k',
          '--block-size',
          '8KiB',
          '--read-percent',
          '70',
          '--capacity',
          '10TiB',
          '--format',
          'json',
        ],
        { cwd: dir },
      ).stdout,
    ) as { options: { volumeCount: number; largeVolume: boolean }[] };
    expect(mix.options.filter((o) => o.volumeCount === 1).every((o) => o.largeVolume)).toBe(true);
    const cool = JSON.parse(
      run(['size', '--capacity', '40TiB', '--cool-percent', '80', '--format', 'json'], { cwd: dir }).stdout,
    ) as { options: { coolTier?: unknown }[] };
    expect(cool.options.every((o) => o.coolTier !== undefined)).toBe(true);
    expect(run(['size', '--capacity', '1TiB', '--read-percent', '150'], { cwd: dir }).stderr).toContain(
      '--read-percent: "150" is not a percentage from 0 to 100',
    );
  });

  it('takes IOPS with a block size, cool access, and says which flag is wrong', () => {
    const dir = tempProject({});
    expect(
      run(['size', '--iops', '100k', '--block-size', '16KiB', '--cool-access', '--format', 'json'], { cwd: dir }).code,
    ).toBe(0);
    const noUnit = run(['size', '--capacity', '50'], { cwd: dir });
    expect(noUnit.code).toBe(2);
    expect(noUnit.stderr).toContain('--capacity: "50" has no unit');
    expect(run(['size', '--iops', '100k'], { cwd: dir }).stderr).toContain('--iops needs --block-size');
    expect(run(['size', '--throughput', '3000', '--workload', 'eda'], { cwd: dir }).code).toBe(2);
    expect(run(['size', '--capacity', '1TiB', '--workload', 'eda'], { cwd: dir }).stderr).toContain(
      '--workload: "eda" is not a workload',
    );
    expect(run(['size'], { cwd: dir }).stderr).toContain('give at least --capacity, --throughput or --iops');
    expect(run(['size', '--bogus'], { cwd: dir }).stderr).toContain("'--bogus'");
  });
});

describe('anf-lint mount', () => {
  const volume = {
    account: 'eda-prod',
    pool: 'eda-premium',
    name: 'eda-tools',
    workload: 'eda-tools' as const,
    nfsVersions: ['3' as const],
    mountTargets: ['10.10.1.4'],
    exportPath: '/eda-tools',
  };

  it.each(['fstab', 'command', 'systemd'] as const)('--style %s prints the core recommendation', (style) => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'infra/eda.anf.yaml': MANIFEST });
    const result = run(['mount', 'eda-tools', '--manifest', 'infra/eda.anf.yaml', '--style', style], { cwd: dir });
    expect(result.stderr).toContain('# eda-prod/eda-premium/eda-tools (infra/eda.anf.yaml:8), workload eda-tools');
    expect(result.code).toBe(0);
    const expected = recommendedMountText(volume, style).text;
    expect(result.stdout).toBe(expected.endsWith('\n') ? expected : `${expected}\n`);
  });

  it('finds the manifest under the current folder, defaults to fstab, and names what is wrong', () => {
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'infra/eda.anf.yaml': MANIFEST });
    expect(run(['mount', 'eda-prod/eda-premium/eda-tools'], { cwd: dir }).stdout).toMatch(
      /^10\.10\.1\.4:\/eda-tools \/mnt\/eda-tools nfs rw,vers=3,/,
    );
    const missing = run(['mount', 'nope'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no volume "nope"');
    expect(missing.stderr).toContain('eda-prod/eda-premium/eda-tools');
    expect(run(['mount', 'eda-tools', '--style', 'toml'], { cwd: dir }).stderr).toContain(
      '--style: "toml" is not a style',
    );
    expect(run(['mount'], { cwd: dir }).code).toBe(2);
    expect(run(['mount', 'eda-tools', '--manifest', 'gone.anf.yaml'], { cwd: dir }).stderr).toContain(
      '--manifest: cannot read gone.anf.yaml',
    );
  });

  it('reads the whole estate, infrastructure code too, and lists each candidate of an ambiguous name once with its file and line', () => {
    const dir = tempProject({});
    copyInto(dir, 'examples/eda', '.');
    // The same volume is written three times (manifest, Terraform, Bicep): three candidates, each once.
    const ambiguous = run(['mount', 'eda-tools'], { cwd: dir });
    expect(ambiguous.code).toBe(2);
    expect(ambiguous.stderr).toBe(
      [
        'anf-lint: mount: "eda-tools" names 3 volumes:',
        '  eda-prod/eda-premium/eda-tools (bicep/main.bicep:31, bicep)',
        '  eda-prod/eda-premium/eda-tools (eda.anf.yaml:19, manifest)',
        '  eda-prod/eda-premium/eda-tools (terraform/main.tf:36, terraform)',
        'write pool/volume or account/pool/volume, or name the file with --manifest FILE',
        '',
      ].join('\n'),
    );
    // Terraform alone, as the editor reads it.
    const terraform = run(['mount', 'eda-tools', '--manifest', 'terraform/main.tf'], { cwd: dir });
    expect(terraform.code).toBe(0);
    expect(terraform.stdout).toMatch(/^<mount-target-ip>:\/eda-tools \/mnt\/eda-tools nfs rw,vers=3,hard,/);
    expect(terraform.stderr).toContain('# eda-prod/eda-premium/eda-tools (terraform/main.tf:36), workload eda-tools');
    const tfOnly = tempProject({});
    copyInto(tfOnly, 'examples/eda/terraform', 'infra');
    expect(run(['mount', 'eda-home'], { cwd: tfOnly }).stdout).toMatch(/:\/eda-home \/mnt\/eda-home nfs /);
  });
});

describe('anf-lint explain and rules', () => {
  it('explain prints the rule page, the same text as docs/rules', () => {
    const dir = tempProject({});
    const result = run(['explain', 'anf001'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(renderRuleDoc(ALL_RULES.find((r) => r.code === 'ANF001')!));
    const unknown = run(['explain', 'ANF0001'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('anf-lint has no rule "ANF0001"; did you mean ANF001?');
  });

  it('rules lists every rule with code, default severity, fix and title', () => {
    const dir = tempProject({});
    const text = run(['rules'], { cwd: dir });
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Code +Severity +Fixable +Title$/);
    expect(lines).toHaveLength(ALL_RULES.length + 1);
    expect(lines.find((l) => l.startsWith('ANF001'))).toMatch(
      /^ANF001 +warning +safe +Suppression comment that silences nothing$/,
    );
    expect(lines.find((l) => l.startsWith('ANF240'))).toMatch(
      /^ANF240 +error +safe,unsafe +File system type written inside the option list$/,
    );
    expect(lines.find((l) => l.startsWith('ANF207'))).toMatch(/^ANF207 +\w+ +unsafe +/);
    expect(lines.find((l) => l.startsWith('ANF002'))).toMatch(/^ANF002 +\w+ +no +/);
    const json = JSON.parse(run(['rules', '--format', 'json'], { cwd: dir }).stdout) as {
      code: string;
      fixable: boolean;
      fixes: string[];
    }[];
    expect(json.map((r) => r.code)).toEqual(ALL_RULES.map((r) => r.code));
    expect(json.find((r) => r.code === 'ANF240')).toMatchObject({ fixable: true, fixes: ['safe', 'unsafe'] });
    expect(json.find((r) => r.code === 'ANF002')).toMatchObject({ fixable: false, fixes: [] });
  });
});

describe('anf-lint lsp --stdio', () => {
  it('starts the language server and answers initialize', async () => {
    const child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { env: baseEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { processId: null, rootUri: null, capabilities: {} },
    });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const response = await new Promise<{ id: number; result: { capabilities: Record<string, unknown> } }>(
      (resolve, reject) => {
        let buffer = '';
        const timer = setTimeout(() => reject(new Error(`no answer; stderr: ${stderr}`)), 20_000);
        let stderr = '';
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.stdout.on('data', (chunk) => {
          buffer += chunk;
          const match = /Content-Length: (\d+)\r\n\r\n/.exec(buffer);
          if (!match) return;
          const start = match.index + match[0].length;
          const payload = Buffer.from(buffer.slice(start));
          if (payload.length < Number(match[1])) return;
          clearTimeout(timer);
          resolve(JSON.parse(payload.subarray(0, Number(match[1])).toString()));
        });
      },
    );
    child.kill();
    expect(response.id).toBe(1);
    expect(response.result.capabilities).toBeTypeOf('object');
  });
});
