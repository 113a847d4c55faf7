import { manifestRules } from './manifest/rules';
import { mountRules } from './mounts/rules';
import { kernelRules } from './sysctl/rules';
import { configRules } from './config/rules';
import { iacRules } from './iac/rules';
import { perftestRules } from './perftest/rules';
import { mountstatsRules } from './mountstats/rules';
import { generalRules } from './rules/general';
import type { Rule } from './rules/rule';

/*
 * The rule registry sits above every rule (and below only the engine, lint.ts, and the editor
 * features): the readers never import it. The configuration reader learns the rule codes from
 * rules/catalog.generated.ts, which `npm run generate` writes from this list.
 */

/** Every rule anf-lint has, in code order. */
export const ALL_RULES: readonly Rule[] = [
  ...generalRules,
  ...manifestRules,
  ...mountRules,
  ...kernelRules,
  ...iacRules,
  ...perftestRules,
  ...mountstatsRules,
  ...configRules,
].sort((a, b) =>
  // Code units, not localeCompare: the same order for ANF and three digits, without loading ICU at start-up (issue 17).
  a.code < b.code ? -1 : a.code > b.code ? 1 : 0,
);

const BY_CODE = new Map(ALL_RULES.map((rule) => [rule.code, rule]));

export function ruleByCode(code: string): Rule | undefined {
  return BY_CODE.get(code.toUpperCase());
}

/** Where each rule's page is published; the LSP's codeDescription and SARIF's helpUri use it. */
export const RULE_DOCS_BASE_URL = 'https://github.com/anf-lint/anf-lint/blob/main/docs/rules/';

export function ruleDocUrl(code: string): string {
  return `${RULE_DOCS_BASE_URL}${code}.md`;
}
