import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FINDING_LIMITS,
  defineRule,
  lintFile,
  NO_FINDING_LIMITS,
  omittedFindings,
  resolveConfig,
  SourceText,
  visibleDiagnostics,
  Workspace,
  type Rule,
} from '../../server/src/core';
import { formatDiagnosticLines, formatText } from '../../server/src/cli/format/text';
import { createColors } from '../../server/src/cli/color';
import { findingsExceed, type FileResult } from '../../server/src/cli/lint';

/** Issue 18, item 5: a report grows with the number of findings it lists, and that number is bounded. */

const URI = 'file:///repo/etc/sysctl.d/90-generated.conf';

/** One finding per line, like a generator's mistake repeated on every line. */
function everyLine(code: string, severity: 'warning' | 'error' = 'warning'): Rule {
  return defineRule({
    code,
    name: 'every-line',
    domain: 'sysctl',
    defaultSeverity: severity,
    fixes: [],
    doc: { title: 't', what: 'w', why: 'y', instead: 'i' },
    appliesTo: () => true,
    check(context) {
      const source = context.file.source;
      for (let line = 0; line < source.lineCount - 1; line++)
        context.report({
          span: { start: source.lineStart(line), end: source.lineEnd(line) },
          message: `line ${line + 1}`,
        });
    },
  });
}

function workspaceWithLines(count: number): Workspace {
  const workspace = new Workspace();
  workspace.set(URI, 'net.core.rmem_max = 16777216\n'.repeat(count));
  return workspace;
}

describe('finding limits', () => {
  it('lists the first findings of a rule by position and counts the rest in one ANF010', () => {
    const lines = DEFAULT_FINDING_LIMITS.perRule * 3;
    const diagnostics = visibleDiagnostics(
      lintFile(workspaceWithLines(lines), URI, resolveConfig(), { rules: [everyLine('ANF950')] }),
    );
    const listed = diagnostics.filter((d) => d.code === 'ANF950');
    expect(listed).toHaveLength(DEFAULT_FINDING_LIMITS.perRule);
    expect(listed[0]!.range.start.line).toBe(0);
    const notShown = diagnostics.filter((d) => d.code === 'ANF010');
    expect(notShown).toHaveLength(1);
    expect(notShown[0]!.range.start.line).toBe(0);
    expect(notShown[0]!.message).toContain(
      `ANF950: ${(lines - DEFAULT_FINDING_LIMITS.perRule).toLocaleString('en-US')}`,
    );
    expect(omittedFindings(diagnostics)).toEqual({
      total: lines - DEFAULT_FINDING_LIMITS.perRule,
      bySeverity: { error: 0, warning: lines - DEFAULT_FINDING_LIMITS.perRule, info: 0, hint: 0 },
      byCode: { ANF950: lines - DEFAULT_FINDING_LIMITS.perRule },
    });
  });

  it('bounds a file across rules, keeping the first findings by position', () => {
    const rules = Array.from({ length: 12 }, (_, i) => everyLine(`ANF9${60 + i}`));
    const diagnostics = visibleDiagnostics(
      lintFile(workspaceWithLines(DEFAULT_FINDING_LIMITS.perRule), URI, resolveConfig(), { rules }),
    );
    const listed = diagnostics.filter((d) => d.code !== 'ANF010');
    expect(listed).toHaveLength(DEFAULT_FINDING_LIMITS.perFile);
    expect(Math.max(...listed.map((d) => d.range.start.line))).toBeLessThan(DEFAULT_FINDING_LIMITS.perRule);
    expect(omittedFindings(diagnostics)?.total).toBe(
      rules.length * DEFAULT_FINDING_LIMITS.perRule - DEFAULT_FINDING_LIMITS.perFile,
    );
  });

  it('lists everything with NO_FINDING_LIMITS (--all-findings and the fix engine)', () => {
    const lines = DEFAULT_FINDING_LIMITS.perRule * 2;
    const diagnostics = lintFile(workspaceWithLines(lines), URI, resolveConfig(), {
      rules: [everyLine('ANF950')],
      limits: NO_FINDING_LIMITS,
    });
    expect(diagnostics.filter((d) => d.code === 'ANF950')).toHaveLength(lines);
    expect(diagnostics.some((d) => d.code === 'ANF010')).toBe(false);
  });

  it('does not count suppressed findings against the limit', () => {
    const workspace = new Workspace();
    const text = `# anf-lint disable-file ANF951 -- generated\n${'net.core.rmem_max = 16777216\n'.repeat(DEFAULT_FINDING_LIMITS.perRule * 2)}`;
    workspace.set(URI, text);
    const diagnostics = lintFile(workspace, URI, resolveConfig(), { rules: [everyLine('ANF951')] });
    expect(visibleDiagnostics(diagnostics)).toEqual([]);
    expect(omittedFindings(diagnostics)).toBeUndefined();
  });

  it('keeps the counts in the summary line and the exit code', () => {
    const lines = DEFAULT_FINDING_LIMITS.perRule + 50;
    const workspace = workspaceWithLines(lines);
    const diagnostics = lintFile(workspace, URI, resolveConfig(), { rules: [everyLine('ANF950')] });
    const result: FileResult = {
      path: '/repo/x',
      uri: URI,
      displayPath: 'x.conf',
      repoPath: 'x.conf',
      kind: 'sysctl',
      text: workspace.file(URI)!.source.text,
      diagnostics,
      volumes: [],
    };
    const text = formatText([result], createColors(false), { filesChecked: 1 });
    expect(text).toContain(`${lines + 1} problems (${lines} warnings, 1 info)`);
    // --max-warnings counts the findings that are not listed too.
    expect(findingsExceed([result], 'error', DEFAULT_FINDING_LIMITS.perRule + 10)).toBe(true);
    expect(findingsExceed([result], 'error', lines)).toBe(false);
  });
});

