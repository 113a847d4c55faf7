import { defineRule, type Rule, type RuleInfo } from '../rule';

/**
 * A general rule whose findings the engine, the report or the language server makes (a rule that
 * throws, a reader that fails, a report's limits, a document too large): declared for its code,
 * severity and page, it judges no file itself.
 */
export function reportedByEngine(rule: Omit<RuleInfo, 'domain' | 'appliesTo'>): Rule {
  return defineRule({ ...rule, domain: 'general', appliesTo: () => false, check: () => {} });
}
