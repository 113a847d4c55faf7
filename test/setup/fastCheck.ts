/**
 * Property tests run from a fixed seed, so `npm test` (and CI) fails only on a change, never on
 * the luck of the draw. `npm run fuzz` explores: a fresh seed and many more runs per property.
 * A failure prints its seed; `FC_SEED=<seed> npx vitest run <file>` replays it.
 */
import fc from 'fast-check';

const FIXED_SEED = 20_261_121;

const requested = process.env.FC_SEED;
const seed =
  requested === 'random' ? Date.now() ^ (Math.random() * 0x7fffffff) : requested ? Number(requested) : FIXED_SEED;
if (!Number.isInteger(seed))
  throw new Error(`FC_SEED must be an integer or "random", not ${JSON.stringify(requested)}`);
if (requested === 'random') console.log(`fast-check seed: ${seed} (replay with FC_SEED=${seed})`);

fc.configureGlobal({ seed });
