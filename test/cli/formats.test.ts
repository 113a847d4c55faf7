import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv-draft-04';
import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty } from '../../server/src/cli/format/github';
import { ALL_RULES, ruleDocUrl } from '../../server/src/core';
import { CONFIG_UNKNOWN_REGION, FSTAB_UNUSED_SUPPRESSION, GOOD_CONFIG, git, run, tempProject } from './helpers';

const files = {
  '.anf-lint.yaml': GOOD_CONFIG,
  'etc/fstab': FSTAB_UNUSED_SUPPRESSION,
  // One suppressed finding (SARIF lists it under `suppressions`) and one invalid value (an error).
  'team/.anf-lint.yaml': `# anf-lint disable-next-line ANF904 -- prices come later\n${CONFIG_UNKNOWN_REGION}workload: eda-tool\n`,
};

describe('output formats', () => {
  it('text: no colors when stdout is not a TTY, colors with FORCE_COLOR, none with NO_COLOR', () => {
    const dir = tempProject(files);
    const plain = run([], { cwd: dir });
    expect(plain.stdout).not.toContain('\u001b[');
    expect(plain.stdout).toMatch(
      /team\/\.anf-lint\.yaml:3:11 {2}error {2}workload: "eda-tool" is not allowed; .* \(did you mean eda-tools\?\)\. {2}ANF902/,
    );
    expect(plain.stdout).toMatch(/2 problems \(1 error, 1 warning\) in 2 files; 3 files checked\./);
    const forced = run([], { cwd: dir, env: { FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[31m');
    const noColor = run([], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(noColor.stdout).not.toContain('\u001b[');
    expect(run([], { cwd: dir, env: { FORCE_COLOR: '0' } }).stdout).not.toContain('\u001b[');
  });

  it('json: one object per file, 1-based positions, the documented keys only', () => {
    const dir = tempProject(files);
    const result = run(['--format', 'json'], { cwd: dir });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report).toEqual([
      { file: '.anf-lint.yaml', kind: 'anf-lint-config', diagnostics: [] },
      {
        file: 'etc/fstab',
        kind: 'fstab',
        diagnostics: [
          {
            code: 'ANF001',
            severity: 'warning',
            message: expect.stringContaining('ANF999'),
            line: 1,
            column: 1,
            endLine: 1,
            endColumn: 45,
            fixable: true,
          },
        ],
      },
      {
        file: 'team/.anf-lint.yaml',
        kind: 'anf-lint-config',
        diagnostics: [
          {
            code: 'ANF902',
            severity: 'error',
            message: expect.any(String),
            line: 3,
            column: 11,
            endLine: 3,
            endColumn: 19,
            fixable: false,
          },
        ],
      },
    ]);
  });

  it('sarif: valid SARIF 2.1.0 with rules, helpUri, repo-relative URIs, fingerprints and suppressions', () => {
    const dir = tempProject(files, { git: true });
    const result = run(['--format', 'sarif', 'team', 'etc'], { cwd: join(dir, '.') });
    expect(result.code).toBe(1);
    const sarif = JSON.parse(result.stdout);
    const schema = JSON.parse(readFileSync(join(__dirname, 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, unicodeRegExp: false });
    const validate = ajv.compile(schema);
    expect(validate(sarif), JSON.stringify(validate.errors, null, 2)).toBe(true);
    // The schema does reject a broken log.
    expect(validate({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);

    expect(sarif.version).toBe('2.1.0');
    const run0 = sarif.runs[0];
    expect(run0.tool.driver.name).toBe('anf-lint');
    expect(run0.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(ALL_RULES.map((r) => r.code));
    const anf001 = run0.tool.driver.rules.find((r: { id: string }) => r.id === 'ANF001');
    expect(anf001).toMatchObject({
      helpUri: ruleDocUrl('ANF001'),
      shortDescription: { text: expect.any(String) },
      fullDescription: { text: expect.any(String) },
      defaultConfiguration: { level: 'warning' },
    });

    const results = run0.results as {
      ruleId: string;
      ruleIndex: number;
      level: string;
      locations: {
        physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number } };
      }[];
      partialFingerprints: Record<string, string>;
      suppressions?: { kind: string; justification?: string }[];
    }[];
    expect(
      results.map((r) => [
        r.ruleId,
        r.level,
        r.locations[0]!.physicalLocation.artifactLocation.uri,
        r.locations[0]!.physicalLocation.region.startLine,
      ]),
    ).toEqual([
      ['ANF001', 'warning', 'etc/fstab', 1],
      ['ANF904', 'warning', 'team/.anf-lint.yaml', 2],
      ['ANF902', 'error', 'team/.anf-lint.yaml', 3],
    ]);
    for (const r of results) {
      expect(run0.tool.driver.rules[r.ruleIndex].id).toBe(r.ruleId);
      expect(r.locations[0]!.physicalLocation.artifactLocation.uriBaseId).toBe('%SRCROOT%');
      expect(Object.values(r.partialFingerprints)[0]).toMatch(/^[0-9a-f]{64}$/);
    }
    expect(results[1]!.suppressions).toEqual([{ kind: 'inSource', justification: 'prices come later' }]);
    expect(results[0]!.suppressions).toBeUndefined();
    expect(run0.originalUriBaseIds['%SRCROOT%'].uri).toMatch(/^file:\/\/.*\/$/);
    expect(run0.invocations).toEqual([{ executionSuccessful: true, toolExecutionNotifications: [] }]);
  });

  it('sarif: a file that cannot be read is a tool execution notification, and the run still validates', () => {
    const dir = tempProject(files, { git: true });
    const result = run(['--format', 'sarif', 'etc', 'missing.fstab'], { cwd: dir });
    expect(result.code).toBe(2);
    const sarif = JSON.parse(result.stdout);
    const schema = JSON.parse(readFileSync(join(__dirname, 'schemas', 'sarif-2.1.0-rtm.5.json'), 'utf8'));
    expect(new Ajv({ strict: false, validateFormats: false, unicodeRegExp: false }).compile(schema)(sarif)).toBe(true);
    expect(sarif.runs[0].invocations[0]).toEqual({
      executionSuccessful: false,
      toolExecutionNotifications: [{ level: 'error', message: { text: 'missing.fstab: no such file or folder' } }],
    });
    expect(sarif.runs[0].results).toHaveLength(1);
  });

  it('sarif: URIs stay relative to the repository root when run from a subfolder', () => {
    const dir = tempProject(files, { git: true });
    const result = run(['--format', 'sarif', '.'], { cwd: join(dir, 'etc') });
    const uris = JSON.parse(result.stdout).runs[0].results.map(
      (r: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
        r.locations[0]!.physicalLocation.artifactLocation.uri,
    );
    expect(uris).toEqual(['etc/fstab']);
    expect(git(dir, 'status', '--porcelain')).toContain('etc/');
  });

  it('github: workflow commands, chosen by default when GITHUB_ACTIONS=true', () => {
    const dir = tempProject(files);
    const explicit = run(['--format', 'github'], { cwd: dir });
    const lines = explicit.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^::warning file=etc\/fstab,line=1,col=1,endLine=1,endColumn=45,title=ANF001::This suppression of ANF999 silences nothing/,
    );
    expect(lines[1]).toMatch(
      /^::error file=team\/\.anf-lint\.yaml,line=3,col=11,endLine=3,endColumn=19,title=ANF902::workload: "eda-tool" is not allowed/,
    );
    const byDefault = run([], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } });
    expect(byDefault.stdout).toBe(explicit.stdout);
    expect(byDefault.code).toBe(1);
    // An explicit format wins.
    expect(run(['-f', 'json'], { cwd: dir, env: { GITHUB_ACTIONS: 'true' } }).stdout.startsWith('[')).toBe(true);
  });

  it('github: escapes messages and properties as the runner expects', () => {
    expect(escapeData('50% of a\r\nline: a, b')).toBe('50%25 of a%0D%0Aline: a, b');
    expect(escapeProperty('dir,with:odd%name\n')).toBe('dir%2Cwith%3Aodd%25name%0A');
    const dir = tempProject({ '.anf-lint.yaml': GOOD_CONFIG, 'odd,name:dir/etc/fstab': FSTAB_UNUSED_SUPPRESSION });
    const result = run(['--format', 'github'], { cwd: dir });
    expect(result.stdout).toMatch(/^::warning file=odd%2Cname%3Adir\/etc\/fstab,line=1,/);
  });
});
