import type { Rule } from '../../rules/rule';
import { latencyFloor } from './ANF500-latency-floor';
import { bufferedCachedWorkingSet } from './ANF501-buffered-cached-working-set';
import { blockSizeSplit } from './ANF502-block-size-split';
import { fourCorners } from './ANF503-four-corners';
import { testExceedsCeiling } from './ANF504-test-exceeds-ceiling';
import { perftestSyntax } from './ANF505-perftest-syntax';

/** Rules for performance-test job files: fio and vdbench (ANF500-ANF505, issue 30; ANF506-ANF508 in mountstats/rules). */
export const perftestRules: readonly Rule[] = [
  latencyFloor,
  bufferedCachedWorkingSet,
  blockSizeSplit,
  fourCorners,
  testExceedsCeiling,
  perftestSyntax,
];
