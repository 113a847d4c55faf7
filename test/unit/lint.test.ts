import { describe, expect, it } from 'vitest';
import { defineRule, lintFile, resolveConfig, visibleDiagnostics, Workspace, type Rule } from '../../server/src/core';

const URI = 'file:///repo/etc/fstab';
const TEXT = '# comment\n10.0.0.4:/vol1 /mnt/vol1 nfs hard 0 0\n';

function ruleReportingLine2(code: string, overrides: Partial<Rule> = {}): Rule {
  return defineRule({
    code,
    name: 'test-rule',
    domain: 'mount',
    defaultSeverity: 'warning',
    fixes: [],
    doc: { title: 't', what: 'w', why: 'y', instead: 'i' },
    appliesTo: () => true,
    check: (context) => context.report({ span: { start: 10, end: 24 }, message: 'found it' }),
    ...overrides,
  });
}

describe('lint engine', () => {
  it('places findings at line and character, with the rule code and default severity', () => {
    const workspace = new Workspace();
    workspace.set(URI, TEXT);
    const [diagnostic] = lintFile(workspace, URI, resolveConfig(), { rules: [ruleReportingLine2('ANF900')] });
    expect(diagnostic).toMatchObject({
      code: 'ANF900',
      severity: 'warning',
      message: 'found it',
      range: { start: { line: 1, character: 0 }, end: { line: 1, character: 14 } },
    });
  });

  it('applies severity overrides and turns rules off', () => {
    const workspace = new Workspace();
    workspace.set(URI, TEXT);
    const rules = [ruleReportingLine2('ANF900')];
    expect(lintFile(workspace, URI, resolveConfig({ rules: { ANF900: 'error' } }), { rules })[0]?.severity).toBe(
      'error',
    );
    expect(lintFile(workspace, URI, resolveConfig({ rules: { ANF900: 'off' } }), { rules })).toEqual([]);
  });

  it('contains a rule that throws: reports ANF002 once and runs the others', () => {
    const workspace = new Workspace();
    workspace.set(URI, TEXT);
    const failing = ruleReportingLine2('ANF901', {
      check: () => {
        throw new Error('boom');
      },
    });
    const errors: string[] = [];
    const diagnostics = lintFile(workspace, URI, resolveConfig(), {
      rules: [failing, ruleReportingLine2('ANF900')],
      onRuleError: (rule) => errors.push(rule.code),
    });
    expect(diagnostics.map((d) => d.code).sort()).toEqual(['ANF002', 'ANF900']);
    expect(diagnostics.find((d) => d.code === 'ANF002')?.message).toMatch(/ANF901.*boom/);
    expect(errors).toEqual(['ANF901']);
  });

  it('honours suppression comments and keeps the suppressed finding, marked, for SARIF', () => {
    const workspace = new Workspace();
    workspace.set(URI, `# anf-lint disable-next-line ANF900 -- known\n${TEXT.split('\n')[1]}\n`);
    const shifted = ruleReportingLine2('ANF900', {
      check: (c) => c.report({ span: { start: 45, end: 50 }, message: 'found it' }),
    });
    const diagnostics = lintFile(workspace, URI, resolveConfig(), { rules: [shifted] });
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.suppressed).toEqual({ reason: 'known' });
    expect(visibleDiagnostics(diagnostics)).toEqual([]);
  });

  it('returns nothing for a document it does not know', () => {
    expect(lintFile(new Workspace(), 'file:///nowhere', resolveConfig())).toEqual([]);
  });
});
