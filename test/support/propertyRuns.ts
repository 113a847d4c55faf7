/**
 * How many runs a property test makes (issue 31: `test/unit` under 3 minutes on 2 cores).
 * - `npm test`: the quick run, `quick` runs from the fixed seed of test/setup/fastCheck.ts. Enough to
 *   exercise every branch the property's generators reach on each change, and the same draw each
 *   time, so a failure means the change.
 * - `npm run fuzz`: the long run, ROBUSTNESS_RUNS (1000 there) times `scale` runs from a fresh seed
 *   (FC_SEED=random). A failure prints its seed: `FC_SEED=<seed> ROBUSTNESS_RUNS=<n> npx vitest run <file>`
 *   replays it.
 */
export function propertyRuns(quick: number, scale = 1): number {
  const requested = process.env.ROBUSTNESS_RUNS;
  if (requested === undefined || requested === '') return quick;
  const runs = Number(requested);
  if (!Number.isFinite(runs) || runs < 1)
    throw new Error(`ROBUSTNESS_RUNS must be a positive number, not ${requested}`);
  return Math.max(1, Math.ceil(runs * scale));
}

/** `npm run fuzz` (ROBUSTNESS_RUNS set) rather than `npm test`. */
export const LONG_RUN = (process.env.ROBUSTNESS_RUNS ?? '') !== '';

/**
 * For a test that tries every place of a text (every offset, every line): the step between the
 * places it tries. `npm test` tries every `quick`-th place, a fixed subset (with a step coprime
 * with the test's own cycles, every kind of edit still lands everywhere in the text); `npm run fuzz`
 * tries every place.
 */
export function placeStep(quick: number): number {
  return LONG_RUN ? 1 : quick;
}

/** A test's own timeout: `quick` in `npm test`; in `npm run fuzz`, its long runs take the fuzz script's timeout. */
export function runTimeout(quickMs: number): number | undefined {
  return LONG_RUN ? undefined : quickMs;
}
