import { describe, expect, it } from 'vitest';
import {
  ALL_RULES,
  lintFile,
  parseConfigFile,
  resolveConfig,
  visibleDiagnostics,
  Workspace,
  type Rule,
  type RuleExample,
} from '../../server/src/core';

/**
 * Every rule's page shows a flagged example and a better one (docs/rules/ANFnnn.md). As hadolint's
 * `ruleCatches` / `ruleCatchesNot`, each is linted here alone, as the complete file it is, with the
 * context files it declares beside it (a manifest, the host's fstab, `.anf-lint.yaml`): the flagged
 * text must give the rule's finding, the better text none of the rule's findings. So a page can
 * never show an example the rule does not agree with, nor one that needs words in a comment to work.
 */

/** Rules whose page has no example, with why: each other rule must have one. */
const WITHOUT_EXAMPLES: Readonly<Record<string, string>> = {
  ANF002: 'a reader failure (a parser that threw): no text written on purpose gives it',
  ANF003: 'a reader failure (a grammar that could not load): no text gives it',
  ANF010: 'findings left out past the per-file limits: an example would be thousands of lines',
  ANF011: 'a file too large to lint: an example would be megabytes',
  ANF113: 'a manifest that is not YAML or JSON at all: ANF100 shows the syntax errors',
};

/** Where an example is linted when it does not say (`RuleExample.file`). */
function fileOf(rule: Rule, example: RuleExample): string {
  if (example.file) return example.file;
  if (rule.domain === 'manifest') return example.language === 'json' ? 'example.anf.json' : 'example.anf.yaml';
  if (rule.domain === 'config') return '.anf-lint.yaml';
  const byLanguage: Readonly<Record<string, string>> = {
    fstab: 'etc/fstab',
    sh: 'mount.sh',
    hcl: 'main.tf',
    bicep: 'main.bicep',
  };
  const file = byLanguage[example.language ?? ''];
  if (!file) throw new Error(`${rule.code}: an example in ${example.language ?? 'no language'} must name its file`);
  return file;
}

const ROOT = 'file:///docs/example/';
/** `/etc/fstab` and `etc/fstab` alike: every file of an example sits under one folder, as on one host. */
const uriOf = (path: string) => `${ROOT}${path.replace(/^\//, '')}`;

/** The codes of every visible finding in the example's own file. */
function codesOf(rule: Rule, example: RuleExample, text: string): string[] {
  const configText = example.context?.find((c) => c.path === '.anf-lint.yaml')?.text;
  const config = resolveConfig(configText === undefined ? {} : parseConfigFile(configText).config);
  const workspace = new Workspace(config);
  for (const context of example.context ?? []) workspace.set(uriOf(context.path), context.text);
  const uri = uriOf(fileOf(rule, example));
  workspace.set(uri, text);
  return visibleDiagnostics(lintFile(workspace, uri, config)).map((d) => d.code);
}

const examples = ALL_RULES.flatMap((rule) =>
  (rule.doc.examples ?? []).map((example, index) => [`${rule.code} example ${index + 1}`, rule, example] as const),
);

describe('rule examples', () => {
  it('every rule has an example, or a reason in WITHOUT_EXAMPLES', () => {
    const without = ALL_RULES.filter((r) => (r.doc.examples ?? []).length === 0 && !(r.code in WITHOUT_EXAMPLES)).map(
      (r) => r.code,
    );
    expect(without).toEqual([]);
    // A listed rule that gained an example leaves the list.
    const listedWith = ALL_RULES.filter((r) => (r.doc.examples ?? []).length > 0 && r.code in WITHOUT_EXAMPLES).map(
      (r) => r.code,
    );
    expect(listedWith).toEqual([]);
  });

  it.each(examples)('%s: flagged gives the finding, better none', (_name, rule, example) => {
    expect(codesOf(rule, example, example.flagged), `flagged example of ${rule.code}`).toContain(rule.code);
    expect(codesOf(rule, example, example.better), `better example of ${rule.code}`).not.toContain(rule.code);
  });
});
