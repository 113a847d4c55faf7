import { formatNumber } from '../../units/units';
import { DEFAULT_FINDING_LIMITS } from '../findingLimits';
import { reportedByEngine } from './reportedByEngine';

/**
 * Reported by the engine (lint.ts) when a file has more findings than a report can usefully show:
 * the first ones of each rule are kept and this one finding counts the rest.
 */
export const findingsNotShown = reportedByEngine({
  code: 'ANF010',
  name: 'findings-not-shown',
  defaultSeverity: 'info',
  fixes: [],
  doc: {
    title: 'More findings in this file than a report shows',
    what: `A file produced more findings of one rule, or more findings in all, than anf-lint lists for one file (${formatNumber(DEFAULT_FINDING_LIMITS.perRule, 0)} of a rule and ${formatNumber(DEFAULT_FINDING_LIMITS.perFile, 0)} in all by default). The first ones by position are listed; this finding, on the first line, says how many more there are and of which rules.`,
    why: 'A generated or damaged file can produce a finding on every one of a million lines. Listing them all makes reports of gigabytes that no one reads, and an editor that receives them stops responding. The counts stay exact: the summary line and the exit code include the findings that are not listed.',
    instead:
      "Fix the first findings (often one mistake repeated by a generator), or run `anf-lint --all-findings` to list every finding. These limits are anf-lint's own choice, not a vendor's number.",
  },
});
