/**
 * How many findings one file reports at most: the first ones of each rule by position, and in all.
 * Reports stay readable and bounded (a generated file can have a finding on every one of a million
 * lines); the counts of what is left out stay exact (`OmittedFindings`).
 */
export interface FindingLimits {
  readonly perRule: number;
  readonly perFile: number;
}

export const DEFAULT_FINDING_LIMITS: FindingLimits = {
  perRule: 100, // anf-lint's own bound on one rule's findings in one file
  perFile: 1000, // anf-lint's own bound on one file's findings
};

/** Every finding (`--all-findings`, and the fix engine, which must see every fix). */
export const NO_FINDING_LIMITS: FindingLimits = {
  perRule: Number.POSITIVE_INFINITY,
  perFile: Number.POSITIVE_INFINITY,
};

export type { OmittedFindings } from '../diagnostics';