describe('long source lines in the text report', () => {
  it('shows a window around the finding instead of the whole line', () => {
    const options = Array.from({ length: 5000 }, (_, i) => `bad${i}`).join(',');
    const line = `10.0.0.4:/vol /mnt/vol nfs ${options} 0 0`;
    const source = new SourceText(`${line}\n`);
    const at = line.indexOf('bad2500');
    const diagnostic = {
      uri: URI,
      code: 'ANF202',
      severity: 'error' as const,
      message: 'unknown option',
      span: { start: at, end: at + 7 },
      range: source.rangeOf({ start: at, end: at + 7 }),
      fixes: [],
      related: [],
      tags: [],
    };
    const [, shown, marker] = formatDiagnosticLines('etc/fstab', source, diagnostic, createColors(false));
    expect(shown!.length).toBeLessThan(200);
    expect(shown).toContain('bad2500');
    expect(shown).toMatch(/^ {2}1 \| …bad\d+,.*…$/);
    // The marker sits under the option it is about.
    expect(shown!.slice(marker!.indexOf('^'), marker!.indexOf('^') + 7)).toBe('bad2500');
  });

  it('shows a short line whole', () => {
    const line = '10.0.0.4:/vol /mnt/vol nfs soft 0 0';
    const source = new SourceText(`${line}\n`);
    const at = line.indexOf('soft');
    const diagnostic = {
      uri: URI,
      code: 'ANF207',
      severity: 'warning' as const,
      message: 'soft',
      span: { start: at, end: at + 4 },
      range: source.rangeOf({ start: at, end: at + 4 }),
      fixes: [],
      related: [],
      tags: [],
    };
    const [, shown, marker] = formatDiagnosticLines('etc/fstab', source, diagnostic, createColors(false));
    expect(shown).toBe(`  1 | ${line}`);
    expect(marker).toBe(`    | ${' '.repeat(at)}^^^^`);
  });
});
