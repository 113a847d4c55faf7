import { describe, expect, it } from 'vitest';
import { lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';
import { manifestRules } from '../../server/src/core/manifest/rules';

/**
 * Each manifest rule's page shows a flagged example and a better one (docs/rules/ANF1nn.md).
 * They are complete manifests, linted here: the flagged one must produce the rule, the better one
 * must not, so a page can never show an example the rule does not agree with.
 */
const config = resolveConfig();

function codesOf(text: string, language: string | undefined): string[] {
  const workspace = new Workspace(config);
  const uri = `file:///docs/example.anf.${language === 'json' ? 'json' : 'yaml'}`;
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config)).map((d) => d.code);
}

const examples = manifestRules.flatMap((rule) =>
  (rule.doc.examples ?? []).map((example, index) => [`${rule.code} example ${index + 1}`, rule.code, example] as const),
);

describe('manifest rule examples', () => {
  it('every manifest rule with a fix or a page example has at least one example', () => {
    const without = manifestRules
      .filter((r) => (r.doc.examples ?? []).length === 0 && r.code !== 'ANF113')
      .map((r) => r.code);
    expect(without).toEqual([]);
  });

  it.each(examples)('%s: flagged produces it, better does not', (_name, code, example) => {
    expect(codesOf(example.flagged, example.language), `flagged example of ${code}`).toContain(code);
    expect(codesOf(example.better, example.language), `better example of ${code}`).not.toContain(code);
  });
});
