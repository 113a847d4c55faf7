import { manifestExample, parseProblemRule } from './helpers';

export const invalidValue = parseProblemRule({
  code: 'ANF103',
  name: 'invalid-value',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Value of the wrong type or form',
    what: 'A value that is not what its key takes: a size without a unit (`quota: 4`), a word where a number belongs, a service level or workload that does not exist (`serviceLevel: premium`), a coolness period outside 2-183 days.',
    why: 'anf-lint never guesses a unit or a spelling: `4` could be 4 TiB or 4 GiB, a factor of 1,024 in capacity, throughput and cost. A value it cannot read is left out of every figure and check.',
    instead:
      'Write sizes and rates with their unit (`4 TiB`, `640 MiB/s`), durations with theirs (`1 ms`), and pick enum values from the list in the message (the fix applies the closest one).',
    examples: [
      manifestExample(
        '- name: tools-pool\n  serviceLevel: premium\n  size: 4',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB',
      ),
    ],
  },
});
