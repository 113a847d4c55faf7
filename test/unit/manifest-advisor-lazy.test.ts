/**
 * ANF116 works out its remedy (the raise fix and the sizing advisor's option) only for the findings
 * a report lists, and remembers the advisor's answers across edits: what it lists must be exactly
 * what it lists when every finding is worked out, and an edit must be reflected, not remembered.
 */
import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, Workspace, type Diagnostic } from '../../server/src/core';
import { NO_FINDING_LIMITS } from '../../server/src/core/rules/findingLimits';
import { manifest as generatedManifest } from '../../bench/generate.mjs';

const config = resolveConfig();
const URI = 'file:///repo/manifest/estate.anf.yaml';

function lint(text: string, all = false): Diagnostic[] {
  const workspace = new Workspace(config);
  workspace.set(URI, text);
  return lintFile(workspace, URI, config, all ? { limits: NO_FINDING_LIMITS } : {});
}

const anf116 = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((d) => d.code === 'ANF116');

describe('ANF116 remedies are worked out for listed findings only', () => {
  const text = generatedManifest(400, 25, 7);

  it('lists the first findings with the same messages and fixes as a report of every finding', () => {
    const listed = anf116(lint(text));
    const every = anf116(lint(text, true));
    expect(every.length).toBeGreaterThan(listed.length);
    expect(listed.length).toBe(100); // the per-rule limit; the rest are counted in ANF010
    const bySpan = new Map(every.map((d) => [d.span.start, d]));
    for (const d of listed) {
      const same = bySpan.get(d.span.start)!;
      expect(d.message).toBe(same.message);
      expect(d.fixes).toEqual(same.fixes);
    }
    expect(listed.some((d) => d.message.includes('cheapest by the sizing advisor'))).toBe(true);
  });

  it('an edited requirement gets a new remedy, not a remembered one', () => {
    const before = anf116(lint(text, true));
    // A finding on a stated throughput: write a bigger one there.
    const target = before.find((d) => /^\d+ MiB\/s$/.test(text.slice(d.span.start, d.span.end)))!;
    const edited = `${text.slice(0, target.span.start)}3000 MiB/s${text.slice(target.span.end)}`;
    const after = anf116(lint(edited, true)).find((d) => d.span.start === target.span.start)!;
    expect(after.message).not.toBe(target.message);
    expect(after.message).toContain('3,000 MiB/s');
    // And back: the original answer again.
    expect(anf116(lint(text, true)).find((d) => d.span.start === target.span.start)!.message).toBe(target.message);
  });

  it('an incremental edit reuses the remedies of volumes it did not touch, and reworks those of the edited pool', () => {
    // As the language server reads typing: one workspace, each version read from the one before.
    const workspace = new Workspace(config);
    workspace.set(URI, text, 1);
    const first = anf116(lintFile(workspace, URI, config));
    // Grow the quota of a volume with a finding, in the second half of the listed ones: the
    // findings before it are kept objects (remembered remedies), those of its pool are read again.
    const target = first[60]!;
    const quota = /quota: (\d+) TiB/g;
    quota.lastIndex = target.span.start - 400;
    let match: RegExpExecArray | null;
    let last: RegExpExecArray | undefined;
    while ((match = quota.exec(text)) && match.index < target.span.start) last = match;
    const at = last!.index + 'quota: '.length;
    const edited = `${text.slice(0, at)}9${text.slice(at)}`;
    workspace.set(URI, edited, 2);
    const incremental = lintFile(workspace, URI, config);
    expect(incremental).toEqual(lint(edited));
    // Undone: back to the first version's objects, every remedy remembered.
    workspace.set(URI, text, 3);
    expect(lintFile(workspace, URI, config)).toEqual(lint(text));
  });

  it('an edit before a pool moves the remedies of its volumes with it (fixes where the text now is)', () => {
    const workspace = new Workspace(config);
    workspace.set(URI, text, 1);
    lintFile(workspace, URI, config);
    // Type into the first volume's name, then again, then undo both: every later pool moves.
    const at = text.indexOf('- name: vol-0-0') + '- name: vol-0-0'.length;
    const versions = [
      `${text.slice(0, at)}x${text.slice(at)}`,
      `${text.slice(0, at)}xy${text.slice(at)}`,
      `${text.slice(0, at)}y${text.slice(at)}`,
      text,
    ];
    versions.forEach((version, index) => {
      workspace.set(URI, version, index + 2);
      const incremental = lintFile(workspace, URI, config);
      expect(anf116(incremental).length).toBe(100);
      expect(incremental).toEqual(lint(version));
    });
  });
});
